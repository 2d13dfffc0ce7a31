/**
 * Suite runs in IndexedDB (the `suite` kind of the one run store): create, update progress and
 * status, history, delete (with their item results), and import of a whole run. Runs of every
 * kind are shared/runs-repository.ts's. Returns the core's records; no Dexie type leaks out.
 */
import { SUITE_RESUME } from '../../core/syntaxgym/run/suite-run';
import type { RunStatus } from '../../core/run/run-types';
import type { ItemResult, RunDraft, SuiteRun } from '../../core/syntaxgym/run/suite-run';
import { db, type RunRow, type SuiteRunRow } from '../shared/db';
import {
	listCheckedRowsOfKind,
	listResumableRowsOfKind,
	listRowsOfKind,
	storedRunProblem,
	writeRunUpdate,
	type UnreadableRun,
} from '../shared/run-rows';
import { ImportCancelledError, UnreadableRunError, guardQuota } from '../shared/storage-errors';
import { saveSuite, type SuiteToSave } from './suites-repository';
import { IMPORT_CHUNK_ITEMS, suiteItemChunks, type SuiteItemChunk } from './suite-item-chunks';

/** Fields of a run that change while it is scored. `errorMessage: undefined` clears it. */
export interface SuiteRunUpdate {
	readonly status?: RunStatus;
	readonly model?: RunDraft['model'];
	readonly scoringMs?: number;
	readonly tokenCount?: number;
	readonly errorMessage?: string | undefined;
	readonly fallbackReason?: string | undefined;
}

/** Stores a new run with status `running` and no items done. */
export async function createSuiteRun(draft: RunDraft): Promise<SuiteRun> {
	const row: SuiteRunRow = {
		...draft,
		kind: 'suite',
		title: draft.suiteName,
		status: 'running',
		itemsDone: 0,
		updatedAt: draft.createdAt,
		scoringMs: 0,
		tokenCount: 0,
	};
	const id = await guardQuota(() => db.runs.add(row));
	return toSuiteRun({ ...row, id });
}

/** A suite to save to the library and the run of it to store (its draft names the suite). */
export interface SuiteRunToStart {
	readonly suite: SuiteToSave;
	readonly draft: (suiteSha256: string) => RunDraft;
}

/**
 * Saves each suite to the library and stores a run of it, all in one transaction: a battery's
 * suites are stored together or not at all, and 34 of them are not 68 transactions.
 */
export async function createSuiteRuns(starts: readonly SuiteRunToStart[]): Promise<SuiteRun[]> {
	return guardQuota(() =>
		db.transaction('rw', db.suites, db.runs, async () => {
			const runs: SuiteRun[] = [];
			for (const start of starts) {
				const saved = await saveSuite(start.suite);
				runs.push(await createSuiteRun(start.draft(saved.sha256)));
			}
			return runs;
		}),
	);
}

/**
 * Updates several runs in one transaction: `updateOf` gets each run as stored (undefined when
 * it is gone or cannot be read) and gives its update. Returns the updated records, in `ids`'
 * order (undefined for a run gone or unreadable).
 */
export async function updateSuiteRuns(
	ids: readonly number[],
	updateOf: (stored: SuiteRun | undefined, index: number) => SuiteRunUpdate,
	now = Date.now(),
): Promise<(SuiteRun | undefined)[]> {
	return db.transaction('rw', db.runs, async () => {
		const updated: (SuiteRun | undefined)[] = [];
		for (const [index, id] of ids.entries()) {
			const stored = await getSuiteRun(id).catch(() => undefined);
			await writeRunUpdate(id, 'suite', updateOf(stored, index), now);
			updated.push(await getSuiteRun(id).catch(() => undefined));
		}
		return updated;
	});
}

/** Updates a run's status or counters; returns the updated record (undefined if deleted). */
export async function updateSuiteRun(
	id: number,
	update: SuiteRunUpdate,
	now = Date.now(),
): Promise<SuiteRun | undefined> {
	await writeRunUpdate(id, 'suite', update, now);
	return getSuiteRun(id);
}

/** The suite runs of a battery, in the battery's suite order (empty for an unknown id). */
export async function listBatteryRuns(batteryId: string): Promise<SuiteRun[]> {
	const runs = await listSuiteRuns();
	return runs
		.filter((run) => run.battery?.id === batteryId)
		.sort((a, b) => (a.battery?.index ?? 0) - (b.battery?.index ?? 0));
}

/**
 * A suite run (undefined for a missing id or a run of another kind).
 * @throws UnreadableRunError when the stored record cannot be shown (a time a date cannot hold …)
 */
export async function getSuiteRun(id: number): Promise<SuiteRun | undefined> {
	const row = await db.runs.get(id);
	if (row?.kind !== 'suite') return undefined;
	const problem = storedRunProblem(row);
	if (problem !== null) throw new UnreadableRunError(id, problem);
	return toSuiteRun(row);
}

/** The suite-run history, newest first (unreadable records left out). */
export async function listSuiteRuns(): Promise<SuiteRun[]> {
	const rows = await listRowsOfKind('suite');
	return rows.map(toSuiteRun);
}

/**
 * The suite-run history as the History page lists it: the runs it can show, newest first, and
 * apart the records it cannot (a suite run's, or one of no known kind), to be deleted.
 */
export async function listSuiteRunHistory(): Promise<{
	readonly runs: SuiteRun[];
	readonly unreadable: UnreadableRun[];
}> {
	const { rows, unreadable } = await listCheckedRowsOfKind('suite', true);
	return { runs: rows.map(toSuiteRun), unreadable };
}

/** Runs of one suite (by the SHA-256 of its text), newest first: what "compare" offers. */
export async function listRunsForSuite(suiteSha256: string): Promise<SuiteRun[]> {
	const rows = await db.runs.where('suiteSha256').equals(suiteSha256).toArray();
	return rows
		.filter(isSuiteRow)
		.filter((row) => storedRunProblem(row) === null)
		.sort((a, b) => b.createdAt - a.createdAt)
		.map(toSuiteRun);
}

/**
 * The runs the one resume rule (core/run/resume-plan) offers to resume, newest first: left
 * `running` (the tab was closed or reloaded while scoring), `cancelled` or `failed`, with items
 * missing.
 */
export async function listResumableSuiteRuns(): Promise<SuiteRun[]> {
	return (await listResumableRowsOfKind(SUITE_RESUME)).map(toSuiteRun);
}

/** Deletes a run, its item results, and its suite when that is unlisted and no longer used. */
export async function deleteSuiteRun(id: number): Promise<void> {
	await db.transaction('rw', db.runs, db.runItems, db.suites, async () => {
		const run = await db.runs.get(id);
		if (run && !isSuiteRow(run)) return;
		await db.runItems.where('runId').equals(id).delete();
		await db.runs.delete(id);
		if (!run) return;
		const suite = await db.suites.get(run.suiteSha256);
		const stillUsed = await db.runs.where('suiteSha256').equals(run.suiteSha256).count();
		if (suite && suite.listed === 0 && stillUsed === 0) await db.suites.delete(suite.sha256);
	});
}

/**
 * A whole run to import (from a JSON bundle): its record, suite text and items, or the items
 * already as chunks (suiteItemChunks, as the parse worker sends them).
 */
export type SuiteRunToImport = {
	readonly run: Omit<SuiteRun, 'id' | 'itemsDone'>;
	readonly suite: SuiteToSave;
} & ({ readonly items: readonly ItemResult[] } | { readonly chunks: readonly SuiteItemChunk[] });

/** How an import goes: cancel, and items stored so far. */
export interface ImportOptions {
	/** Aborting it rolls the import back (nothing of it stays stored); ImportCancelledError. */
	readonly signal?: AbortSignal;
	/** Called after each chunk: items written so far and in all (written, not yet committed). */
	readonly onProgress?: (stored: number, total: number) => void;
	/** Items per stored chunk row when `items` are given (default {@link IMPORT_CHUNK_ITEMS}). */
	readonly chunkItems?: number;
}

export { IMPORT_CHUNK_ITEMS };

/**
 * Imports a run as a new run of this browser (a new id), saving its suite to the library.
 * All or nothing, in one transaction: the items, in item-number order, go many to a row (chunk
 * rows of `chunkItems`), progress said after each; a failure (e.g. a full quota, an item number
 * twice), a cancel or a closed tab leaves no partial run behind.
 * @throws ImportCancelledError when `signal` aborts; StorageQuotaError; RangeError for an item
 * number that appears twice (or chunks out of item-number order)
 */
export async function importSuiteRun(
	imported: SuiteRunToImport,
	options: ImportOptions = {},
): Promise<SuiteRun> {
	const { signal, onProgress, chunkItems = IMPORT_CHUNK_ITEMS } = options;
	const stopIfCancelled = (): void => {
		if (signal?.aborted) throw new ImportCancelledError();
	};
	stopIfCancelled();
	const chunks =
		'chunks' in imported ? imported.chunks : suiteItemChunks(imported.items, chunkItems);
	checkChunkOrder(chunks);
	const total = chunks.reduce((sum, chunk) => sum + chunk.itemNumbers.length, 0);
	const id = await guardQuota(() =>
		db.transaction('rw', db.runs, db.runItems, db.suites, async () => {
			const suite = await saveSuite(imported.suite, imported.run.createdAt);
			const savedAt = imported.run.updatedAt;
			const row: SuiteRunRow = {
				...imported.run,
				kind: 'suite',
				title: imported.run.suiteName,
				suiteSha256: suite.sha256,
				itemsDone: total,
			};
			const runId = await db.runs.add(row);
			let stored = 0;
			for (const chunk of chunks) {
				stopIfCancelled();
				// An add, not a put: the run is new, so a row already there is a fault.
				await db.runItems.add({ runId, ...chunk, savedAt });
				stored += chunk.itemNumbers.length;
				onProgress?.(stored, total);
			}
			stopIfCancelled();
			return runId;
		}),
	);
	const record = await getSuiteRun(id);
	if (!record) throw new Error(`imported run ${id} vanished`);
	return record;
}

/** Chunks in ascending item-number order, none empty. @throws RangeError */
function checkChunkOrder(chunks: readonly SuiteItemChunk[]): void {
	let previous = -Infinity;
	for (const chunk of chunks) {
		const first = chunk.itemNumbers[0];
		const last = chunk.itemNumbers.at(-1);
		if (first === undefined || last === undefined || !(first > previous)) {
			throw new RangeError('chunks of an import must be non-empty and in item-number order');
		}
		previous = last;
	}
}

function isSuiteRow(row: RunRow): row is SuiteRunRow {
	return row.kind === 'suite';
}

/** The suite pages' record: the row without the one store's `kind` and `title`. */
function toSuiteRun(row: SuiteRunRow): SuiteRun {
	if (row.id === undefined) throw new Error('a stored run has no id');
	const { id, errorMessage, fallbackReason, kind: _kind, title: _title, ...rest } = row;
	return {
		...rest,
		id,
		...(errorMessage === undefined ? {} : { errorMessage }),
		...(fallbackReason === undefined ? {} : { fallbackReason }),
	};
}
