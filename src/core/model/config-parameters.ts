/**
 * A hub model's size estimated from its config.json (already parsed JSON), for a model typed by
 * hand that is not a suggestion: its parameters by formula for the architectures below, and the
 * ModelFacts (download, largest tensor) the fit and time estimates take. Pure; any other or
 * malformed config gives `unknown`, never an error.
 */
import * as v from 'valibot';
import type { ModelDtype } from './model-spec';
import { BYTES_PER_WEIGHT, type ModelFacts } from './model-suggestions';

/** The config.json `model_type`s sized here, each by the formula named in estimateConfigParameters. */
export const SIZED_MODEL_TYPES = ['gpt2', 'llama', 'mistral', 'qwen2', 'qwen3', 'phi3'] as const;
export type SizedModelType = (typeof SIZED_MODEL_TYPES)[number];

/** A config's size, or why there is none. */
export type ConfigParameterEstimate =
	| {
			readonly kind: 'estimate';
			readonly modelType: SizedModelType;
			/** Parameters as transformers' `num_parameters()` counts them (a tied embedding once). */
			readonly parameters: number;
			/** vocab × hidden when input embedding and output projection are tied, else 0. */
			readonly tiedEmbeddingParameters: number;
			/** Parameters of the largest weight matrix (the token embedding in every model measured). */
			readonly largestMatrixParameters: number;
	  }
	| { readonly kind: 'unknown'; readonly reason: string };

// Bounds well above any released decoder (Llama-3.1-405B: 126 layers, hidden 16,384, MLP 53,248;
// the largest vocabularies are about 262k); beyond them a config is taken as malformed.
const MAX_LAYERS = 1024;
const MAX_HIDDEN = 65_536;
const MAX_INTERMEDIATE = 1_048_576;
const MAX_VOCAB = 4_194_304;
const MAX_POSITIONS = 16_777_216;
const MAX_HEADS = 1024;
const MAX_HEAD_DIM = 4096;

function count(max: number) {
	return v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max));
}

const MODEL_TYPE = v.looseObject({ model_type: v.string() });

const GPT2_CONFIG = v.looseObject({
	n_layer: count(MAX_LAYERS),
	n_embd: count(MAX_HIDDEN),
	vocab_size: count(MAX_VOCAB),
	n_positions: count(MAX_POSITIONS),
	n_inner: v.nullish(count(MAX_INTERMEDIATE)),
	tie_word_embeddings: v.optional(v.boolean()),
});

const DECODER_CONFIG = v.looseObject({
	hidden_size: count(MAX_HIDDEN),
	num_hidden_layers: count(MAX_LAYERS),
	intermediate_size: count(MAX_INTERMEDIATE),
	vocab_size: count(MAX_VOCAB),
	num_attention_heads: count(MAX_HEADS),
	num_key_value_heads: v.nullish(count(MAX_HEADS)),
	head_dim: v.nullish(count(MAX_HEAD_DIM)),
	tie_word_embeddings: v.optional(v.boolean()),
	attention_bias: v.optional(v.boolean()),
	mlp_bias: v.optional(v.boolean()),
});

function unknown(reason: string): ConfigParameterEstimate {
	return { kind: 'unknown', reason };
}

function isSized(type: string): type is SizedModelType {
	return (SIZED_MODEL_TYPES as readonly string[]).includes(type);
}

/** The first field a schema refused, in words. */
function refusedField(issues: readonly v.BaseIssue<unknown>[]): string {
	const issue = issues[0];
	const path = issue ? v.getDotPath(issue) : null;
	return path
		? `its ${path} is missing or not a whole number in range`
		: 'its fields are not of the expected kind';
}

/**
 * GPT-2 (`GPT2LMHeadModel`): token and position embeddings, per layer two LayerNorms (2d each),
 * attention c_attn d×3d + 3d and c_proj d×d + d, MLP c_fc d×inner + inner and c_proj inner×d + d,
 * a final LayerNorm; the output projection is the token embedding unless
 * `tie_word_embeddings: false`. With inner = 4d a layer is 12d² + 13d.
 */
function gpt2Parameters(config: unknown): ConfigParameterEstimate {
	const parsed = v.safeParse(GPT2_CONFIG, config);
	if (!parsed.success) return unknown(refusedField(parsed.issues));
	const { n_layer: layers, n_embd: d, vocab_size: vocab, n_positions: positions } = parsed.output;
	const inner = parsed.output.n_inner ?? 4 * d;
	const tied = parsed.output.tie_word_embeddings ?? true;
	const layer = 4 * d + (3 * d * d + 3 * d) + (d * d + d) + (2 * d * inner + inner + d);
	const embedding = vocab * d;
	const parameters = embedding + positions * d + layers * layer + 2 * d + (tied ? 0 : embedding);
	return {
		kind: 'estimate',
		modelType: 'gpt2',
		parameters,
		tiedEmbeddingParameters: tied ? embedding : 0,
		largestMatrixParameters: Math.max(embedding, positions * d, 3 * d * d, d * inner),
	};
}

/**
 * Llama-style decoders (Llama, Mistral, Qwen2, Qwen3, Phi-3): token embedding h×vocab; per layer
 * q and o projections h×(heads·headDim), k and v h×(kvHeads·headDim), gated MLP 3·h×intermediate,
 * two RMSNorms (h each); a final RMSNorm; an output projection unless tied (default untied, as
 * each of these configs' classes has it). headDim is `head_dim`, else hidden ÷ heads. Biases:
 * Qwen2 on q, k and v always; Llama and Qwen3 on q, k, v and o with `attention_bias`, Llama's
 * MLP with `mlp_bias`; Qwen3 adds per-head q and k RMSNorms (headDim each). Phi-3 fuses qkv and
 * gate-up into one matrix each, with the same count.
 */
function decoderParameters(
	type: Exclude<SizedModelType, 'gpt2'>,
	config: unknown,
): ConfigParameterEstimate {
	const parsed = v.safeParse(DECODER_CONFIG, config);
	if (!parsed.success) return unknown(refusedField(parsed.issues));
	const c = parsed.output;
	const h = c.hidden_size;
	const heads = c.num_attention_heads;
	const kvHeads = c.num_key_value_heads ?? heads;
	if (heads % kvHeads !== 0) {
		return unknown('its num_attention_heads is not a multiple of num_key_value_heads');
	}
	if (c.head_dim == null && h % heads !== 0) {
		return unknown('its hidden_size is not a multiple of num_attention_heads');
	}
	const headDim = c.head_dim ?? h / heads;
	const q = heads * headDim;
	const kv = kvHeads * headDim;
	const i = c.intermediate_size;
	const attentionBias = type === 'llama' || type === 'qwen3' ? (c.attention_bias ?? false) : false;
	const biases =
		(type === 'qwen2' ? q + 2 * kv : 0) +
		(attentionBias ? q + 2 * kv + h : 0) +
		(type === 'llama' && (c.mlp_bias ?? false) ? 2 * i + h : 0);
	const layer =
		2 * h * q + 2 * h * kv + 3 * h * i + 2 * h + biases + (type === 'qwen3' ? 2 * headDim : 0);
	const embedding = c.vocab_size * h;
	const tied = c.tie_word_embeddings ?? false;
	const parameters = embedding + c.num_hidden_layers * layer + h + (tied ? 0 : embedding);
	const fused = type === 'phi3' ? Math.max(h * (q + 2 * kv), 2 * h * i) : 0;
	return {
		kind: 'estimate',
		modelType: type,
		parameters,
		tiedEmbeddingParameters: tied ? embedding : 0,
		largestMatrixParameters: Math.max(embedding, h * i, h * q, fused),
	};
}

/**
 * A model's parameters from its config.json, by the formulas of gpt2Parameters and
 * decoderParameters, checked against the counts transformers reports (`num_parameters()`):
 * GPT-2 small 124,439,808 and distilgpt2 81,912,576 (exact), the bundled gpt2-en-small 8,546,816
 * and gpt2-random-tiny 291,712 (exact), SmolLM2-135M 134,515,008, SmolLM2-360M 361,821,120,
 * Qwen2.5-0.5B 494,032,768, Qwen3-0.6B 596,049,920, Llama-3.2-1B 1,235,814,400, Mistral-7B
 * 7,241,732,096, Phi-3-mini 3,821,079,552 (each within 1%; the formulas give them exactly).
 * Any other `model_type` (encoders, mixtures of experts, Gemma, GPT-Neo …), or a field that is
 * missing, not a whole number, or outside generous bounds, gives `unknown` with the reason.
 */
export function estimateConfigParameters(config: unknown): ConfigParameterEstimate {
	const typed = v.safeParse(MODEL_TYPE, config);
	if (!typed.success) return unknown('it names no model_type');
	const type = typed.output.model_type;
	if (!isSized(type))
		return unknown(`its model_type ${type.slice(0, 40)} is not one this app can size`);
	return type === 'gpt2' ? gpt2Parameters(config) : decoderParameters(type, config);
}

/**
 * The facts the fit and time estimates take, from a config's parameters at `dtype`: download =
 * (parameters + the tied embedding again) × bytes per weight, as the ONNX exports measured store
 * the tied embedding a second time as the output projection: Xenova/gpt2 fp32 652 MB estimated
 * against 654 MB on the hub, q8 163 against 166; SmolLM2-135M fp16 326 against 327;
 * SmolLM2-360M fp16 818 against 819; the bundled gpt2-en-small fp32 42.6 against 42.6 MB (q8
 * 10.6 against 11.0). Two exports store it once, and are overestimated: Xenova/distilgpt2 fp32
 * 482 against 330 MB, onnx-community/Qwen2.5-0.5B q8 630 against 512 MB. An estimate, said so.
 */
export function estimatedModelFacts(
	estimate: Extract<ConfigParameterEstimate, { kind: 'estimate' }>,
	dtype: ModelDtype,
): ModelFacts {
	const bytes = BYTES_PER_WEIGHT[dtype];
	return {
		dtype,
		downloadBytes: (estimate.parameters + estimate.tiedEmbeddingParameters) * bytes,
		largestTensorBytes: estimate.largestMatrixParameters * bytes,
		parameters: estimate.parameters,
		estimatedFrom: 'config.json',
	};
}

/** Parameters in words for the user (`494 M`, `1.24 B`). */
export function formatParameterCount(parameters: number): string {
	if (parameters >= 1e9) return `${(parameters / 1e9).toPrecision(3)} B`;
	if (parameters >= 1e6) return `${Math.round(parameters / 1e6)} M`;
	return `${Math.round(parameters / 1e3)} k`;
}
