/**
 * Types of a run as it is kept and exported: the record (suite, model, convention, app version,
 * status) and the scored sentences of each finished item. Plain, structured-cloneable data.
 */
import type { EndpointModelSpec, ModelSpec, SurprisalConvention } from '../model/model-spec';
import type { ScoredToken } from '../syntaxgym/scoring/types';

/**
 * `running`: items are being scored (or the tab closed while they were: resumable);
 * `cancelled`: the user stopped it (resumable); `done`: every item scored; `failed`: see
 * `errorMessage` (resumable when the cause is gone).
 */
export type RunStatus = 'running' | 'cancelled' | 'done' | 'failed';

export const RUN_STATUSES: readonly RunStatus[] = ['running', 'cancelled', 'done', 'failed'];

/**
 * The model of a suite run: a local model (scored in the worker or in Node) or a model behind an
 * OpenAI-compatible endpoint (scored by echo prompt logprobs). Never an API key. Replay files
 * cannot score text, so they are not run models.
 */
export type RunModelSpec = ModelSpec | EndpointModelSpec;

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

/**
 * The kinds of the app's own typed records (suite, Evals, LTM). Code that handles runs of any
 * kind takes the names from the kind registry (core/kinds/registered-kinds.ts), not from here.
 */
export type RunKind = 'suite' | 'evals' | 'ltm';

/** The fields every run has, whatever its kind. */
export interface RunRecordBase<K extends string = RunKind> {
	/** Local id (autoincremented, shared by every kind): `#/results/<id>` for a suite run. */
	readonly id: number;
	readonly kind: K;
	/** The run's name in lists: the suite's name, the eval's name or the LTM run name. */
	readonly title: string;
	readonly status: RunStatus;
	/** Milliseconds since the Unix epoch. */
	readonly createdAt: number;
	/** Milliseconds since the Unix epoch of the last status or progress change. */
	readonly updatedAt: number;
	/** Why the run failed, in words for the user (status `failed`). */
	readonly errorMessage?: string;
}
