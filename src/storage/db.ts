/**
 * The app's IndexedDB database (Dexie): the only module that imports dexie. Row types here are
 * storage shapes; repositories map them to the core's domain types. Keep every version block.
 */
import { Dexie, type Table } from 'dexie';
import type { SurprisalConvention, TextModelSpec } from '../core/model/model-spec';
import type { RunModelSpec, RunStatus } from '../core/run/run-types';
import type { EvalEvent, FinalReport, ResolvedEval, SampleResult } from '../core/evals/types';
import type { GenerateRequest, GenerationParams, TokenUsage } from '../core/model/generation';
import type { LtmBenchmark, LtmRunState, LtmSummaryJson } from '../core/ltm';

/** Where a suite in the library came from. */
export type SuiteOrigin = 'bundled' | 'file' | 'paste' | 'url' | 'import';

export interface SuiteRow {
	/** SHA-256 (lowercase hex) of `text`: the primary key, so the same text is stored once. */
	sha256: string;
	name: string;
	text: string;
	origin: SuiteOrigin;
	/** File name, URL or bundled file name the text came from. */
	sourceName?: string;
	/** 1 = shown in the library; 0 = removed from it but kept for the runs that used it. */
	listed: 0 | 1;
	savedAt: number;
}

export interface RunRow {
	id?: number;
	suiteSha256: string;
	suiteName: string;
	/** A local model or an endpoint (never its key). */
	model: RunModelSpec;
	convention: SurprisalConvention;
	/** Scored with word-boundary values (the beginning-of-word correction); absent: false. */
	wordBoundaries?: boolean;
	itemCount: number;
	appVersion: string;
	createdAt: number;
	status: RunStatus;
	itemsDone: number;
	updatedAt: number;
	scoringMs: number;
	tokenCount: number;
	errorMessage?: string;
	fallbackReason?: string;
}

/** One scored sentence, column-wise: typed arrays keep big runs small and fast to clone. */
export interface SentenceRow {
	conditionName: string;
	text: string;
	tokens: string[];
	surprisalsBits: Float64Array;
	/** UTF-16 offsets; -1 where the token has none (imported lm-zoo tokens). */
	starts: Int32Array;
	ends: Int32Array;
	/** 1 for special tokens (BOS/EOS), else 0. */
	special: Uint8Array;
	/** Each token's `boundarySurprisalBits`, NaN where it has none; absent when no token has one
	 * (runs without word boundaries, older rows). */
	boundarySurprisalsBits?: Float64Array;
}

/** An Evals run (generative runs, design §3): what ran, on which models, how far, the report. */
export interface EvalsRunRow {
	id?: number;
	kind: 'evals';
	evalName: string;
	/** The registry files' SHA-256 by path, and the resolved eval (samples included). */
	spec: { registryFiles: Record<string, string>; eval: ResolvedEval };
	/** Full model specs (never an API key): the policy model(s) and the grader. */
	models: { policy: TextModelSpec[]; grader?: TextModelSpec };
	/** Generation parameters the user set over upstream's, per role (absent: upstream's). */
	overrides: { policy: GenerationParams; grader: GenerationParams };
	/** Replay files' text by SHA-256, so a run on replay models resumes after a reload. */
	replayTexts: Record<string, string>;
	seed: number;
	maxSamples?: number;
	runId: string;
	status: RunStatus;
	progress: { done: number; total: number; tokens: number; elapsedMs: number };
	createdAt: number;
	updatedAt: number;
	/** The final report (metric → value) once finished. */
	report?: FinalReport;
	errorMessage?: string;
}

/** One finished sample of an Evals run: its result and the recorder events it wrote. */
export interface EvalsSampleRow {
	runId: number;
	sampleId: string;
	/** Position in evaluation order (after the shuffle). */
	position: number;
	result: SampleResult;
	events: EvalEvent[];
	savedAt: number;
}

export interface ItemResultRow {
	runId: number;
	itemNumber: number;
	sentences: SentenceRow[];
	savedAt: number;
}

/** One cached completion (the providers' CachedResponse) and the size of its JSON. */
export interface ResponseCacheRow {
	/** responseCacheKey(): provider, base URL, model, revision, prompt, every parameter. */
	key: string;
	/** The model that answered, as a label (`openai/m @ http://…`, `bundled:gpt2-en-small`). */
	model: string;
	request: GenerateRequest;
	completion: string;
	finishReason: 'stop' | 'length';
	usage?: TokenUsage;
	/** ISO time it was stored. */
	createdAt: string;
	/** UTF-16 length of the entry's JSON: the cache's size without reading every row. */
	bytes: number;
}

/** A long-term-memory (LTM) run: what ran (definitions hashed), on which models, how far. */
export interface LtmRunRow {
	id?: number;
	kind: 'ltm';
	runName: string;
	/** Definition files' SHA-256 by path, and the tests and config as loaded (span and isolation applied). */
	definitions: { files: Record<string, string>; benchmark: LtmBenchmark };
	/** Full model specs (never an API key). */
	models: { agent: TextModelSpec; judge?: TextModelSpec };
	/** Agent generation parameters and context limits sent. */
	agentParams: GenerationParams;
	maxContextTokens?: number;
	maxMessageTokens?: number;
	/** Replay files' text by SHA-256, so a run on replay models resumes after a reload. */
	replayTexts: Record<string, string>;
	memorySpan: number;
	isolated: boolean;
	status: RunStatus;
	progress: { testsDone: number; testsTotal: number; tokens: number; elapsedMs: number };
	createdAt: number;
	updatedAt: number;
	summary?: LtmSummaryJson;
	errorMessage?: string;
}

/** The scheduler state (log included) of an LTM run, saved after every step. */
export interface LtmStateRow {
	runId: number;
	state: LtmRunState;
	savedAt: number;
}

export type BenchtopDatabase = Dexie & {
	suites: Table<SuiteRow, string>;
	runs: Table<RunRow, number, RunRow>;
	itemResults: Table<ItemResultRow, [number, number]>;
	evalsRuns: Table<EvalsRunRow, number, EvalsRunRow>;
	evalsSamples: Table<EvalsSampleRow, [number, string]>;
	responseCache: Table<ResponseCacheRow, string>;
	ltmRuns: Table<LtmRunRow, number, LtmRunRow>;
	ltmStates: Table<LtmStateRow, number>;
};

/** The database name; one per origin. */
export const DATABASE_NAME = 'benchtop';

export const db = new Dexie(DATABASE_NAME) as BenchtopDatabase;

db.version(1).stores({
	suites: '&sha256, name, listed, savedAt',
	runs: '++id, suiteSha256, status, createdAt',
	itemResults: '[runId+itemNumber], runId',
});

// Evals runs (generative): the run record and one row per finished sample.
db.version(2).stores({
	evalsRuns: '++id, status, createdAt, evalName',
	evalsSamples: '[runId+sampleId], runId',
});

// The response cache of generative runs (completions by request key).
db.version(3).stores({
	responseCache: '&key, model, createdAt',
});

// Long-term-memory (LTM) runs: the run record and its scheduler state (saved after every step).
db.version(4).stores({
	ltmRuns: '++id, status, createdAt',
	ltmStates: '&runId',
});
