import { describe, expect, it } from 'vitest';
import {
	ItemAssembly,
	type PendingSentence,
} from '../../../../src/core/syntaxgym/run/item-assembly';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';

const PENDING: readonly PendingSentence[] = [
	{ itemNumber: 1, conditionName: 'good', text: 'The dog runs' },
	{ itemNumber: 1, conditionName: 'bad', text: 'The dog run' },
	{ itemNumber: 3, conditionName: 'good', text: 'A cat sleeps' },
	{ itemNumber: 3, conditionName: 'bad', text: 'A cat sleep' },
];

function tokens(count: number): ScoredToken[] {
	return Array.from({ length: count }, (_, index) => ({
		token: `t${index}`,
		surprisalBits: index,
	}));
}

describe('ItemAssembly', () => {
	it.each([
		['in order', [0, 1, 2, 3], [null, 1, null, 3]],
		['out of order', [3, 0, 2, 1], [null, null, 3, 1]],
		['with repeats', [0, 0, 1, 1, 2, 3], [null, null, 1, null, null, 3]],
		['with unknown indices', [7, -1, 0, 1], [null, null, null, 1]],
	] as const)('completes each item once, %s', (_, order, expectedItems) => {
		const assembly = new ItemAssembly(PENDING);
		const completed = order.map((index) => assembly.accept(index, tokens(2))?.itemNumber ?? null);
		expect(completed).toEqual(expectedItems);
	});

	it('keeps the pending order of conditions whatever the scoring order', () => {
		const assembly = new ItemAssembly(PENDING);
		expect(assembly.accept(1, tokens(3))).toBeNull();
		const item = assembly.accept(0, tokens(4));
		expect(item?.sentences.map((s) => [s.conditionName, s.text, s.tokens.length])).toEqual([
			['good', 'The dog runs', 4],
			['bad', 'The dog run', 3],
		]);
	});

	it('counts sentences and tokens, per item and in all, ignoring repeats', () => {
		const assembly = new ItemAssembly(PENDING);
		assembly.accept(0, tokens(4));
		assembly.accept(0, tokens(4));
		assembly.accept(2, tokens(5));
		expect(assembly.scoredCount).toBe(2);
		expect(assembly.tokenCount).toBe(9);
		expect([assembly.scoredOf(1), assembly.scoredOf(3), assembly.scoredOf(2)]).toEqual([1, 1, 0]);
	});

	it('does not change the pending list', () => {
		const pending = PENDING.map((sentence) => ({ ...sentence }));
		const assembly = new ItemAssembly(pending);
		for (const index of [0, 1, 2, 3]) assembly.accept(index, tokens(1));
		expect(pending).toEqual(PENDING);
	});
});
