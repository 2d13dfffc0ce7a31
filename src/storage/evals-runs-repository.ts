/**
 * Evals runs in IndexedDB: the run record (what ran, on which models, how far, the report) and one
 * row per finished sample, written as each sample finishes so a reload loses nothing. No Dexie
 * type leaks out: callers get the row shapes as plain records.
 */
import type { EvalEvent, FinalReport, SampleResult } from '../core/evals/types';
import type { RunStatus } from '../core/run/run-types';
import { db, type EvalsRunRow, type EvalsSampleRow } from './db';
import { guardQuota } from './storage-errors';

/** A stored Evals run, with its id. */
export type EvalsRunRecord = Readonly<Omit<EvalsRunRow, 'id'>> & { readonly id: number };

/** What a new run needs; status, progress and times are set here. */
export type EvalsRunDraft = Omit<
	EvalsRunRow,
	'id' | 'kind' | 'status' | 'progress' | 'updatedAt' | 'report' | 'errorMessage'
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

function toRecord(row: EvalsRunRow): EvalsRunRecord {
	if (row.id === undefined) throw new Error('a stored Evals run has no id');
	return { ...row, id: row.id };
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
		status: 'running',
		progress: { done: 0, total, tokens: 0, elapsedMs: 0 },
		createdAt: draft.createdAt,
		updatedAt: now,
	};
	const id = await guardQuota(() => db.evalsRuns.add(row));
	return toRecord({ ...row, id });
}

/** Updates status, progress, report or error; returns the record (undefined if deleted). */
export async function updateEvalsRun(
	id: number,
	update: EvalsRunUpdate,
	now = Date.now(),
): Promise<EvalsRunRecord | undefined> {
	await guardQuota(() =>
		db.evalsRuns.update(id, (row) => {
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
	const row = await db.evalsRuns.get(id);
	return row && toRecord(row);
}

/** Every Evals run, newest first. */
export async function listEvalsRuns(): Promise<EvalsRunRecord[]> {
	const rows = await db.evalsRuns.orderBy('createdAt').reverse().toArray();
	return rows.map(toRecord);
}

/** Runs a reload interrupted (`running`) or that stopped early (`cancelled`, `failed`), newest first. */
export async function listResumableEvalsRuns(): Promise<EvalsRunRecord[]> {
	const rows = await db.evalsRuns.where('status').anyOf('running', 'cancelled', 'failed').toArray();
	return rows
		.filter((row) => row.progress.done < row.progress.total)
		.sort((a, b) => b.createdAt - a.createdAt)
		.map(toRecord);
}

/** Stores (or replaces, on a resumed run) one finished sample. */
export async function saveEvalsSample(
	runId: number,
	sample: EvalsSampleRecord,
	now = Date.now(),
): Promise<void> {
	const row: EvalsSampleRow = {
		runId,
		sampleId: sample.sampleId,
		position: sample.position,
		result: sample.result,
		events: [...sample.events],
		savedAt: now,
	};
	await guardQuota(() => db.evalsSamples.put(row));
}

/** A run's finished samples in evaluation order. */
export async function listEvalsSamples(runId: number): Promise<EvalsSampleRecord[]> {
	const rows = await db.evalsSamples.where('runId').equals(runId).toArray();
	return rows
		.sort((a, b) => a.position - b.position)
		.map(({ sampleId, position, result, events }) => ({ sampleId, position, result, events }));
}

/** Deletes a run and its samples. */
export async function deleteEvalsRun(id: number): Promise<void> {
	await db.transaction('rw', db.evalsRuns, db.evalsSamples, async () => {
		await db.evalsSamples.where('runId').equals(id).delete();
		await db.evalsRuns.delete(id);
	});
}
