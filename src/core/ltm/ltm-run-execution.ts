/**
 * A stored Memory run as it executes: the driver's options its record fixes, and the progress of
 * each step with when it is due in the run record (the state itself is saved every step). Pure.
 */
import type { LtmRunRecord } from './ltm-run-record';
import type { RunLtmOptions } from './run-ltm';
import type { LtmRunState } from './scheduler';

/** A run's counts as its record keeps them. */
export type LtmRunProgress = LtmRunRecord['progress'];

/** How often a running run's progress is written to its record (also when a test finishes). */
export const LTM_PROGRESS_EVERY_MS = 1000;

/** The options of `runLtm` that the stored record fixes: agent parameters, limits, start, run id. */
export function ltmRunOptionsOf(
	record: LtmRunRecord,
): Pick<
	RunLtmOptions,
	'agentParams' | 'maxContextTokens' | 'maxMessageTokens' | 'startTime' | 'runId'
> {
	return {
		agentParams: record.agentParams,
		...(record.maxContextTokens !== undefined ? { maxContextTokens: record.maxContextTokens } : {}),
		...(record.maxMessageTokens !== undefined ? { maxMessageTokens: record.maxMessageTokens } : {}),
		startTime: new Date(record.createdAt).toISOString(),
		runId: record.runName,
	};
}

/** The progress after a step: tests finished of all, tokens so far, time spent on the run. */
export function ltmStepProgress(state: LtmRunState, elapsedMs: number): LtmRunProgress {
	return {
		testsDone: Object.keys(state.outcomes).length,
		testsTotal: state.tests.length,
		tokens: state.totalTokens,
		elapsedMs,
	};
}

/**
 * Whether `progress` is to be written to the run record (which holds the definitions, so it is
 * rewritten only now and then): when a test finished or a second passed since `recorded`.
 */
export function isProgressDue(progress: LtmRunProgress, recorded: LtmRunProgress): boolean {
	return (
		progress.testsDone !== recorded.testsDone ||
		progress.elapsedMs - recorded.elapsedMs >= LTM_PROGRESS_EVERY_MS
	);
}
