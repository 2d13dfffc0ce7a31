import { describe, expect, it } from 'vitest';
import {
	buildItemGrid,
	groupTokensByRegion,
} from '../../../../src/core/syntaxgym/results/results-tables';
import { AlignmentError } from '../../../../src/core/errors';
import { scoreItem, type ItemScore } from '../../../../src/core/syntaxgym/scoring/score-suite';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { buildSentence } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { loadMiniSuite } from '../scoring/mini-suite';

// Mini suite sentences: 1 good "The dog barks ." · 1 bad "The dog bark ." ·
// 2 good "A cat meows ." · 2 bad "A cat meow" (region 3 empty). Regions: subject, verb, end.

/** GPT-2-style tokens: `[token, start, end, bits]`, the leading space inside the span. */
function offsetTokens(...spec: (readonly [string, number, number, number])[]): ScoredToken[] {
	return spec.map(([token, start, end, surprisalBits]) => ({ token, start, end, surprisalBits }));
}

const suite = loadMiniSuite();
const item1 = suite.items[0]!;

const ITEM1_TOKENS = new Map<string, ScoredToken[]>([
	// "The dog barks ."
	[
		'good',
		offsetTokens(['The', 0, 3, 0], ['Ġdog', 3, 7, 5], ['Ġbarks', 7, 13, 8], ['Ġ.', 13, 15, 2]),
	],
	// "The dog bark ."
	[
		'bad',
		offsetTokens(['The', 0, 3, 0], ['Ġdog', 3, 7, 5], ['Ġbark', 7, 12, 12], ['Ġ.', 12, 14, 3]),
	],
]);

describe('buildItemGrid', () => {
	const score: ItemScore = scoreItem(suite, item1, ITEM1_TOKENS);

	it('gives scored items their outcomes and unscored items nulls, in suite order', () => {
		const rows = buildItemGrid(suite, new Map([[1, score]]), 'sum');
		expect(rows.map((row) => [row.itemNumber, row.results, row.allHold])).toEqual([
			// verb 12 > 8; total 20 > 15
			[1, [true, true], true],
			[2, [null, null], null],
		]);
	});

	it("lists each condition's sentence as built from its regions", () => {
		const [row1, row2] = buildItemGrid(suite, new Map(), 'sum');
		expect(row1?.sentences).toEqual([
			{ conditionName: 'good', text: 'The dog barks .' },
			{ conditionName: 'bad', text: 'The dog bark .' },
		]);
		expect(row2?.sentences).toEqual([
			{ conditionName: 'good', text: 'A cat meows .' },
			{ conditionName: 'bad', text: 'A cat meow' },
		]);
	});

	it('reads outcomes of the metric asked for only, and keeps problems', () => {
		const rows = buildItemGrid(suite, new Map([[1, score]]), 'max', new Map([[2, 'no tokens']]));
		expect(rows[0]?.results).toEqual([null, null]);
		expect(rows[0]?.allHold).toBeNull();
		expect(rows[1]?.problem).toBe('no tokens');
		expect(rows[0]).not.toHaveProperty('problem');
	});

	it('marks allHold false when one prediction fails', () => {
		// bad verb cheaper than good verb, bad total still larger
		const tokens = new Map(ITEM1_TOKENS);
		tokens.set(
			'bad',
			offsetTokens(['The', 0, 3, 0], ['Ġdog', 3, 7, 5], ['Ġbark', 7, 12, 7], ['Ġ.', 12, 14, 9]),
		);
		const rows = buildItemGrid(suite, new Map([[1, scoreItem(suite, item1, tokens)]]), 'sum');
		expect(rows[0]?.results).toEqual([false, true]);
		expect(rows[0]?.allHold).toBe(false);
	});
});

describe('groupTokensByRegion', () => {
	const names = suite.regionNames;

	it.each([
		{
			name: 'offset tokens, spans of the sentence',
			condition: 0,
			tokens: ITEM1_TOKENS.get('good')!,
			expected: [
				[1, 'subject', ['The', ' dog'], 5],
				[2, 'verb', [' barks'], 8],
				[3, 'end', [' .'], 2],
			],
		},
		{
			name: 'a leading special token stays in region 1 and shows as its token',
			condition: 0,
			tokens: [
				{ token: '<s>', start: 0, end: 0, surprisalBits: 0, special: true },
				...ITEM1_TOKENS.get('good')!,
			],
			expected: [
				[1, 'subject', ['<s>', 'The', ' dog'], 5],
				[2, 'verb', [' barks'], 8],
				[3, 'end', [' .'], 2],
			],
		},
		{
			name: 'tokens without offsets (imported) by their strings',
			condition: 0,
			tokens: [
				{ token: 'The', surprisalBits: 1 },
				{ token: 'dog', surprisalBits: 2 },
				{ token: 'barks', surprisalBits: 3 },
				{ token: '.', surprisalBits: 4 },
			],
			expected: [
				[1, 'subject', ['The', 'dog'], 3],
				[2, 'verb', ['barks'], 3],
				[3, 'end', ['.'], 4],
			],
		},
	])('$name', ({ condition, tokens, expected }) => {
		const sentence = buildSentence(1, item1.conditions[condition]!);
		const groups = groupTokensByRegion(sentence, tokens, names);
		expect(
			groups.map((g) => [g.regionNumber, g.regionName, g.tokens.map((t) => t.text), g.sumBits]),
		).toEqual(expected);
	});

	it('keeps token strings, bits and the special flag', () => {
		const sentence = buildSentence(1, item1.conditions[0]!);
		const [first] = groupTokensByRegion(sentence, ITEM1_TOKENS.get('good')!, names);
		expect(first?.tokens[1]).toEqual({
			text: ' dog',
			token: 'Ġdog',
			surprisalBits: 5,
			special: false,
		});
		expect(first?.content).toBe('The dog');
	});

	it('gives an empty region no tokens and a sum of 0', () => {
		const item2 = suite.items[1]!;
		const sentence = buildSentence(2, item2.conditions[1]!); // "A cat meow", region 3 empty
		const groups = groupTokensByRegion(
			sentence,
			offsetTokens(['A', 0, 1, 0], ['Ġcat', 1, 5, 6], ['Ġmeow', 5, 10, 7]),
			names,
		);
		expect(groups.map((g) => [g.regionNumber, g.tokens.length, g.sumBits])).toEqual([
			[1, 2, 6],
			[2, 1, 7],
			[3, 0, 0],
		]);
	});

	it('names regions missing from region_meta by number', () => {
		const sentence = buildSentence(1, item1.conditions[0]!);
		const groups = groupTokensByRegion(sentence, ITEM1_TOKENS.get('good')!, ['subject']);
		expect(groups.map((g) => g.regionName)).toEqual(['subject', 'region 2', 'region 3']);
	});

	it('throws an AlignmentError when string tokens do not fit the sentence', () => {
		const sentence = buildSentence(1, item1.conditions[0]!);
		expect(() =>
			groupTokensByRegion(sentence, [{ token: 'Cat', surprisalBits: 1 }], names),
		).toThrow(AlignmentError);
	});

	it('does not mutate its inputs', () => {
		const sentence = buildSentence(1, item1.conditions[0]!);
		const tokens = ITEM1_TOKENS.get('good')!;
		const before = structuredClone(tokens);
		groupTokensByRegion(sentence, tokens, names);
		expect(tokens).toEqual(before);
	});
});
