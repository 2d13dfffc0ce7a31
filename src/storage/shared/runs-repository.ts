/**
 * Runs of every kind in IndexedDB as the pages list them: the Library's list (every registered
 * kind, checked by its kind), all runs as their rows, and the stored records no page can show,
 * to be deleted. Returns the core's records; no Dexie type leaks out.
 */
import { db, type RunRow } from './db';
import { listCheckedRowsOfKind, storedRunProblem, withId, type UnreadableRun } from './run-rows';
import { listRunsOfEveryKind, type StoredRunRecord } from './run-store';

/**
 * The stored runs of `kind` that pages cannot show (as listSuiteRunHistory lists a suite run's),
 * newest id first.
 */
export async function listUnreadableRuns(kind: RunRow['kind']): Promise<UnreadableRun[]> {
	return (await listCheckedRowsOfKind(kind)).unreadable;
}

export { deleteUnreadableRun } from './run-rows';
export type { UnreadableRun } from './run-rows';

/**
 * Runs of every registered kind, newest first, as their rows: an Evals run's input (resolved
 * eval, replay texts) is left out; its repository's getEvalsRun joins it.
 */
export async function listAllRuns(): Promise<RunSummary[]> {
	const rows = await db.runs.orderBy('createdAt').reverse().toArray();
	return rows.filter((row) => storedRunProblem(row) === null).map(withId);
}

/**
 * Runs of every kind as the Library lists them: the runs it can show (an Evals run without its
 * input), newest first (ties: the later id first), and apart the stored records it cannot (of any
 * kind, or of no known kind), to be deleted.
 */
export async function listLibraryRuns(): Promise<{
	readonly runs: RunSummary[];
	readonly unreadable: UnreadableRun[];
}> {
	// Every registered kind, checked by its kind (the generic run store's list).
	const { runs, unreadable } = await listRunsOfEveryKind();
	return { runs, unreadable };
}

/**
 * A run of any registered kind as the Library lists it (what every run has, and its kind's own
 * fields; an Evals run without its input).
 */
export type RunSummary = StoredRunRecord;
