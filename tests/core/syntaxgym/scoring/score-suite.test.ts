import { describe, expect, it } from 'vitest';
import {
	assembleSuiteScore,
	scoreItem,
	scoreSuite,
	scoreSuites,
} from '../../../../src/core/syntaxgym/scoring/score-suite';
import { AlignmentError } from '../../../../src/core/errors';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { loadMiniSuite } from './mini-suite';

// Sentences of the mini suite, in suite order:
// 1 good "The dog barks ." · 1 bad "The dog bark ." · 2 good "A cat meows ." · 2 bad "A cat meow"
function words(...spec: (readonly [string, number])[]): ScoredToken[] {
	return spec.map(([token, surprisalBits]) => ({ token, surprisalBits }));
}

const SENTENCES: ScoredToken[][] = [
	words(['The', 0], ['dog', 5], ['barks', 8], ['.', 2], ['<eos>', 1]),
	words(['The', 0], ['dog', 5], ['bark', 12], ['.', 3], ['<eos>', 1]),
	words(['A', 0], ['cat', 6], ['meows', 9], ['.', 2]),
	words(['A', 0], ['cat', 6], ['meow', 7]),
];

describe('scoreSuite', () => {
	it.each([
		{
			metric: 'sum',
			// item 1: bad verb 12 > 8, bad total 21 > 16; item 2: 7 > 9 no, 13 > 17 no.
			regionSums: [
				[5, 8, 3],
				[5, 12, 4],
				[6, 9, 2],
				[6, 7, 0],
			],
			outcomes: [
				[1, 0, 'sum', true],
				[1, 1, 'sum', true],
				[2, 0, 'sum', false],
				[2, 1, 'sum', false],
			],
			items: [
				['sum', 'all-predictions', 1, 2],
				['sum', 'first-prediction', 1, 2],
			],
		},
		{
			metric: 'max',
			regionSums: [
				[5, 8, 3],
				[5, 12, 4],
				[6, 9, 2],
				[6, 7, 0],
			],
			// item 1: 12 > 8; max (*) 5+12+3 = 20 > 15; item 2: 7 > 9 no; bad region 3 undefined → NaN → False.
			outcomes: [
				[1, 0, 'max', true],
				[1, 1, 'max', true],
				[2, 0, 'max', false],
				[2, 1, 'max', false],
			],
			items: [
				['max', 'all-predictions', 1, 2],
				['max', 'first-prediction', 1, 2],
			],
		},
	])('scores the mini suite under metric $metric', ({ metric, regionSums, outcomes, items }) => {
		const suite = loadMiniSuite(metric);
		const score = scoreSuite(suite, SENTENCES, { regionMetrics: ['sum'] });
		expect(score.items.map((item) => item.itemNumber)).toEqual([1, 2]);
		expect(score.regionValues.map((v) => [v.itemNumber, v.conditionName, v.regionNumber])).toEqual(
			[1, 2].flatMap((item) =>
				['good', 'bad'].flatMap((condition) => [1, 2, 3].map((r) => [item, condition, r])),
			),
		);
		expect(score.regionValues.map((v) => v.values.sum)).toEqual(regionSums.flat());
		expect(Object.keys(score.regionValues[0]?.values ?? {})).toEqual(
			metric === 'sum' ? ['sum'] : ['sum', metric],
		);
		expect(score.outcomes.map((o) => [o.itemNumber, o.predictionId, o.metric, o.result])).toEqual(
			outcomes,
		);
		expect(score.outcomes).toEqual(score.items.flatMap((item) => item.outcomes));
		expect(score.summary.items.map((i) => [i.metric, i.rule, i.correct, i.total])).toEqual(items);
	});

	it('aligns by offsets when every token has one', () => {
		const suite = loadMiniSuite();
		const withOffsets: ScoredToken[][] = [
			[
				{ token: 'The', surprisalBits: 0, start: 0 },
				{ token: 'Ġdog', surprisalBits: 5, start: 3 },
				{ token: 'Ġbarks', surprisalBits: 8, start: 7 },
				{ token: 'Ġ.', surprisalBits: 2, start: 13 },
			],
			...SENTENCES.slice(1),
		];
		const score = scoreSuite(suite, withOffsets);
		expect(score.regionValues.slice(0, 3).map((v) => v.tokens)).toEqual([
			['The', 'Ġdog'],
			['Ġbarks'],
			['Ġ.'],
		]);
	});

	it.each([
		{
			sentences: SENTENCES.slice(0, 3),
			message: /3 sentences of tokens were given but the suite has 4/,
		},
		{
			sentences: [...SENTENCES.slice(0, 3), words(['A', 0], ['dog', 1], ['meow', 1])],
			message: /item 2, condition "bad" \(sentence 4\): token 2 "dog"/,
		},
	])('throws an AlignmentError: $message', ({ sentences, message }) => {
		const suite = loadMiniSuite();
		expect(() => scoreSuite(suite, sentences)).toThrow(AlignmentError);
		expect(() => scoreSuite(suite, sentences)).toThrow(message);
	});
});

describe('scoreSuites (several suites from one list of sentences)', () => {
	it('gives each suite the score of its own sentences, in order', () => {
		const sum = loadMiniSuite('sum');
		const max = loadMiniSuite('max');
		const doubled = SENTENCES.map((sentence) =>
			sentence.map((token) => ({ ...token, surprisalBits: 2 * token.surprisalBits })),
		);
		const scored = scoreSuites([sum, max], [...SENTENCES, ...doubled]);
		expect(scored.map((s) => s.suite)).toEqual([sum, max]);
		expect(scored[0]?.score).toEqual(scoreSuite(sum, SENTENCES));
		expect(scored[1]?.score).toEqual(scoreSuite(max, doubled));
		expect(scored[1]?.score).not.toEqual(scoreSuite(max, SENTENCES));
	});

	it('a sentence count that is not the suites’ total is an AlignmentError', () => {
		const suite = loadMiniSuite();
		expect(() => scoreSuites([suite, suite], SENTENCES)).toThrow(AlignmentError);
		expect(() => scoreSuites([suite, suite], SENTENCES)).toThrow(/4 sentences .* have 8/);
		expect(scoreSuites([], [])).toEqual([]);
	});
});

describe('scoreItem and assembleSuiteScore (item by item)', () => {
	const suite = loadMiniSuite();
	const [item1, item2] = suite.items as [(typeof suite.items)[0], (typeof suite.items)[0]];

	it('gives the same item scores as scoreSuite, conditions looked up by name', () => {
		const whole = scoreSuite(suite, SENTENCES);
		const first = scoreItem(
			suite,
			item1,
			new Map([
				['bad', SENTENCES[1] as ScoredToken[]],
				['good', SENTENCES[0] as ScoredToken[]],
			]),
		);
		const second = scoreItem(
			suite,
			item2,
			new Map([
				['good', SENTENCES[2] as ScoredToken[]],
				['bad', SENTENCES[3] as ScoredToken[]],
			]),
		);
		expect([first, second]).toEqual(whole.items);
		expect(assembleSuiteScore(suite, [first, second])).toEqual(whole);
	});

	it('summarises the items finished so far', () => {
		const first = scoreItem(
			suite,
			item1,
			new Map([
				['good', SENTENCES[0] as ScoredToken[]],
				['bad', SENTENCES[1] as ScoredToken[]],
			]),
		);
		const partial = assembleSuiteScore(suite, [first]);
		expect(partial.regionValues).toHaveLength(6);
		expect(partial.summary.itemNumbers).toEqual([1]);
		expect(partial.summary.items.map((i) => [i.rule, i.correct, i.total])).toEqual([
			['all-predictions', 1, 1],
			['first-prediction', 1, 1],
		]);
	});

	it('throws an AlignmentError naming item, condition and sentence when a condition has no tokens', () => {
		const call = () =>
			scoreItem(suite, item2, new Map([['good', SENTENCES[2] as ScoredToken[]]]), {}, 2);
		expect(call).toThrow(AlignmentError);
		expect(call).toThrow(/item 2, condition "bad": no tokens were given/);
		try {
			call();
		} catch (error) {
			expect((error as AlignmentError).location).toEqual({ sentenceIndex: 3 });
		}
	});
});
