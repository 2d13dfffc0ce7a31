// Stored run records that pages cannot show (issue 28 item 2): a time a date cannot hold, a row of
// no known kind. Listing shows the good runs and lists the bad records apart; those delete.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/storage/db';
import { createEvalsRun } from '../../src/storage/evals-runs-repository';
import { listEvalsRuns } from '../../src/storage/evals-runs-repository';
import { saveItemResult } from '../../src/storage/results-repository';
import {
	createRun,
	deleteUnreadableRun,
	getRun,
	listAllRuns,
	listRunHistory,
	listRuns,
	listUnreadableRuns,
} from '../../src/storage/runs-repository';
import { UnreadableRunError } from '../../src/storage/storage-errors';
import { clearDatabase } from './clear-database';
import { evalsRunDraft, itemResult, runDraft } from './fixtures';

beforeEach(clearDatabase);

/** Writes a stored row as an older version or an edit in the browser's storage could leave it. */
async function plantRow(row: Record<string, unknown>): Promise<number> {
	return (await db.runs.add(row as never)) as number;
}

describe('unreadable run records', () => {
	it('lists the good runs and the bad record apart, located; the bad one deletes with its items', async () => {
		const older = await createRun(runDraft({ createdAt: 1_700_000_000_000 }));
		const newer = await createRun(runDraft({ createdAt: 1_700_000_100_000 }));
		const good = await db.runs.get(older.id);
		const badId = await plantRow({ ...good, id: undefined, createdAt: 8.65e15 });
		await saveItemResult(badId, itemResult(1));
		const straysId = await plantRow({ title: 'x', status: 'done' });

		const history = await listRunHistory();
		expect(history.runs.map((run) => run.id)).toEqual([newer.id, older.id]);
		expect(history.unreadable).toEqual([
			{ id: straysId, kind: null, problem: expect.stringContaining('/kind') as string },
			{
				id: badId,
				kind: 'suite',
				problem:
					'/createdAt: expected a time in milliseconds since 1970, within the years 0000 to 9999',
			},
		]);
		expect((await listRuns()).map((run) => run.id)).toEqual([newer.id, older.id]);
		expect((await listAllRuns()).map((run) => run.id)).toEqual([newer.id, older.id]);
		await expect(getRun(badId)).rejects.toBeInstanceOf(UnreadableRunError);

		expect(await deleteUnreadableRun(badId)).toBe(true);
		expect(await db.runs.get(badId)).toBeUndefined();
		expect(await db.runItems.where('runId').equals(badId).count()).toBe(0);
		expect(await deleteUnreadableRun(straysId)).toBe(true);
		expect(await listRunHistory()).toEqual({ runs: await listRuns(), unreadable: [] });
	});

	it('never deletes a run that reads well through the unreadable path', async () => {
		const run = await createRun(runDraft());
		expect(await deleteUnreadableRun(run.id)).toBe(false);
		expect(await getRun(run.id)).toBeDefined();
	});

	it('flags an Evals run whose date is not a number, found although no date index holds it', async () => {
		const run = await createEvalsRun(evalsRunDraft());
		const row = await db.runs.get(run.id);
		const badId = await plantRow({ ...row, id: undefined, createdAt: 'yesterday' });
		expect((await listEvalsRuns()).map((r) => r.id)).toEqual([run.id]);
		expect(await listUnreadableRuns('evals')).toEqual([
			{ id: badId, kind: 'evals', problem: expect.stringContaining('/createdAt') as string },
		]);
	});
});
