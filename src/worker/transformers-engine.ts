/**
 * The real InferenceEngine: transformers.js 4 loads tokenizers and model files (bundled, hub,
 * local folder; progress; browser cache), onnxruntime runs a graph whose log-softmax tail is fused
 * in at load time, so only one log-prob per token leaves the runtime. The only module importing
 * @huggingface/transformers. Pure steps (offsets, conventions, batches, bits) come from src/core.
 */
import {
	AutoConfig,
	AutoModelForCausalLM,
	AutoTokenizer,
	env,
	Tensor,
	type PreTrainedModel,
	type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { BenchtopError } from '../core/errors';
import type { InferenceBackend, ModelSpec, SurprisalConvention } from '../core/model/model-spec';
import {
	appendLogProbTail,
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	LOG_PROBS_OUTPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	TARGETS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
	type LogProbTailVariant,
} from '../core/onnx/append-log-prob-tail';
import {
	assembleScoredTokens,
	planModelInput,
	type ModelInputPlan,
	type SpecialTokenBehaviour,
} from '../core/surprisal/conventions';
import {
	bucketSequenceLength,
	buildBatchInputs,
	planBatches,
	type BatchGroup,
	type BatchLimits,
} from '../core/surprisal/plan-batches';
import {
	buildContinuationInputs,
	continuationLength,
	extraTargetSlots,
	joinBoundarySurprisals,
	joinSurprisals,
	planPrefixReuse,
	type ContinuationInputs,
	type ContinuationRow,
} from '../core/surprisal/prefix-plan';
import { readReducedLogProbs, surprisalsBitsForRow } from '../core/surprisal/surprisal-from-logits';
import {
	computeTokenOffsets,
	readTokenizerFacts,
	type TokenizerFacts,
	type TokenSpan,
} from '../core/surprisal/token-offsets';
import {
	findWordStartTokens,
	readLstripAddedTokenIds,
	type WordStartTokens,
} from '../core/surprisal/word-start-tokens';
import type { ScoredToken } from '../core/scoring/types';
import {
	throwIfCancelled,
	type InferenceEngine,
	type LoadModelOptions,
	type GenerateTextOptions,
	type ScoreTextsOptions,
} from './engine';
import {
	BackendError,
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	NetworkUnavailableError,
	OutOfMemoryError,
	UnsupportedModelError,
} from './engine-errors';
import {
	generateText,
	hasChatTemplate,
	nextMacrotask,
	type GenerationHooks,
	type GenerationTokenizer,
} from './generate-text';
import type { OrtModelSource, OrtRuntime, OrtSession, OrtTensor } from './ort-runtime';
import type {
	BackendFallback,
	CachedModel,
	GenerateTextParams,
	GenerateTextResult,
	LoadModelParams,
	LoadProgress,
	ModelInfo,
	PrefixReuseReport,
	ScoredText,
	ScoreTextsParams,
	ScoreTextsResult,
	TokenizeParams,
	TokenizeResult,
} from './protocol';

export interface TransformersEngineOptions {
	readonly runtime: OrtRuntime;
	/** Where bundled models live: a URL path (`/models/`) in the browser, a folder in Node. */
	readonly bundledModelsPath: string;
	readonly onLog?: (level: 'info' | 'warn', message: string) => void;
	/** Upper bound on B × S (padded tokens) per forward pass. Default 2048. */
	readonly maxTokensPerBatch?: number;
	/** Upper bound on B × S × vocab × 4 bytes of logits inside the graph. Default 96 MiB. */
	readonly maxLogitsBytesPerBatch?: number;
	/** Sentences per batch when a request names no `maxBatchSize`. Default 64. */
	readonly defaultMaxBatchSize?: number;
}

/** Hub files are cached by transformers.js under this Cache Storage name (browser). */
export const MODEL_CACHE_NAME = 'transformers-cache';
const HUB_HOST = 'https://huggingface.co/';
const LOCAL_ID_PREFIX = 'benchtop-local';
const PROBE_TEXT = 'The probe.';

interface PastInput {
	readonly name: string;
	readonly type: 'float32' | 'float16';
	readonly heads: number;
	readonly headDim: number;
}

interface LoadedModel {
	info: ModelInfo;
	/** What it was loaded from (a fallback reloads from the same source, local files included). */
	readonly params: LoadModelParams;
	/** The backend it runs on; `requestedBackend` is the one it was loaded for. */
	backend: InferenceBackend;
	readonly requestedBackend: InferenceBackend;
	model: PreTrainedModel;
	session: OrtSession;
	readonly tokenizer: PreTrainedTokenizer;
	readonly idToToken: readonly string[];
	readonly facts: TokenizerFacts;
	readonly behaviour: SpecialTokenBehaviour;
	readonly padTokenId: number;
	readonly vocabSize: number;
	readonly maxPositions: number;
	readonly config: ModelConfigLike;
	pastInputs: readonly PastInput[];
	/** `present.*` output per past input (same order), or empty when the graph returns no cache. */
	cacheOutputs: readonly string[];
	/** The tokens that start a word (`findWordStartTokens`), for word-boundary requests. */
	readonly wordStarts: WordStartTokens;
	/** [V] (the logits' width): 1 for those tokens, 0 for the others (all 0 without a marker),
	 * as the graph's word-start mask input takes it. */
	readonly wordStartMask: Float32Array;
	/** The graph takes the word-start ids and returns the boundary log-probs. */
	hasWordBoundaries: boolean;
	hasPositionIds: boolean;
	hasLogitsToKeep: boolean;
	hasCacheBranch: boolean;
	/** Set when WebGPU reported its device lost: the next batch reloads on the fallback. */
	lostReason?: string;
}

/** A text ready for the model: its plan, every position's token string and the text spans. */
interface PreparedText {
	readonly text: string;
	readonly plan: ModelInputPlan;
	readonly tokens: readonly string[];
	readonly spans: readonly TokenSpan[];
}

interface ModelConfigLike {
	readonly model_type?: string;
	readonly vocab_size?: number;
	readonly max_position_embeddings?: number;
	readonly n_positions?: number;
	readonly n_ctx?: number;
	readonly bos_token_id?: number | null;
	readonly eos_token_id?: number | readonly number[] | null;
	readonly num_attention_heads?: number;
	readonly n_head?: number;
	readonly num_key_value_heads?: number;
	readonly hidden_size?: number;
	readonly n_embd?: number;
	readonly head_dim?: number;
}

interface TokenizerInternals {
	readonly _tokenizerJSON?: unknown;
	readonly bos_token_id?: number | null;
	readonly eos_token_id?: number | null;
	readonly pad_token_id?: number | null;
	readonly model_max_length?: number;
	get_vocab(): Map<string, number> | Record<string, number>;
	encode(text: string, options: { add_special_tokens: boolean }): number[];
	decode(
		ids: number[],
		options: { skip_special_tokens: boolean; clean_up_tokenization_spaces: boolean },
	): string;
}

/** `${source}:${id}@${revision}:${dtype}:${backend}`: one loaded model per requested spec. */
export function modelKeyOf(spec: ModelSpec): string {
	return `${spec.source}:${spec.id}@${spec.revision ?? ''}:${spec.dtype}:${spec.backend}`;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Our named error for a failed load, by what transformers.js / ORT / fetch said. */
function classifyLoadError(
	error: unknown,
	spec: ModelSpec,
	networkFailure: string | undefined,
): Error {
	if (error instanceof CancelledError || error instanceof UnsupportedModelError) return error;
	if (error instanceof ModelFileMissingError || error instanceof OutOfMemoryError) return error;
	const message = messageOf(error);
	const name = error instanceof Error ? error.name : '';
	const what = `${spec.source} model '${spec.id}'`;
	if (
		/out of memory|bad_alloc|allocation failed|Failed to allocate|Cannot enlarge memory|RangeError: Array buffer/i.test(
			`${name}: ${message}`,
		)
	) {
		return new OutOfMemoryError(
			`Out of memory while loading the ${what} (${message}). Try a smaller model or dtype, or close other tabs.`,
		);
	}
	// NOTE: transformers.js reports a request that never got an answer as a missing file
	// ("Could not locate file"), so a failed fetch seen by our env.fetch decides first.
	if (
		spec.source === 'hub' &&
		(networkFailure !== undefined ||
			/fetch failed|Failed to fetch|NetworkError|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(message))
	) {
		return new NetworkUnavailableError(
			`Cannot download the ${what} from the Hugging Face Hub (${networkFailure ?? message}). Hub models need a network connection the first time.`,
		);
	}
	if (
		name === 'ModelFileNotFoundError' ||
		/Could not locate|not found|404|ENOENT|no such file|Could not find/i.test(message)
	) {
		return new ModelFileMissingError(`A file of the ${what} is missing: ${message}`);
	}
	if (/Unsupported model type|not a causal|AutoModelForCausalLM/i.test(message)) {
		return new UnsupportedModelError(
			`The ${what} cannot be scored: it is not a causal language model transformers.js knows (${message}).`,
		);
	}
	return new BackendError(`Loading the ${what} failed: ${message}`);
}

function classifyRunError(error: unknown): Error {
	if (error instanceof CancelledError) return error;
	const message = messageOf(error);
	if (
		/out of memory|bad_alloc|allocation failed|Failed to allocate|Cannot enlarge memory/i.test(
			message,
		)
	) {
		return new OutOfMemoryError(
			`Out of memory while scoring (${message}). Use smaller batches (maxBatchSize) or a smaller model.`,
		);
	}
	return new BackendError(`The model failed while scoring: ${message}`);
}

/** A CPU/WASM forward pass costs about as much as this many extra positions (measured in Node,
 * gpt2-en-small: ~3 ms per pass, ~130 µs per position): batches are cut where padding and passes
 * cost least. */
const CPU_BATCH_OVERHEAD_POSITIONS = 24;

/** Every length 1…maxPositions: padding to the longest sequence of a batch, no further. */
function exactBuckets(maxPositions: number): number[] {
	return Array.from({ length: maxPositions }, (_, i) => i + 1);
}

/** Elapsed milliseconds on a monotonic clock. */
function now(): number {
	return globalThis.performance?.now() ?? Date.now();
}

/** What the scoring loops share: batch limits, cancel signal, and what to do with results. */
interface ScoringRun {
	readonly limits: BatchLimits;
	readonly signal: AbortSignal | undefined;
	/** Also compute every position's boundary surprisal (the last token is then run too). */
	readonly wordBoundaries: boolean;
	/** Turns a sequence's surprisals (and boundary surprisals, when asked) into its ScoredText
	 * (and records it). */
	finish(index: number, bits: Float64Array, boundaryBits?: Float64Array): ScoredText;
	/** After each batch: the texts it finished and the positions it computed (padding included). */
	report(batch: readonly ScoredText[], positions: number): void;
}

/** A forward pass's log-probs `[B·S]` and the cache outputs fetched, `[B, heads, P + S, dim]`. */
interface BatchOutputs {
	readonly logProbs: Float32Array;
	/** log P(next token starts a word) `[B·S]`, nats, when fetched. */
	readonly boundaryLogProbs?: Float32Array;
	readonly caches: readonly {
		readonly data: Float32Array | Uint16Array;
		readonly dims: readonly number[];
	}[];
}

/** A sequence's first `positions` cache positions, one `[heads, positions, dim]` per past input. */
interface PrefixCache {
	readonly positions: number;
	readonly tensors: readonly (Float32Array | Uint16Array)[];
}

/** Throws UnsupportedModelError when `model` cannot give word-boundary surprisals. */
function requireWordBoundaries(model: LoadedModel): void {
	const what = `The model '${model.info.spec.id}' cannot give word-boundary probabilities`;
	const fix = 'score it without the beginning-of-word correction';
	if (!model.wordStarts.ok)
		throw new UnsupportedModelError(`${what}: ${model.wordStarts.reason}; ${fix}.`);
	if (!model.hasWordBoundaries || model.wordStarts.ids.length === 0) {
		throw new UnsupportedModelError(
			`${what}: ${model.hasWordBoundaries ? 'no token starts a word' : 'its scoring graph has no boundary output'}; ${fix}.`,
		);
	}
}

/** The boundary positions a run feeds when it does not fetch the boundary output: one, so the
 * boundary nodes (which run whether fetched or not) cost one position per row. */
const ONE_BOUNDARY_POSITION = BigInt64Array.of(0n);

/** Why shared-prefix reuse cannot run on `model` (plain batches then), or undefined if it can. */
function prefixReuseUnavailableReason(model: LoadedModel): string | undefined {
	if (!model.info.batchInvariant)
		return `${model.info.spec.dtype} runs one sentence per pass (its numbers depend on the batch)`;
	if (model.pastInputs.length === 0)
		return 'the graph has no key/value cache inputs (past_key_values.*)';
	if (model.cacheOutputs.length === 0)
		return 'the graph returns no key/value cache (present.* outputs)';
	if (model.hasCacheBranch) return 'the graph is a merged decoder (use_cache_branch)';
	if (!model.hasPositionIds) return 'the graph takes no position_ids';
	return undefined;
}

/** Row `row`'s first `keep` positions of every fetched cache output: its past (P positions),
 * then its own tokens, which sit after the batch's padded past. */
function keepCache(
	model: LoadedModel,
	caches: BatchOutputs['caches'],
	inputs: ContinuationInputs,
	row: number,
	past: number,
	keep: number,
): PrefixCache {
	const tensors = caches.map(({ data, dims }, j) => {
		const heads = dims[1] ?? model.pastInputs[j]?.heads ?? 1;
		const positions = dims[2] ?? inputs.pastLength + inputs.sequenceLength;
		const dim = dims[3] ?? model.pastInputs[j]?.headDim ?? 1;
		const kept =
			data instanceof Uint16Array
				? new Uint16Array(heads * keep * dim)
				: new Float32Array(heads * keep * dim);
		for (let h = 0; h < heads; h++) {
			const base = (row * heads + h) * positions * dim;
			const to = h * keep * dim;
			const own = inputs.pastLength;
			const fromPast = Math.min(past, keep);
			kept.set(data.subarray(base, base + fromPast * dim) as Float32Array & Uint16Array, to);
			if (keep > fromPast) {
				kept.set(
					data.subarray(base + own * dim, base + (own + keep - fromPast) * dim) as Float32Array &
						Uint16Array,
					to + fromPast * dim,
				);
			}
		}
		return kept;
	});
	return { positions: keep, tensors };
}

/** Batches whose padded past and length would pass the model's positions, as single rows. */
function splitOverlong(
	groups: readonly BatchGroup[],
	rows: readonly ContinuationRow[],
	maxPositions: number,
): BatchGroup[] {
	return groups.flatMap((group) => {
		const past = Math.max(...group.sequenceIndices.map((i) => rows[i]?.pastLength ?? 0));
		if (past + group.sequenceLength <= maxPositions) return [group];
		return group.sequenceIndices.map((i) => ({
			sequenceIndices: [i],
			sequenceLength: rows[i] ? continuationLength(rows[i]) : 1,
		}));
	});
}

export class TransformersEngine implements InferenceEngine {
	readonly #options: TransformersEngineOptions;
	readonly #runtime: OrtRuntime;
	readonly #models = new Map<string, Promise<LoadedModel>>();
	#loadChain: Promise<unknown> = Promise.resolve();
	#localFiles = new Map<string, Blob>();
	#deviceLostListening = false;
	/** The last fetch that failed without a response during the current load. */
	#networkFailure: string | undefined;
	/** transformers.js's own choice of caching downloads in Cache Storage (browsers: true). */
	#browserCacheDefault = false;
	/** Set while a bundled model's files download: byte progress read from the responses. */
	#fetchProgress:
		((url: string, loaded: number, total: number | undefined, done: boolean) => void) | undefined;
	/** The logits' width (V) each scoring session's graph declares, when it declares a number. */
	readonly #logitsWidths = new WeakMap<OrtSession, number>();
	/** Plain (unfused) models for generation by modelKey: the scoring graph returns no logits. */
	readonly #generators = new Map<string, Promise<PreTrainedModel>>();
	#generateChain: Promise<unknown> = Promise.resolve();

	constructor(options: TransformersEngineOptions) {
		this.#options = options;
		this.#runtime = options.runtime;
		env.logLevel = 40;
		const web = options.runtime.kind === 'web';
		// NOTE: no-store (browser) avoids a Chromium cache-write race on the first load
		// (browser-inference.md §1.8 pitfall 1) and a second copy of every model in the HTTP cache.
		// A request that fails outright is remembered: it tells "offline" apart from "no such file".
		env.fetch = async (url: string | URL, init?: RequestInit) => {
			let response: Response;
			try {
				response = await fetch(url, web ? { ...init, cache: 'no-store' } : init);
			} catch (error) {
				this.#networkFailure = messageOf(error);
				throw error;
			}
			const report = this.#fetchProgress;
			return report ? countedResponse(response, String(url), report) : response;
		};
		// onnxruntime fetches its own wasm (the app's service worker keeps it for offline use):
		// transformers.js's copy in Cache Storage would be a second download of 27 MB.
		if (web) env.useWasmCache = false;
		this.#browserCacheDefault = env.useBrowserCache;
	}

	async loadModel(params: LoadModelParams, options: LoadModelOptions = {}): Promise<ModelInfo> {
		throwIfCancelled(options.signal);
		const key = modelKeyOf(params.spec);
		let pending = this.#models.get(key);
		if (!pending) {
			// Loads run one at a time: they set transformers.js's global `env`.
			pending = this.#loadChain.then(() => this.#load(params, key, options.onProgress));
			this.#loadChain = pending.catch(() => undefined);
			this.#models.set(key, pending);
			pending.catch(() => this.#models.delete(key));
		}
		const loaded = await pending;
		throwIfCancelled(options.signal);
		return loaded.info;
	}

	async scoreTexts(
		params: ScoreTextsParams,
		options: ScoreTextsOptions = {},
	): Promise<ScoreTextsResult> {
		const model = await this.#require(params.modelKey);
		const started = now();
		const wordBoundaries = params.wordBoundaries === true;
		if (wordBoundaries) requireWordBoundaries(model);
		const prepared = params.texts.map((text) => this.#prepare(model, text, params.convention));
		const sequences = prepared.map((p) => p.plan.inputIds);
		const limits: BatchLimits = {
			maxPositions: model.maxPositions,
			maxTokens: this.#options.maxTokensPerBatch ?? 2048,
			maxLogitsBytes: this.#options.maxLogitsBytesPerBatch ?? 96 * 1024 * 1024,
			logitsWidth: model.vocabSize,
			maxBatchSize: params.maxBatchSize ?? this.#options.defaultMaxBatchSize ?? 64,
			batchInvariant: model.info.batchInvariant,
			// CPU and WASM kernels take any shape at no cost: pad only to the batch's longest
			// sequence. WebGPU keeps the default buckets so compiled shaders are reused.
			...(model.backend === 'webgpu'
				? {}
				: {
						buckets: exactBuckets(model.maxPositions),
						batchOverheadPositions: CPU_BATCH_OVERHEAD_POSITIONS,
					}),
		};
		const results: (ScoredText | undefined)[] = new Array(prepared.length);
		// Texts with no model input (empty text, reference convention) have nothing to score.
		prepared.forEach((p, index) => {
			if (p.plan.inputIds.length === 0) results[index] = { index, tokens: [] };
		});
		let done = results.filter(Boolean).length;
		let tokenCount = 0;
		let positionsComputed = 0;
		/** Set while the model runs on another backend than it was loaded for (WebGPU → WASM, at
		 * load or since a device loss): callers may hold the load-time info. */
		const fallback = (): BackendFallback | undefined =>
			model.backend === model.requestedBackend
				? undefined
				: { backend: model.backend, reason: model.info.fallbackReason ?? 'unknown reason' };
		const run: ScoringRun = {
			limits,
			signal: options.signal,
			wordBoundaries,
			finish: (index, bits, boundaryBits) => {
				const p = prepared[index] as PreparedText;
				const assembled = assembleScoredTokens({
					text: p.text,
					plan: p.plan,
					tokens: p.tokens,
					textSpans: p.spans,
					surprisalsBits: bits,
				});
				const tokens = boundaryBits
					? assembled.map((token, position) => ({
							...token,
							boundarySurprisalBits: boundaryBits[position] ?? Number.NaN,
						}))
					: assembled;
				const scored = { index, tokens };
				results[index] = scored;
				return scored;
			},
			report: (batch, positions) => {
				done += batch.length;
				positionsComputed += positions;
				for (const scored of batch) tokenCount += scored.tokens.length;
				const seconds = Math.max(now() - started, 1) / 1000;
				const moved = fallback();
				options.onProgress?.({
					done,
					total: prepared.length,
					tokensPerSecond: tokenCount / seconds,
					texts: batch,
					...(moved ? { fallback: moved } : {}),
				});
			},
		};
		const unavailable =
			params.prefixReuse === false
				? 'turned off for this request'
				: prefixReuseUnavailableReason(model);
		if (unavailable === undefined) await this.#scoreReusingPrefixes(model, sequences, run);
		else await this.#scorePlain(model, sequences, run);
		throwIfCancelled(options.signal);
		const moved = fallback();
		const prefixReuse: PrefixReuseReport =
			unavailable === undefined ? { used: true } : { used: false, reason: unavailable };
		return {
			texts: results.map((r, index) => r ?? { index, tokens: [] }),
			tokenCount,
			positionsComputed,
			prefixReuse,
			elapsedMs: now() - started,
			...(moved ? { fallback: moved } : {}),
		};
	}

	async tokenize(params: TokenizeParams): Promise<TokenizeResult> {
		const model = await this.#require(params.modelKey);
		const p = this.#prepare(model, params.text, params.convention);
		const tokens: ScoredToken[] = assembleScoredTokens({
			text: p.text,
			plan: p.plan,
			tokens: p.tokens,
			textSpans: p.spans,
			surprisalsBits: new Float64Array(p.plan.inputIds.length).fill(Number.NaN),
		});
		return { tokens };
	}

	async generate(
		params: GenerateTextParams,
		options: GenerateTextOptions = {},
	): Promise<GenerateTextResult> {
		const loaded = await this.#require(params.modelKey);
		// Generations run one at a time (one decoding loop per ORT session).
		const run = this.#generateChain.then(async () => {
			throwIfCancelled(options.signal);
			const model = await this.#generationModel(loaded);
			throwIfCancelled(options.signal);
			return generateText(this.#generationRuntime(loaded, model), params, options);
		});
		this.#generateChain = run.catch(() => undefined);
		try {
			return await run;
		} catch (error) {
			if (error instanceof CancelledError || error instanceof RangeError) throw error;
			if (error instanceof BenchtopError) throw error;
			throw new BackendError(`The model failed while generating: ${messageOf(error)}`);
		}
	}

	async disposeModel(modelKey: string): Promise<void> {
		const generator = this.#generators.get(modelKey);
		this.#generators.delete(modelKey);
		await generator?.then((m) => m.dispose()).catch(() => undefined);
		const pending = this.#models.get(modelKey);
		if (!pending) return;
		this.#models.delete(modelKey);
		const loaded = await pending.catch(() => undefined);
		await loaded?.model.dispose();
	}

	async listCachedModels(): Promise<readonly CachedModel[]> {
		const cache = await this.#openBrowserCache();
		if (!cache) return [];
		const byId = new Map<string, { source: CachedModel['source']; bytes: number; files: number }>();
		for (const request of await cache.keys()) {
			const owner = this.#cacheOwner(request.url);
			if (!owner) continue;
			const response = await cache.match(request);
			const bytes = Number(response?.headers.get('content-length') ?? 0) || 0;
			const entry = byId.get(owner.id) ?? { source: owner.source, bytes: 0, files: 0 };
			entry.bytes += bytes;
			entry.files += 1;
			byId.set(owner.id, entry);
		}
		return [...byId].map(([id, e]) => ({ id, source: e.source, bytes: e.bytes, files: e.files }));
	}

	async deleteCachedModel(id: string): Promise<{ readonly filesDeleted: number }> {
		const cache = await this.#openBrowserCache();
		if (!cache) return { filesDeleted: 0 };
		let filesDeleted = 0;
		for (const request of await cache.keys()) {
			if (this.#cacheOwner(request.url)?.id === id && (await cache.delete(request))) filesDeleted++;
		}
		return { filesDeleted };
	}

	// --- loading ---

	async #load(
		params: LoadModelParams,
		modelKey: string,
		onProgress?: (p: LoadProgress) => void,
	): Promise<LoadedModel> {
		const started = now();
		const { spec } = params;
		this.#networkFailure = undefined;
		let backend = spec.backend;
		let fallbackReason = await this.#runtime.unavailableReason(backend);
		if (fallbackReason !== undefined) {
			backend = this.#runtime.fallbackBackend;
			this.#log('warn', `${spec.id}: ${fallbackReason}; running on ${backend}.`);
		}
		const modelId = this.#configureSource(params);
		const revision = spec.source === 'hub' ? (spec.revision ?? 'main') : 'main';
		const progress_callback = onProgress
			? (info: Record<string, unknown>) => onProgress(pickProgress(info))
			: undefined;
		const common = { revision, ...(progress_callback ? { progress_callback } : {}) };
		try {
			const config = (await AutoConfig.from_pretrained(
				modelId,
				common,
			)) as unknown as ModelConfigLike;
			// The model downloads while the tokenizer loads; then the runtime starts (in the browser:
			// onnxruntime's wasm downloads and compiles) while the model is still downloading.
			const modelOptions = this.#modelLoadOptions(spec, modelId, common);
			const createModel = async (): Promise<{ model: PreTrainedModel; session: OrtSession }> => {
				try {
					return await this.#createModel(modelId, spec, backend, modelOptions);
				} catch (error) {
					if (backend !== 'webgpu') throw error;
					fallbackReason = `WebGPU could not run this model (${messageOf(error)})`;
					backend = this.#runtime.fallbackBackend;
					this.#log('warn', `${spec.id}: ${fallbackReason}; running on ${backend}.`);
					return await this.#createModel(modelId, spec, backend, modelOptions);
				}
			};
			const modelLoad = createModel().finally(() => {
				this.#fetchProgress = undefined;
			});
			const tokenizerLoad = AutoTokenizer.from_pretrained(modelId, common);
			void tokenizerLoad.then(
				() => this.#runtime.warmUp?.(),
				() => undefined,
			);
			// Both settle before the load goes on (or fails): a load left running would still
			// hold transformers.js's global `env` when the next load sets it.
			const [tokenizerResult, modelResult] = await Promise.allSettled([tokenizerLoad, modelLoad]);
			if (tokenizerResult.status === 'rejected') throw tokenizerResult.reason;
			if (modelResult.status === 'rejected') throw modelResult.reason;
			const tokenizer = tokenizerResult.value;
			const created = modelResult.value;
			const loaded = this.#describe(
				spec,
				modelKey,
				config,
				tokenizer,
				created,
				backend,
				fallbackReason,
				started,
				params,
			);
			if (backend === 'webgpu') this.#watchDeviceLoss(loaded);
			// Run once: compiles kernels and proves the graph works before the first real request.
			await this.#scorePlain(
				loaded,
				[this.#prepare(loaded, PROBE_TEXT, 'reference').plan.inputIds.slice(0, 8)],
				{
					limits: {
						maxPositions: loaded.maxPositions,
						maxTokens: 8,
						buckets: [8],
						batchInvariant: loaded.info.batchInvariant,
					},
					signal: undefined,
					wordBoundaries: false,
					finish: (index) => ({ index, tokens: [] }),
					report: () => undefined,
				},
			);
			loaded.info = { ...loaded.info, loadMs: now() - started };
			return loaded;
		} catch (error) {
			throw classifyLoadError(error, spec, this.#networkFailure);
		} finally {
			env.useCustomCache = false;
		}
	}

	/** Sets transformers.js's env for the model's source; returns the id to load it by. */
	#configureSource(params: LoadModelParams): string {
		const { spec } = params;
		env.useCustomCache = false;
		env.useBrowserCache = this.#browserCacheDefault;
		switch (spec.source) {
			case 'bundled':
				// Not copied into transformers.js's Cache Storage: the app's service worker precaches
				// the bundled models (a second 42 MB copy, written before the session could start).
				env.useBrowserCache = false;
				env.localModelPath = this.#options.bundledModelsPath;
				env.allowLocalModels = true;
				env.allowRemoteModels = false;
				return spec.id;
			case 'hub':
				env.allowLocalModels = false;
				env.allowRemoteModels = true;
				return spec.id;
			case 'local': {
				env.allowRemoteModels = false;
				if (!params.localFiles) {
					// Node: `id` is a model folder path, read directly from disk.
					env.allowLocalModels = true;
					return spec.id;
				}
				const localId = `${LOCAL_ID_PREFIX}/${spec.id.replace(/[^\w.-]+/g, '-') || 'model'}`;
				for (const file of params.localFiles) {
					this.#localFiles.set(`${localId}/${file.path.replace(/^\.?\/+/, '')}`, file.file);
				}
				env.allowLocalModels = true;
				env.useCustomCache = true;
				env.customCache = {
					match: async (key: string) => {
						// Keys are `<localModelPath>/<localId>/<file>` or the would-be hub URL
						// `…/<localId>/resolve/<revision>/<file>`.
						const at = key.indexOf(`${localId}/`);
						const file =
							at >= 0 ? key.slice(at + localId.length + 1).replace(/^resolve\/[^/]+\//, '') : '';
						const blob = at >= 0 ? this.#localFiles.get(`${localId}/${file}`) : undefined;
						return blob
							? new Response(blob, { headers: { 'content-length': String(blob.size) } })
							: undefined;
					},
					put: async () => undefined,
				};
				return localId;
			}
		}
	}

	/**
	 * The model's `from_pretrained` options. A bundled model gets no progress callback: with one,
	 * transformers.js first asks every file's size with a GET that, for a same-origin path, downloads
	 * the whole file (a second copy of the weights); the bytes are counted from the responses instead.
	 */
	#modelLoadOptions(
		spec: ModelSpec,
		modelId: string,
		common: {
			readonly revision: string;
			readonly progress_callback?: (info: Record<string, unknown>) => void;
		},
	): Record<string, unknown> {
		const { progress_callback, ...rest } = common;
		if (spec.source !== 'bundled' || !progress_callback) return common;
		const prefix = `${this.#options.bundledModelsPath}${modelId}/`;
		this.#fetchProgress = (url, loaded, total, done) => {
			const path = new URL(url, 'http://x/').pathname;
			const file = path.startsWith(prefix) ? path.slice(prefix.length) : path;
			progress_callback({
				status: done ? 'done' : 'progress',
				name: modelId,
				file,
				loaded,
				...(total !== undefined ? { total, progress: (loaded / total) * 100 } : {}),
			});
		};
		return rest;
	}

	/** AutoModelForCausalLM with our session factory: the tail is fused into the ONNX bytes. */
	async #createModel(
		modelId: string,
		spec: ModelSpec,
		backend: InferenceBackend,
		common: Record<string, unknown>,
	): Promise<{ model: PreTrainedModel; session: OrtSession }> {
		const sessionClass = this.#runtime.InferenceSession;
		const originalCreate = sessionClass.create;
		const variant: LogProbTailVariant = backend === 'webgpu' ? 'decomposed' : 'log-softmax';
		const runtime = this.#runtime;
		const logitsWidths = this.#logitsWidths;
		let created: OrtSession | undefined;
		// NOTE: transformers.js creates sessions through the InferenceSession class it shares with
		// us; during this load its `create` adds the log-prob tail and our session options.
		sessionClass.create = async (source: OrtModelSource, options?: Record<string, unknown>) => {
			// onnxruntime-web starts its wasm once: a second start while the warm-up's is under way
			// fails ("multiple calls to 'initWasm()'"), so the model's session waits for it.
			await runtime.warmUp?.();
			const bytes = typeof source === 'string' ? await runtime.readModelFile(source) : source;
			const fused = appendLogProbTail(bytes, variant, {
				keepCacheOutputs: true,
				wordBoundaries: true,
			});
			if (!fused.ok) {
				throw new UnsupportedModelError(
					`The model '${spec.id}' cannot be scored: ${fused.reason}.`,
				);
			}
			const { preferredOutputLocation: _dropped, ...rest } = options ?? {};
			created = await originalCreate.call(sessionClass, fused.bytes, {
				...rest,
				...runtime.sessionOptions(backend),
			});
			if (fused.logitsWidth !== undefined) logitsWidths.set(created, fused.logitsWidth);
			return created;
		};
		try {
			const model = await AutoModelForCausalLM.from_pretrained(modelId, {
				...common,
				dtype: spec.dtype,
				device: runtime.deviceName(backend) as 'wasm',
				session_options: runtime.sessionOptions(backend),
			});
			if (!created)
				throw new UnsupportedModelError(`The model '${spec.id}' created no ONNX session.`);
			return { model, session: created };
		} finally {
			sessionClass.create = originalCreate;
		}
	}

	#describe(
		spec: ModelSpec,
		modelKey: string,
		config: ModelConfigLike,
		tokenizer: PreTrainedTokenizer,
		created: { model: PreTrainedModel; session: OrtSession },
		backend: InferenceBackend,
		fallbackReason: string | undefined,
		started: number,
		params: LoadModelParams,
	): LoadedModel {
		const internals = tokenizer as unknown as TokenizerInternals;
		const facts = readTokenizerFacts(internals._tokenizerJSON);
		const vocab = internals.get_vocab();
		const idToToken: string[] = [];
		for (const [token, id] of vocab instanceof Map ? vocab : Object.entries(vocab))
			idToToken[id] = token;
		const behaviour = this.#specialTokenBehaviour(internals, config);
		const vocabSize = config.vocab_size ?? idToToken.length;
		const maxPositions =
			config.max_position_embeddings ??
			config.n_positions ??
			config.n_ctx ??
			internals.model_max_length ??
			2048;
		const io = this.#sessionInputs(created.session, config, spec);
		const logitsWidth = this.#logitsWidths.get(created.session) ?? vocabSize;
		const wordStarts = this.#wordStarts(internals, idToToken, logitsWidth);
		const wordStartMask = new Float32Array(logitsWidth);
		if (wordStarts.ok) for (const id of wordStarts.ids) wordStartMask[id] = 1;
		const info: ModelInfo = {
			modelKey,
			spec: { ...spec, backend },
			...(fallbackReason !== undefined ? { fallbackReason } : {}),
			modelType: config.model_type ?? 'unknown',
			vocabSize,
			maxPositions,
			...(behaviour.bosTokenId !== undefined ? { bosTokenId: behaviour.bosTokenId } : {}),
			...(behaviour.eosTokenId !== undefined ? { eosTokenId: behaviour.eosTokenId } : {}),
			tokenizerKind: facts.kind,
			hasChatTemplate: hasChatTemplate(tokenizer as unknown as GenerationTokenizer),
			// q8 is measured batch-dependent (up to 1.24 bits); fp16 is untested here (no fp16 model
			// to test with): both run one sentence per forward pass. fp32 is tested (≤ 1e-4 bits).
			batchInvariant: spec.dtype === 'fp32',
			loadMs: now() - started,
		};
		return {
			info,
			params,
			backend,
			requestedBackend: spec.backend,
			model: created.model,
			session: created.session,
			tokenizer,
			idToToken,
			facts,
			behaviour,
			padTokenId: internals.pad_token_id ?? behaviour.eosTokenId ?? 0,
			vocabSize,
			maxPositions,
			config,
			wordStarts,
			wordStartMask,
			...io,
		};
	}

	/** The word-start tokens by `findWordStartTokens`' rule (minicons' `bow_correction`). */
	#wordStarts(
		tokenizer: TokenizerInternals,
		idToToken: readonly string[],
		vocabSize: number,
	): WordStartTokens {
		let spaceTokenIds: number[];
		try {
			spaceTokenIds = tokenizer.encode(' ', { add_special_tokens: false });
		} catch (error) {
			return { ok: false, reason: `the tokenizer cannot encode a space (${messageOf(error)})` };
		}
		const tokenOf = (id: number | null | undefined): string | undefined =>
			id === null || id === undefined ? undefined : idToToken[id];
		const bosToken = tokenOf(tokenizer.bos_token_id);
		const eosToken = tokenOf(tokenizer.eos_token_id);
		return findWordStartTokens({
			idToToken,
			vocabSize,
			spaceTokenIds,
			...(bosToken !== undefined ? { bosToken } : {}),
			...(eosToken !== undefined ? { eosToken } : {}),
			lstripTokenIds: readLstripAddedTokenIds(tokenizer._tokenizerJSON),
		});
	}

	/** What the tokenizer adds by itself (probed by encoding with and without special tokens). */
	#specialTokenBehaviour(
		tokenizer: TokenizerInternals,
		config: ModelConfigLike,
	): SpecialTokenBehaviour {
		const plain = tokenizer.encode('a', { add_special_tokens: false });
		const full = tokenizer.encode('a', { add_special_tokens: true });
		const addsBos = full.length > plain.length && full[0] !== plain[0];
		const addsEos = full.length > plain.length && full.at(-1) !== plain.at(-1);
		const configEos = Array.isArray(config.eos_token_id)
			? config.eos_token_id[0]
			: config.eos_token_id;
		const bos =
			(addsBos ? full[0] : undefined) ?? tokenizer.bos_token_id ?? config.bos_token_id ?? undefined;
		const eos =
			(addsEos ? full.at(-1) : undefined) ?? tokenizer.eos_token_id ?? configEos ?? undefined;
		return {
			addsBos,
			addsEos,
			...(bos !== undefined && bos !== null ? { bosTokenId: bos } : {}),
			...(eos !== undefined && eos !== null ? { eosTokenId: eos } : {}),
		};
	}

	/** The inputs the graph declares besides ids/mask/targets, and how to feed them. */
	#sessionInputs(session: OrtSession, config: ModelConfigLike, spec: ModelSpec) {
		const known = new Set([
			'input_ids',
			'attention_mask',
			TARGETS_INPUT_NAME,
			WORD_START_MASK_INPUT_NAME,
			BOUNDARY_POSITIONS_INPUT_NAME,
			'position_ids',
			'num_logits_to_keep',
			'use_cache_branch',
		]);
		const metadata = new Map((session.inputMetadata ?? []).map((m) => [m.name, m]));
		const heads = config.num_key_value_heads ?? config.num_attention_heads ?? config.n_head ?? 1;
		const hidden = config.hidden_size ?? config.n_embd ?? 0;
		const headDimFallback =
			config.head_dim ?? Math.floor(hidden / (config.num_attention_heads ?? config.n_head ?? 1));
		const pastInputs: PastInput[] = [];
		for (const name of session.inputNames) {
			if (known.has(name)) continue;
			if (!name.startsWith('past_key_values')) {
				throw new UnsupportedModelError(
					`The model '${spec.id}' needs an input '${name}' that a plain forward pass cannot give.`,
				);
			}
			const shape = metadata.get(name)?.shape ?? [];
			const type = metadata.get(name)?.type === 'float16' ? 'float16' : 'float32';
			pastInputs.push({
				name,
				type,
				heads: typeof shape[1] === 'number' ? shape[1] : heads,
				headDim: typeof shape[3] === 'number' ? shape[3] : headDimFallback,
			});
		}
		for (const required of ['input_ids', 'attention_mask', TARGETS_INPUT_NAME]) {
			if (!session.inputNames.includes(required)) {
				throw new UnsupportedModelError(`The model '${spec.id}' has no '${required}' input.`);
			}
		}
		// The cache each past input feeds comes back as the output named `present…` likewise.
		const cacheOutputs = pastInputs.map((past) => past.name.replace(/^past_key_values/, 'present'));
		const hasCache =
			pastInputs.length > 0 && cacheOutputs.every((name) => session.outputNames.includes(name));
		return {
			pastInputs,
			cacheOutputs: hasCache ? cacheOutputs : [],
			hasPositionIds: session.inputNames.includes('position_ids'),
			hasLogitsToKeep: session.inputNames.includes('num_logits_to_keep'),
			hasCacheBranch: session.inputNames.includes('use_cache_branch'),
			hasWordBoundaries:
				session.inputNames.includes(WORD_START_MASK_INPUT_NAME) &&
				session.inputNames.includes(BOUNDARY_POSITIONS_INPUT_NAME) &&
				session.outputNames.includes(BOUNDARY_LOG_PROBS_OUTPUT_NAME),
		};
	}

	#watchDeviceLoss(loaded: LoadedModel): void {
		if (this.#deviceLostListening) return;
		this.#deviceLostListening = true;
		this.#runtime.onDeviceLost((reason) => {
			this.#log('warn', reason);
			void Promise.all([...this.#models.values()].map((p) => p.catch(() => undefined))).then(
				(models) => {
					for (const m of models) if (m?.backend === 'webgpu') m.lostReason = reason;
				},
			);
			loaded.lostReason = reason;
		});
	}

	// --- generation ---

	/** The model without the log-prob tail (loaded once per modelKey, in the load chain). */
	#generationModel(loaded: LoadedModel): Promise<PreTrainedModel> {
		const key = loaded.info.modelKey;
		let pending = this.#generators.get(key);
		if (!pending) {
			pending = this.#loadChain.then(async () => {
				const { spec } = loaded.info;
				// A browser-picked local folder: its files are still held under its local id.
				const localPrefix = `${LOCAL_ID_PREFIX}/${spec.id.replace(/[^\w.-]+/g, '-') || 'model'}/`;
				const localFiles = [...this.#localFiles]
					.filter(([key]) => spec.source === 'local' && key.startsWith(localPrefix))
					.map(([key, file]) => ({ path: key.slice(localPrefix.length), file }));
				const modelId = this.#configureSource({
					spec,
					...(localFiles.length > 0 ? { localFiles } : {}),
				});
				try {
					return await AutoModelForCausalLM.from_pretrained(modelId, {
						revision: spec.source === 'hub' ? (spec.revision ?? 'main') : 'main',
						dtype: spec.dtype,
						device: this.#runtime.deviceName(loaded.backend) as 'wasm',
						session_options: this.#runtime.sessionOptions(loaded.backend),
					});
				} catch (error) {
					throw classifyLoadError(error, spec, this.#networkFailure);
				} finally {
					env.useCustomCache = false;
				}
			});
			this.#loadChain = pending.catch(() => undefined);
			this.#generators.set(key, pending);
			pending.catch(() => this.#generators.delete(key));
		}
		return pending;
	}

	#generationRuntime(loaded: LoadedModel, model: PreTrainedModel) {
		const configEos = loaded.config.eos_token_id;
		const eosTokenIds = [
			...(loaded.behaviour.eosTokenId !== undefined ? [loaded.behaviour.eosTokenId] : []),
			...(Array.isArray(configEos) ? configEos : typeof configEos === 'number' ? [configEos] : []),
		];
		return {
			tokenizer: loaded.tokenizer as unknown as GenerationTokenizer,
			eosTokenIds,
			startTokenId: loaded.behaviour.bosTokenId ?? loaded.behaviour.eosTokenId,
			maxPositions: loaded.maxPositions,
			runGenerate: async (ids: readonly number[], maxNewTokens: number, hooks: GenerationHooks) => {
				const n = ids.length;
				const generator = model as unknown as {
					forward(inputs: unknown): Promise<unknown>;
					generate(options: Record<string, unknown>): Promise<unknown>;
				};
				const forward = generator.forward;
				// A macrotask before every step lets a cancel message arrive (worker event loop).
				generator.forward = async (inputs: unknown) => {
					await nextMacrotask();
					return forward.call(model, inputs);
				};
				try {
					await generator.generate({
						inputs: new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
						attention_mask: new Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
						max_new_tokens: maxNewTokens,
						do_sample: false,
						num_beams: 1,
						logits_processor: [hooks.logitsProcessor],
						stopping_criteria: [hooks.stoppingCriteria],
						streamer: hooks.streamer,
					});
				} finally {
					generator.forward = forward;
				}
			},
		};
	}

	// --- scoring ---

	#prepare(model: LoadedModel, text: string, convention: SurprisalConvention): PreparedText {
		const tokenizer = model.tokenizer as unknown as TokenizerInternals;
		const textIds = tokenizer.encode(text, { add_special_tokens: false });
		const textTokens = textIds.map((id) => model.idToToken[id] ?? '');
		const spans = computeTokenOffsets({
			text,
			kind: model.facts.kind,
			tokens: textTokens,
			ids: textIds,
			addedTokens: model.facts.addedTokens,
			...(model.facts.normalization ? { normalization: model.facts.normalization } : {}),
			decode: (ids) =>
				tokenizer.decode([...ids], {
					skip_special_tokens: true,
					clean_up_tokenization_spaces: false,
				}),
		});
		const plan = planModelInput(textIds, model.behaviour, convention);
		const tokens = plan.inputIds.map((id) => model.idToToken[id] ?? '');
		return { text, plan, tokens, spans };
	}

	/** Scores every sequence in plain batches (each sequence whole, empty past). */
	async #scorePlain(
		model: LoadedModel,
		sequences: readonly (readonly number[])[],
		run: ScoringRun,
	): Promise<void> {
		const groups = planBatches(
			sequences.map((ids) => ids.length),
			run.limits,
		);
		let logProbs = new Float64Array(0);
		for (const [n, group] of groups.entries()) {
			// A cancel arrives as a message: let the worker's event loop deliver it before the next batch.
			if (n > 0) await nextMacrotask();
			throwIfCancelled(run.signal);
			const inputs = buildBatchInputs(group, sequences, model.padTokenId);
			const { Tensor } = this.#runtime;
			const { batchSize: b, sequenceLength: s } = inputs;
			const feeds = this.#feeds(
				model,
				{
					batchSize: b,
					sequenceLength: s,
					pastLength: 0,
					inputIds: inputs.inputIds,
					attentionMask: inputs.attentionMask,
					positionIds: inputs.positionIds,
					targets: inputs.targets,
				},
				run.wordBoundaries,
			);
			for (const past of model.pastInputs) {
				const empty = past.type === 'float16' ? new Uint16Array(0) : new Float32Array(0);
				feeds[past.name] = new Tensor(past.type, empty, [b, past.heads, 0, past.headDim]);
			}
			const reduced = await this.#runBatch(model, feeds, [], run.wordBoundaries);
			const rows = b * s;
			if (logProbs.length < rows) logProbs = new Float64Array(rows);
			readReducedLogProbs(reduced.logProbs, inputs, inputs.lengths, logProbs);
			const batch = inputs.sequenceIndices.map((index, row) => {
				const length = inputs.lengths[row] ?? 0;
				const bits = surprisalsBitsForRow(logProbs, row, s, length);
				const boundary = reduced.boundaryLogProbs;
				return boundary
					? run.finish(index, bits, joinBoundarySurprisals(length, 0, undefined, boundary, row * s))
					: run.finish(index, bits);
			});
			run.report(batch, rows);
		}
	}

	/**
	 * Scores every sequence, running a prefix shared with an earlier sequence once: the earlier
	 * sequence's key/value cache stands in for it and only the continuation runs. Continuations
	 * with pasts of different lengths share a batch (padded past masked, explicit positions).
	 */
	async #scoreReusingPrefixes(
		model: LoadedModel,
		sequences: readonly (readonly number[])[],
		run: ScoringRun,
	): Promise<void> {
		const bytesPerPosition = model.pastInputs.reduce(
			(sum, past) => sum + past.heads * past.headDim * (past.type === 'float16' ? 2 : 4),
			0,
		);
		// Caches live for one round: about 256 MiB of them at ~48 kept positions per sequence.
		const maxSequencesPerRound = Math.max(
			8,
			Math.min(256, Math.floor((256 * 1024 * 1024) / Math.max(1, bytesPerPosition * 48))),
		);
		const plan = planPrefixReuse(sequences, { maxSequencesPerRound });
		const webgpu = model.backend === 'webgpu';
		let batches = 0;
		for (const waves of plan.rounds) {
			const caches = new Map<number, PrefixCache>();
			const bitsOf = new Map<number, Float64Array>();
			const boundaryBitsOf = new Map<number, Float64Array>();
			/** A child's first own token, scored by its parent as an extra target (bits). */
			const firstBitsOf = new Map<number, number>();
			const feedsLast = run.wordBoundaries ? { feedsLast: true } : {};
			for (const wave of waves) {
				const rows: ContinuationRow[] = wave.map((sequenceIndex) => {
					const link = plan.links[sequenceIndex];
					const past = link?.reusedPositions ?? 0;
					const ids = sequences[sequenceIndex] ?? [];
					const extras = plan.extraTargets[sequenceIndex] ?? [];
					return {
						sequenceIndex,
						pastLength: past,
						ids: ids.slice(past),
						...feedsLast,
						...(link?.scoredByParent ? { scoredByParent: true } : {}),
						...(extras.length > 0
							? {
									extraTargets: extras.map(({ position, tokenId, child }) => ({
										at: position - past,
										tokenId,
										child,
									})),
								}
							: {}),
					};
				});
				// A sequence its parent covers entirely (a duplicate, a prefix) runs nothing.
				const covered = rows.filter((row) => continuationLength(row) === 0);
				if (covered.length > 0) {
					const none = new Float64Array(0);
					const batch = covered.map(({ sequenceIndex: index, pastLength }) => {
						const link = plan.links[index];
						const parentBits = link ? bitsOf.get(link.parent) : undefined;
						const length = sequences[index]?.length ?? 0;
						const bits = joinSurprisals(
							length,
							pastLength,
							parentBits,
							none,
							0,
							1,
							firstBitsOf.get(index),
						);
						if (!run.wordBoundaries) return run.finish(index, bits);
						// Every position's distribution is the parent's (its tokens through the last).
						const parentBoundary = link ? boundaryBitsOf.get(link.parent) : undefined;
						return run.finish(
							index,
							bits,
							joinBoundarySurprisals(length, length, parentBoundary, none, 0),
						);
					});
					run.report(batch, 0);
				}
				for (const group of splitOverlong(
					planBatches(rows.map(continuationLength), run.limits),
					rows,
					model.maxPositions,
				)) {
					if (batches++ > 0) await nextMacrotask();
					throwIfCancelled(run.signal);
					const batchRows = group.sequenceIndices.map((i) => rows[i] as ContinuationRow);
					const longestPast = Math.max(...batchRows.map((row) => row.pastLength));
					const pastLength =
						webgpu && longestPast > 0
							? bucketSequenceLength(
									longestPast,
									model.maxPositions - group.sequenceLength,
									undefined,
								)
							: longestPast;
					const inputs = buildContinuationInputs(
						batchRows,
						model.padTokenId,
						group.sequenceLength,
						pastLength,
						model.maxPositions,
					);
					const feeds = this.#feeds(model, inputs, run.wordBoundaries);
					this.#feedPastCaches(model, feeds, inputs, batchRows, (row) => {
						const link = plan.links[row.sequenceIndex];
						return link ? caches.get(link.parent) : undefined;
					});
					const keeps = batchRows.some((row) => (plan.keepPositions[row.sequenceIndex] ?? 0) > 0);
					const out = await this.#runBatch(
						model,
						feeds,
						keeps ? model.cacheOutputs : [],
						run.wordBoundaries,
					);
					const { batchSize: b, sequenceLength: s, targetsPerPosition: k } = inputs;
					batchRows.forEach((row, r) => {
						for (const extra of extraTargetSlots(row)) {
							const logProb = out.logProbs[(r * s + extra.at) * k + extra.slot] as number;
							firstBitsOf.set(extra.child, -logProb / Math.LN2);
						}
					});
					const batch = batchRows.map((row, r) => {
						const index = row.sequenceIndex;
						const link = plan.links[index];
						const bits = joinSurprisals(
							sequences[index]?.length ?? 0,
							row.pastLength,
							link ? bitsOf.get(link.parent) : undefined,
							out.logProbs,
							r * s,
							k,
							firstBitsOf.get(index),
						);
						const boundary = out.boundaryLogProbs
							? joinBoundarySurprisals(
									sequences[index]?.length ?? 0,
									row.pastLength,
									link ? boundaryBitsOf.get(link.parent) : undefined,
									out.boundaryLogProbs,
									r * s,
								)
							: undefined;
						const keep = plan.keepPositions[index] ?? 0;
						if (keep > 0) {
							bitsOf.set(index, bits);
							if (boundary) boundaryBitsOf.set(index, boundary);
							caches.set(index, keepCache(model, out.caches, inputs, r, row.pastLength, keep));
						}
						return run.finish(index, bits, boundary);
					});
					run.report(batch, b * s);
				}
			}
		}
	}

	/** The inputs every graph takes (ids, mask, targets) and the optional ones it declares. */
	#feeds(
		model: LoadedModel,
		inputs: Pick<
			ContinuationInputs,
			| 'batchSize'
			| 'sequenceLength'
			| 'pastLength'
			| 'inputIds'
			| 'attentionMask'
			| 'positionIds'
			| 'targets'
		> &
			Partial<Pick<ContinuationInputs, 'targetsPerPosition'>>,
		wordBoundaries: boolean,
	): Record<string, OrtTensor> {
		const { Tensor } = this.#runtime;
		const { batchSize: b, sequenceLength: s, pastLength: p } = inputs;
		const feeds: Record<string, OrtTensor> = {
			input_ids: new Tensor('int64', inputs.inputIds, [b, s]),
			attention_mask: new Tensor('int64', inputs.attentionMask, [b, p + s]),
			[TARGETS_INPUT_NAME]: new Tensor('int64', inputs.targets, [
				b,
				s,
				inputs.targetsPerPosition ?? 1,
			]),
		};
		if (model.hasWordBoundaries) {
			const mask = model.wordStartMask;
			feeds[WORD_START_MASK_INPUT_NAME] = new Tensor('float32', mask, [mask.length, 1]);
			const positions = wordBoundaries
				? BigInt64Array.from({ length: s }, (_, t) => BigInt(t))
				: ONE_BOUNDARY_POSITION;
			feeds[BOUNDARY_POSITIONS_INPUT_NAME] = new Tensor('int64', positions, [positions.length]);
		}
		if (model.hasPositionIds)
			feeds['position_ids'] = new Tensor('int64', inputs.positionIds, [b, s]);
		if (model.hasLogitsToKeep)
			feeds['num_logits_to_keep'] = new Tensor('int64', new BigInt64Array(1), []);
		if (model.hasCacheBranch) feeds['use_cache_branch'] = new Tensor('bool', [false], [1]);
		return feeds;
	}

	/** Past tensors `[B, heads, P_max, headDim]`: each row's parent cache, zeros after it. */
	#feedPastCaches(
		model: LoadedModel,
		feeds: Record<string, OrtTensor>,
		inputs: ContinuationInputs,
		rows: readonly ContinuationRow[],
		cacheOf: (row: ContinuationRow) => PrefixCache | undefined,
	): void {
		const { Tensor } = this.#runtime;
		const { batchSize: b, pastLength: pMax } = inputs;
		model.pastInputs.forEach((past, j) => {
			const { heads, headDim } = past;
			const data =
				past.type === 'float16'
					? new Uint16Array(b * heads * pMax * headDim)
					: new Float32Array(b * heads * pMax * headDim);
			rows.forEach((row, r) => {
				if (row.pastLength === 0) return;
				const cache = cacheOf(row);
				const source = cache?.tensors[j];
				if (!cache || !source || cache.positions < row.pastLength) {
					throw new BackendError(
						`Internal: no cache of ${row.pastLength} positions for sequence ${row.sequenceIndex}.`,
					);
				}
				for (let h = 0; h < heads; h++) {
					const from = h * cache.positions * headDim;
					data.set(
						source.subarray(from, from + row.pastLength * headDim) as Float32Array & Uint16Array,
						(r * heads + h) * pMax * headDim,
					);
				}
			});
			feeds[past.name] = new Tensor(past.type, data, [b, heads, pMax, headDim]);
		});
	}

	/** One forward pass; returns log p(target) per position ([B·S], nats) and the fetched cache
	 * outputs. Reloads on the fallback backend once if WebGPU fails or lost its device. */
	async #runBatch(
		model: LoadedModel,
		feeds: Record<string, OrtTensor>,
		cacheOutputs: readonly string[],
		wordBoundaries: boolean,
	): Promise<BatchOutputs> {
		if (model.lostReason !== undefined && model.backend === 'webgpu')
			await this.#fallBack(model, model.lostReason);
		try {
			return await this.#forward(model, feeds, cacheOutputs, wordBoundaries);
		} catch (error) {
			if (model.backend !== 'webgpu') throw classifyRunError(error);
			await this.#fallBack(model, `WebGPU failed while scoring (${messageOf(error)})`);
			try {
				return await this.#forward(model, feeds, cacheOutputs, wordBoundaries);
			} catch (retryError) {
				throw classifyRunError(retryError);
			}
		}
	}

	async #forward(
		model: LoadedModel,
		feeds: Record<string, OrtTensor>,
		cacheOutputs: readonly string[],
		wordBoundaries: boolean,
	): Promise<BatchOutputs> {
		const fetched = [
			LOG_PROBS_OUTPUT_NAME,
			...(wordBoundaries ? [BOUNDARY_LOG_PROBS_OUTPUT_NAME] : []),
			...cacheOutputs,
		];
		const outputs = await model.session.run(feeds, fetched);
		const logProbs = this.#float32Output(outputs, LOG_PROBS_OUTPUT_NAME);
		const boundaryLogProbs = wordBoundaries
			? this.#float32Output(outputs, BOUNDARY_LOG_PROBS_OUTPUT_NAME)
			: undefined;
		const caches = cacheOutputs.map((name) => {
			const tensor = outputs[name];
			const data = tensor?.data;
			if (!tensor || !(data instanceof Float32Array || data instanceof Uint16Array)) {
				throw new BackendError(`The model returned no cache output '${name}'.`);
			}
			const dims = [...tensor.dims];
			tensor.dispose?.();
			return { data, dims };
		});
		return { logProbs, caches, ...(boundaryLogProbs ? { boundaryLogProbs } : {}) };
	}

	/** A run's float32 output by name (its tensor disposed), or a BackendError. */
	#float32Output(outputs: Record<string, OrtTensor>, name: string): Float32Array {
		const result = outputs[name];
		if (!result || !(result.data instanceof Float32Array)) {
			throw new BackendError(`The model returned no float32 '${name}' output.`);
		}
		const data = result.data;
		result.dispose?.();
		return data;
	}

	/** Reloads `model` on the runtime's fallback backend (WebGPU → WASM) and says so: from the
	 * files it was loaded from (a picked local folder too), in the load chain (loads set the
	 * global `env`). */
	async #fallBack(model: LoadedModel, reason: string): Promise<void> {
		const backend = this.#runtime.fallbackBackend;
		this.#log('warn', `${model.info.spec.id}: ${reason}; reloading on ${backend}.`);
		const reload = this.#loadChain.then(async () => {
			await model.model.dispose().catch(() => undefined);
			const { spec } = model.info;
			const modelId = this.#configureSource({ ...model.params, spec });
			const revision = spec.source === 'hub' ? (spec.revision ?? 'main') : 'main';
			try {
				return await this.#createModel(modelId, spec, backend, { revision });
			} finally {
				env.useCustomCache = false;
			}
		});
		this.#loadChain = reload.catch(() => undefined);
		const created = await reload;
		const io = this.#sessionInputs(created.session, model.config, model.info.spec);
		Object.assign(model, created, io, { backend, lostReason: undefined });
		model.info = { ...model.info, spec: { ...model.info.spec, backend }, fallbackReason: reason };
	}

	async #require(modelKey: string): Promise<LoadedModel> {
		const pending = this.#models.get(modelKey);
		if (!pending)
			throw new ModelNotLoadedError(`No model is loaded as '${modelKey}': load it first.`);
		return pending;
	}

	// --- cache ---

	async #openBrowserCache(): Promise<Cache | undefined> {
		if (typeof caches === 'undefined') return undefined;
		try {
			return await caches.open(MODEL_CACHE_NAME);
		} catch {
			return undefined;
		}
	}

	/** Which model a cached URL belongs to: hub `https://huggingface.co/<id>/resolve/...`, or a
	 * bundled `<bundledModelsPath><id>/...`. Other entries (ORT wasm) belong to none. */
	#cacheOwner(url: string): { id: string; source: CachedModel['source'] } | undefined {
		if (url.startsWith(HUB_HOST)) {
			const rest = url.slice(HUB_HOST.length);
			const at = rest.indexOf('/resolve/');
			return at > 0 ? { id: decodeURIComponent(rest.slice(0, at)), source: 'hub' } : undefined;
		}
		const base = new URL(
			this.#options.bundledModelsPath,
			globalThis.location?.href ?? 'http://localhost/',
		).pathname;
		const path = new URL(url, 'http://localhost/').pathname;
		if (!path.startsWith(base)) return undefined;
		const id = path.slice(base.length).split('/')[0];
		return id ? { id, source: 'bundled' } : undefined;
	}

	#log(level: 'info' | 'warn', message: string): void {
		this.#options.onLog?.(level, message);
	}
}

/** transformers.js's ProgressInfo, reduced to the protocol's plain LoadProgress. */
/** At most one progress report per this many bytes of a response. */
const PROGRESS_STEP_BYTES = 1 << 20;

/** `response` with its body counted as it is read: `report(url, bytesSoFar, contentLength,
 * done)`, `done` once at the end of the body. */
function countedResponse(
	response: Response,
	url: string,
	report: (url: string, loaded: number, total: number | undefined, done: boolean) => void,
): Response {
	if (!response.ok || !response.body) return response;
	const total = Number(response.headers.get('content-length')) || undefined;
	let loaded = 0;
	let reported = 0;
	const counted = response.body.pipeThrough(
		new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				loaded += chunk.byteLength;
				if (loaded - reported >= PROGRESS_STEP_BYTES || loaded === total) {
					reported = loaded;
					report(url, loaded, total, false);
				}
				controller.enqueue(chunk);
			},
			flush() {
				report(url, loaded, total, true);
			},
		}),
	);
	return new Response(counted, {
		status: response.status,
		statusText: response.statusText,
		headers: response.headers,
	});
}

function pickProgress(info: Record<string, unknown>): LoadProgress {
	const pick = <T>(key: string, type: string): T | undefined =>
		typeof info[key] === type ? (info[key] as T) : undefined;
	const name = pick<string>('name', 'string');
	const file = pick<string>('file', 'string');
	const progress = pick<number>('progress', 'number');
	const loaded = pick<number>('loaded', 'number');
	const total = pick<number>('total', 'number');
	return {
		status: pick<string>('status', 'string') ?? 'progress',
		...(name !== undefined ? { name } : {}),
		...(file !== undefined ? { file } : {}),
		...(progress !== undefined ? { progress } : {}),
		...(loaded !== undefined ? { loaded } : {}),
		...(total !== undefined ? { total } : {}),
	};
}
