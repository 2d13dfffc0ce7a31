/**
 * Queries over the one run store shared by the suite, Evals and LTM repositories: the runs of one
 * kind, newest first, each checked (unreadable rows listed apart, and deleted on request), and a
 * stored row as a record with its id.
 */
import { UNFINISHED_STATUSES, type ResumeRule } from '../../core/run/resume-plan';
import { RUN_KIND_REGISTRY } from '../../core/kinds/registered-kinds';
import type { UnreadableRun } from '../../core/kinds/kind-registry';
import { db, type RunRow } from './db';
import { guardQuota } from './storage-errors';

export type { UnreadableRun } from '../../core/kinds/kind-registry';

/** What is wrong with a stored row, by its kind's check in the registry (null: pages can show it). */
export function storedRunProblem(row: unknown): string | null {
	return RUN_KIND_REGISTRY.storedRunProblem(row);
}

/** The rows of one kind that pages can show, newest first, and the kind's unreadable rows. */
export interface CheckedRows<R> {
	readonly rows: R[];
	readonly unreadable: UnreadableRun[];
}

/**
 * The rows of one kind, newest first (ties: the later id first), each checked
 * (by its kind in the kind registry): a row with a field the pages cannot format (a time a date cannot
 * hold, a missing name) is listed apart as unreadable, so that one bad row never hides the others.
 * Read by the `kind` index, so a row whose `createdAt` is not even a number is found too; with
 * `strays`, rows whose `kind` is none of the run kinds are listed as unreadable as well.
 */
export async function listCheckedRowsOfKind<K extends RunRow['kind']>(
	kind: K,
	strays = false,
): Promise<CheckedRows<Extract<RunRow, { kind: K }>>> {
	const stored: unknown[] = await db.runs.where('kind').equals(kind).toArray();
	if (strays) {
		const known = new Set(await db.runs.where('kind').anyOf(RUN_KIND_REGISTRY.names).primaryKeys());
		const others = (await db.runs.toCollection().primaryKeys()).filter((id) => !known.has(id));
		stored.push(...(await db.runs.bulkGet(others)));
	}
	const rows: Extract<RunRow, { kind: K }>[] = [];
	const unreadable: UnreadableRun[] = [];
	for (const row of stored) {
		const id = (row as { id?: unknown } | undefined)?.id;
		if (typeof id !== 'number') continue;
		const problem = storedRunProblem(row);
		if (problem === null) rows.push(row as Extract<RunRow, { kind: K }>);
		else unreadable.push(RUN_KIND_REGISTRY.unreadableRun(id, row, problem));
	}
	rows.sort((a, b) => b.createdAt - a.createdAt || (b.id ?? 0) - (a.id ?? 0));
	unreadable.sort((a, b) => b.id - a.id);
	return { rows, unreadable };
}

/** The rows of one kind that pages can show, newest first (unreadable rows left out). */
export async function listRowsOfKind<K extends RunRow['kind']>(
	kind: K,
): Promise<Extract<RunRow, { kind: K }>[]> {
	return (await listCheckedRowsOfKind(kind)).rows;
}

/**
 * Deletes a stored run that is unreadable, with every piece stored under its id. A run that reads
 * well is left alone (its page's own delete handles it): returns whether the row was deleted.
 */
export async function deleteUnreadableRun(id: number): Promise<boolean> {
	return db.transaction('rw', db.runs, db.runItems, async () => {
		const row: unknown = await db.runs.get(id);
		if (row === undefined || storedRunProblem(row) === null) return false;
		await db.runItems.where('runId').equals(id).delete();
		await db.runs.delete(id);
		return true;
	});
}

/** Whether the stored row `row` (read by id) is one pages can show. */
export function isReadableRow<T extends RunRow>(row: T | undefined): row is T {
	return row !== undefined && storedRunProblem(row) === null;
}

/**
 * The rows of one kind that its resume rule (core/run/resume-plan) offers to resume, newest
 * first: read by the unfinished statuses' index, then planned.
 */
export async function listResumableRowsOfKind<K extends RunRow['kind']>(
	rule: ResumeRule<Extract<RunRow, { kind: K }>, K>,
): Promise<Extract<RunRow, { kind: K }>[]> {
	const rows = await db.runs.where('status').anyOf(UNFINISHED_STATUSES).toArray();
	return rows
		.filter((row): row is Extract<RunRow, { kind: K }> => row.kind === rule.kind)
		.filter((row) => storedRunProblem(row) === null && rule.resumePlan(row) !== null)
		.sort((a, b) => b.createdAt - a.createdAt);
}

/**
 * The one row update of every kind: sets each field of `update` on the stored run `id` (a field
 * given as `undefined` is removed), never its `id` or `kind`, and `updatedAt` to `now`. With
 * `kind`, a row of another kind is left alone.
 */
export async function writeRunUpdate(
	id: number,
	kind: string | null,
	update: object,
	now = Date.now(),
): Promise<void> {
	await guardQuota(() =>
		db.runs.update(id, (row) => {
			if (kind !== null && row.kind !== kind) return;
			const fields = row as unknown as Record<string, unknown>;
			for (const [key, value] of Object.entries(update)) {
				if (key === 'id' || key === 'kind') continue;
				if (value === undefined) delete fields[key];
				else fields[key] = value;
			}
			row.updatedAt = now;
		}),
	);
}

/** A row with its id required (distributes over a union of rows). */
export type WithId<T> = T extends unknown ? Omit<T, 'id'> & { id: number } : never;

/** A stored row as its record: the id, present on every stored row, made required. */
export function withId<T extends RunRow>(row: T): WithId<T> {
	if (row.id === undefined) throw new Error(`a stored ${row.kind} run has no id`);
	return { ...row, id: row.id } as unknown as WithId<T>;
}
