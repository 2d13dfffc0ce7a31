/**
 * What storage keeps of a long-term-memory (LTM) run: its run record (one kind of the one run
 * record), its scheduler state and its append-only log, each a stored piece of the run; and the
 * LTM part of the one resume rule. Plain, structured-cloneable data.
 */
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';
import { unfinishedPlan, type ResumeRule } from '../run/resume-plan';
import type { RunRecordBase } from '../run/run-types';
import type { LtmSummaryJson } from './report';
import type { LogEntry, LtmRunState } from './scheduler';
import type { LtmBenchmark } from './shared/types';

/** A long-term-memory (LTM) run: what ran (definitions hashed), on which models, how far. */
export interface LtmRunRecord extends RunRecordBase<'ltm'> {
	readonly runName: string;
	/**
	 * Definition files' SHA-256 by path, and the tests and config as loaded (span and isolation
	 * applied).
	 */
	readonly definitions: { files: Record<string, string>; benchmark: LtmBenchmark };
	/** Full model specs (never an API key). */
	readonly models: { agent: TextModelSpec; judge?: TextModelSpec };
	/** Agent generation parameters and context limits sent. */
	readonly agentParams: GenerationParams;
	readonly maxContextTokens?: number;
	readonly maxMessageTokens?: number;
	/** Replay files' text by SHA-256, so a run on replay models resumes after a reload. */
	readonly replayTexts: Record<string, string>;
	readonly memorySpan: number;
	readonly isolated: boolean;
	readonly progress: { testsDone: number; testsTotal: number; tokens: number; elapsedMs: number };
	readonly summary?: LtmSummaryJson;
}

/** The key of an LTM run's scheduler state: a string, so it sorts after every log index. */
export const LTM_STATE_KEY = 'state';

/**
 * The scheduler state of an LTM run, saved after every step without its log and tests (the log is
 * in `ltm-log` items, the tests are the run record's); a state an earlier release saved holds both.
 */
export interface LtmStateItemRecord {
	runId: number;
	kind: 'ltm-state';
	key: typeof LTM_STATE_KEY;
	state: LtmRunState;
	savedAt: number;
}

/** One entry of an LTM run's log, stored once (append-only); `key` is its index, from 0. */
export interface LtmLogItemRecord {
	runId: number;
	kind: 'ltm-log';
	key: number;
	entry: LogEntry;
}

/**
 * An unfinished LTM run is resumable whatever its counts: they are written to the run record only
 * now and then (the stored state is what a resume goes on from), so they can lag behind it.
 */
export const LTM_RESUME: ResumeRule<Pick<LtmRunRecord, 'status' | 'progress'>, 'ltm'> = {
	kind: 'ltm',
	unit: 'test',
	noun: 'tests',
	resumePoint: 'the last reply',
	resumePlan: ({ status, progress: { testsDone, testsTotal } }) =>
		unfinishedPlan(status, testsDone, testsTotal, true),
};
