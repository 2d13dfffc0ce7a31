import { describe, expect, it } from 'vitest';
import { compareEvalsRuns, type EvalsSampleRowView } from '../../../src/core/evals';

function row(sampleId: string, completion: string, verdict: Partial<EvalsSampleRowView>) {
	return {
		sampleId,
		position: 0,
		calls: [],
		completion,
		ideals: [],
		picked: null,
		invalid: false,
		...verdict,
	} satisfies EvalsSampleRowView;
}

type Summary = [
	sampleId: string,
	inA: boolean,
	inB: boolean,
	verdict: boolean,
	completion: boolean,
];

describe('compareEvalsRuns', () => {
	it.each<[string, EvalsSampleRowView[], EvalsSampleRowView[], Summary[]]>([
		[
			'matches by id in A’s order, then samples only B has',
			[
				row('e.dev.0', 'Paris', { correct: true }),
				row('e.dev.1', 'Lyon', { correct: false }),
				row('e.dev.2', 'Rome', { correct: true }),
			],
			[
				row('e.dev.1', 'Lima', { correct: true }),
				row('e.dev.0', 'Paris!', { correct: true }),
				row('e.dev.9', 'x', { correct: false }),
			],
			[
				['e.dev.0', true, true, false, true],
				['e.dev.1', true, true, true, true],
				['e.dev.2', true, false, true, true],
				['e.dev.9', false, true, true, true],
			],
		],
		[
			'identical samples differ in nothing',
			[row('e.dev.0', 'Paris', { correct: true })],
			[row('e.dev.0', 'Paris', { correct: true })],
			[['e.dev.0', true, true, false, false]],
		],
		[
			'grader choices are the verdicts',
			[row('g.dev.0', 'a', { choice: 'Y', score: 1 }), row('g.dev.1', 'b', { choice: 'N' })],
			[row('g.dev.0', 'a', { choice: 'N', score: 0 }), row('g.dev.1', 'c', { choice: 'N' })],
			[
				['g.dev.0', true, true, true, false],
				['g.dev.1', true, true, false, true],
			],
		],
		['two empty runs', [], [], []],
	])('%s', (_what, a, b, expected) => {
		expect(
			compareEvalsRuns(a, b).map((s) => [
				s.sampleId,
				s.a !== null,
				s.b !== null,
				s.verdictDiffers,
				s.completionDiffers,
			]),
		).toEqual(expected);
	});
});
