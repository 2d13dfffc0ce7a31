// Upstream format_necessary: placeholders filled with Python str(), missing ones named.
import { describe, expect, it } from 'vitest';
import { formatNecessary } from '../../../../src/core/evals/shared/format-necessary';

describe('formatNecessary', () => {
	it('fills placeholders with str(value), keeps {{ }} as braces, ignores unused values', () => {
		expect(formatNecessary('{{x}} {a} and {b}{a}', { a: 'A', b: 2, unused: 'u' }, 'w')).toBe(
			'{x} A and 2A',
		);
	});

	it.each([
		['{missing}', /w: missing value for placeholder \{missing\}/u],
		['a } b', /Single '\}' encountered/u],
		['a { b', /Single '\{' encountered/u],
		['{x!r}', /conversion, format spec or index/u],
	])('%s is an error', (template, message) => {
		expect(() => formatNecessary(template, { x: 1 }, 'w')).toThrow(message);
	});
});
