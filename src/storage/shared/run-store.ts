/**
 * The one run store seen through the kind registry: runs of every registered kind listed,
 * checked, resumed, deleted, and (for kinds that say how: `toStored` / `fromStored`) imported
 * from and exported to their sealed bundles. Nothing here names a kind; a kind registered on
 * RUN_KIND_REGISTRY gets all of it. Returns the core's records; no Dexie type leaks out.
 */
import { RUN_KIND_REGISTRY } from '../../core/kinds/registered-kinds';
import type { KindRegistry, UnreadableRun } from '../../core/kinds/kind-registry';
import { UNFINISHED_STATUSES } from '../../core/run/resume-plan';
import type { StoredRunItem } from '../../core/run/run-kind';
import type { RunRecordBase } from '../../core/run/run-types';
import { db, type RunItemRow, type RunRow } from './db';
import { guardQuota } from './storage-errors';
import { writeRunUpdate } from './run-rows';

/** The registry with each kind's own types forgotten: code here handles every kind alike. */
const KINDS: KindRegistry = RUN_KIND_REGISTRY;

/** A stored run of any kind, with its id. */
export type StoredRunRecord = RunRecordBase<string> & Record<string, unknown>;

/** A run of any kind before storage gives it an id. */
export type NewStoredRun = Omit<RunRecordBase<string>, 'id'> & Record<string, unknown>;

/** The runs of every registered kind pages can show, newest first, and the rows they cannot. */
export interface AllRuns {
	readonly runs: StoredRunRecord[];
	readonly unreadable: UnreadableRun[];
}

/** Every stored run, checked by its kind; a row of no registered kind is listed as unreadable. */
export async function listRunsOfEveryKind(): Promise<AllRuns> {
	const rows: unknown[] = await db.runs.toArray();
	const runs: StoredRunRecord[] = [];
	const unreadable: UnreadableRun[] = [];
	for (const row of rows) {
		const id = (row as { id?: unknown }).id;
		if (typeof id !== 'number') continue;
		const problem = KINDS.storedRunProblem(row);
		if (problem === null) runs.push(row as StoredRunRecord);
		else unreadable.push(KINDS.unreadableRun(id, row, problem));
	}
	runs.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
	unreadable.sort((a, b) => b.id - a.id);
	return { runs, unreadable };
}

/** The runs of every kind that their kind's resume rule offers to resume, newest first. */
export async function listResumableRunsOfEveryKind(): Promise<StoredRunRecord[]> {
	const rows: unknown[] = await db.runs.where('status').anyOf(UNFINISHED_STATUSES).toArray();
	return rows
		.filter((row): row is StoredRunRecord => KINDS.storedRunProblem(row) === null)
		.filter((run) => KINDS.resumePlan(run) !== null)
		.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
}

/** A stored run that pages can show (undefined: no such run, or not readable). */
export async function getRunOfAnyKind(id: number): Promise<StoredRunRecord | undefined> {
	const row: unknown = await db.runs.get(id);
	return row !== undefined && KINDS.storedRunProblem(row) === null
		? (row as StoredRunRecord)
		: undefined;
}

/** The stored pieces of a run (items, samples, log entries), in key order. */
export async function listRunItemsOfAnyKind(runId: number): Promise<StoredRunItem[]> {
	const rows = await db.runItems.where('runId').equals(runId).sortBy('key');
	return rows.map(({ runId: _runId, ...item }) => item as StoredRunItem);
}

/**
 * Reads a bundle of any registered kind and stores it as a new run of this browser (a new id),
 * with its pieces, all or nothing in one transaction.
 * @throws Error naming where the bundle is wrong, or that its kind imports on its own page;
 *   StorageQuotaError
 */
export async function importRunBundleOfAnyKind(text: string): Promise<StoredRunRecord> {
	const read = KINDS.readBundle(text);
	if (!read.ok) throw new Error(`${read.pointer || '/'}: ${read.message}`);
	return storeRunBundleOfAnyKind(read.kind, read.bundle);
}

/**
 * Stores a bundle of the registered kind `name`, already read by its kind's reader, as a new run
 * of this browser (a new id), with its pieces, all or nothing in one transaction.
 * @throws Error when its kind imports on its own page (or is not registered); StorageQuotaError
 */
export async function storeRunBundleOfAnyKind(
	name: string,
	bundle: unknown,
): Promise<StoredRunRecord> {
	const kind = KINDS.get(name);
	if (kind?.toStored === undefined) {
		throw new Error(
			`${kind?.label ?? name} runs are imported on the ${kind?.page.name ?? ''} page.`,
		);
	}
	const stored = kind.toStored(bundle);
	const id = await guardQuota(() =>
		db.transaction('rw', db.runs, db.runItems, async () => {
			const runId = await db.runs.add({ ...stored.run, kind: kind.kind } as unknown as RunRow);
			await db.runItems.bulkAdd(
				stored.items.map((item) => ({ ...item, runId }) as unknown as RunItemRow),
			);
			return runId;
		}),
	);
	const run = await getRunOfAnyKind(id);
	if (run === undefined) throw new Error(`The imported run ${id} cannot be read back.`);
	return run;
}

/**
 * A stored run as its kind's sealed bundle text.
 * @throws Error when the run is gone or unreadable, or its kind exports on its own page
 */
export async function exportRunBundleOfAnyKind(id: number): Promise<string> {
	const run = await getRunOfAnyKind(id);
	if (run === undefined) throw new Error(`Run ${id} is not stored here (or cannot be read).`);
	const kind = KINDS.of(run);
	if (kind.fromStored === undefined) {
		throw new Error(`${kind.label} runs are exported on the ${kind.page.name} page.`);
	}
	return kind.bundle.write(kind.fromStored(run, await listRunItemsOfAnyKind(id)));
}

/** Stores a new run of a registered kind (its page starts it); returns it with its id. */
export async function createRunOfAnyKind(run: NewStoredRun): Promise<StoredRunRecord> {
	if (KINDS.get(run.kind) === undefined) {
		throw new Error(`Runs of kind "${run.kind}" are not known here.`);
	}
	const id = await guardQuota(() => db.runs.add(run as unknown as RunRow));
	return { ...run, id } as StoredRunRecord;
}

/** Stores pieces of a run (their keys replace stored ones). */
export async function putRunItemsOfAnyKind(
	runId: number,
	items: readonly StoredRunItem[],
): Promise<void> {
	await guardQuota(() =>
		db.runItems.bulkPut(items.map((item) => ({ ...item, runId }) as unknown as RunItemRow)),
	);
}

/** Changes fields of a stored run of any kind (not its id or kind); `updatedAt` is set to `now`. */
export async function updateRunOfAnyKind(
	id: number,
	changes: Readonly<Record<string, unknown>>,
	now = Date.now(),
): Promise<void> {
	await writeRunUpdate(id, null, changes, now);
}

/** Deletes a run of any kind with every piece stored under its id. */
export async function deleteRunOfAnyKind(id: number): Promise<void> {
	await db.transaction('rw', db.runs, db.runItems, async () => {
		await db.runItems.where('runId').equals(id).delete();
		await db.runs.delete(id);
	});
}
