// Rows E16–E20 of ../shared/docs/reference-evals-ltm.md §4.4, plus edge cases whose expected values
// come from running upstream's json_match in Python 3.11.
import { describe, expect, it } from 'vitest';
import { checkJsonMatch } from '../../../../src/core/evals/templates/json-match';

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
