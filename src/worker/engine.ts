/**
 * The inference engine interface the worker handler drives: TransformersEngine (real models,
 * browser and Node) and FakeEngine (tests) implement it. No message passing here.
 */
import { CancelledError } from './engine-errors';
import type {
	CachedModel,
	GenerateTextParams,
	GenerateTextResult,
	LoadModelParams,
	LoadProgress,
	ModelInfo,
	ScoreProgress,
	ScoreTextsParams,
	ScoreTextsResult,
	TokenizeParams,
	TokenizeResult,
} from './protocol';

export interface LoadModelOptions {
	/** Checked before and after the load; a download in flight is not interrupted. */
	readonly signal?: AbortSignal;
	readonly onProgress?: (progress: LoadProgress) => void;
}

export interface ScoreTextsOptions {
	/** Checked between batches: an aborted request rejects with CancelledError within one batch. */
	readonly signal?: AbortSignal;
	/** Called after every batch with the sentences it finished. */
	readonly onProgress?: (progress: ScoreProgress) => void;
}

export interface GenerateTextOptions {
	/** Checked after every token step: an aborted request rejects with CancelledError. */
	readonly signal?: AbortSignal;
	/** New completion text as it is decoded (never the start of a possible stop sequence). */
	readonly onToken?: (text: string) => void;
}

export interface InferenceEngine {
	/** Loads (or returns the already loaded) model; `ModelInfo.modelKey` names it afterwards. */
	loadModel(params: LoadModelParams, options?: LoadModelOptions): Promise<ModelInfo>;
	/**
	 * Scores every text. Result `texts` are in input order, each with every model token (special
	 * ones included), UTF-16 offsets and surprisal in bits; a token without left context has 0.
	 */
	scoreTexts(params: ScoreTextsParams, options?: ScoreTextsOptions): Promise<ScoreTextsResult>;
	/** Tokens and offsets under a convention, without running the model (surprisals are NaN). */
	tokenize(params: TokenizeParams): Promise<TokenizeResult>;
	/**
	 * Generates a completion of a prompt (text or chat) with the loaded model: temperature 0 is
	 * greedy; otherwise (absent: 1, as OpenAI-compatible servers) temperature / top_p sampling,
	 * reproducible with a `seed`.
	 */
	generate(params: GenerateTextParams, options?: GenerateTextOptions): Promise<GenerateTextResult>;
	/**
	 * Drops one load of `modelKey`: the model is released once every load of it is disposed, so a
	 * caller that loaded the same spec (another page, a run) keeps it.
	 */
	disposeModel(modelKey: string): Promise<void>;
	/** Models with files in the browser's Cache API (hub downloads, and bundled models once loaded
	 * there); empty in Node. */
	listCachedModels(): Promise<readonly CachedModel[]>;
	deleteCachedModel(id: string): Promise<{ readonly filesDeleted: number }>;
}

/** Throws CancelledError when `signal` is aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new CancelledError('The request was cancelled.');
}

/** Elapsed milliseconds on a monotonic clock. */
export function now(): number {
	return globalThis.performance?.now() ?? Date.now();
}
