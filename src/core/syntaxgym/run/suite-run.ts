/**
 * A suite run as it is kept and exported: the record (suite, model, convention, app version,
 * status, battery membership), the scored sentences of each finished item, and when it resumes.
 * Plain, structured-cloneable data.
 */
import type { SurprisalConvention } from '../../model/model-spec';
import { unfinishedPlan, type ResumeRule } from '../../run/resume-plan';
import type { RunModelSpec, RunStatus } from '../../run/run-types';
import type { ScoredToken } from '../../scoring/scored-token';

/**
 * A suite run that is one suite of a battery: several suites started together with one model and
 * convention and scored in one pooled request. Every suite keeps its own run (results, exports and
 * resume work as for any run); the battery is the runs that share `id`.
 */
export interface BatteryMembership {
	/** The battery's id (a random UUID), the same in every suite run of the battery. */
	readonly id: string;
	/** This suite's place in the battery, from 0. */
	readonly index: number;
	/** How many suites the battery has. */
	readonly size: number;
}

/** What a new run is started with; storage adds the id and the bookkeeping fields. */
export interface RunDraft {
	/** SHA-256 (lowercase hex) of the suite text exactly as loaded. */
	readonly suiteSha256: string;
	/** `meta.name` of the suite. */
	readonly suiteName: string;
	/**
	 * The model as requested; for a local model `backend` is what the run used once the model is
	 * loaded.
	 */
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	/**
	 * The engine was asked for word-boundary values (`ScoreTextsParams.wordBoundaries`): every
	 * stored token then has `boundarySurprisalBits`, for the beginning-of-word correction of word
	 * surprisals. Absent (older runs): false.
	 */
	readonly wordBoundaries?: boolean;
	/** Items in the suite: the run is done when this many items are stored. */
	readonly itemCount: number;
	/** Set when the run is one suite of a battery. Absent: a run of one suite. */
	readonly battery?: BatteryMembership;
	/** `version` of package.json of the app (or CLI) that made the run. */
	readonly appVersion: string;
	/** Milliseconds since the Unix epoch. */
	readonly createdAt: number;
}

export interface SuiteRun extends RunDraft {
	readonly id: number;
	readonly status: RunStatus;
	/** Items whose every condition is scored and stored. */
	readonly itemsDone: number;
	/** Milliseconds since the Unix epoch of the last status or progress change. */
	readonly updatedAt: number;
	/** Time spent scoring, summed over sessions (resumes), in milliseconds. */
	readonly scoringMs: number;
	/** Tokens scored, summed over sessions. */
	readonly tokenCount: number;
	/** Why the run failed, in words for the user (status `failed`). */
	readonly errorMessage?: string;
	/** Why the backend differs from the one requested (e.g. WebGPU unavailable → WASM). */
	readonly fallbackReason?: string;
}

/** One condition's sentence of one item, as scored: the model's tokens with bits and offsets. */
export interface ScoredSentence {
	readonly conditionName: string;
	/** The sentence exactly as scored (regions joined by one space). */
	readonly text: string;
	readonly tokens: readonly ScoredToken[];
}

/** Every condition of one item, scored. Stored as soon as the item's last condition is done. */
export interface ItemResult {
	readonly itemNumber: number;
	/** One per condition, in the suite's condition order for that item. */
	readonly sentences: readonly ScoredSentence[];
}

export const SUITE_RESUME: ResumeRule<
	Pick<SuiteRun, 'status' | 'itemsDone' | 'itemCount'>,
	'suite'
> = {
	kind: 'suite',
	unit: 'item',
	noun: 'items',
	resumePoint: 'the last stored item',
	resumePlan: ({ status, itemsDone, itemCount }) =>
		unfinishedPlan(status, itemsDone, itemCount, itemsDone < itemCount),
};
