/**
 * What a suite run session shows of its progress and its end: items scored per condition, a
 * battery's per-suite counts, and the words said when a run or battery is cancelled. Pure; the
 * session feeds it the counts it keeps.
 */
import type { SuiteRun } from './suite-run';

/** Per-item progress: conditions scored out of the item's conditions. */
export interface ItemProgress {
	readonly itemNumber: number;
	readonly done: number;
	readonly total: number;
}

/** A suite's progress in the current battery. */
export interface BatterySuiteProgress {
	readonly runId: number;
	readonly suiteName: string;
	/** Items whose every condition is scored (earlier sessions' stored items included). */
	readonly itemsDone: number;
	readonly itemsTotal: number;
}

/** Items whose every condition is scored. */
export function itemsFinished(items: readonly ItemProgress[]): number {
	return items.filter((item) => item.done === item.total).length;
}

/** A suite run's progress as a battery shows it. */
export function suiteProgress(run: SuiteRun, items: readonly ItemProgress[]): BatterySuiteProgress {
	return {
		runId: run.id,
		suiteName: run.suiteName,
		itemsDone: itemsFinished(items),
		itemsTotal: items.length,
	};
}

/**
 * What is said when a run (`batteryId` null) or a battery is cancelled: how many items of how
 * many are kept, over `records` as they were stored at the end.
 */
export function suiteRunCancelledMessage(
	batteryId: string | null,
	records: readonly SuiteRun[],
): string {
	const done = sum(records.map((run) => run.itemsDone));
	const total = sum(records.map((run) => run.itemCount));
	return batteryId === null
		? `Run cancelled after ${done} of ${total} items; they are kept and the run can be resumed.`
		: `Battery cancelled after ${done} of ${total} items in ${records.length} suites; they are kept and the battery can be resumed.`;
}

export function sum(values: readonly number[]): number {
	return values.reduce((a, b) => a + b, 0);
}
