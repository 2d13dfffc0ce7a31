// Rows E8–E15 of ../shared/docs/reference-evals-ltm.md §4.4, plus edge cases whose expected values
// come from running upstream's normalize / fuzzy_match / f1_score in Python 3.11.
import { describe, expect, it } from 'vitest';
import {
	checkFuzzyMatch,
	f1Score,
	normalizeAnswer,
} from '../../../../src/core/evals/templates/fuzzy-match';

describe('FuzzyMatch (E8–E15)', () => {
	it.each([
		{ row: 'E8', completion: 'The Eiffel Tower!', ideal: 'eiffel tower', correct: true, f1: 1.0 },
		{
			row: 'E9',
			completion: 'Paris',
			ideal: 'The capital of France is Paris',
			correct: true,
			f1: 0.33333333333333337,
		},
		{ row: 'E10', completion: '11.2', ideal: '1', correct: true, f1: 0 },
		{ row: 'E11 both empty', completion: 'an', ideal: 'a', correct: true, f1: 0 },
		{ row: 'E11 one empty', completion: '', ideal: 'x', correct: false, f1: 0 },
		{ row: 'E12', completion: 'Don’t', ideal: 'dont', correct: false, f1: 0 },
		{ row: 'E13', completion: 'éa b', ideal: 'é b', correct: false, f1: 0.5 },
		{ row: 'E14', completion: 'x_y', ideal: 'xy', correct: true, f1: 1.0 },
		{
			row: 'combining mark is not a word char',
			completion: 'e\u0301a b',
			ideal: 'e\u0301 b',
			correct: true,
			f1: 1.0,
		},
		{
			row: 'hyphen deleted, not spaced',
			completion: 'Theatre a-team',
			ideal: 'theatre team',
			correct: false,
			f1: 0.5,
		},
		{ row: 'final sigma', completion: 'ΣΑΣ the', ideal: 'σασ', correct: false, f1: 0 },
		{
			row: 'Unicode spaces split',
			completion: 'A\u00a0B\u3000c',
			ideal: 'a b c',
			correct: true,
			f1: 1.0,
		},
		{
			row: 'superscript digit is a word char',
			completion: 'x²an y',
			ideal: 'x² y',
			correct: false,
			f1: 0.5,
		},
	])('$row', ({ completion, ideal, correct, f1 }) => {
		const result = checkFuzzyMatch(completion, [ideal]);
		expect(result.correct).toBe(correct);
		expect(result.f1).toBe(f1);
	});

	it('E15: f1 is the maximum over ideals', () => {
		const result = checkFuzzyMatch('world', ['some foo world', 'dummy']);
		expect(result.correct).toBe(true);
		expect(result.matches).toEqual([true, false]);
		expect(result.f1).toBe(0.5);
		expect(f1Score('world', ['dummy', 'some foo world'])).toBe(0.5);
	});

	it.each([
		['The Eiffel Tower!', 'eiffel tower'],
		['11.2', '112'],
		['an', ''],
		['Don’t', 'don’t'],
		['éa b', 'éa b'],
		['Theatre a-team', 'theatre ateam'],
	])('normalize(%j) = %j', (text, normalized) => {
		expect(normalizeAnswer(text)).toBe(normalized);
	});
});
