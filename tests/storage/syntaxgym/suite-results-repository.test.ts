import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../../src/storage/shared/db';
import type { ItemResult } from '../../../src/core/syntaxgym/run/suite-run';
import {
	getItemResult,
	listFinishedItemNumbers,
	listItemResults,
	saveItemResult,
	saveItemResults,
	suiteItemChunkRow,
} from '../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	deleteSuiteRun,
	getSuiteRun,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { StorageQuotaError } from '../../../src/storage/shared/storage-errors';
import { clearDatabase } from '../clear-database';
import { itemResult, runDraft } from '../fixtures';

beforeEach(clearDatabase);

describe('results repository', () => {
	it('round-trips the scored tokens of an item exactly', async () => {
		const run = await createSuiteRun(runDraft());
		await saveItemResult(run.id, itemResult(2));
		expect(await getItemResult(run.id, 2)).toEqual(itemResult(2));
	});

	it('keeps each token’s word-boundary value when the run was scored with them', async () => {
		const run = await createSuiteRun(runDraft({ wordBoundaries: true }));
		const plain = itemResult(4);
		const withBoundaries = {
			...plain,
			sentences: plain.sentences.map((sentence) => ({
				...sentence,
				tokens: sentence.tokens.map((token, index) => ({
					...token,
					boundarySurprisalBits: 0.5 + index,
				})),
			})),
		};
		await saveItemResult(run.id, withBoundaries);
		expect(await getItemResult(run.id, 4)).toEqual(withBoundaries);
		expect((await getSuiteRun(run.id))?.wordBoundaries).toBe(true);
	});

	it('gives no word-boundary field to tokens stored without one', async () => {
		const run = await createSuiteRun(runDraft());
		await saveItemResult(run.id, itemResult(5));
		const tokens = (await getItemResult(run.id, 5))?.sentences.flatMap((s) => s.tokens) ?? [];
		expect(tokens.length).toBeGreaterThan(0);
		expect(tokens.filter((token) => 'boundarySurprisalBits' in token)).toEqual([]);
		expect((await getSuiteRun(run.id))?.wordBoundaries).toBeUndefined();
	});

	it('counts finished items on the run as each item is saved', async () => {
		const run = await createSuiteRun(runDraft());
		expect(await saveItemResult(run.id, itemResult(3), 50)).toBe(1);
		expect(await saveItemResult(run.id, itemResult(1), 60)).toBe(2);
		expect(await saveItemResult(run.id, itemResult(1), 70)).toBe(2);
		const stored = await getSuiteRun(run.id);
		expect(stored?.itemsDone).toBe(2);
		expect(stored?.updatedAt).toBe(70);
	});

	it('lists items of one run only, in item-number order', async () => {
		const first = await createSuiteRun(runDraft());
		const second = await createSuiteRun(runDraft());
		for (const n of [3, 1, 2]) await saveItemResult(first.id, itemResult(n));
		await saveItemResult(second.id, itemResult(9));
		expect(await listFinishedItemNumbers(first.id)).toEqual([1, 2, 3]);
		expect((await listItemResults(first.id)).map((item) => item.itemNumber)).toEqual([1, 2, 3]);
		expect(await listFinishedItemNumbers(second.id)).toEqual([9]);
	});

	it('turns a full quota into StorageQuotaError and stores nothing', async () => {
		const run = await createSuiteRun(runDraft());
		const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		const put = vi.spyOn(db.runItems, 'put').mockRejectedValueOnce(quota);
		await expect(saveItemResult(run.id, itemResult(1))).rejects.toBeInstanceOf(StorageQuotaError);
		put.mockRestore();
		expect(await listFinishedItemNumbers(run.id)).toEqual([]);
		expect((await getSuiteRun(run.id))?.itemsDone).toBe(0);
	});
});

describe('saveItemResults', () => {
	beforeEach(clearDatabase);

	it("stores items of several runs in one go and counts each run's items", async () => {
		const a = await createSuiteRun(runDraft());
		const b = await createSuiteRun(runDraft());
		await saveItemResult(a.id, itemResult(1));
		await saveItemResults([
			{ runId: a.id, result: itemResult(2) },
			{ runId: b.id, result: itemResult(1) },
			{ runId: a.id, result: itemResult(3) },
			// The same item again replaces it.
			{ runId: a.id, result: itemResult(2) },
		]);
		expect((await getSuiteRun(a.id))?.itemsDone).toBe(3);
		expect((await getSuiteRun(b.id))?.itemsDone).toBe(1);
		expect(await listFinishedItemNumbers(a.id)).toEqual([1, 2, 3]);
		await saveItemResults([]);
		expect((await getSuiteRun(a.id))?.itemsDone).toBe(3);
	});
});

/** `item` with each token's word-boundary value set (a run scored with word boundaries). */
function withBoundaries(item: ItemResult): ItemResult {
	return {
		...item,
		sentences: item.sentences.map((sentence) => ({
			...sentence,
			tokens: sentence.tokens.map((token, index) => ({
				...token,
				boundarySurprisalBits: index === 1 ? Number.NaN : 0.25 * index,
			})),
		})),
	};
}

describe('chunk rows (many items to a row, as an import stores them)', () => {
	it('reads items back exactly from a chunk: tokens, offsets, special tokens', async () => {
		const run = await createSuiteRun(runDraft());
		const items = [2, 3, 4, 7, 10].map(itemResult);
		await db.runItems.add(suiteItemChunkRow(run.id, items, 5));
		expect(await db.runItems.count()).toBe(1);
		expect(await listItemResults(run.id)).toEqual(items);
		expect(await getItemResult(run.id, 7)).toEqual(itemResult(7));
		expect(await getItemResult(run.id, 10)).toEqual(itemResult(10));
		expect(await getItemResult(run.id, 5)).toBeUndefined();
		expect(await listFinishedItemNumbers(run.id)).toEqual([2, 3, 4, 7, 10]);
	});

	it('keeps word-boundary values (a NaN one stays absent) and gives none to rows without', async () => {
		const run = await createSuiteRun(runDraft({ wordBoundaries: true }));
		const boundaries = [1, 2].map((n) => withBoundaries(itemResult(n)));
		await db.runItems.add(suiteItemChunkRow(run.id, boundaries, 5));
		const read = await listItemResults(run.id);
		expect(read).toEqual(
			boundaries.map((item) => ({
				...item,
				sentences: item.sentences.map((sentence) => ({
					...sentence,
					tokens: sentence.tokens.map(({ boundarySurprisalBits, ...token }) =>
						Number.isNaN(boundarySurprisalBits) ? token : { ...token, boundarySurprisalBits },
					),
				})),
			})),
		);
		const plain = await createSuiteRun(runDraft());
		await db.runItems.add(suiteItemChunkRow(plain.id, [itemResult(1)], 5));
		const tokens = (await getItemResult(plain.id, 1))?.sentences.flatMap((s) => s.tokens) ?? [];
		expect(tokens.filter((token) => 'boundarySurprisalBits' in token)).toEqual([]);
	});

	it('refuses a chunk out of item-number order or with an item twice', async () => {
		expect(() => suiteItemChunkRow(1, [itemResult(2), itemResult(1)], 5)).toThrow(RangeError);
		expect(() => suiteItemChunkRow(1, [itemResult(2), itemResult(2)], 5)).toThrow(RangeError);
		expect(() => suiteItemChunkRow(1, [], 5)).toThrow(RangeError);
	});

	it('reads chunks and single-item rows of one run together; a single row wins', async () => {
		const run = await createSuiteRun(runDraft());
		const other = await createSuiteRun(runDraft());
		await db.runItems.bulkAdd([
			suiteItemChunkRow(run.id, [1, 2, 3].map(itemResult), 5),
			suiteItemChunkRow(run.id, [5, 9].map(itemResult), 5),
			suiteItemChunkRow(other.id, [4].map(itemResult), 5),
		]);
		const replaced = { ...itemResult(2), sentences: itemResult(2).sentences.slice(0, 1) };
		await saveItemResult(run.id, replaced);
		await saveItemResult(run.id, itemResult(4));
		expect(await listFinishedItemNumbers(run.id)).toEqual([1, 2, 3, 4, 5, 9]);
		expect(await listItemResults(run.id)).toEqual([
			itemResult(1),
			replaced,
			itemResult(3),
			itemResult(4),
			itemResult(5),
			itemResult(9),
		]);
		expect(await getItemResult(run.id, 2)).toEqual(replaced);
		expect(await getItemResult(run.id, 9)).toEqual(itemResult(9));
		expect(await listFinishedItemNumbers(other.id)).toEqual([4]);
	});

	it('counts each item once when a resumed run saves items beside its chunks', async () => {
		const run = await createSuiteRun(runDraft({ itemCount: 8 }));
		await db.runItems.bulkAdd([
			suiteItemChunkRow(run.id, [1, 2, 3].map(itemResult), 5),
			suiteItemChunkRow(run.id, [5, 7].map(itemResult), 5),
		]);
		// Item 2 again (inside a chunk of consecutive items), 7 (inside one that is not), then new ones.
		expect(await saveItemResult(run.id, itemResult(2))).toBe(5);
		expect(await saveItemResult(run.id, itemResult(7))).toBe(5);
		expect(await saveItemResult(run.id, itemResult(6))).toBe(6);
		await saveItemResults([
			{ runId: run.id, result: itemResult(4) },
			{ runId: run.id, result: itemResult(8) },
		]);
		expect((await getSuiteRun(run.id))?.itemsDone).toBe(8);
	});

	it('a deleted run takes its chunk rows with it', async () => {
		const run = await createSuiteRun(runDraft());
		const kept = await createSuiteRun(runDraft());
		await db.runItems.bulkAdd([
			suiteItemChunkRow(run.id, [1, 2].map(itemResult), 5),
			suiteItemChunkRow(kept.id, [1, 2].map(itemResult), 5),
		]);
		await deleteSuiteRun(run.id);
		expect(await listItemResults(run.id)).toEqual([]);
		expect(await getItemResult(run.id, 1)).toBeUndefined();
		expect(await listItemResults(kept.id)).toEqual([itemResult(1), itemResult(2)]);
	});
});
