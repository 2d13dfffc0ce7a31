/**
 * A few known small hub models per job (surprisal: GPT-2 family; answer: small instruction-tuned
 * models) and the bundled models, with their size, and an estimate of whether one fits the
 * device. Pure: the device facts come in as data (the UI reads them from the browser).
 */
import { BUNDLED_MODEL_IDS, type ModelDtype, type ModelSource } from './model-spec';

/** What the model is for: scoring text (Run page) or answering (Evals and Memory). */
export type ModelJob = 'surprisal' | 'answer';

/** What is known of a model's size before it loads. */
export interface ModelFacts {
	/** The dtype these facts are for (its weights' bytes, and what the runtime makes of them). */
	readonly dtype: ModelDtype;
	/** Bytes of the ONNX weights file this dtype downloads (tokenizer and config add a few MB). */
	readonly downloadBytes: number;
	/** The largest weight tensor (token embedding, vocab × hidden) in bytes at this dtype. */
	readonly largestTensorBytes: number;
	/** Parameters of the model (its size in the field's sense: more is more capable, same family). */
	readonly parameters: number;
	/** Set when the figures are estimated from the model's config.json (config-parameters.ts). */
	readonly estimatedFrom?: 'config.json';
}

export interface ModelSuggestion extends ModelFacts {
	/** Hugging Face hub id, loaded through the hub-model path (revision `main`). */
	readonly id: string;
	readonly job: ModelJob;
	readonly note: string;
}

const MB = 1_000_000;
/** Bytes a weight takes at each dtype (q8: one byte; its scales and fp32 norms add a few %). */
export const BYTES_PER_WEIGHT: Readonly<Record<ModelDtype, number>> = { fp32: 4, fp16: 2, q8: 1 };

function embeddingBytes(vocab: number, hidden: number, dtype: ModelDtype): number {
	return vocab * hidden * BYTES_PER_WEIGHT[dtype];
}

/**
 * Sizes are those the hub's "Files and versions" page shows (MB = 10^6 bytes) for the file
 * transformers.js loads at that dtype; vocab and hidden sizes from each repo's config.json.
 */
export const MODEL_SUGGESTIONS: readonly ModelSuggestion[] = [
	// https://huggingface.co/Xenova/distilgpt2/tree/main/onnx: decoder_model_merged.onnx 330 MB
	{
		id: 'Xenova/distilgpt2',
		job: 'surprisal',
		dtype: 'fp32',
		downloadBytes: 330 * MB,
		largestTensorBytes: embeddingBytes(50257, 768, 'fp32'),
		parameters: 82_000_000,
		note: 'GPT-2 distilled (82M parameters), exact fp32',
	},
	// https://huggingface.co/Xenova/gpt2/tree/main/onnx: decoder_model_merged.onnx 654 MB
	{
		id: 'Xenova/gpt2',
		job: 'surprisal',
		dtype: 'fp32',
		downloadBytes: 654 * MB,
		largestTensorBytes: embeddingBytes(50257, 768, 'fp32'),
		parameters: 124_000_000,
		note: 'GPT-2 small (124M parameters), exact fp32',
	},
	// https://huggingface.co/Xenova/gpt2/tree/main/onnx: decoder_model_merged_quantized.onnx 166 MB
	{
		id: 'Xenova/gpt2',
		job: 'surprisal',
		dtype: 'q8',
		downloadBytes: 166 * MB,
		largestTensorBytes: embeddingBytes(50257, 768, 'q8'),
		parameters: 124_000_000,
		note: 'GPT-2 small, 8-bit (smaller; numbers differ slightly)',
	},
	// https://huggingface.co/HuggingFaceTB/SmolLM2-135M-Instruct/tree/main/onnx: model_fp16.onnx 327 MB
	{
		id: 'HuggingFaceTB/SmolLM2-135M-Instruct',
		job: 'answer',
		dtype: 'fp16',
		downloadBytes: 327 * MB,
		largestTensorBytes: embeddingBytes(49152, 576, 'fp16'),
		parameters: 135_000_000,
		note: 'SmolLM2 135M, instruction-tuned',
	},
	// https://huggingface.co/HuggingFaceTB/SmolLM2-360M-Instruct/tree/main/onnx: model_fp16.onnx 819 MB
	{
		id: 'HuggingFaceTB/SmolLM2-360M-Instruct',
		job: 'answer',
		dtype: 'fp16',
		downloadBytes: 819 * MB,
		largestTensorBytes: embeddingBytes(49152, 960, 'fp16'),
		parameters: 362_000_000,
		note: 'SmolLM2 360M, instruction-tuned',
	},
	// https://huggingface.co/onnx-community/Qwen2.5-0.5B-Instruct/tree/main/onnx: model_quantized.onnx 512 MB
	{
		id: 'onnx-community/Qwen2.5-0.5B-Instruct',
		job: 'answer',
		dtype: 'q8',
		downloadBytes: 512 * MB,
		largestTensorBytes: embeddingBytes(151936, 896, 'q8'),
		parameters: 494_000_000,
		note: 'Qwen2.5 0.5B, instruction-tuned, 8-bit',
	},
];

/**
 * The bundled models' files (`public/models/<id>/onnx/model.onnx` and `model_quantized.onnx`)
 * and parameters (`shared/models/README.md`); they have no fp16 file.
 */
const BUNDLED_MODEL_FACTS: Readonly<
	Record<(typeof BUNDLED_MODEL_IDS)[number], Partial<Record<ModelDtype, ModelFacts>>>
> = {
	'gpt2-en-small': {
		fp32: {
			dtype: 'fp32',
			downloadBytes: 42_639_995,
			largestTensorBytes: embeddingBytes(8192, 256, 'fp32'),
			parameters: 8_546_816,
		},
		q8: {
			dtype: 'q8',
			downloadBytes: 10_984_785,
			largestTensorBytes: embeddingBytes(8192, 256, 'q8'),
			parameters: 8_546_816,
		},
	},
	'gpt2-random-tiny': {
		fp32: {
			dtype: 'fp32',
			downloadBytes: 2_233_987,
			largestTensorBytes: embeddingBytes(8192, 32, 'fp32'),
			parameters: 291_712,
		},
		q8: {
			dtype: 'q8',
			downloadBytes: 636_553,
			largestTensorBytes: embeddingBytes(8192, 32, 'q8'),
			parameters: 291_712,
		},
	},
};

/**
 * What is known of a model's size before it loads: a bundled model's, or a suggested hub model's
 * at its suggested dtype; null for any other (a typed hub id's size is estimated from its
 * config.json once read, see config-parameters.ts, else known only once its download starts).
 */
export function knownModelFacts(
	source: ModelSource,
	id: string,
	dtype: ModelDtype,
): ModelFacts | null {
	if (source === 'bundled') {
		const bundled = (BUNDLED_MODEL_IDS as readonly string[]).includes(id)
			? BUNDLED_MODEL_FACTS[id as (typeof BUNDLED_MODEL_IDS)[number]][dtype]
			: undefined;
		return bundled ?? null;
	}
	if (source !== 'hub') return null;
	return MODEL_SUGGESTIONS.find((m) => m.id === id && m.dtype === dtype) ?? null;
}

/** The suggestions for a job, smallest download first. */
export function suggestionsFor(job: ModelJob): readonly ModelSuggestion[] {
	return MODEL_SUGGESTIONS.filter((m) => m.job === job).sort(
		(a, b) => a.downloadBytes - b.downloadBytes,
	);
}

/**
 * The suggestion to offer first for a job: the most capable (most parameters; then the larger
 * download, the less quantized) whose verdict on this device is `fits`; null when none fits.
 */
export function recommendedSuggestion(
	job: ModelJob,
	device: DeviceFacts,
	backend: 'wasm' | 'webgpu' = 'wasm',
): { readonly suggestion: ModelSuggestion; readonly fit: DeviceFit } | null {
	let best: { suggestion: ModelSuggestion; fit: DeviceFit } | null = null;
	for (const suggestion of suggestionsFor(job)) {
		const fit = fitsDevice(suggestion, device, backend);
		if (fit.verdict !== 'fits') continue;
		if (
			!best ||
			suggestion.parameters > best.suggestion.parameters ||
			(suggestion.parameters === best.suggestion.parameters &&
				suggestion.downloadBytes > best.suggestion.downloadBytes)
		) {
			best = { suggestion, fit };
		}
	}
	return best;
}

/** What the browser says about the device; null where it says nothing. */
export interface DeviceFacts {
	/** `navigator.deviceMemory` in GiB (browsers round it down and cap it, Chrome at 8). */
	readonly deviceMemoryGiB: number | null;
	/** `navigator.hardwareConcurrency`: logical cores (the worker's WASM threads follow it). */
	readonly hardwareConcurrency: number | null;
	/** `crossOriginIsolated`: without it the worker's WASM runs one thread. */
	readonly crossOriginIsolated: boolean;
	/** The WebGPU adapter's limits, when WebGPU is there. */
	readonly webgpu: {
		readonly maxBufferSize: number;
		readonly maxStorageBufferBindingSize: number;
		/** A software (fallback) adapter, such as SwiftShader: WebGPU on the CPU. */
		readonly fallback: boolean;
	} | null;
}

export type FitVerdict = 'fits' | 'tight' | 'will-not-fit';

export interface DeviceFit {
	readonly verdict: FitVerdict;
	/** Estimated memory the model needs while it runs, in bytes. */
	readonly needBytes: number;
	/** One line for the user. */
	readonly reason: string;
}

/**
 * The tab's peak memory per byte of weights, per dtype, measured (README, "What to expect from a
 * GPT-2-sized model"; page and worker, `measureUserAgentSpecificMemory`, the largest of 3 runs)
 * for a GPT-2-124M-shaped model scoring the 34 SyntaxGym suites on WASM, with the weights handed
 * to the runtime as external data (core/onnx/externalize-weights.ts): fp32 1,242 MiB for 622 MiB of
 * weights, q8 237 MiB for 156.6 MiB, fp16 992 MiB for 311 MiB (more per byte:
 * WASM has no float16 matrix product, so the runtime works in float32 beside the float16 weights;
 * not broken down further). Rounded up to one decimal. About 1× of each is the model's bytes,
 * held by the page until the runtime has copied the weights. Other shapes and WebGPU are not
 * measured. Since the output layer runs only at the rows read (core/onnx/gather-output-rows.ts),
 * one bench run measured 1,092 MiB at fp32 (1.76×) and 216 at q8 (1.38×), the largest of 3; the
 * larger figures above are kept (the peaks are sampled, and fp16 was not measured again).
 */
export const MEMORY_PER_WEIGHT_BYTE: Readonly<Record<ModelDtype, number>> = {
	fp32: 2.0,
	fp16: 3.2,
	q8: 1.6,
};
/** A tab is unlikely to get more than this share of the device's memory without trouble. */
export const COMFORTABLE_SHARE = 0.5;
const GIB = 1024 ** 3;

/** Bytes in GiB with one decimal (`1.7 GiB`), as the fit reasons say them. */
export function formatGiB(bytes: number): string {
	return `${(bytes / GIB).toFixed(1)} GiB`;
}

/**
 * Whether `model` fits the device: its estimated need (weights × its dtype's MEMORY_PER_WEIGHT_BYTE) against
 * `deviceMemory` (over it: will not fit; over half of it: tight) and, on WebGPU, its largest
 * tensor against the adapter's buffer limits (over them: will not fit).
 */
export function fitsDevice(
	model: ModelFacts,
	device: DeviceFacts,
	backend: 'wasm' | 'webgpu' = 'wasm',
): DeviceFit {
	const needBytes = model.downloadBytes * MEMORY_PER_WEIGHT_BYTE[model.dtype];
	const estimated = model.estimatedFrom ? ` (estimated from its ${model.estimatedFrom})` : '';
	const need = `Needs about ${formatGiB(needBytes)} of memory${estimated}`;
	if (backend === 'webgpu' && device.webgpu) {
		const limit = Math.min(device.webgpu.maxBufferSize, device.webgpu.maxStorageBufferBindingSize);
		if (model.largestTensorBytes > limit) {
			return {
				verdict: 'will-not-fit',
				needBytes,
				reason: `Its largest tensor (${model.estimatedFrom ? 'about ' : ''}${formatGiB(model.largestTensorBytes)}${estimated}) is over this GPU's buffer limit (${formatGiB(limit)}): use WASM or a smaller dtype.`,
			};
		}
	}
	const memory = device.deviceMemoryGiB;
	if (memory === null || memory <= 0) {
		return {
			verdict: 'fits',
			needBytes,
			reason: `${need}; this browser does not report the device's.`,
		};
	}
	const memoryBytes = memory * GIB;
	if (needBytes > memoryBytes) {
		return {
			verdict: 'will-not-fit',
			needBytes,
			reason: `${need}; the device reports ${memory} GiB.`,
		};
	}
	if (needBytes > memoryBytes * COMFORTABLE_SHARE) {
		return {
			verdict: 'tight',
			needBytes,
			reason: `${need}, over half of the ${memory} GiB the device reports.`,
		};
	}
	return { verdict: 'fits', needBytes, reason: `${need}; the device reports ${memory} GiB.` };
}

/** The verdicts in words, for text beside any colour. */
export const FIT_VERDICT_LABELS: Readonly<Record<FitVerdict, string>> = {
	fits: 'fits',
	tight: 'tight',
	'will-not-fit': 'will not fit',
};

/**
 * Why `modelName` must not be loaded on this device, or null: only a `will-not-fit` verdict
 * refuses (a `tight` one is shown, not refused). `advice: false` leaves out what to do instead
 * (for a one-line place such as beside a Run button).
 */
export function fitRefusal(modelName: string, fit: DeviceFit | null, advice = true): string | null {
	if (fit?.verdict !== 'will-not-fit') return null;
	const reason = fit.reason.charAt(0).toLowerCase() + fit.reason.slice(1);
	const refusal = `${modelName} will not fit this device: ${reason}`;
	return advice
		? `${refusal} Loading it could crash the tab, so it is not loaded: pick a smaller model or dtype, or score it with the CLI or through an endpoint.`
		: refusal;
}

/**
 * The memory line for a model of known size: its need against the device's memory and the
 * verdict in words (`Needs about 0.4 GiB of memory; the device reports 8 GiB: fits.`); without a
 * reported memory, the need alone.
 */
export function describeFit(fit: DeviceFit, device: DeviceFacts): string {
	if (device.deviceMemoryGiB === null || device.deviceMemoryGiB <= 0) return fit.reason;
	return `${fit.reason.replace(/\.$/, '')}: ${FIT_VERDICT_LABELS[fit.verdict]}.`;
}
