/**
 * What names a model and how it was run: recorded with every result so a run can be reproduced.
 * Plain data shared by the worker (which loads it), storage (which keeps it) and ui.
 */

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

/** The default model of the app and the CLI. */
export const DEFAULT_MODEL_ID = 'gpt2-en-small';
export const BUNDLED_MODEL_IDS = ['gpt2-en-small', 'gpt2-random-tiny'] as const;
