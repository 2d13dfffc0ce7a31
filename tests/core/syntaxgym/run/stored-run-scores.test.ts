import { describe, expect, it } from 'vitest';
import {
	EMPTY_RUN_SCORES,
	addScoredItems,
	assembleStoredRunScore,
	collectLmZooSentences,
	orderStoredItems,
} from '../../../../src/core/syntaxgym/run/stored-run-scores';
import type { ItemResult } from '../../../../src/core/syntaxgym/run/suite-run';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { loadMiniSuite } from '../scoring/mini-suite';

// Mini suite: 1 good "The dog barks ." · 1 bad "The dog bark ." · 2 good "A cat meows ." ·
// 2 bad "A cat meow" (region 3 empty); predictions: (2;bad) > (2;good), (*;bad) > (*;good).

function tokens(...spec: (readonly [string, number])[]): ScoredToken[] {
	return spec.map(([token, surprisalBits]) => ({ token, surprisalBits }));
}

const ITEM_1: ItemResult = {
	itemNumber: 1,
	sentences: [
		{
			conditionName: 'good',
			text: 'The dog barks .',
			tokens: tokens(['The', 0], ['dog', 5], ['barks', 8], ['.', 2]),
		},
		{
			conditionName: 'bad',
			text: 'The dog bark .',
			tokens: tokens(['The', 0], ['dog', 5], ['bark', 12], ['.', 3]),
		},
	],
};

const ITEM_2: ItemResult = {
	itemNumber: 2,
	sentences: [
		// conditions stored in another order than the suite's
		{ conditionName: 'bad', text: 'A cat meow', tokens: tokens(['A', 0], ['cat', 6], ['meow', 7]) },
		{
			conditionName: 'good',
			text: 'A cat meows .',
			tokens: tokens(['A', 0], ['cat', 6], ['meows', 9], ['.', 2]),
		},
	],
};

const suite = loadMiniSuite();

describe('addScoredItems', () => {
	it('scores items as they arrive and keeps suite order whatever the arrival order', () => {
		const afterTwo = addScoredItems(suite, EMPTY_RUN_SCORES, [ITEM_2]);
		const afterBoth = addScoredItems(suite, afterTwo, [ITEM_1]);
		const score = assembleStoredRunScore(suite, afterBoth);
		expect(score.outcomes.map((o) => [o.itemNumber, o.predictionId, o.result])).toEqual([
			[1, 0, true],
			[1, 1, true],
			[2, 0, false],
			[2, 1, false],
		]);
		expect(score.summary.items.map((i) => [i.rule, i.correct, i.total])).toEqual([
			['all-predictions', 1, 2],
			['first-prediction', 1, 2],
		]);
		expect(orderStoredItems(suite, afterBoth).map((i) => i.itemNumber)).toEqual([1, 2]);
	});

	it('computes region values under all six metrics by default', () => {
		const stored = addScoredItems(suite, EMPTY_RUN_SCORES, [ITEM_1]);
		const verb = stored.scores
			.get(1)
			?.regionValues.find((v) => v.conditionName === 'bad' && v.regionNumber === 2);
		expect(Object.keys(verb?.values ?? {}).sort()).toEqual(
			['max', 'mean', 'median', 'min', 'range', 'sum'].sort(),
		);
	});

	it('keeps an item that cannot be scored with its problem, and clears it when fixed', () => {
		const broken: ItemResult = {
			itemNumber: 1,
			sentences: [{ conditionName: 'good', text: 'x', tokens: tokens(['Cat', 1]) }],
		};
		const withProblem = addScoredItems(suite, EMPTY_RUN_SCORES, [broken]);
		expect(withProblem.scores.has(1)).toBe(false);
		expect(withProblem.problems.get(1)).toMatch(/item 1/);
		expect(withProblem.items.get(1)).toBe(broken);
		const fixed = addScoredItems(suite, withProblem, [ITEM_1]);
		expect(fixed.problems.size).toBe(0);
		expect(fixed.scores.has(1)).toBe(true);
	});

	it('reports an item number the suite does not have', () => {
		const stored = addScoredItems(suite, EMPTY_RUN_SCORES, [{ itemNumber: 9, sentences: [] }]);
		expect(stored.problems.get(9)).toBe('item 9 is not in the suite.');
		expect(assembleStoredRunScore(suite, stored).outcomes).toEqual([]);
	});

	it('returns new values and leaves the previous ones alone', () => {
		const first = addScoredItems(suite, EMPTY_RUN_SCORES, [ITEM_1]);
		const second = addScoredItems(suite, first, [ITEM_2]);
		expect(first.items.size).toBe(1);
		expect(second.items.size).toBe(2);
		expect(EMPTY_RUN_SCORES.items.size).toBe(0);
		expect(addScoredItems(suite, first, [])).toBe(first);
	});
});

describe('collectLmZooSentences', () => {
	it('lists stored sentences items in suite order, conditions in the item file order', () => {
		const stored = addScoredItems(suite, EMPTY_RUN_SCORES, [ITEM_2, ITEM_1]);
		expect(
			collectLmZooSentences(suite, stored).map((s) => s.tokens.map((t) => t.token).join(' ')),
		).toEqual(['The dog barks .', 'The dog bark .', 'A cat meows .', 'A cat meow']);
	});

	it("names each sentence's item and condition (the token TSV's extra columns)", () => {
		const stored = addScoredItems(suite, EMPTY_RUN_SCORES, [ITEM_2, ITEM_1]);
		expect(
			collectLmZooSentences(suite, stored).map((s) => `${s.itemNumber} ${s.conditionName}`),
		).toEqual(
			suite.items.flatMap((item) =>
				item.conditions.map((c) => `${item.itemNumber} ${c.conditionName}`),
			),
		);
	});

	it('skips items not stored and keeps special tokens', () => {
		const withEos: ItemResult = {
			itemNumber: 2,
			sentences: ITEM_2.sentences.map((s) => ({
				...s,
				tokens: [...s.tokens, { token: '<|endoftext|>', surprisalBits: 1, special: true }],
			})),
		};
		const stored = addScoredItems(suite, EMPTY_RUN_SCORES, [withEos]);
		const sentences = collectLmZooSentences(suite, stored);
		expect(sentences).toHaveLength(2);
		expect(sentences[0]?.tokens.at(-1)?.token).toBe('<|endoftext|>');
	});
});
