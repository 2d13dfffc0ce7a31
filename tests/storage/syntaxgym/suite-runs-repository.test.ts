import { beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/core/hash/sha256';
import {
	getItemResult,
	listFinishedItemNumbers,
	listItemResults,
	saveItemResult,
} from '../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	deleteSuiteRun,
	getSuiteRun,
	importSuiteRun,
	listResumableSuiteRuns,
	listSuiteRuns,
	listRunsForSuite,
	updateSuiteRun,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import { listAllRuns } from '../../../src/storage/shared/runs-repository';
import { getSuite, listSuites } from '../../../src/storage/syntaxgym/suites-repository';
import { ImportCancelledError } from '../../../src/storage/shared/storage-errors';
import { createEvalsRun, getEvalsRun } from '../../../src/storage/evals/evals-runs-repository';
import { createLtmRun, getLtmRun } from '../../../src/storage/ltm/ltm-runs-repository';
import { clearDatabase } from '../clear-database';
import { SUITE_TEXT, evalsRunDraft, itemResult, ltmRunDraft, runDraft } from '../fixtures';

beforeEach(clearDatabase);

describe('suite runs repository', () => {
	it('creates a running run with the history fields', async () => {
		const run = await createSuiteRun(runDraft());
		expect(run).toEqual({
			...runDraft(),
			id: run.id,
			status: 'running',
			itemsDone: 0,
			updatedAt: runDraft().createdAt,
			scoringMs: 0,
			tokenCount: 0,
		});
		expect(await getSuiteRun(run.id)).toEqual(run);
	});

	it('updates status and counters, and clears an error message', async () => {
		const run = await createSuiteRun(runDraft());
		const failed = await updateSuiteRun(run.id, { status: 'failed', errorMessage: 'boom' }, 10);
		expect(failed).toMatchObject({ status: 'failed', errorMessage: 'boom', updatedAt: 10 });
		const resumed = await updateSuiteRun(
			run.id,
			{ status: 'running', errorMessage: undefined, scoringMs: 1500, tokenCount: 42 },
			20,
		);
		expect(resumed).toMatchObject({ status: 'running', scoringMs: 1500, tokenCount: 42 });
		expect(resumed).not.toHaveProperty('errorMessage');
	});

	it('lists the history newest first and by suite', async () => {
		const a = await createSuiteRun(runDraft({ createdAt: 1, suiteSha256: 'a'.repeat(64) }));
		const b = await createSuiteRun(runDraft({ createdAt: 3, suiteSha256: 'b'.repeat(64) }));
		const c = await createSuiteRun(runDraft({ createdAt: 2, suiteSha256: 'a'.repeat(64) }));
		expect((await listSuiteRuns()).map((run) => run.id)).toEqual([b.id, c.id, a.id]);
		expect((await listRunsForSuite('a'.repeat(64))).map((run) => run.id)).toEqual([c.id, a.id]);
	});

	it('offers unfinished runs for resume, not finished ones', async () => {
		const interrupted = await createSuiteRun(runDraft({ createdAt: 1 }));
		await saveItemResult(interrupted.id, itemResult(1));
		const cancelled = await createSuiteRun(runDraft({ createdAt: 2 }));
		await updateSuiteRun(cancelled.id, { status: 'cancelled' });
		const done = await createSuiteRun(runDraft({ createdAt: 3, itemCount: 1 }));
		await saveItemResult(done.id, itemResult(1));
		await updateSuiteRun(done.id, { status: 'done' });
		expect((await listResumableSuiteRuns()).map((run) => [run.id, run.itemsDone])).toEqual([
			[cancelled.id, 0],
			[interrupted.id, 1],
		]);
	});

	it('deletes a run with its item results only', async () => {
		const kept = await createSuiteRun(runDraft());
		const gone = await createSuiteRun(runDraft());
		await saveItemResult(kept.id, itemResult(1));
		await saveItemResult(gone.id, itemResult(1));
		await deleteSuiteRun(gone.id);
		expect(await getSuiteRun(gone.id)).toBeUndefined();
		expect(await listFinishedItemNumbers(gone.id)).toEqual([]);
		expect(await listFinishedItemNumbers(kept.id)).toEqual([1]);
	});

	it('imports a whole run as a new run with its suite', async () => {
		const {
			id: _ignored,
			itemsDone: _done,
			...exported
		} = {
			...(await createSuiteRun(runDraft({ suiteSha256: sha256Hex(SUITE_TEXT) }))),
			status: 'done' as const,
			updatedAt: 99,
		};
		const imported = await importSuiteRun({
			run: exported,
			suite: { text: SUITE_TEXT, name: 'tiny agreement', origin: 'import' },
			items: [itemResult(1), itemResult(2)],
		});
		expect(imported).toMatchObject({ status: 'done', itemsDone: 2, updatedAt: 99 });
		expect(imported.suiteSha256).toBe(sha256Hex(SUITE_TEXT));
		expect(await getItemResult(imported.id, 2)).toEqual(itemResult(2));
		expect((await getSuite(imported.suiteSha256))?.origin).toBe('import');
		expect((await listSuites()).length).toBe(1);
	});

	it('lists runs of every kind in one history; each kind keeps to its functions', async () => {
		const suite = await createSuiteRun(runDraft({ createdAt: 10 }));
		const evals = await createEvalsRun(evalsRunDraft({ createdAt: 30 }));
		const ltm = await createLtmRun(ltmRunDraft({ createdAt: 20 }));
		expect((await listAllRuns()).map((run) => [run.kind, run.id, run.title])).toEqual([
			['evals', evals.id, 'capitals'],
			['ltm', ltm.id, 'Classroom basics'],
			['suite', suite.id, 'tiny agreement'],
		]);
		expect(new Set([suite.id, evals.id, ltm.id]).size).toBe(3);
		expect((await listSuiteRuns()).map((run) => run.id)).toEqual([suite.id]);
		expect(await getSuiteRun(evals.id)).toBeUndefined();
		expect(await updateSuiteRun(ltm.id, { status: 'failed' })).toBeUndefined();
		expect((await getLtmRun(ltm.id))?.status).toBe('running');
		await deleteSuiteRun(evals.id);
		expect(await getEvalsRun(evals.id)).toEqual(evals);
	});
});

describe('importing a large run (issue 28 item 8)', () => {
	const bigImport = (count: number) => ({
		run: {
			...runDraft({ itemCount: count }),
			status: 'done' as const,
			updatedAt: 1_700_000_001_000,
			scoringMs: 5,
			tokenCount: 7,
		},
		suite: { text: SUITE_TEXT, name: 'tiny agreement', origin: 'import' as const },
		items: Array.from({ length: count }, (_, index) => itemResult(index + 1)),
	});

	it('stores the items in chunks, saying how many are stored after each', async () => {
		const progress: [number, number][] = [];
		const run = await importSuiteRun(bigImport(250), {
			chunkItems: 100,
			onProgress: (stored, total) => progress.push([stored, total]),
		});
		expect(progress).toEqual([
			[100, 250],
			[200, 250],
			[250, 250],
		]);
		expect(run.itemsDone).toBe(250);
		expect(await listFinishedItemNumbers(run.id)).toHaveLength(250);
		expect(await getItemResult(run.id, 250)).toEqual(itemResult(250));
		// Three rows, not 250: IndexedDB's cost is per row.
		const { db } = await import('../../../src/storage/shared/db');
		expect(await db.runItems.where('runId').equals(run.id).count()).toBe(3);
	});

	it('stores items given out of order in item-number order; their run deletes whole', async () => {
		const shuffled = bigImport(7);
		const items = [5, 1, 7, 3, 2, 6, 4].map(itemResult);
		const run = await importSuiteRun({ ...shuffled, items }, { chunkItems: 3 });
		expect(run.itemsDone).toBe(7);
		expect((await listItemResults(run.id)).map((item) => item.itemNumber)).toEqual([
			1, 2, 3, 4, 5, 6, 7,
		]);
		expect(await getItemResult(run.id, 4)).toEqual(itemResult(4));
		await deleteSuiteRun(run.id);
		const { db } = await import('../../../src/storage/shared/db');
		expect(await db.runItems.count()).toBe(0);
	});

	it('a cancel between chunks leaves nothing of the import stored', async () => {
		const abort = new AbortController();
		await expect(
			importSuiteRun(bigImport(250), {
				chunkItems: 100,
				signal: abort.signal,
				onProgress: (stored) => {
					if (stored === 200) abort.abort();
				},
			}),
		).rejects.toBeInstanceOf(ImportCancelledError);
		expect(await listSuiteRuns()).toEqual([]);
		expect(await listSuites()).toEqual([]);
		const { db } = await import('../../../src/storage/shared/db');
		expect(await db.runItems.count()).toBe(0);
	});

	it('an item that cannot be stored fails the import and leaves nothing of it stored', async () => {
		const twice = bigImport(250);
		// Item 150 again as the last item: two items cannot share a number, so nothing is written.
		const items = [...twice.items.slice(0, 249), itemResult(150)];
		await expect(importSuiteRun({ ...twice, items }, { chunkItems: 100 })).rejects.toThrow(
			/item 150 appears twice/,
		);
		expect(await listSuiteRuns()).toEqual([]);
		expect(await listSuites()).toEqual([]);
		const { db } = await import('../../../src/storage/shared/db');
		expect(await db.runItems.count()).toBe(0);
	});
});
