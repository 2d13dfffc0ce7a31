// A stored Memory run as it executes: the driver's options its record fixes, each step's
// progress, and when the progress is due in the record (a test finished, or a second passed).
import { beforeAll, describe, expect, it } from 'vitest';
import {
	LTM_PROGRESS_EVERY_MS,
	isProgressDue,
	ltmRunOptionsOf,
	ltmStepProgress,
	type LtmRunProgress,
} from '../../../src/core/ltm/ltm-run-execution';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import { finishedRecord, finishedState } from './finished-ltm-run';

let state: LtmRunState;
beforeAll(async () => {
	state = await finishedState();
});

describe('ltmRunOptionsOf', () => {
	it('runs with the record’s parameters, limits, start time and run name', () => {
		const record = finishedRecord(state);
		expect(ltmRunOptionsOf(record)).toEqual({
			agentParams: { max_tokens: 16 },
			maxContextTokens: 300,
			maxMessageTokens: 150,
			startTime: '2026-11-25T09:00:00.000Z',
			runId: 'colours',
		});
	});

	it('leaves out limits the record does not have', () => {
		const {
			maxContextTokens: _context,
			maxMessageTokens: _message,
			...record
		} = finishedRecord(state);
		const options = ltmRunOptionsOf(record);
		expect('maxContextTokens' in options).toBe(false);
		expect('maxMessageTokens' in options).toBe(false);
	});
});

describe('ltmStepProgress', () => {
	it('counts finished tests of all, the run’s tokens and the time given', () => {
		expect(ltmStepProgress(state, 1234)).toEqual({
			testsDone: 2,
			testsTotal: 2,
			tokens: state.totalTokens,
			elapsedMs: 1234,
		});
		const midway = { ...state, outcomes: {} };
		expect(ltmStepProgress(midway, 5).testsDone).toBe(0);
	});
});

describe('isProgressDue', () => {
	const at = (testsDone: number, elapsedMs: number): LtmRunProgress => ({
		testsDone,
		testsTotal: 5,
		tokens: 0,
		elapsedMs,
	});
	it.each([
		// recorded, now → due
		[at(0, 0), at(0, 10), false],
		[at(0, 0), at(0, LTM_PROGRESS_EVERY_MS - 1), false],
		[at(0, 0), at(0, LTM_PROGRESS_EVERY_MS), true],
		[at(0, 0), at(1, 10), true],
		[at(2, 5000), at(2, 5999), false],
		[at(2, 5000), at(2, 6000), true],
	])('%o then %o: %s', (recorded, progress, due) => {
		expect(isProgressDue(progress, recorded)).toBe(due);
	});
});
