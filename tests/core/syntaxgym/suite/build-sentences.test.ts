import { describe, expect, it } from 'vitest';
import {
	buildSentence,
	buildSuiteSentences,
} from '../../../../src/core/syntaxgym/suite/build-sentences';
import type { Condition, Suite } from '../../../../src/core/syntaxgym/suite/types';

function conditionOf(name: string, contents: readonly string[]): Condition {
	return {
		conditionName: name,
		regions: contents.map((content, index) => ({ regionNumber: index + 1, content })),
	};
}

/** `[content, start, end, edge]` per region. */
type RegionRow = [string, number, number, number];

interface SentenceCase {
	readonly name: string;
	readonly contents: readonly string[];
	readonly text: string;
	readonly regions: readonly RegionRow[];
}

// Edges follow syntaxgym-core `iter_region_edges` (reference doc §3.3): the cursor starts at 0,
// each region's edge is the cursor, and the cursor advances by the lstripped length, +1 when the
// region is non-empty and not region 1.
const CASES: readonly SentenceCase[] = [
	{
		name: 'regions joined by one space, punctuation gets a space before it',
		contents: ['The dog', 'barks', '.'],
		text: 'The dog barks .',
		regions: [
			['The dog', 0, 7, 0],
			['barks', 8, 13, 7],
			['.', 14, 15, 13],
		],
	},
	{
		name: 'a single region',
		contents: ['Hello'],
		text: 'Hello',
		regions: [['Hello', 0, 5, 0]],
	},
	{
		name: 'leading whitespace removed (Python lstrip)',
		contents: [' The', '  dog', '\tbarks'],
		text: 'The dog barks',
		regions: [
			['The', 0, 3, 0],
			['dog', 4, 7, 3],
			['barks', 8, 13, 7],
		],
	},
	{
		name: 'trailing whitespace kept, as the reference does (strict parsing rejects it earlier)',
		contents: ['The ', 'dog'],
		text: 'The  dog',
		regions: [
			['The ', 0, 4, 0],
			['dog', 5, 8, 4],
		],
	},
	{
		name: 'an empty middle region is dropped and shares the next edge',
		contents: ['The', '', 'dog'],
		text: 'The dog',
		regions: [
			['The', 0, 3, 0],
			['', 3, 3, 3],
			['dog', 4, 7, 3],
		],
	},
	{
		name: 'a whitespace-only region counts as empty',
		contents: ['The', ' \u00a0 ', 'dog'],
		text: 'The dog',
		regions: [
			['The', 0, 3, 0],
			['', 3, 3, 3],
			['dog', 4, 7, 3],
		],
	},
	{
		name: 'an empty last region',
		contents: ['The dog', 'barks', ''],
		text: 'The dog barks',
		regions: [
			['The dog', 0, 7, 0],
			['barks', 8, 13, 7],
			['', 13, 13, 13],
		],
	},
	{
		// Doc §3.3: the reference still counts a joining space for region 2, so region 3's edge
		// is its start (4), not the joining space (3): a GPT-2 token " cat" starting at 3 lands in
		// region 2. Kept as the reference computes it.
		name: 'first region empty: later edges are one past the joining space',
		contents: ['', 'The', 'cat', 'sat'],
		text: 'The cat sat',
		regions: [
			['', 0, 0, 0],
			['The', 0, 3, 0],
			['cat', 4, 7, 4],
			['sat', 8, 11, 8],
		],
	},
	{
		name: 'every region empty',
		contents: ['', ' '],
		text: '',
		regions: [
			['', 0, 0, 0],
			['', 0, 0, 0],
		],
	},
	{
		name: 'U+FEFF is not Python whitespace and stays',
		contents: ['\ufeffThe', 'dog'],
		text: '\ufeffThe dog',
		regions: [
			['\ufeffThe', 0, 4, 0],
			['dog', 5, 8, 4],
		],
	},
	{
		name: 'spans and edges are UTF-16 offsets (an astral character counts 2)',
		contents: ['🐶', 'barks'],
		text: '🐶 barks',
		regions: [
			['🐶', 0, 2, 0],
			['barks', 3, 8, 2],
		],
	},
];

describe('buildSentence', () => {
	it.each(CASES)('$name', ({ contents, text, regions }) => {
		const sentence = buildSentence(7, conditionOf('cond', contents));
		expect(sentence.itemNumber).toBe(7);
		expect(sentence.conditionName).toBe('cond');
		expect(sentence.text).toBe(text);
		expect(
			sentence.regions.map((region) => [region.content, region.start, region.end, region.edge]),
		).toEqual(regions);
		expect(sentence.regions.map((region) => region.regionNumber)).toEqual(
			contents.map((_, index) => index + 1),
		);
	});

	it.each(CASES)('span slices give the region text: $name', ({ contents }) => {
		const sentence = buildSentence(1, conditionOf('c', contents));
		for (const region of sentence.regions) {
			expect(sentence.text.slice(region.start, region.end)).toBe(region.content);
		}
	});
});

describe('buildSuiteSentences', () => {
	it('lists items in file order and conditions in each item’s file order', () => {
		const suite: Suite = {
			meta: { name: 'order', metrics: ['sum'], metricAsWritten: 'sum', extra: {} },
			regionNames: ['subject', 'verb'],
			conditionNames: ['good', 'bad'],
			predictions: [],
			items: [
				{
					itemNumber: 5,
					conditions: [
						conditionOf('good', ['The dog', 'barks']),
						conditionOf('bad', ['The dog', 'bark']),
					],
				},
				{
					itemNumber: 2,
					conditions: [
						conditionOf('bad', ['Cats', 'sleeps']),
						conditionOf('good', ['Cats', 'sleep']),
					],
				},
			],
		};
		expect(
			buildSuiteSentences(suite).map((s) => `${s.itemNumber} ${s.conditionName}: ${s.text}`),
		).toEqual([
			'5 good: The dog barks',
			'5 bad: The dog bark',
			'2 bad: Cats sleeps',
			'2 good: Cats sleep',
		]);
	});

	it('gives an empty list for a suite without items', () => {
		const suite: Suite = {
			meta: { name: 'empty', metrics: ['sum'], metricAsWritten: 'sum', extra: {} },
			regionNames: [],
			conditionNames: [],
			predictions: [],
			items: [],
		};
		expect(buildSuiteSentences(suite)).toEqual([]);
	});
});
