import { beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/storage/db';
import {
	getItemResult,
	listFinishedItemNumbers,
	listItemResults,
	saveItemResult,
	saveItemResults,
} from '../../src/storage/results-repository';
import { createRun, getRun } from '../../src/storage/runs-repository';
import { StorageQuotaError } from '../../src/storage/storage-errors';
import { clearDatabase } from './clear-database';
import { itemResult, runDraft } from './fixtures';

beforeEach(clearDatabase);

describe('results repository', () => {
	it('round-trips the scored tokens of an item exactly', async () => {
		const run = await createRun(runDraft());
		await saveItemResult(run.id, itemResult(2));
		expect(await getItemResult(run.id, 2)).toEqual(itemResult(2));
	});

	it('keeps each token’s word-boundary value when the run was scored with them', async () => {
		const run = await createRun(runDraft({ wordBoundaries: true }));
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
		expect((await getRun(run.id))?.wordBoundaries).toBe(true);
	});

	it('gives no word-boundary field to tokens stored without one', async () => {
		const run = await createRun(runDraft());
		await saveItemResult(run.id, itemResult(5));
		const tokens = (await getItemResult(run.id, 5))?.sentences.flatMap((s) => s.tokens) ?? [];
		expect(tokens.length).toBeGreaterThan(0);
		expect(tokens.filter((token) => 'boundarySurprisalBits' in token)).toEqual([]);
		expect((await getRun(run.id))?.wordBoundaries).toBeUndefined();
	});

	it('counts finished items on the run as each item is saved', async () => {
		const run = await createRun(runDraft());
		expect(await saveItemResult(run.id, itemResult(3), 50)).toBe(1);
		expect(await saveItemResult(run.id, itemResult(1), 60)).toBe(2);
		expect(await saveItemResult(run.id, itemResult(1), 70)).toBe(2);
		const stored = await getRun(run.id);
		expect(stored?.itemsDone).toBe(2);
		expect(stored?.updatedAt).toBe(70);
	});

	it('lists items of one run only, in item-number order', async () => {
		const first = await createRun(runDraft());
		const second = await createRun(runDraft());
		for (const n of [3, 1, 2]) await saveItemResult(first.id, itemResult(n));
		await saveItemResult(second.id, itemResult(9));
		expect(await listFinishedItemNumbers(first.id)).toEqual([1, 2, 3]);
		expect((await listItemResults(first.id)).map((item) => item.itemNumber)).toEqual([1, 2, 3]);
		expect(await listFinishedItemNumbers(second.id)).toEqual([9]);
	});

	it('turns a full quota into StorageQuotaError and stores nothing', async () => {
		const run = await createRun(runDraft());
		const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
		const put = vi.spyOn(db.runItems, 'put').mockRejectedValueOnce(quota);
		await expect(saveItemResult(run.id, itemResult(1))).rejects.toBeInstanceOf(StorageQuotaError);
		put.mockRestore();
		expect(await listFinishedItemNumbers(run.id)).toEqual([]);
		expect((await getRun(run.id))?.itemsDone).toBe(0);
	});
});

describe('saveItemResults', () => {
	beforeEach(clearDatabase);

	it("stores items of several runs in one go and counts each run's items", async () => {
		const a = await createRun(runDraft());
		const b = await createRun(runDraft());
		await saveItemResult(a.id, itemResult(1));
		await saveItemResults([
			{ runId: a.id, result: itemResult(2) },
			{ runId: b.id, result: itemResult(1) },
			{ runId: a.id, result: itemResult(3) },
			// The same item again replaces it.
			{ runId: a.id, result: itemResult(2) },
		]);
		expect((await getRun(a.id))?.itemsDone).toBe(3);
		expect((await getRun(b.id))?.itemsDone).toBe(1);
		expect(await listFinishedItemNumbers(a.id)).toEqual([1, 2, 3]);
		await saveItemResults([]);
		expect((await getRun(a.id))?.itemsDone).toBe(3);
	});
});
