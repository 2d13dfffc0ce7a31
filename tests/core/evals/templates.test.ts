// Rows E1–E20 of ../shared/docs/reference-evals-ltm.md §4.4, plus edge cases whose expected values
// come from running upstream's normalize / fuzzy_match / f1_score / json_match in Python 3.11.
import { describe, expect, it } from 'vitest';
import {
	checkFuzzyMatch,
	checkIncludes,
	checkJsonMatch,
	checkMatch,
	f1Score,
	normalizeAnswer,
} from '../../../src/core/evals/templates';

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

describe('JsonMatch (E16–E20)', () => {
	it.each([
		{
			row: 'E16',
			completion: ' {"b":[1.0,2],"a":"x"} ',
			ideal: '{"a":"x","b":[1,2]}',
			correct: true,
		},
		{ row: 'E17 fence', completion: '```json\n{"a":1}\n```', ideal: '{"a":1}', correct: false },
		{ row: 'E17 trailing', completion: '{"a":1} trailing', ideal: '{"a":1}', correct: false },
		{ row: 'E18', completion: '{"a": null}', ideal: '{"a": null}', correct: false },
		{ row: 'E19 bool == int', completion: '{"a": true}', ideal: '{"a": 1}', correct: true },
		{ row: 'E19 str != int', completion: '{"a": "1"}', ideal: '{"a": 1}', correct: false },
		{ row: 'E20', completion: '{"key":[1,2,3]}', ideal: '{"key":[1,3,2]}', correct: false },
		{ row: 'false == 0', completion: '[false]', ideal: '[0]', correct: true },
		{ row: 'missing key', completion: '{"a": 1}', ideal: '{"a": 1, "b": 2}', correct: false },
		{ row: 'list vs object', completion: '[1]', ideal: '{"0": 1}', correct: false },
		{ row: 'scalar top level', completion: '3.0', ideal: '3', correct: true },
		{
			row: 'duplicate keys: last wins',
			completion: '{"a": 1, "a": 2}',
			ideal: '{"a": 2}',
			correct: true,
		},
	])('$row', ({ completion, ideal, correct }) => {
		expect(checkJsonMatch(completion, [ideal]).correct).toBe(correct);
	});

	it('an ideal that is not valid JSON is an error naming it', () => {
		expect(() => checkJsonMatch('{"a":1}', ['{a: 1}'])).toThrow(
			/ideal is not valid JSON: "\{a: 1\}"/u,
		);
	});
});
