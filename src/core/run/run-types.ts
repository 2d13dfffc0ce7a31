/**
 * What every run has, whatever its kind: its status words, the record's common fields, and the
 * model spec a scored run names. Plain, structured-cloneable data.
 */
import type { EndpointModelSpec, ModelSpec } from '../model/model-spec';

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
 * The fields every run has, whatever its kind. `K` is the kind's name; the names of the app's
 * kinds come from the kind registry (`RegisteredKindName`, core/kinds/registered-kinds.ts).
 */
export interface RunRecordBase<K extends string = string> {
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
