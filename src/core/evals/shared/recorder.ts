/**
 * The recorder, as upstream's split between a template's `eval_sample` and `evals/record.py`:
 * templates record `sampling`, `match` and `metrics` events for a sample; the recorder numbers
 * them, stamps run id, author and time, and keeps them in order. Pure but for `preciseNow`, the
 * clock the runner passes in by default.
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

/**
 * The current time in epoch milliseconds with a sub-millisecond fraction where the platform has
 * one: `performance.timeOrigin + performance.now()` (microseconds in Node; browsers coarsen it to
 * 5-100 µs), else `Date.now()` (whole milliseconds). JavaScript's `Date` alone has milliseconds;
 * this is what gives `created_at` a real microsecond part instead of a padded `000`.
 */
export function preciseNow(): number {
	const clock = (globalThis as { performance?: { timeOrigin?: number; now(): number } })
		.performance;
	return clock && typeof clock.timeOrigin === 'number'
		? clock.timeOrigin + clock.now()
		: Date.now();
}

/**
 * Python `str(datetime.now(timezone.utc))`: `2026-01-02 03:04:05.678901+00:00`, the fraction
 * left out when it is zero. `time` is a `Date` (milliseconds) or epoch milliseconds whose
 * fraction holds the microseconds (as `preciseNow` gives them).
 */
export function pythonUtcTimestamp(time: Date | number): string {
	const epochMs = typeof time === 'number' ? time : time.getTime();
	let whole = Math.floor(epochMs);
	let micros = Math.round((epochMs - whole) * 1000);
	if (micros === 1000) {
		whole += 1;
		micros = 0;
	}
	const date = new Date(whole);
	const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
	const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
	const fraction = date.getUTCMilliseconds() * 1000 + micros;
	return `${base}${fraction === 0 ? '' : `.${pad(fraction, 6)}`}+00:00`;
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
	/** The clock for `created_at`: a `Date` or epoch milliseconds with a fraction (`preciseNow`). */
	readonly now: () => Date | number;
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
