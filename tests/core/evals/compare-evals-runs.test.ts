import { describe, expect, it } from 'vitest';
import {
	compareEvalsRuns,
	reproducedVerdicts,
	verdictsBySample,
	type EvalsSampleRowView,
} from '../../../src/core/evals';

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

describe('verdictsBySample', () => {
	it.each<[EvalsSampleRowView[], Record<string, string>]>([
		[[], {}],
		[
			[
				row('e.dev.0', 'a', { correct: true }),
				row('e.dev.1', 'b', { correct: false }),
				row('g.dev.0', 'c', { choice: 'Y' }),
				row('i.dev.0', 'd', {}),
			],
			{ 'e.dev.0': 'correct', 'e.dev.1': 'wrong', 'g.dev.0': 'Y', 'i.dev.0': '—' },
		],
	])('%#', (rows, verdicts) => {
		expect(verdictsBySample(rows)).toEqual(verdicts);
	});
});

describe('reproducedVerdicts', () => {
	const shared = { 'e.dev.0': 'correct', 'e.dev.1': 'wrong', 'e.dev.2': 'correct' };
	it.each<[string, EvalsSampleRowView[], { identical: number; shared: number }]>([
		[
			'all repeated',
			[
				row('e.dev.0', 'a', { correct: true }),
				row('e.dev.1', 'b', { correct: false }),
				row('e.dev.2', 'c', { correct: true }),
			],
			{ identical: 3, shared: 3 },
		],
		[
			'one flipped, one missing',
			[row('e.dev.0', 'a', { correct: false }), row('e.dev.1', 'b', { correct: false })],
			{ identical: 1, shared: 3 },
		],
		[
			'a sample the shared run does not have counts for nothing',
			[row('e.dev.9', 'a', { correct: true })],
			{ identical: 0, shared: 3 },
		],
	])('%s', (_what, rows, counts) => {
		expect(reproducedVerdicts(shared, rows)).toEqual(counts);
	});
});
