/**
 * Long-term-memory (LTM) runs in IndexedDB (the `ltm` kind of the one run store): the master log
 * of a run (definitions hashed, agent and judge specs without keys, memory span, isolation,
 * status, the summary once finished) and its scheduler state, saved after every step so that a
 * reload resumes exactly where the run stopped: the state without its log, and the log entry by
 * entry (append-only). No Dexie type leaks out.
 */
import { testsInRunOrder, type LtmRunState, type LtmSummaryJson } from '../../core/ltm';
import { LTM_RESUME } from '../../core/ltm/ltm-run-record';
import { LTM_STATE_KEY, type LtmRunRecord } from '../../core/kinds/run-record';
import type { LtmRunDraft } from '../../core/ltm/ltm-run-draft';
import type { RunStatus } from '../../core/run/run-types';
import { db, type LtmRunRow } from '../shared/db';
import {
	listResumableRowsOfKind,
	listRowsOfKind,
	withId,
	writeRunUpdate,
} from '../shared/run-rows';
import { guardQuota } from '../shared/storage-errors';

/** A stored LTM run, with its id. */
export type { LtmRunRecord };

/** What a new run needs (core's draft); status, progress, times and title are set here. */
export type { LtmRunDraft };

/** Fields that change while a run goes on. `errorMessage: undefined` clears it. */
export interface LtmRunUpdate {
	readonly status?: RunStatus;
	readonly progress?: LtmRunRow['progress'];
	readonly summary?: LtmSummaryJson;
	readonly errorMessage?: string | undefined;
}

/** Stores a new run with status `running` and no test finished. */
export async function createLtmRun(draft: LtmRunDraft, now = Date.now()): Promise<LtmRunRecord> {
	const row: LtmRunRow = {
		...draft,
		kind: 'ltm',
		title: draft.runName,
		status: 'running',
		progress: {
			testsDone: 0,
			testsTotal: draft.definitions.benchmark.tests.length,
			tokens: 0,
			elapsedMs: 0,
		},
		updatedAt: now,
	};
	const id = await guardQuota(() => db.runs.add(row));
	return withId({ ...row, id });
}

/** Updates status, progress, summary or error; returns the record (undefined if deleted). */
export async function updateLtmRun(
	id: number,
	update: LtmRunUpdate,
	now = Date.now(),
): Promise<LtmRunRecord | undefined> {
	await writeRunUpdate(id, 'ltm', update, now);
	return getLtmRun(id);
}

export async function getLtmRun(id: number): Promise<LtmRunRecord | undefined> {
	const row = await db.runs.get(id);
	return row?.kind === 'ltm' ? withId(row) : undefined;
}

/** Every LTM run, newest first. */
export async function listLtmRuns(): Promise<LtmRunRecord[]> {
	const rows = await listRowsOfKind('ltm');
	return rows.map(withId);
}

/** The runs the one resume rule (core/run/resume-plan) offers to resume, newest first. */
export async function listResumableLtmRuns(): Promise<LtmRunRecord[]> {
	return (await listResumableRowsOfKind(LTM_RESUME)).map(withId);
}

/**
 * Saves a step of a run in one transaction, in time that does not grow with the run: the state
 * without its log and tests (the tests are the run record's, in run order), the log entries from
 * `logFrom` on (each stored once, keyed by its index; if the entries before `logFrom` are not
 * stored, as for a run saved by an earlier release, the whole log is), and, when given, the run's
 * progress (the run record holds the definitions, so the caller updates it only now and then).
 */
export async function saveLtmState(
	runId: number,
	state: LtmRunState,
	logFrom: number,
	progress?: LtmRunRecord['progress'],
	now = Date.now(),
): Promise<void> {
	await guardQuota(() =>
		db.transaction('rw', db.runs, db.runItems, async () => {
			const before = logFrom > 0 ? await db.runItems.get([runId, logFrom - 1]) : undefined;
			const from = before?.kind === 'ltm-log' ? logFrom : 0;
			await db.runItems.bulkPut(
				state.log
					.slice(from)
					.map((entry, index) => ({ runId, kind: 'ltm-log', key: from + index, entry })),
			);
			const stored: LtmRunState = { ...state, tests: [], log: [] };
			await db.runItems.put({
				runId,
				kind: 'ltm-state',
				key: LTM_STATE_KEY,
				state: stored,
				savedAt: now,
			});
			if (progress === undefined) return;
			await db.runs.update(runId, (row) => {
				if (row.kind !== 'ltm') return;
				row.progress = progress;
				row.updatedAt = now;
			});
		}),
	);
}

/**
 * The last saved state of a run, or undefined before its first step: the stored state joined with
 * the run's tests and its stored log entries; a state an earlier release saved holds both already.
 */
export async function getLtmState(runId: number): Promise<LtmRunState | undefined> {
	return db.transaction('r', db.runs, db.runItems, async () => {
		const row = await db.runItems.get([runId, LTM_STATE_KEY]);
		if (row?.kind !== 'ltm-state') return undefined;
		if (row.state.tests.length > 0) return row.state;
		const run = await db.runs.get(runId);
		if (run?.kind !== 'ltm') return undefined;
		const entries = await db.runItems
			.where('[runId+key]')
			.between([runId, 0], [runId, Infinity], true, true)
			.toArray();
		const log = entries.flatMap((item) => (item.kind === 'ltm-log' ? [item.entry] : []));
		return { ...row.state, tests: testsInRunOrder(run.definitions.benchmark.tests), log };
	});
}

/** Deletes a run and its state. */
export async function deleteLtmRun(id: number): Promise<void> {
	await db.transaction('rw', db.runs, db.runItems, async () => {
		const run = await db.runs.get(id);
		if (run && run.kind !== 'ltm') return;
		await db.runItems.where('runId').equals(id).delete();
		await db.runs.delete(id);
	});
}
