/**
 * Evals runs in IndexedDB (the `evals` kind of the one run store): the run record (what ran, on
 * which models, how far, the report) and one item per finished sample, written as each sample
 * finishes so a reload loses nothing. No Dexie type leaks out: callers get the core's records.
 */
import type { EvalEvent, FinalReport, SampleResult } from '../core/evals/types';
import type { EvalsRunRecord, EvalsSampleItemRecord, RunItemRecord } from '../core/run/run-record';
import type { RunStatus } from '../core/run/run-types';
import { db, type EvalsRunRow } from './db';
import { listRowsOfKind, listRowsOfKindWithStatus, withId } from './run-rows';
import { guardQuota } from './storage-errors';

/** A stored Evals run, with its id. */
export type { EvalsRunRecord };

/** What a new run needs; status, progress, times and title are set here. */
export type EvalsRunDraft = Omit<
	EvalsRunRecord,
	'id' | 'kind' | 'title' | 'status' | 'progress' | 'updatedAt' | 'report' | 'errorMessage'
> & { readonly total: number };

/** Fields that change while a run goes on. `errorMessage: undefined` clears it. */
export interface EvalsRunUpdate {
	readonly status?: RunStatus;
	readonly progress?: EvalsRunRow['progress'];
	readonly report?: FinalReport;
	readonly errorMessage?: string | undefined;
}

/** A finished sample as stored. */
export interface EvalsSampleRecord {
	readonly sampleId: string;
	readonly position: number;
	readonly result: SampleResult;
	readonly events: readonly EvalEvent[];
}

/** Stores a new run with status `running` and nothing done. */
export async function createEvalsRun(
	draft: EvalsRunDraft,
	now = Date.now(),
): Promise<EvalsRunRecord> {
	const { total, ...rest } = draft;
	const row: EvalsRunRow = {
		...rest,
		kind: 'evals',
		title: draft.evalName,
		status: 'running',
		progress: { done: 0, total, tokens: 0, elapsedMs: 0 },
		createdAt: draft.createdAt,
		updatedAt: now,
	};
	const id = await guardQuota(() => db.runs.add(row));
	return withId({ ...row, id });
}

/** Updates status, progress, report or error; returns the record (undefined if deleted). */
export async function updateEvalsRun(
	id: number,
	update: EvalsRunUpdate,
	now = Date.now(),
): Promise<EvalsRunRecord | undefined> {
	await guardQuota(() =>
		db.runs.update(id, (row) => {
			if (row.kind !== 'evals') return;
			for (const [key, value] of Object.entries(update) as [keyof EvalsRunUpdate, unknown][]) {
				if (value === undefined) delete row[key];
				else Object.assign(row, { [key]: value });
			}
			row.updatedAt = now;
		}),
	);
	return getEvalsRun(id);
}

export async function getEvalsRun(id: number): Promise<EvalsRunRecord | undefined> {
	const row = await db.runs.get(id);
	return row?.kind === 'evals' ? withId(row) : undefined;
}

/** Every Evals run, newest first. */
export async function listEvalsRuns(): Promise<EvalsRunRecord[]> {
	const rows = await listRowsOfKind('evals');
	return rows.map(withId);
}

/** Runs a reload interrupted (`running`) or that stopped early (`cancelled`, `failed`), newest first. */
export async function listResumableEvalsRuns(): Promise<EvalsRunRecord[]> {
	const rows = await listRowsOfKindWithStatus('evals', ['running', 'cancelled', 'failed']);
	return rows.filter((row) => row.progress.done < row.progress.total).map(withId);
}

/** Stores (or replaces, on a resumed run) one finished sample. */
export async function saveEvalsSample(
	runId: number,
	sample: EvalsSampleRecord,
	now = Date.now(),
): Promise<void> {
	const row: EvalsSampleItemRecord = {
		runId,
		kind: 'evals-sample',
		key: sample.sampleId,
		position: sample.position,
		result: sample.result,
		events: [...sample.events],
		savedAt: now,
	};
	await guardQuota(() => db.runItems.put(row));
}

/** A run's finished samples in evaluation order. */
export async function listEvalsSamples(runId: number): Promise<EvalsSampleRecord[]> {
	const rows = await db.runItems.where('runId').equals(runId).toArray();
	return rows
		.filter(isEvalsSample)
		.sort((a, b) => a.position - b.position)
		.map(({ key, position, result, events }) => ({ sampleId: key, position, result, events }));
}

/** Deletes a run and its samples. */
export async function deleteEvalsRun(id: number): Promise<void> {
	await db.transaction('rw', db.runs, db.runItems, async () => {
		const run = await db.runs.get(id);
		if (run && run.kind !== 'evals') return;
		await db.runItems.where('runId').equals(id).delete();
		await db.runs.delete(id);
	});
}

function isEvalsSample(row: RunItemRecord): row is EvalsSampleItemRecord {
	return row.kind === 'evals-sample';
}
