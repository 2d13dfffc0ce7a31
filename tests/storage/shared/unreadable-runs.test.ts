// Stored run records that pages cannot show (issue 28 item 2): a time a date cannot hold, a row of
// no known kind. Listing shows the good runs and lists the bad records apart; those delete.
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../../src/storage/shared/db';
import { createEvalsRun } from '../../../src/storage/evals/evals-runs-repository';
import { listEvalsRuns } from '../../../src/storage/evals/evals-runs-repository';
import { saveItemResult } from '../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	getSuiteRun,
	listSuiteRunHistory,
	listSuiteRuns,
} from '../../../src/storage/syntaxgym/suite-runs-repository';
import {
	deleteUnreadableRun,
	listAllRuns,
	listUnreadableRuns,
} from '../../../src/storage/shared/runs-repository';
import { UnreadableRunError } from '../../../src/storage/shared/storage-errors';
import { clearDatabase } from '../clear-database';
import { evalsRunDraft, itemResult, runDraft } from '../fixtures';

beforeEach(clearDatabase);

/** Writes a stored row as an older version or an edit in the browser's storage could leave it. */
async function plantRow(row: Record<string, unknown>): Promise<number> {
	return (await db.runs.add(row as never)) as number;
}

describe('unreadable run records', () => {
	it('lists the good runs and the bad record apart, located; the bad one deletes with its items', async () => {
		const older = await createSuiteRun(runDraft({ createdAt: 1_700_000_000_000 }));
		const newer = await createSuiteRun(runDraft({ createdAt: 1_700_000_100_000 }));
		const good = await db.runs.get(older.id);
		const badId = await plantRow({ ...good, id: undefined, createdAt: 8.65e15 });
		await saveItemResult(badId, itemResult(1));
		const straysId = await plantRow({ title: 'x', status: 'done' });

		const history = await listSuiteRunHistory();
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
		expect((await listSuiteRuns()).map((run) => run.id)).toEqual([newer.id, older.id]);
		expect((await listAllRuns()).map((run) => run.id)).toEqual([newer.id, older.id]);
		await expect(getSuiteRun(badId)).rejects.toBeInstanceOf(UnreadableRunError);

		expect(await deleteUnreadableRun(badId)).toBe(true);
		expect(await db.runs.get(badId)).toBeUndefined();
		expect(await db.runItems.where('runId').equals(badId).count()).toBe(0);
		expect(await deleteUnreadableRun(straysId)).toBe(true);
		expect(await listSuiteRunHistory()).toEqual({ runs: await listSuiteRuns(), unreadable: [] });
	});

	it('never deletes a run that reads well through the unreadable path', async () => {
		const run = await createSuiteRun(runDraft());
		expect(await deleteUnreadableRun(run.id)).toBe(false);
		expect(await getSuiteRun(run.id)).toBeDefined();
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
