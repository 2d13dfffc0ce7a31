/**
 * Evals runs in IndexedDB (the `evals` kind of the one run store): the run row (what ran, on which
 * models, how far, the report), its input as one item (the resolved eval with every sample, and the
 * replay texts: written once, so a progress write stays small however big the registry), and one
 * item per finished sample, written as each sample finishes so a reload loses nothing. No Dexie
 * type leaks out: callers get the core's records.
 */
import type { EvalEvent, FinalReport, SampleResult } from '../../core/evals/shared/types';
import { EVALS_RESUME } from '../../core/evals/evals-run-record';
import {
	EVALS_INPUT_KEY,
	type EvalsInputItemRecord,
	type EvalsRunRecord,
	type EvalsSampleItemRecord,
	type RunItemRecord,
} from '../../core/kinds/run-record';
import type { RunStatus } from '../../core/run/run-types';
import { db, type EvalsRunRow } from '../shared/db';
import {
	listResumableRowsOfKind,
	listRowsOfKind,
	withId,
	writeRunUpdate,
} from '../shared/run-rows';
import { guardQuota } from '../shared/storage-errors';

/** A stored Evals run, with its id. */
export type { EvalsRunRecord };

/**
 * A stored Evals run without its input (the resolved eval with every sample, the replay texts):
 * what a list of runs needs. Reading the input back is a structured clone of up to tens of MB.
 */
export type EvalsRunSummary = Omit<EvalsRunRecord, 'spec' | 'replayTexts'>;

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
	const { total, spec, replayTexts, ...rest } = draft;
	const row: EvalsRunRow = {
		...rest,
		kind: 'evals',
		title: draft.evalName,
		status: 'running',
		progress: { done: 0, total, tokens: 0, elapsedMs: 0 },
		createdAt: draft.createdAt,
		updatedAt: now,
	};
	const id = await guardQuota(() =>
		db.transaction('rw', db.runs, db.runItems, async () => {
			const runId = await db.runs.add(row);
			const input: EvalsInputItemRecord = {
				runId,
				kind: 'evals-input',
				key: EVALS_INPUT_KEY,
				spec,
				replayTexts,
				savedAt: now,
			};
			await db.runItems.put(input);
			return runId;
		}),
	);
	return { ...withId({ ...row, id }), spec, replayTexts };
}

/** Updates status, progress, report or error; returns the record (undefined if deleted). */
export async function updateEvalsRun(
	id: number,
	update: EvalsRunUpdate,
	now = Date.now(),
): Promise<EvalsRunRecord | undefined> {
	await writeEvalsRunUpdate(id, update, now);
	return getEvalsRun(id);
}

/**
 * Updates the run row only, reading nothing back: what a run calls after every sample (the row is
 * small; the input item is not touched).
 */
export async function writeEvalsRunUpdate(
	id: number,
	update: EvalsRunUpdate,
	now = Date.now(),
): Promise<void> {
	await writeRunUpdate(id, 'evals', update, now);
}

export async function getEvalsRun(id: number): Promise<EvalsRunRecord | undefined> {
	const row = await db.runs.get(id);
	if (row?.kind !== 'evals') return undefined;
	return (await withInputs([row]))[0];
}

/** Every Evals run, newest first. */
export async function listEvalsRuns(): Promise<EvalsRunRecord[]> {
	return withInputs(await listRowsOfKind('evals'));
}

/** Every Evals run without its input, newest first: the page's list (no big read per refresh). */
export async function listEvalsRunSummaries(): Promise<EvalsRunSummary[]> {
	return (await listRowsOfKind('evals')).map(withId);
}

/** The runs the one resume rule (core/run/resume-plan) offers to resume, newest first. */
export async function listResumableEvalsRuns(): Promise<EvalsRunRecord[]> {
	return withInputs(await listResumableRowsOfKind(EVALS_RESUME));
}

/** Run rows joined with their input items (a row whose input is missing is left out). */
async function withInputs(rows: readonly EvalsRunRow[]): Promise<EvalsRunRecord[]> {
	const keys = rows.map((row): [number, string] => [row.id ?? -1, EVALS_INPUT_KEY]);
	const inputs = await db.runItems.bulkGet(keys);
	return rows.flatMap((row, index) => {
		const input = inputs[index];
		if (input?.kind !== 'evals-input') return [];
		return [{ ...withId(row), spec: input.spec, replayTexts: input.replayTexts }];
	});
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
