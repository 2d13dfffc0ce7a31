// The recorder templates write to: event numbering and stamps, upstream's record_match unwrapping
// of a 1-element expected list, and Python's timestamp format.
import { describe, expect, it } from 'vitest';
import {
	memoryRecorder,
	newRunId,
	preciseNow,
	pythonUtcTimestamp,
} from '../../../../src/core/evals/shared/recorder';
import type { EvalEvent } from '../../../../src/core/evals/shared/types';

const NOW = (): Date => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));

describe('memoryRecorder', () => {
	it('numbers events in recording order across samples and stamps run, author and time', () => {
		const seen: EvalEvent[] = [];
		const recorder = memoryRecorder({
			runId: 'r1',
			createdBy: 'me',
			now: NOW,
			onEvent: (event) => seen.push(event),
		});
		const a = recorder.forSample('t.dev.3');
		const b = recorder.forSample('t.dev.1');
		a.recordSampling({ prompt: 'p', sampled: ['x'] });
		b.recordMetrics({ accuracy: 1 });
		a.recordMatch(false, ['4', 'four'], null, { sampled: 'x' });
		expect(recorder.events.map((e) => [e.event_id, e.sample_id, e.type])).toEqual([
			[0, 't.dev.3', 'sampling'],
			[1, 't.dev.1', 'metrics'],
			[2, 't.dev.3', 'match'],
		]);
		expect(recorder.events[0]).toEqual({
			run_id: 'r1',
			event_id: 0,
			sample_id: 't.dev.3',
			type: 'sampling',
			data: { prompt: 'p', sampled: ['x'] },
			created_by: 'me',
			created_at: '2026-01-02 03:04:05.678000+00:00',
		});
		expect(recorder.events[2]?.data).toEqual({
			correct: false,
			expected: ['4', 'four'],
			picked: null,
			sampled: 'x',
		});
		expect(seen).toEqual(recorder.events);
	});

	it('record_match unwraps a 1-element expected list only', () => {
		const recorder = memoryRecorder({ runId: 'r', createdBy: '', now: NOW });
		const sample = recorder.forSample('s.dev.0');
		sample.recordMatch(true, ['Paris'], 'Paris');
		sample.recordMatch(true, 'Paris', 'Paris');
		sample.recordMatch(false, [], null);
		expect(recorder.events.map((e) => e.data.expected)).toEqual(['Paris', 'Paris', []]);
		expect(Object.keys(recorder.events[0]?.data ?? {})).toEqual(['correct', 'expected', 'picked']);
	});
});

describe('timestamps and run ids', () => {
	it('pythonUtcTimestamp prints microseconds only when there are some', () => {
		expect(pythonUtcTimestamp(NOW())).toBe('2026-01-02 03:04:05.678000+00:00');
		expect(pythonUtcTimestamp(new Date(Date.UTC(2026, 11, 31, 23, 59, 59)))).toBe(
			'2026-12-31 23:59:59+00:00',
		);
	});

	it('pythonUtcTimestamp keeps the microseconds of a fractional epoch time', () => {
		const ms = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
		expect(pythonUtcTimestamp(ms + 0.901)).toBe('2026-01-02 03:04:05.678901+00:00');
		expect(pythonUtcTimestamp(ms + 0.0004)).toBe('2026-01-02 03:04:05.678000+00:00');
		// 0.9996 ms rounds up to the next millisecond, not to a 1000-microsecond fraction
		expect(pythonUtcTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 999) + 0.9996)).toBe(
			'2026-01-02 03:04:06+00:00',
		);
	});

	it('preciseNow is the wall clock in epoch milliseconds, with a fraction in Node', () => {
		const before = Date.now();
		const readings = Array.from({ length: 20 }, () => preciseNow());
		const after = Date.now();
		// performance.timeOrigin + now() may differ from Date.now() by a little clock drift
		for (const reading of readings) {
			expect(reading).toBeGreaterThan(before - 50);
			expect(reading).toBeLessThan(after + 50);
		}
		expect(readings.some((reading) => !Number.isInteger(reading))).toBe(true);
		expect(pythonUtcTimestamp(readings[0] ?? 0)).toMatch(
			/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{6})?\+00:00$/u,
		);
	});

	it('newRunId is yymmddHHMMSS and 8 base-32 characters', () => {
		expect(newRunId(NOW())).toMatch(/^260102030405[A-Z2-7]{8}$/u);
	});
});
