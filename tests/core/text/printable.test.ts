import { describe, expect, it } from 'vitest';
import { printable } from '../../../src/core/text/printable';

describe('printable', () => {
	it('escapes control characters, keeping line feeds, tabs and other text', () => {
		expect(printable('found \u0000\u0007\u001a\u001b[31mred\r')).toBe(
			'found \\u0000\\u0007\\u001a\\u001b[31mred\\u000d',
		);
		expect(printable('a\tb\nc – é ü 日本 \ufffd')).toBe('a\tb\nc – é ü 日本 \ufffd');
		expect(printable('\u007f\u0085\u009b')).toBe('\\u007f\\u0085\\u009b');
	});

	it('escapes the bidirectional controls that reorder what a terminal shows', () => {
		expect(printable('x\u202ey\u2066z\u200f')).toBe('x\\u202ey\\u2066z\\u200f');
	});
});
