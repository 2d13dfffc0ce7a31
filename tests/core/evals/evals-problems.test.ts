import { describe, expect, it } from 'vitest';
import { EvalsError, dedupeProblems, problemOf, type EvalsProblem } from '../../../src/core/evals';

describe('problemOf', () => {
	it.each<[string, unknown, EvalsProblem]>([
		[
			'an EvalsError keeps its location',
			new EvalsError('bad line', { file: 'data/a.jsonl', line: 3 }),
			{ message: 'bad line', location: { file: 'data/a.jsonl', line: 3 } },
		],
		['an EvalsError without a place', new EvalsError('no eval'), { message: 'no eval' }],
		['another Error keeps its message', new Error('it broke'), { message: 'it broke' }],
	])('%s', (_what, error, problem) => {
		expect(problemOf(error)).toEqual(problem);
	});
});

describe('dedupeProblems', () => {
	const a3 = { message: 'bad', location: { file: 'a.jsonl', line: 3 } };
	const a4 = { message: 'bad', location: { file: 'a.jsonl', line: 4 } };
	const plain = { message: 'bad' };
	it.each<[string, EvalsProblem[], EvalsProblem[]]>([
		['none', [], []],
		['the same message at the same place once', [a3, a3], [a3]],
		['the same message at two places twice', [a3, a4], [a3, a4]],
		['a located and an unlocated one both', [plain, a3, plain], [plain, a3]],
	])('%s', (_what, problems, kept) => {
		expect(dedupeProblems(problems)).toEqual(kept);
	});
});
