/**
 * What names a model and how it was run: recorded with every result so a run can be reproduced.
 * Plain data shared by the worker (which loads it), storage (which keeps it) and ui.
 */
import { checkEndpointBaseUrl } from './endpoint-choice';

/** Where the model files come from. */
export type ModelSource = 'bundled' | 'hub' | 'local';

/** transformers.js dtypes offered for scoring. `q8` is batch-dependent: run unbatched only. */
export type ModelDtype = 'fp32' | 'fp16' | 'q8';

/** Where inference runs: WebGPU or WASM in the browser, onnxruntime CPU in Node. */
export type InferenceBackend = 'webgpu' | 'wasm' | 'node-cpu';

/**
 * Surprisal conventions (see ../shared/docs/reference-syntaxgym.md §3.2):
 * - `reference`: syntaxgym-core's HF path. Only the tokenizer's own special tokens; a token with no
 *   left context gets 0 bits. Reproduces the reference numbers; the default.
 * - `bos`: prepend the BOS token, so the first word is scored.
 * - `bos+eos`: lm-zoo's Docker GPT-2: BOS first and a scored final EOS, counted in the last region.
 */
export type SurprisalConvention = 'reference' | 'bos' | 'bos+eos';

export const SURPRISAL_CONVENTIONS: readonly SurprisalConvention[] = [
	'reference',
	'bos',
	'bos+eos',
];

export interface ModelSpec {
	readonly source: ModelSource;
	/** Bundled model name (`gpt2-en-small`), hub id (`Xenova/distilgpt2`) or local folder name. */
	readonly id: string;
	/** Hub revision (branch, tag or commit hash); `main` for hub models, absent otherwise. */
	readonly revision?: string;
	readonly dtype: ModelDtype;
	readonly backend: InferenceBackend;
}

/**
 * The spec of a local model as every picker builds it: the id trimmed, a hub model's revision
 * `main` unless given, no revision for bundled and local models.
 */
export function localModelSpec(
	source: ModelSource,
	id: string,
	dtype: ModelDtype,
	backend: InferenceBackend,
	revision?: string,
): ModelSpec {
	const trimmed = id.trim();
	return source === 'hub'
		? { source, id: trimmed, revision: revision?.trim() || 'main', dtype, backend }
		: { source, id: trimmed, dtype, backend };
}

/** The default model of the app and the CLI. */
export const DEFAULT_MODEL_ID = 'gpt2-en-small';
export const BUNDLED_MODEL_IDS = ['gpt2-en-small', 'gpt2-random-tiny'] as const;

/** A model behind an OpenAI-compatible endpoint (vLLM, llama.cpp, Ollama, OpenAI...). The API key
 * is never part of a spec (specs are recorded with runs and shared). */
export interface EndpointModelSpec {
	readonly source: 'openai';
	/** The model id as the server lists it at `/v1/models`. */
	readonly model: string;
	/** Base URL up to and including `/v1` (`http://127.0.0.1:8000/v1`), no trailing slash. */
	readonly baseUrl: string;
}

/** Completions answered from a replay file (JSONL), named and pinned by its content hash. */
export interface ReplayModelSpec {
	readonly source: 'replay';
	/** The file's name as the user gave it. */
	readonly file: string;
	/** SHA-256 (hex) of the file's text. */
	readonly sha256: string;
}

/** Any model a run can name: a local one ({@link ModelSpec}), an endpoint, or a replay file. */
export type TextModelSpec = ModelSpec | EndpointModelSpec | ReplayModelSpec;

/** Every source a {@link TextModelSpec} can have. */
export type TextModelSource = TextModelSpec['source'];

export const ENDPOINT_SPEC_PREFIX = 'openai/';
export const REPLAY_SPEC_PREFIX = 'replay:';

/** What a model spec string names, before files are read or folders looked up. */
export type ParsedModelSpecString =
	| { readonly kind: 'bundled'; readonly id: string }
	| { readonly kind: 'openai'; readonly model: string }
	| { readonly kind: 'replay'; readonly file: string }
	/** A hub id (`owner/name`, optionally `@revision`) or a folder: the caller decides which
	 * (an existing folder wins), `revision` only for the hub. */
	| { readonly kind: 'hub-or-folder'; readonly id: string; readonly revision?: string }
	| { readonly kind: 'folder'; readonly path: string };

/** True for strings that can only be paths (`./x`, `../x`, `/x`, `~/x`, `C:\x`, `x\y`). */
function looksLikePath(text: string): boolean {
	return /^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])/.test(text) || text.includes('\\');
}

/**
 * Reads a model spec string: `gpt2-en-small` (bundled), `openai/<model>` (endpoint),
 * `replay:<file>`, a path (`./models/x`), or `owner/name[@revision]` (hub id, or a folder of
 * that name). Throws RangeError with what is accepted for an empty or malformed string.
 */
export function parseModelSpecString(text: string): ParsedModelSpecString {
	const spec = text.trim();
	const accepted =
		`a bundled model (${BUNDLED_MODEL_IDS.join(', ')}), a model folder, a hub id (owner/name), ` +
		`${ENDPOINT_SPEC_PREFIX}<model> or ${REPLAY_SPEC_PREFIX}<file.jsonl>`;
	if (spec === '') throw new RangeError(`The model is empty: give ${accepted}.`);
	if ((BUNDLED_MODEL_IDS as readonly string[]).includes(spec)) return { kind: 'bundled', id: spec };
	if (spec.startsWith(ENDPOINT_SPEC_PREFIX)) {
		const model = spec.slice(ENDPOINT_SPEC_PREFIX.length);
		if (model === '')
			throw new RangeError(`'${spec}' names no model: write ${ENDPOINT_SPEC_PREFIX}<model id>.`);
		return { kind: 'openai', model };
	}
	if (spec.startsWith(REPLAY_SPEC_PREFIX)) {
		const file = spec.slice(REPLAY_SPEC_PREFIX.length);
		if (file === '')
			throw new RangeError(`'${spec}' names no file: write ${REPLAY_SPEC_PREFIX}<file.jsonl>.`);
		return { kind: 'replay', file };
	}
	if (looksLikePath(spec)) return { kind: 'folder', path: spec };
	const at = spec.lastIndexOf('@');
	if (at > 0) return { kind: 'hub-or-folder', id: spec.slice(0, at), revision: spec.slice(at + 1) };
	return { kind: 'hub-or-folder', id: spec };
}

/**
 * Why an endpoint base URL cannot be used outside a page (the CLI, Node), or undefined when it can:
 * the app's rule (endpoint-choice.ts) without a page's mixed-content check. A secret in a URL
 * (`user:password@`) is refused: it would end up in logs, shell history, run records and links.
 */
export function baseUrlProblem(baseUrl: string): string | undefined {
	return checkEndpointBaseUrl(baseUrl, '') ?? undefined;
}

/**
 * The spec string of a spec (inverse of {@link parseModelSpecString} for bundled, hub, openai and
 * replay; a local folder gives its path). Endpoints add ` @ <baseUrl>` in {@link describeModelSpec}.
 */
export function formatModelSpec(spec: TextModelSpec): string {
	switch (spec.source) {
		case 'bundled':
		case 'local':
			return spec.id;
		case 'hub':
			return spec.revision && spec.revision !== 'main' ? `${spec.id}@${spec.revision}` : spec.id;
		case 'openai':
			return `${ENDPOINT_SPEC_PREFIX}${spec.model}`;
		case 'replay':
			return `${REPLAY_SPEC_PREFIX}${spec.file}`;
	}
}

/** A label for logs and run records: the spec string, plus the endpoint's base URL. */
export function describeModelSpec(spec: TextModelSpec): string {
	return spec.source === 'openai'
		? `${formatModelSpec(spec)}@${spec.baseUrl}`
		: formatModelSpec(spec);
}
