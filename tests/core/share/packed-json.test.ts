import { describe, expect, it } from 'vitest';
import { encodeBase64Url } from '../../../src/core/share/base64url';
import { packJson, unpackJson } from '../../../src/core/share/packed-json';

describe('packJson / unpackJson', () => {
	it.each([
		['an object', { a: 1, b: ['x', null, true], c: { 'd é': 'ü 😀' } }],
		['a string', 'text with "quotes" and a\ttab'],
		['a number', 0.1],
		['an empty array', []],
	])('round-trips %s', (_label, value) => {
		const packed = packJson(value);
		expect(packed).toMatch(/^[A-Za-z0-9_-]*$/);
		expect(unpackJson(packed)).toEqual(value);
	});

	it.each([
		[
			'a cut-off link',
			(packed: string) => packed.slice(0, 4 * Math.floor((packed.length - 2) / 4) + 1),
			/cut off/,
		],
		[
			'a bad character',
			(packed: string) => `${packed.slice(0, 3)}!${packed.slice(4)}`,
			/bad character at 3/,
		],
		[
			'bytes that are not deflate data',
			() => encodeBase64Url(new Uint8Array([1, 2, 3])),
			/does not unpack/,
		],
	])('refuses %s with a message that says to copy the link again', (_label, damage, message) => {
		const packed = packJson({ suite: 'x'.repeat(200), n: [1, 2, 3] });
		expect(() => unpackJson(damage(packed))).toThrow(message);
		expect(() => unpackJson(damage(packed))).toThrow(/copy the whole link again/);
	});
});
