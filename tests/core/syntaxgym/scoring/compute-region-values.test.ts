import { describe, expect, it } from 'vitest';
import {
	computeRegionValues,
	type AlignmentOptions,
} from '../../../../src/core/syntaxgym/scoring/compute-region-values';
import { AlignmentError } from '../../../../src/core/errors';
import { buildSentence } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { METRIC_NAMES, type MetricName } from '../../../../src/core/syntaxgym/suite/types';
import type { MetricValue, ScoredToken } from '../../../../src/core/syntaxgym/scoring/types';
import { loadMiniSuite } from './mini-suite';

const suite = loadMiniSuite();
const [item1, item2] = suite.items as [(typeof suite.items)[0], (typeof suite.items)[0]];
// "The dog barks ." — regions "The dog" | "barks" | "."
const good1 = buildSentence(1, item1.conditions[0] as (typeof item1.conditions)[0]);
// "A cat meow" — regions "A cat" | "meow" | "" (empty)
const bad2 = buildSentence(2, item2.conditions[1] as (typeof item2.conditions)[0]);

function tokensOf(spec: readonly (readonly [string, number, number?])[]): ScoredToken[] {
	return spec.map(([token, surprisalBits, start]) =>
		start === undefined ? { token, surprisalBits } : { token, surprisalBits, start },
	);
}

interface RegionExpectation {
	tokens: string[];
	surprisalsBits: number[];
	values: Record<MetricName, MetricValue>;
	oovs?: string[];
}

const allSix = (
	sum: number,
	mean: number,
	median: number,
	range: MetricValue,
	max: MetricValue,
	min: MetricValue,
) => ({ sum, mean, median, range, max, min });

const cases: {
	name: string;
	sentence: typeof good1;
	tokens: ScoredToken[];
	options?: AlignmentOptions;
	expected: RegionExpectation[];
}[] = [
	{
		name: 'offsets, GPT-2 style (leading space inside the token span)',
		sentence: good1,
		tokens: tokensOf([
			['The', 0, 0],
			['Ġdog', 5.5, 3],
			['Ġbarks', 8.25, 7],
			['Ġ.', 2, 13],
		]),
		expected: [
			{
				tokens: ['The', 'Ġdog'],
				surprisalsBits: [0, 5.5],
				values: allSix(5.5, 2.75, 2.75, 5.5, 5.5, 0),
			},
			{
				tokens: ['Ġbarks'],
				surprisalsBits: [8.25],
				values: allSix(8.25, 8.25, 8.25, 0, 8.25, 8.25),
			},
			{ tokens: ['Ġ.'], surprisalsBits: [2], values: allSix(2, 2, 2, 0, 2, 2) },
		],
	},
	{
		name: 'offsets trimmed of the space, with BOS and EOS at (0, 0)',
		sentence: good1,
		tokens: tokensOf([
			['<|endoftext|>', 0, 0],
			['The', 3.5, 0],
			['dog', 5.5, 4],
			['barks', 8.25, 8],
			['.', 2, 14],
			['<|endoftext|>', 1.25, 0],
		]),
		expected: [
			{
				tokens: ['<|endoftext|>', 'The', 'dog'],
				surprisalsBits: [0, 3.5, 5.5],
				values: allSix(9, 3, 3.5, 5.5, 5.5, 0),
			},
			{
				tokens: ['barks'],
				surprisalsBits: [8.25],
				values: allSix(8.25, 8.25, 8.25, 0, 8.25, 8.25),
			},
			{
				tokens: ['.', '<|endoftext|>'],
				surprisalsBits: [2, 1.25],
				values: allSix(3.25, 1.625, 1.625, 0.75, 2, 1.25),
			},
		],
	},
	{
		name: 'strings (no offsets): a final <eos> joins the last region',
		sentence: good1,
		tokens: tokensOf([
			['The', 0],
			['dog', 5.5],
			['barks', 8.25],
			['.', 2],
			['<eos>', 1],
		]),
		expected: [
			{
				tokens: ['The', 'dog'],
				surprisalsBits: [0, 5.5],
				values: allSix(5.5, 2.75, 2.75, 5.5, 5.5, 0),
			},
			{
				tokens: ['barks'],
				surprisalsBits: [8.25],
				values: allSix(8.25, 8.25, 8.25, 0, 8.25, 8.25),
			},
			{ tokens: ['.', '<eos>'], surprisalsBits: [2, 1], values: allSix(3, 1.5, 1.5, 1, 2, 1) },
		],
	},
	{
		name: 'strings: an <unk> swallows "dog", which becomes an OOV of region 1',
		sentence: good1,
		tokens: tokensOf([
			['The', 0],
			['<unk>', 12],
			['barks', 8.25],
			['.', 2],
		]),
		expected: [
			{
				tokens: ['The', '<unk>'],
				surprisalsBits: [0, 12],
				values: allSix(12, 6, 6, 12, 12, 0),
				oovs: ['dog'],
			},
			{
				tokens: ['barks'],
				surprisalsBits: [8.25],
				values: allSix(8.25, 8.25, 8.25, 0, 8.25, 8.25),
			},
			{ tokens: ['.'], surprisalsBits: [2], values: allSix(2, 2, 2, 0, 2, 2) },
		],
	},
	{
		name: 'strings forced on tokens that have offsets (Ġ sentinel stripped)',
		sentence: good1,
		tokens: tokensOf([
			['The', 1, 0],
			['Ġdog', 2, 3],
			['Ġbarks', 4, 7],
			['Ġ.', 8, 13],
		]),
		options: { alignment: 'strings' },
		expected: [
			{ tokens: ['The', 'Ġdog'], surprisalsBits: [1, 2], values: allSix(3, 1.5, 1.5, 1, 2, 1) },
			{ tokens: ['Ġbarks'], surprisalsBits: [4], values: allSix(4, 4, 4, 0, 4, 4) },
			{ tokens: ['Ġ.'], surprisalsBits: [8], values: allSix(8, 8, 8, 0, 8, 8) },
		],
	},
	{
		name: 'auto with one token lacking an offset falls back to strings',
		sentence: good1,
		tokens: tokensOf([
			['The', 1, 0],
			['dog', 2],
			['barks', 4, 8],
			['.', 8, 14],
		]),
		expected: [
			{ tokens: ['The', 'dog'], surprisalsBits: [1, 2], values: allSix(3, 1.5, 1.5, 1, 2, 1) },
			{ tokens: ['barks'], surprisalsBits: [4], values: allSix(4, 4, 4, 0, 4, 4) },
			{ tokens: ['.'], surprisalsBits: [8], values: allSix(8, 8, 8, 0, 8, 8) },
		],
	},
	{
		name: 'offsets: an empty region gets no tokens (sum 0, mean/median NaN, range/max/min undefined)',
		sentence: bad2,
		tokens: tokensOf([
			['A', 0, 0],
			['Ġcat', 7, 1],
			['Ġmeow', 9, 5],
		]),
		expected: [
			{ tokens: ['A', 'Ġcat'], surprisalsBits: [0, 7], values: allSix(7, 3.5, 3.5, 7, 7, 0) },
			{ tokens: ['Ġmeow'], surprisalsBits: [9], values: allSix(9, 9, 9, 0, 9, 9) },
			{ tokens: [], surprisalsBits: [], values: allSix(0, NaN, NaN, null, null, null) },
		],
	},
	{
		name: 'strings: an empty region gets no tokens',
		sentence: bad2,
		tokens: tokensOf([
			['A', 0],
			['cat', 7],
			['meow', 9],
		]),
		expected: [
			{ tokens: ['A', 'cat'], surprisalsBits: [0, 7], values: allSix(7, 3.5, 3.5, 7, 7, 0) },
			{ tokens: ['meow'], surprisalsBits: [9], values: allSix(9, 9, 9, 0, 9, 9) },
			{ tokens: [], surprisalsBits: [], values: allSix(0, NaN, NaN, null, null, null) },
		],
	},
];

describe('computeRegionValues', () => {
	it.each(cases)('$name', ({ sentence, tokens, options, expected }) => {
		const values = computeRegionValues(sentence, tokens, METRIC_NAMES, options);
		expect(values).toEqual(
			expected.map((region, index) => ({
				itemNumber: sentence.itemNumber,
				conditionName: sentence.conditionName,
				regionNumber: index + 1,
				content: sentence.regions[index]?.content,
				tokens: region.tokens,
				surprisalsBits: region.surprisalsBits,
				oovs: region.oovs ?? [],
				values: region.values,
			})),
		);
	});

	it('computes only the metrics asked for', () => {
		const tokens = tokensOf([
			['The', 0],
			['dog', 5.5],
			['barks', 8.25],
			['.', 2],
		]);
		const values = computeRegionValues(good1, tokens, ['max', 'sum']);
		expect(values.map((region) => region.values)).toEqual([
			{ max: 5.5, sum: 5.5 },
			{ max: 8.25, sum: 8.25 },
			{ max: 2, sum: 2 },
		]);
	});

	it.each([
		{
			name: 'a token that matches nothing',
			tokens: tokensOf([
				['The', 0],
				['cat', 1],
				['barks', 1],
				['.', 1],
			]),
			options: {},
			message: /item 1, condition "good" \(sentence 3\).*token 2 "cat"/,
			location: { sentenceIndex: 2, tokenIndex: 1 },
		},
		{
			name: 'offsets asked for but a token has none',
			tokens: tokensOf([
				['The', 0, 0],
				['dog', 1],
			]),
			options: { alignment: 'offsets' as const },
			message: /item 1, condition "good" \(sentence 3\).*token 2 "dog" has no character offset/,
			location: { sentenceIndex: 2, tokenIndex: 1 },
		},
	])('throws an AlignmentError naming the sentence and token: $name', (example) => {
		let thrown: unknown;
		try {
			computeRegionValues(good1, example.tokens, ['sum'], example.options, 2);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(AlignmentError);
		expect((thrown as AlignmentError).message).toMatch(example.message);
		expect((thrown as AlignmentError).location).toEqual(example.location);
	});
});
