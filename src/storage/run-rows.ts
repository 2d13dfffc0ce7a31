/**
 * Queries over the one run store shared by the suite, Evals and LTM repositories: the runs of one
 * kind, newest first, and a stored row as a record with its id.
 */
import { UNFINISHED_STATUSES, type ResumeRule } from '../core/run/resume-plan';
import { db, type RunRow } from './db';

/** The rows of one kind, newest first (ties: the later id first), by `[kind+createdAt]`. */
export async function listRowsOfKind<K extends RunRow['kind']>(
	kind: K,
): Promise<Extract<RunRow, { kind: K }>[]> {
	const rows = await db.runs
		.where('[kind+createdAt]')
		.between([kind, -Infinity], [kind, Infinity])
		.reverse()
		.toArray();
	return rows.filter((row): row is Extract<RunRow, { kind: K }> => row.kind === kind);
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
		.filter((row) => rule.resumePlan(row) !== null)
		.sort((a, b) => b.createdAt - a.createdAt);
}

/** A row with its id required (distributes over a union of rows). */
export type WithId<T> = T extends unknown ? Omit<T, 'id'> & { id: number } : never;

/** A stored row as its record: the id, present on every stored row, made required. */
export function withId<T extends RunRow>(row: T): WithId<T> {
	if (row.id === undefined) throw new Error(`a stored ${row.kind} run has no id`);
	return { ...row, id: row.id } as unknown as WithId<T>;
}
