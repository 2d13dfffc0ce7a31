/**
 * One run record for every kind of run (a suite run, an Evals run, a long-term-memory run) and one
 * record for each stored piece of a run (a suite item, an Evals sample, the LTM state or one LTM
 * log entry): what storage keeps. Plain, structured-cloneable data (typed arrays included).
 */
import type { EvalEvent, FinalReport, ResolvedEval, SampleResult } from '../evals/types';
import type { LtmSummaryJson } from '../ltm/report';
import type { LogEntry, LtmRunState } from '../ltm/scheduler';
import type { LtmBenchmark } from '../ltm/types';
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';
import type { RunStatus, SuiteRun } from '../run/run-types';

/** The three families of runs: SyntaxGym-style suites, OpenAI Evals, GoodAI LTM. */
export type RunKind = 'suite' | 'evals' | 'ltm';

export const RUN_KINDS: readonly RunKind[] = ['suite', 'evals', 'ltm'];

/** The fields every run has, whatever its kind. */
export interface RunRecordBase<K extends RunKind> {
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

/** A suite run: the suite (by SHA-256), the model, the convention and the counters. */
export type SuiteRunRecord = RunRecordBase<'suite'> & Omit<SuiteRun, keyof RunRecordBase<'suite'>>;

/** An Evals run (generative runs, design §3): what ran, on which models, how far, the report. */
export interface EvalsRunRecord extends RunRecordBase<'evals'> {
	readonly evalName: string;
	/** The registry files' SHA-256 by path, and the resolved eval (samples included). */
	readonly spec: { registryFiles: Record<string, string>; eval: ResolvedEval };
	/** Full model specs (never an API key): the policy model(s) and the grader. */
	readonly models: { policy: TextModelSpec[]; grader?: TextModelSpec };
	/** Generation parameters the user set over upstream's, per role (absent: upstream's). */
	readonly overrides: { policy: GenerationParams; grader: GenerationParams };
	/** Replay files' text by SHA-256, so a run on replay models resumes after a reload. */
	readonly replayTexts: Record<string, string>;
	readonly seed: number;
	readonly maxSamples?: number;
	/** The run id as upstream writes it in the log (`yymmddHHMMSS` + 8 base-32 characters). */
	readonly runId: string;
	readonly progress: { done: number; total: number; tokens: number; elapsedMs: number };
	/** The final report (metric → value) once finished. */
	readonly report?: FinalReport;
}

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

/** A run of any kind, told apart by `kind`. */
export type RunRecord = SuiteRunRecord | EvalsRunRecord | LtmRunRecord;

/** One scored sentence, column-wise: typed arrays keep big runs small and fast to clone. */
export interface ColumnarSentence {
	conditionName: string;
	text: string;
	tokens: string[];
	surprisalsBits: Float64Array;
	/** UTF-16 offsets; -1 where the token has none (imported lm-zoo tokens). */
	starts: Int32Array;
	ends: Int32Array;
	/** 1 for special tokens (BOS/EOS), else 0. */
	special: Uint8Array;
	/**
	 * Each token's `boundarySurprisalBits`, NaN where it has none; absent when no token has one
	 * (runs without word boundaries, older rows).
	 */
	boundarySurprisalsBits?: Float64Array;
}

/** Every condition of one finished suite item; `key` is the item number. */
export interface SuiteItemRecord {
	runId: number;
	kind: 'suite-item';
	key: number;
	sentences: ColumnarSentence[];
	savedAt: number;
}

/** One finished sample of an Evals run; `key` is the sample id. */
export interface EvalsSampleItemRecord {
	runId: number;
	kind: 'evals-sample';
	key: string;
	/** Position in evaluation order (after the shuffle). */
	position: number;
	result: SampleResult;
	events: EvalEvent[];
	savedAt: number;
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
 * One stored piece of a run, keyed by `[runId, key]`: a suite item (key: item number), an Evals
 * sample (key: sample id), the LTM state (key: `'state'`) or an LTM log entry (key: index).
 */
/** The key of an Evals run's input item. */
export const EVALS_INPUT_KEY = 'input';

/**
 * The heavy input of an Evals run (the resolved eval, every sample of the registry included, and
 * the replay files' text), kept beside the run row so the run's progress writes stay small.
 */
export interface EvalsInputItemRecord {
	readonly runId: number;
	readonly kind: 'evals-input';
	readonly key: typeof EVALS_INPUT_KEY;
	readonly spec: EvalsRunRecord['spec'];
	readonly replayTexts: EvalsRunRecord['replayTexts'];
	readonly savedAt: number;
}

export type RunItemRecord =
	| SuiteItemRecord
	| EvalsSampleItemRecord
	| EvalsInputItemRecord
	| LtmStateItemRecord
	| LtmLogItemRecord;

/** Every model a run used, in its roles' order (policy models then grader; agent then judge). */
export function runModels(run: RunRecord): TextModelSpec[] {
	switch (run.kind) {
		case 'suite':
			return [run.model];
		case 'evals':
			return [...run.models.policy, ...(run.models.grader ? [run.models.grader] : [])];
		case 'ltm':
			return [run.models.agent, ...(run.models.judge ? [run.models.judge] : [])];
	}
}
