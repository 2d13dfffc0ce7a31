/**
 * The recorder, as upstream's split between a template's `eval_sample` and `evals/record.py`:
 * templates record `sampling`, `match` and `metrics` events for a sample; the recorder numbers
 * them, stamps run id, author and time, and keeps them in order. Pure (the clock is passed in).
 */
import type { EvalEvent, JsonValue } from './types';

/** What a template may record for one sample (upstream `record_sampling` / `record_match` / `record_metrics`). */
export interface SampleRecorder {
	/** A model call: `{prompt, sampled[, usage]}`. */
	recordSampling(data: Readonly<Record<string, unknown>>): void;
	/**
	 * `record_match`: `{correct, expected, picked, ...extra}`, with a 1-element `expected` list
	 * unwrapped to its element.
	 */
	recordMatch(
		correct: boolean,
		expected: JsonValue,
		picked: JsonValue,
		extra?: Readonly<Record<string, unknown>>,
	): void;
	/** `record_metrics`: the sample's metrics. */
	recordMetrics(data: Readonly<Record<string, unknown>>): void;
}

/** A run's recorder: every event so far, and a recorder bound to one sample. */
export interface EvalRecorder {
	readonly events: readonly EvalEvent[];
	forSample(sampleId: string): SampleRecorder;
}

/** Python `str(datetime.now(timezone.utc))`. */
export function pythonUtcTimestamp(date: Date): string {
	const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
	const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
	const ms = date.getUTCMilliseconds();
	return `${base}${ms === 0 ? '' : `.${pad(ms, 3)}000`}+00:00`;
}

/** A run id like upstream's: `yymmddHHMMSS` + 8 random base-32 characters. */
export function newRunId(date: Date): string {
	const pad = (value: number): string => String(value).padStart(2, '0');
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let suffix = '';
	for (let i = 0; i < 8; i++) suffix += alphabet.charAt(Math.floor(Math.random() * 32));
	return `${pad(date.getUTCFullYear() % 100)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}${suffix}`;
}

/**
 * A recorder that keeps events in memory (upstream `LocalRecorder` before it writes the file):
 * `event_id` counts from 0 in recording order; `onEvent` sees each event as it is recorded.
 */
export function memoryRecorder(options: {
	readonly runId: string;
	readonly createdBy: string;
	readonly now: () => Date;
	readonly onEvent?: (event: EvalEvent) => void;
}): EvalRecorder {
	const events: EvalEvent[] = [];
	const record = (sampleId: string, type: string, data: Record<string, unknown>): void => {
		const event: EvalEvent = {
			run_id: options.runId,
			event_id: events.length,
			sample_id: sampleId,
			type,
			data,
			created_by: options.createdBy,
			created_at: pythonUtcTimestamp(options.now()),
		};
		events.push(event);
		options.onEvent?.(event);
	};
	return {
		events,
		forSample: (sampleId) => ({
			recordSampling: (data) => record(sampleId, 'sampling', { ...data }),
			recordMatch: (correct, expected, picked, extra = {}) => {
				const unwrapped =
					Array.isArray(expected) && expected.length === 1 ? (expected[0] as JsonValue) : expected;
				record(sampleId, 'match', { correct, expected: unwrapped, picked, ...extra });
			},
			recordMetrics: (data) => record(sampleId, 'metrics', { ...data }),
		}),
	};
}
