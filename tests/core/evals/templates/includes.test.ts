// Rows E5–E7 of ../shared/docs/reference-evals-ltm.md §4.4: Includes' verdict (substring, optional
// lowercasing, an empty ideal always matches).
import { describe, expect, it } from 'vitest';
import { checkIncludes } from '../../../../src/core/evals/templates/includes';

describe('Includes (E5–E7)', () => {
	it.each([
		{ row: 'E5', completion: 'anything', ideals: [''], ignoreCase: false, correct: true },
		{
			row: 'E6',
			completion: 'the capital is paris',
			ideals: ['Paris'],
			ignoreCase: false,
			correct: false,
		},
		{
			row: 'E6 ignore_case',
			completion: 'the capital is paris',
			ideals: ['Paris'],
			ignoreCase: true,
			correct: true,
		},
		{ row: 'E7', completion: 'A4', ideals: ['A'], ignoreCase: false, correct: true },
		{
			row: 'none of several',
			completion: 'blue',
			ideals: ['red', 'green'],
			ignoreCase: true,
			correct: false,
		},
	])('$row', ({ completion, ideals, ignoreCase, correct }) => {
		expect(checkIncludes(completion, ideals, ignoreCase)).toBe(correct);
	});
});
