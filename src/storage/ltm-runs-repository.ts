/**
 * Long-term-memory (LTM) runs in IndexedDB: the master log of a run (definitions hashed, agent
 * and judge specs without keys, memory span, isolation, status, the summary once finished) and
 * its scheduler state with the conversation log, saved after every step so that a reload resumes
 * exactly where the run stopped. No Dexie type leaks out.
 */
import type { LtmRunState, LtmSummaryJson } from '../core/ltm';
import type { RunStatus } from '../core/run/run-types';
import { db, type LtmRunRow } from './db';
import { guardQuota } from './storage-errors';

/** A stored LTM run, with its id. */
export type LtmRunRecord = Readonly<Omit<LtmRunRow, 'id'>> & { readonly id: number };

/** What a new run needs; status, progress and times are set here. */
export type LtmRunDraft = Omit<
	LtmRunRow,
	'id' | 'kind' | 'status' | 'progress' | 'updatedAt' | 'summary' | 'errorMessage'
>;

/** Fields that change while a run goes on. `errorMessage: undefined` clears it. */
export interface LtmRunUpdate {
	readonly status?: RunStatus;
	readonly progress?: LtmRunRow['progress'];
	readonly summary?: LtmSummaryJson;
	readonly errorMessage?: string | undefined;
}

function toRecord(row: LtmRunRow): LtmRunRecord {
	if (row.id === undefined) throw new Error('a stored LTM run has no id');
	return { ...row, id: row.id };
}

/** Stores a new run with status `running` and no test finished. */
export async function createLtmRun(draft: LtmRunDraft, now = Date.now()): Promise<LtmRunRecord> {
	const row: LtmRunRow = {
		...draft,
		kind: 'ltm',
		status: 'running',
		progress: {
			testsDone: 0,
			testsTotal: draft.definitions.benchmark.tests.length,
			tokens: 0,
			elapsedMs: 0,
		},
		updatedAt: now,
	};
	const id = await guardQuota(() => db.ltmRuns.add(row));
	return toRecord({ ...row, id });
}

/** Updates status, progress, summary or error; returns the record (undefined if deleted). */
export async function updateLtmRun(
	id: number,
	update: LtmRunUpdate,
	now = Date.now(),
): Promise<LtmRunRecord | undefined> {
	await guardQuota(() =>
		db.ltmRuns.update(id, (row) => {
			for (const [key, value] of Object.entries(update) as [keyof LtmRunUpdate, unknown][]) {
				if (value === undefined) delete row[key];
				else Object.assign(row, { [key]: value });
			}
			row.updatedAt = now;
		}),
	);
	return getLtmRun(id);
}

export async function getLtmRun(id: number): Promise<LtmRunRecord | undefined> {
	const row = await db.ltmRuns.get(id);
	return row && toRecord(row);
}

/** Every LTM run, newest first. */
export async function listLtmRuns(): Promise<LtmRunRecord[]> {
	const rows = await db.ltmRuns.orderBy('createdAt').reverse().toArray();
	return rows.map(toRecord);
}

/** Runs a reload interrupted (`running`) or that stopped early (`cancelled`, `failed`), newest first. */
export async function listResumableLtmRuns(): Promise<LtmRunRecord[]> {
	const rows = await db.ltmRuns.where('status').anyOf('running', 'cancelled', 'failed').toArray();
	return rows.sort((a, b) => b.createdAt - a.createdAt).map(toRecord);
}

/**
 * Saves the scheduler state (log included) and the run's progress in one transaction: what a
 * reload resumes from is always the state the progress describes.
 */
export async function saveLtmState(
	runId: number,
	state: LtmRunState,
	progress: LtmRunRow['progress'],
	now = Date.now(),
): Promise<void> {
	await guardQuota(() =>
		db.transaction('rw', db.ltmRuns, db.ltmStates, async () => {
			await db.ltmStates.put({ runId, state, savedAt: now });
			await db.ltmRuns.update(runId, { progress, updatedAt: now });
		}),
	);
}

/** The last saved state of a run, or undefined before its first step. */
export async function getLtmState(runId: number): Promise<LtmRunState | undefined> {
	return (await db.ltmStates.get(runId))?.state;
}

/** Deletes a run and its state. */
export async function deleteLtmRun(id: number): Promise<void> {
	await db.transaction('rw', db.ltmRuns, db.ltmStates, async () => {
		await db.ltmStates.delete(id);
		await db.ltmRuns.delete(id);
	});
}
