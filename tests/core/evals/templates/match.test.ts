// Rows E1–E5 of ../shared/docs/reference-evals-ltm.md §4.4: Match's verdict (no strip, case-sensitive
// prefix, first ideal in order).
import { describe, expect, it } from 'vitest';
import { checkMatch } from '../../../../src/core/evals/templates/match';

describe('Match (E1–E5)', () => {
	it.each([
		{ row: 'E1', completion: ' Paris', ideals: ['Paris'], correct: false, picked: null },
		{ row: 'E2', completion: 'Paris.', ideals: ['Paris'], correct: true, picked: 'Paris' },
		{ row: 'E3a', completion: 'paris', ideals: ['Paris'], correct: false, picked: null },
		{
			row: 'E3b',
			completion: 'The answer is Paris',
			ideals: ['Paris'],
			correct: false,
			picked: null,
		},
		{ row: 'E3c', completion: '2015', ideals: ['15'], correct: false, picked: null },
		{ row: 'E4', completion: 'Paris', ideals: ['London', 'Par'], correct: true, picked: 'Par' },
		{ row: 'E5', completion: 'anything', ideals: [''], correct: true, picked: '' },
		{ row: 'newline', completion: '\nParis', ideals: ['Paris'], correct: false, picked: null },
	])('$row: $completion vs $ideals', ({ completion, ideals, correct, picked }) => {
		expect(checkMatch(completion, ideals)).toEqual({ correct, picked });
	});
});
