/**
 * The only module importing @huggingface/transformers: its global `env` (fetch, caches, where a
 * model's files come from), the `from_pretrained` loaders, its Tensor, and the shapes of its
 * config and tokenizer objects as the engine reads them.
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
import type { ModelSpec } from '../core/model/model-spec';
import { messageOf } from './engine-errors';
import { countedResponse, type ByteProgress } from './load-progress';
import type { LoadModelParams } from './protocol';

export type { PreTrainedModel, PreTrainedTokenizer };

/** A model's config.json fields the engine reads. */
export interface ModelConfigLike {
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

/** A transformers.js tokenizer as the engine reads it (its JSON, ids, vocabulary). */
export interface TokenizerInternals {
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

/** What the library's fetch tells the engine while loading. */
export interface LibraryFetchHooks {
	/** A fetch failed without a response (tells "offline" apart from "no such file"). */
	onNetworkFailure(message: string): void;
	/** The byte-progress reporter of the download under way, if its bytes are counted. */
	byteProgress(): ByteProgress | undefined;
}

/**
 * Sets transformers.js's global env for this engine: quiet logs, our fetch, no wasm copy in
 * Cache Storage (browser). Returns the library's own `useBrowserCache` default.
 */
export function setUpLibrary(web: boolean, hooks: LibraryFetchHooks): boolean {
	env.logLevel = 40;
	// NOTE: no-store (browser) avoids a Chromium cache-write race on the first load
	// (browser-inference.md §1.8 pitfall 1) and a second copy of every model in the HTTP cache.
	// A request that fails outright is remembered: it tells "offline" apart from "no such file".
	env.fetch = async (url: string | URL, init?: RequestInit) => {
		let response: Response;
		try {
			response = await fetch(url, web ? { ...init, cache: 'no-store' } : init);
		} catch (error) {
			hooks.onNetworkFailure(messageOf(error));
			throw error;
		}
		const report = hooks.byteProgress();
		return report ? countedResponse(response, String(url), report) : response;
	};
	// onnxruntime fetches its own wasm (the app's service worker keeps it for offline use):
	// transformers.js's copy in Cache Storage would be a second download of 27 MB.
	if (web) env.useWasmCache = false;
	return env.useBrowserCache;
}

/** Where the engine keeps what `useModelSource` needs across loads. */
export interface ModelSourceSettings {
	readonly bundledModelsPath: string;
	/** The library's `useBrowserCache` default (`setUpLibrary`). */
	readonly browserCacheDefault: boolean;
	/** Files of browser-picked local folders by `<localId>/<path>`; filled here. */
	readonly localFiles: Map<string, Blob>;
}

const LOCAL_ID_PREFIX = 'benchtop-local';

/** The id a browser-picked local folder's files are loaded by. */
export function localModelId(spec: ModelSpec): string {
	return `${LOCAL_ID_PREFIX}/${spec.id.replace(/[^\w.-]+/g, '-') || 'model'}`;
}

/**
 * Sets transformers.js's env for the model's source; returns the id to load it by. Call
 * `endModelSourceLoad` when the load is over.
 */
export function useModelSource(params: LoadModelParams, settings: ModelSourceSettings): string {
	const { spec } = params;
	env.useCustomCache = false;
	env.useBrowserCache = settings.browserCacheDefault;
	switch (spec.source) {
		case 'bundled':
			// Not copied into transformers.js's Cache Storage: the app's service worker precaches
			// the bundled models (a second 42 MB copy, written before the session could start).
			env.useBrowserCache = false;
			env.localModelPath = settings.bundledModelsPath;
			env.allowLocalModels = true;
			env.allowRemoteModels = false;
			return spec.id;
		case 'hub':
			env.allowLocalModels = false;
			env.allowRemoteModels = true;
			return spec.id;
		case 'local':
			env.allowRemoteModels = false;
			env.allowLocalModels = true;
			// Node: `id` is a model folder path, read directly from disk.
			return params.localFiles ? useLocalFiles(params, settings.localFiles) : spec.id;
	}
}

/** Serves a browser-picked folder's files to transformers.js through its custom cache. */
function useLocalFiles(params: LoadModelParams, held: Map<string, Blob>): string {
	const localId = localModelId(params.spec);
	for (const file of params.localFiles ?? []) {
		held.set(`${localId}/${file.path.replace(/^\.?\/+/, '')}`, file.file);
	}
	env.useCustomCache = true;
	env.customCache = {
		match: async (key: string) => {
			// Keys are `<localModelPath>/<localId>/<file>` or the would-be hub URL
			// `…/<localId>/resolve/<revision>/<file>`.
			const at = key.indexOf(`${localId}/`);
			const file =
				at >= 0 ? key.slice(at + localId.length + 1).replace(/^resolve\/[^/]+\//, '') : '';
			const blob = at >= 0 ? held.get(`${localId}/${file}`) : undefined;
			return blob
				? new Response(blob, { headers: { 'content-length': String(blob.size) } })
				: undefined;
		},
		put: async () => undefined,
	};
	return localId;
}

/** Ends a load's source settings (a picked folder's custom cache serves that load only). */
export function endModelSourceLoad(): void {
	env.useCustomCache = false;
}

/** `from_pretrained` options common to config, tokenizer and model. */
export interface PretrainedOptions {
	readonly revision: string;
	readonly progress_callback?: (info: Record<string, unknown>) => void;
}

export async function loadModelConfig(
	modelId: string,
	options: PretrainedOptions,
): Promise<ModelConfigLike> {
	return (await AutoConfig.from_pretrained(modelId, options)) as unknown as ModelConfigLike;
}

export function loadTokenizer(
	modelId: string,
	options: PretrainedOptions,
): Promise<PreTrainedTokenizer> {
	return AutoTokenizer.from_pretrained(modelId, options);
}

/** How a causal LM is created: dtype, transformers.js device name and ORT session options. */
export interface CausalLMOptions {
	readonly dtype: ModelSpec['dtype'];
	readonly device: string;
	readonly sessionOptions: Record<string, unknown>;
}

/** AutoModelForCausalLM from `modelId` (sessions through the shared InferenceSession class). */
export function loadCausalLM(
	modelId: string,
	common: Record<string, unknown>,
	options: CausalLMOptions,
): Promise<PreTrainedModel> {
	return AutoModelForCausalLM.from_pretrained(modelId, {
		...common,
		dtype: options.dtype,
		device: options.device as 'wasm',
		session_options: options.sessionOptions,
	});
}

/** A transformers.js int64 tensor (what its `generate` takes). */
export function int64Tensor(data: BigInt64Array, dims: number[]): Tensor {
	return new Tensor('int64', data, dims);
}
