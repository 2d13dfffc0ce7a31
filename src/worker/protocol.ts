/**
 * The worker protocol: types only, imported by both sides (inference.worker.ts / handler.ts and
 * inference-client.ts). One map ties each request kind to its params and result, so neither side
 * casts; the call, cancel, result and error shapes are rpc/rpc-protocol.ts's. Messages are plain
 * data (structured clone): no classes, no functions.
 */
import type { ScoredToken } from '../core/scoring/scored-token';
import type { InferenceBackend, ModelSpec, SurprisalConvention } from '../core/model/model-spec';
import type { GenerationParams, GenerationPrompt, TokenUsage } from '../core/model/generation';
import type { RpcReply, RpcRequest } from './rpc/rpc-protocol';

/** A file of a user-picked local model folder, with its path relative to the folder root
 * (`config.json`, `tokenizer.json`, `onnx/model.onnx`, ...). */
export interface LocalModelFile {
	readonly path: string;
	readonly file: Blob;
}

export interface LoadModelParams {
	readonly spec: ModelSpec;
	/** Required when `spec.source === 'local'`. */
	readonly localFiles?: readonly LocalModelFile[];
}

/** What the worker knows about a loaded model. `modelKey` names it in later requests. */
export interface ModelInfo {
	readonly modelKey: string;
	/** The spec as actually run: `backend` may differ from the request (WebGPU → WASM fallback),
	 * `revision` is resolved to a commit hash for hub models when the hub tells us. */
	readonly spec: ModelSpec;
	/** Why the backend differs from the one requested, in words for the user. */
	readonly fallbackReason?: string;
	readonly modelType: string;
	readonly vocabSize: number;
	readonly maxPositions: number;
	readonly bosTokenId?: number;
	readonly eosTokenId?: number;
	/** The tokenizer puts a BOS before a text by itself (probed at load: Llama yes, GPT-2 no).
	 * Absent when the engine does not say. */
	readonly addsBos?: boolean;
	/** How character offsets are reconstructed for this tokenizer. */
	readonly tokenizerKind: 'byte-level-bpe' | 'sentencepiece' | 'generic';
	/** Whether batches may mix sentences (false for dtypes whose numbers depend on the batch, e.g. q8). */
	readonly batchInvariant: boolean;
	/** The tokenizer has a chat template (chat prompts use it; otherwise the Evals text rendering).
	 * Absent when the engine does not say. */
	readonly hasChatTemplate?: boolean;
	readonly loadMs: number;
}

export interface ScoreTextsParams {
	readonly modelKey: string;
	/** Sentences exactly as they are to be scored (SyntaxGym: regions joined by one space). */
	readonly texts: readonly string[];
	readonly convention: SurprisalConvention;
	/** Upper bound on sentences per forward pass; the engine may use fewer. */
	readonly maxBatchSize?: number;
	/** Reuse the key/value cache of shared prefixes (default true); false runs plain batches. */
	readonly prefixReuse?: boolean;
	/**
	 * Also give every token its `boundarySurprisalBits` (for the beginning-of-word correction of
	 * word-level surprisal) and, where the graph computes it, its `nextEntropyBits`. Costs one
	 * more position per text (the last token is then run too). Default false.
	 */
	readonly wordBoundaries?: boolean;
	/**
	 * Also give every token after the first its distribution's `topLogprobs` most likely tokens
	 * (1–20, computed in the graph), for `top_logprobs`. Runs plain batches. Default none.
	 */
	readonly topLogprobs?: number;
}

/** One of a position's most likely next tokens. */
export interface TopLogprob {
	readonly id: number;
	/** The token alone decoded to text (as vLLM's `tokenizer.decode([id])`). */
	readonly text: string;
	/** log p(token | prefix) in nats. */
	readonly logprob: number;
}

/** A token's own log-prob and its position's top-k tokens, most likely first. */
export interface TokenTopLogprobs {
	readonly chosen: TopLogprob;
	readonly top: readonly TopLogprob[];
}

/** Whether a scoring request reused shared prefixes, and why not when it did not. */
export interface PrefixReuseReport {
	readonly used: boolean;
	/** Why plain batches ran (the graph has no key/value cache, q8, turned off, ...). */
	readonly reason?: string;
}

export interface ScoredText {
	/** Index into `ScoreTextsParams.texts`. */
	readonly index: number;
	/** Every model token, special ones included, with UTF-16 offsets into the text and bits. */
	readonly tokens: readonly ScoredToken[];
	/** With `topLogprobs`: per token (same order), its top-k; null for the first token. */
	readonly topLogprobs?: readonly (TokenTopLogprobs | null)[];
}

export interface ScoreTextsResult {
	readonly texts: readonly ScoredText[];
	readonly tokenCount: number;
	/** Token positions the model computed, padding included (≤ tokenCount with prefix reuse). */
	readonly positionsComputed?: number;
	readonly prefixReuse?: PrefixReuseReport;
	readonly elapsedMs: number;
	/** Set when the model ended this request on a fallback backend. */
	readonly fallback?: BackendFallback;
}

export interface TokenizeParams {
	readonly modelKey: string;
	readonly text: string;
	readonly convention: SurprisalConvention;
}

export interface TokenizeResult {
	/** Tokens with offsets; `surprisalBits` is NaN (not scored). */
	readonly tokens: readonly ScoredToken[];
}

export interface GenerateTextParams {
	readonly modelKey: string;
	/** A chat is rendered with the tokenizer's chat template, or the Evals text rendering. */
	readonly prompt: GenerationPrompt;
	/** Only what the caller set: temperature 0 is greedy; an absent temperature is 1 (sampling),
	 * as on OpenAI-compatible servers. */
	readonly params: GenerationParams;
}

export interface GenerateTextResult {
	/** The whole completion, stop sequence excluded, never stripped. */
	readonly completion: string;
	/** `stop`: EOS or a stop sequence; `length`: `max_tokens` (or the context) ran out. */
	readonly finishReason: 'stop' | 'length';
	readonly usage: TokenUsage;
	readonly elapsedMs: number;
}

/** One generation step: the text it added to the completion (may be empty while a multi-byte
 * character is incomplete). Sent as it is produced; cancel stops within one step. */
export interface GenerateProgress {
	readonly text: string;
}

export interface CachedModel {
	readonly id: string;
	readonly source: 'bundled' | 'hub' | 'local';
	readonly bytes: number;
	readonly files: number;
}

/** The request map: kind → params and result. */
export interface Calls {
	loadModel: { params: LoadModelParams; result: ModelInfo };
	scoreTexts: { params: ScoreTextsParams; result: ScoreTextsResult };
	tokenize: { params: TokenizeParams; result: TokenizeResult };
	generate: { params: GenerateTextParams; result: GenerateTextResult };
	disposeModel: { params: { readonly modelKey: string }; result: null };
	listCachedModels: { params: Record<string, never>; result: readonly CachedModel[] };
	deleteCachedModel: { params: { readonly id: string }; result: { readonly filesDeleted: number } };
}
export type CallKind = keyof Calls;

/** Main → worker. `cancel` stops the request `id` within one batch (one token step for
 * `generate`); it then rejects with an error named `CancelledError`. */
export type WorkerRequest = RpcRequest<Calls>;

/** Model download/load progress: transformers.js's `ProgressInfo`, forwarded as-is. */
export interface LoadProgress {
	readonly status: string;
	readonly name?: string;
	readonly file?: string;
	/** 0–100 */
	readonly progress?: number;
	readonly loaded?: number;
	readonly total?: number;
}

/** The model runs on another backend than it was loaded for (WebGPU unavailable at load, or its
 * device lost or failing since → WASM); sent with every scoring event while that holds. */
export interface BackendFallback {
	readonly backend: InferenceBackend;
	readonly reason: string;
}

/** Scoring progress: sentences finished so far, with the ones finished since the last event. */
export interface ScoreProgress {
	readonly done: number;
	readonly total: number;
	readonly tokensPerSecond: number;
	readonly texts: readonly ScoredText[];
	/** Set when this batch ran on a fallback backend. */
	readonly fallback?: BackendFallback;
}

/** An error as it crosses the boundary; the client rebuilds named errors from `name`. */
export interface SerializedError {
	readonly name: string;
	readonly message: string;
}

/** Worker → main: a call's progress, under its id, before its result or error. */
export type WorkerProgressEvent =
	| { readonly type: 'load-progress'; readonly id: number; readonly progress: LoadProgress }
	| { readonly type: 'score-progress'; readonly id: number; readonly progress: ScoreProgress }
	| {
			readonly type: 'generate-progress';
			readonly id: number;
			readonly progress: GenerateProgress;
	  };

/** Worker → main: a line of the engine's log, about no call. */
export interface WorkerLogEvent {
	readonly type: 'log';
	readonly level: 'info' | 'warn';
	readonly message: string;
}

/** Worker → main. */
export type WorkerEvent = RpcReply<Calls, SerializedError> | WorkerProgressEvent | WorkerLogEvent;

/** Per-call options of the client. */
export interface CallOptions {
	readonly signal?: AbortSignal;
	readonly onLoadProgress?: (progress: LoadProgress) => void;
	readonly onScoreProgress?: (progress: ScoreProgress) => void;
	/** `generate`: each step's new text, in order. */
	readonly onToken?: (progress: GenerateProgress) => void;
}

/** What the UI sees of inference, wherever it runs (worker, in-thread fake, Node). */
export interface InferenceClientApi {
	call<K extends CallKind>(
		kind: K,
		params: Calls[K]['params'],
		options?: CallOptions,
	): Promise<Calls[K]['result']>;
	dispose(): void;
}
