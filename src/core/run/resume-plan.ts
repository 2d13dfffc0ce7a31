/**
 * When a stored run can be resumed, and how far it got, for every kind in one rule: a run is
 * resumable while its status says it did not finish (`running`: a reload or a closed tab stopped
 * it; `cancelled`; `failed`) and it has work left. Each kind says only what it counts (items,
 * samples, tests), where a resume goes on from, and how far a record got. Storage lists the
 * resumable runs by this rule and the pages offer them by it. Pure.
 */
import type { RunStatus } from './run-types';

/** The statuses of a run that did not finish (and may be resumed). */
export const UNFINISHED_STATUSES = [
	'running',
	'cancelled',
	'failed',
] as const satisfies readonly RunStatus[];

/** What a resume of a stored run would do: go on from `done` of `total`. */
export interface ResumePlan {
	readonly done: number;
	readonly total: number;
	/**
	 * The run was left `running`: the page that ran it was closed or reloaded (not cancelled, not
	 * failed), which the suite page offers to resume as soon as it opens.
	 */
	readonly interrupted: boolean;
}

/** One kind's part of the rule (see the module comment). */
export interface ResumeRule<Run, K extends string = string> {
	readonly kind: K;
	/** What a run counts, singular: "item", "sample", "test". */
	readonly unit: string;
	/** The same, plural: "items", "samples", "tests". */
	readonly noun: string;
	/** Where a resume goes on from, after "Resume goes on from": e.g. "the last reply". */
	readonly resumePoint: string;
	/** The plan of resuming `run`; null when there is nothing to resume. */
	readonly resumePlan: (run: Run) => ResumePlan | null;
}

/**
 * The plan of a run of `status` with `done` of `total` finished: null when it finished or
 * `workLeft` says none is left (each kind's rule says what work it has).
 */
export function unfinishedPlan(
	status: RunStatus,
	done: number,
	total: number,
	workLeft: boolean,
): ResumePlan | null {
	if (!(UNFINISHED_STATUSES as readonly RunStatus[]).includes(status) || !workLeft) return null;
	return { done, total, interrupted: status === 'running' };
}
