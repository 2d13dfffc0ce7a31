/**
 * A GPT-2-shaped causal LM with random weights, written from a fixed seed as ONNX in the folder
 * layout transformers.js 4.x loads for `model_type: gpt2` (config.json, tokenizer files,
 * onnx/model.onnx fp32, onnx/model_fp16.onnx fp16 and onnx/model_quantized.onnx q8), for measuring what a GPT-2-sized model
 * costs. Nothing of it is committed: the bench builds it into a cache folder outside the repo.
 *
 * The graph has the Xenova/gpt2 I/O (`input_ids`, `attention_mask`, `position_ids`,
 * `past_key_values.N.key/value` → `logits`, `present.N.key/value`) and the exporter's op set
 * (opset 17: Gather embeddings, LayerNormalization, MatMul + bias Add, Split/Reshape/Transpose
 * heads, Concat with the past, causal ∧ padding mask through Where, Softmax, the nine-node tanh
 * GELU that the engine fuses, a separate [E, V] output weight as the exporter writes for tied
 * embeddings). Weights: normal(0, 0.02) from a seeded PRNG, LayerNorm weight 1 and bias 0,
 * biases 0, as GPT-2's init. q8 follows onnxruntime's quantize_dynamic as the vendored models
 * have it: MatMul weights int8, symmetric, per output column, run as DynamicQuantizeLinear →
 * MatMulInteger → Cast → Mul(scale_x · scale_w); the embeddings uint8 per tensor, Gather →
 * DequantizeLinear. fp16 is the fp32 graph with every float initializer (weights, constants),
 * the key/value cache and the logits in float16.
 */
import {
	copyFile,
	link,
	mkdir,
	readdir,
	readFile,
	rename,
	rm,
	stat,
	symlink,
	writeFile,
} from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
	AttributeType,
	DataType,
	encodeModel,
	tensorValueInfo,
	type AttributeProto,
	type ModelProto,
	type NodeProto,
	type TensorProto,
} from './onnx-proto';

/** Bumped whenever the files written change: the cache folder is named after it. */
export const GENERATOR_VERSION = 2;

export interface Gpt2ShapedConfig {
	readonly nLayer: number;
	readonly nEmbd: number;
	readonly nHead: number;
	/** Rows of the embedding and width of the output layer. */
	readonly vocabSize: number;
	readonly nPositions: number;
}

/** GPT-2 small (124 M parameters). */
export const GPT2_124M: Gpt2ShapedConfig = {
	nLayer: 12,
	nEmbd: 768,
	nHead: 12,
	vocabSize: 50_257,
	nPositions: 1024,
};

export type Gpt2Variant = 'fp32' | 'fp16' | 'q8';

/** The model's parameters, tied output layer counted once (GPT-2 small: 124,439,808). */
export function parameterCount(c: Gpt2ShapedConfig): number {
	const e = c.nEmbd;
	const layer =
		2 * e + (e * 3 * e + 3 * e) + (e * e + e) + 2 * e + (e * 4 * e + 4 * e) + (4 * e * e + e);
	return c.vocabSize * e + c.nPositions * e + c.nLayer * layer + 2 * e;
}

/** Seeded normal numbers: xoshiro128** seeded by splitmix32, Box–Muller. */
export class NormalRandom {
	#s = new Uint32Array(4);
	#spare: number | undefined;

	constructor(seed: number) {
		let x = seed >>> 0;
		for (let i = 0; i < 4; i++) {
			x = (x + 0x9e3779b9) >>> 0;
			let z = x;
			z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
			z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
			this.#s[i] = (z ^ (z >>> 16)) >>> 0;
		}
	}

	/** Uniform in (0, 1). */
	uniform(): number {
		const s = this.#s;
		const result = Math.imul(rotl(Math.imul(s[1]!, 5), 7), 9) >>> 0;
		const t = (s[1]! << 9) >>> 0;
		s[2]! ^= s[0]!;
		s[3]! ^= s[1]!;
		s[1]! ^= s[2]!;
		s[0]! ^= s[3]!;
		s[2]! ^= t;
		s[3] = rotl(s[3]!, 11);
		return (result + 0.5) / 4294967296;
	}

	normal(): number {
		if (this.#spare !== undefined) {
			const spare = this.#spare;
			this.#spare = undefined;
			return spare;
		}
		const r = Math.sqrt(-2 * Math.log(this.uniform()));
		const theta = 2 * Math.PI * this.uniform();
		this.#spare = r * Math.sin(theta);
		return r * Math.cos(theta);
	}

	fill(out: Float32Array, std: number): Float32Array {
		for (let i = 0; i < out.length; i++) out[i] = this.normal() * std;
		return out;
	}
}

function rotl(x: number, k: number): number {
	return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** One layer's weights; matrices are [in, out] (GPT-2's Conv1D layout, as the exporter writes). */
export interface LayerWeights {
	readonly ln1Weight: Float32Array;
	readonly ln1Bias: Float32Array;
	readonly attnWeight: Float32Array;
	readonly attnBias: Float32Array;
	readonly projWeight: Float32Array;
	readonly projBias: Float32Array;
	readonly ln2Weight: Float32Array;
	readonly ln2Bias: Float32Array;
	readonly fcWeight: Float32Array;
	readonly fcBias: Float32Array;
	readonly mlpProjWeight: Float32Array;
	readonly mlpProjBias: Float32Array;
}

export interface Gpt2Weights {
	readonly config: Gpt2ShapedConfig;
	/** [V, E] */
	readonly wte: Float32Array;
	/** [P, E] */
	readonly wpe: Float32Array;
	readonly layers: readonly LayerWeights[];
	readonly lnfWeight: Float32Array;
	readonly lnfBias: Float32Array;
}

/** GPT-2's init from `seed`: normal(0, 0.02) matrices, LayerNorm 1/0, biases 0. */
export function generateWeights(config: Gpt2ShapedConfig, seed: number): Gpt2Weights {
	const random = new NormalRandom(seed);
	const e = config.nEmbd;
	const normal = (n: number) => random.fill(new Float32Array(n), 0.02);
	const ones = (n: number) => new Float32Array(n).fill(1);
	const zeros = (n: number) => new Float32Array(n);
	const wte = normal(config.vocabSize * e);
	const wpe = normal(config.nPositions * e);
	const layers: LayerWeights[] = [];
	for (let l = 0; l < config.nLayer; l++) {
		layers.push({
			ln1Weight: ones(e),
			ln1Bias: zeros(e),
			attnWeight: normal(e * 3 * e),
			attnBias: zeros(3 * e),
			projWeight: normal(e * e),
			projBias: zeros(e),
			ln2Weight: ones(e),
			ln2Bias: zeros(e),
			fcWeight: normal(e * 4 * e),
			fcBias: zeros(4 * e),
			mlpProjWeight: normal(4 * e * e),
			mlpProjBias: zeros(e),
		});
	}
	return { config, wte, wpe, layers, lnfWeight: ones(e), lnfBias: zeros(e) };
}

/** `m` [rows, cols] transposed to [cols, rows]. */
export function transpose(m: Float32Array, rows: number, cols: number): Float32Array {
	const out = new Float32Array(m.length);
	for (let r = 0; r < rows; r++) {
		const row = r * cols;
		for (let c = 0; c < cols; c++) out[c * rows + r] = m[row + c]!;
	}
	return out;
}

function bytesOf(array: Float32Array | Int8Array | Uint8Array | BigInt64Array): Uint8Array {
	return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

function floatTensor(name: string, dims: number[], data: Float32Array): TensorProto {
	return { name, dims, dataType: DataType.FLOAT, rawData: bytesOf(data) };
}

const FLOAT32_VIEW = new Float32Array(1);
const FLOAT32_BITS = new Uint32Array(FLOAT32_VIEW.buffer);

/**
 * The IEEE 754 half-precision bits of `value` rounded to float32 first: round to nearest, ties to
 * even; past 65,504 (after rounding) ±∞; subnormals kept; NaN stays NaN.
 */
export function float16Bits(value: number): number {
	FLOAT32_VIEW[0] = value;
	const bits = FLOAT32_BITS[0]!;
	const sign = (bits >>> 16) & 0x8000;
	const exponent = (bits >>> 23) & 0xff;
	const mantissa = bits & 0x7fffff;
	if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200);
	const halfExponent = exponent - 127 + 15;
	if (halfExponent >= 0x1f) return sign | 0x7c00;
	// Drop `shift` low bits of the 24-bit significand, rounding to nearest even (a carry moves
	// into the exponent, up to ∞, as it should).
	const round = (significand: number, shift: number, high: number): number => {
		const kept = high + Math.floor(significand / 2 ** shift);
		const dropped = significand % 2 ** shift;
		const half = 2 ** (shift - 1);
		return dropped > half || (dropped === half && kept % 2 === 1) ? kept + 1 : kept;
	};
	if (halfExponent >= 1) return sign | round(mantissa, 13, halfExponent * 1024);
	if (halfExponent < -10) return sign;
	return sign | round(mantissa | 0x800000, 14 - halfExponent, 0);
}

/** A float tensor stored as float16. */
function float16Tensor(name: string, dims: number[], data: Float32Array): TensorProto {
	const half = Uint16Array.from(data, float16Bits);
	return {
		name,
		dims,
		dataType: DataType.FLOAT16,
		rawData: new Uint8Array(half.buffer, half.byteOffset, half.byteLength),
	};
}

function int64Tensor(name: string, dims: number[], values: readonly number[]): TensorProto {
	return {
		name,
		dims,
		dataType: DataType.INT64,
		rawData: bytesOf(BigInt64Array.from(values.map((v) => BigInt(v)))),
	};
}

/** Int8 symmetric per output column of `w` [k, n]: scale_j = max|w_·j| / 127. */
export function quantizeColumnsInt8(
	w: Float32Array,
	k: number,
	n: number,
): { readonly q: Int8Array; readonly scales: Float32Array } {
	const scales = new Float32Array(n);
	for (let r = 0; r < k; r++) {
		const row = r * n;
		for (let c = 0; c < n; c++) {
			const a = Math.abs(w[row + c]!);
			if (a > scales[c]!) scales[c] = a;
		}
	}
	for (let c = 0; c < n; c++) scales[c] = scales[c]! > 0 ? scales[c]! / 127 : 1;
	const q = new Int8Array(w.length);
	for (let r = 0; r < k; r++) {
		const row = r * n;
		for (let c = 0; c < n; c++) {
			const v = Math.round(w[row + c]! / scales[c]!);
			q[row + c] = v > 127 ? 127 : v < -127 ? -127 : v;
		}
	}
	return { q, scales };
}

/** Uint8 asymmetric per tensor (range widened to include 0), as quantize_dynamic does Gather data. */
export function quantizeTensorUint8(w: Float32Array): {
	readonly q: Uint8Array;
	readonly scale: number;
	readonly zeroPoint: number;
} {
	let min = 0;
	let max = 0;
	for (const v of w) {
		if (v < min) min = v;
		if (v > max) max = v;
	}
	const scale = max > min ? (max - min) / 255 : 1;
	const zeroPoint = Math.min(255, Math.max(0, Math.round(-min / scale)));
	const q = new Uint8Array(w.length);
	for (let i = 0; i < w.length; i++) {
		const v = Math.round(w[i]! / scale) + zeroPoint;
		q[i] = v > 255 ? 255 : v < 0 ? 0 : v;
	}
	return { q, scale, zeroPoint };
}

/** Collects nodes and initializers; names every node after its first output. */
class GraphBuilder {
	readonly nodes: NodeProto[] = [];
	readonly initializers: TensorProto[] = [];
	#count = 0;

	op(
		opType: string,
		inputs: readonly string[],
		attributes: readonly AttributeProto[] = [],
		outputCount = 1,
		domain = '',
	): string[] {
		const id = this.#count++;
		const outputs = Array.from({ length: outputCount }, (_, i) => `/${opType}_${id}_output_${i}`);
		this.nodes.push({
			input: [...inputs],
			output: outputs,
			name: `/${opType}_${id}`,
			opType,
			...(domain ? { domain } : {}),
			attribute: [...attributes],
		});
		return outputs;
	}

	one(
		opType: string,
		inputs: readonly string[],
		attributes: readonly AttributeProto[] = [],
	): string {
		return this.op(opType, inputs, attributes)[0]!;
	}

	/** Like `one`, but the output gets `name` (a graph output). */
	named(
		name: string,
		opType: string,
		inputs: readonly string[],
		attributes: readonly AttributeProto[] = [],
	): string {
		const id = this.#count++;
		this.nodes.push({
			input: [...inputs],
			output: [name],
			name: `/${opType}_${id}`,
			opType,
			attribute: [...attributes],
		});
		return name;
	}

	init(tensor: TensorProto): string {
		this.initializers.push(tensor);
		return tensor.name;
	}
}

function intAttr(name: string, i: number): AttributeProto {
	return { name, type: AttributeType.INT, i };
}

function intsAttr(name: string, ints: number[]): AttributeProto {
	return { name, type: AttributeType.INTS, ints };
}

function floatAttr(name: string, f: number): AttributeProto {
	return { name, type: AttributeType.FLOAT, f };
}

const PAST_LENGTH = 'past_sequence_length';
const TOTAL_LENGTH = 'past_sequence_length + sequence_length';

/** The ONNX model of `weights` at `variant`. Shares the weights' buffers (no copy of fp32 data). */
export function buildModel(weights: Gpt2Weights, variant: Gpt2Variant): ModelProto {
	const { config } = weights;
	const e = config.nEmbd;
	const h = config.nHead;
	const d = e / h;
	const v = config.vocabSize;
	const g = new GraphBuilder();
	// fp16: every float initializer, the key/value cache and the logits in float16.
	const floatType = variant === 'fp16' ? DataType.FLOAT16 : DataType.FLOAT;
	const floats = (name: string, dims: number[], data: Float32Array) =>
		g.init(variant === 'fp16' ? float16Tensor(name, dims, data) : floatTensor(name, dims, data));
	const scalarF = (name: string, value: number) => floats(name, [], Float32Array.of(value));
	const i64 = (name: string, values: number[], dims: number[] = [values.length]) =>
		g.init(int64Tensor(name, dims, values));

	// Lengths and the [B, 1, S, T] attention mask: key ≤ query position, and not padding.
	const zero = i64('const_zero', [0], []);
	const one = i64('const_one', [1], []);
	const seq = g.one('Gather', [g.one('Shape', ['input_ids']), one], [intAttr('axis', 0)]);
	const total = g.one('Gather', [g.one('Shape', ['attention_mask']), one], [intAttr('axis', 0)]);
	const past = g.one('Sub', [total, seq]);
	const queryPositions = g.one('Range', [past, total, one]);
	const keyPositions = g.one('Range', [zero, total, one]);
	const axis0 = i64('axes_0', [0]);
	const axis1 = i64('axes_1', [1]);
	const axes12 = i64('axes_1_2', [1, 2]);
	const causal = g.one('LessOrEqual', [
		g.one('Unsqueeze', [keyPositions, axis0]),
		g.one('Unsqueeze', [queryPositions, axis1]),
	]);
	const notPadding = g.one('Unsqueeze', [g.one('Greater', ['attention_mask', zero]), axes12]);
	const mask = g.one('And', [causal, notPadding]);
	const lowest = scalarF('const_lowest', variant === 'fp16' ? -65504 : -3.4028234663852886e38);
	const sqrtHeadDim = scalarF('const_sqrt_head_dim', Math.sqrt(d));
	const headsShape = i64('shape_heads', [0, 0, h, d]);
	const mergedShape = i64('shape_merged', [0, 0, e]);
	const splitSizes = i64('split_qkv', [e, e, e]);
	const geluCubic = scalarF('const_gelu_cubic', 0.044715);
	const geluScale = scalarF('const_gelu_sqrt_2_over_pi', Math.sqrt(2 / Math.PI));
	const geluOne = scalarF('const_gelu_one', 1);
	const geluHalf = scalarF('const_gelu_half', 0.5);

	/** x [B, S, k] · w [k, n]: MatMul (fp32, fp16), or dynamic int8 as quantize_dynamic writes it. */
	const matmul = (x: string, name: string, w: Float32Array, k: number, n: number): string => {
		if (variant !== 'q8') return g.one('MatMul', [x, floats(name, [k, n], w)]);
		const { q, scales } = quantizeColumnsInt8(w, k, n);
		const wq = g.init({
			name: `${name}_quantized`,
			dims: [k, n],
			dataType: DataType.INT8,
			rawData: bytesOf(q),
		});
		const ws = g.init(floatTensor(`${name}_scale`, [n], scales));
		const wz = g.init({
			name: `${name}_zero_point`,
			dims: [n],
			dataType: DataType.INT8,
			rawData: new Uint8Array(n),
		});
		const [xq, xs, xz] = g.op('DynamicQuantizeLinear', [x], [], 3) as [string, string, string];
		const scale = g.one('Mul', [xs, ws]);
		const product = g.one('MatMulInteger', [xq, wq, xz, wz]);
		return g.one('Mul', [g.one('Cast', [product], [intAttr('to', DataType.FLOAT)]), scale]);
	};
	const embedding = (name: string, table: Float32Array, rows: number, ids: string): string => {
		if (variant !== 'q8') return g.one('Gather', [floats(name, [rows, e], table), ids]);
		const { q, scale, zeroPoint } = quantizeTensorUint8(table);
		const tq = g.init({
			name: `${name}_quantized`,
			dims: [rows, e],
			dataType: DataType.UINT8,
			rawData: q,
		});
		const ts = scalarF(`${name}_scale`, scale);
		const tz = g.init({
			name: `${name}_zero_point`,
			dims: [],
			dataType: DataType.UINT8,
			rawData: Uint8Array.of(zeroPoint),
		});
		return g.one('DequantizeLinear', [g.one('Gather', [tq, ids]), ts, tz]);
	};
	const layerNorm = (x: string, name: string, weight: Float32Array, bias: Float32Array) =>
		g.one(
			'LayerNormalization',
			[x, floats(`${name}.weight`, [e], weight), floats(`${name}.bias`, [e], bias)],
			[intAttr('axis', -1), floatAttr('epsilon', 1e-5)],
		);
	const bias = (x: string, name: string, b: Float32Array) =>
		g.one('Add', [x, floats(name, [b.length], b)]);
	const heads = (x: string) =>
		g.one('Transpose', [g.one('Reshape', [x, headsShape])], [intsAttr('perm', [0, 2, 1, 3])]);

	let hidden = g.one('Add', [
		embedding('transformer.wte.weight', weights.wte, v, 'input_ids'),
		embedding('transformer.wpe.weight', weights.wpe, config.nPositions, 'position_ids'),
	]);
	weights.layers.forEach((w, l) => {
		const p = `transformer.h.${l}`;
		const ln1 = layerNorm(hidden, `${p}.ln_1`, w.ln1Weight, w.ln1Bias);
		const qkv = bias(
			matmul(ln1, `${p}.attn.c_attn.weight`, w.attnWeight, e, 3 * e),
			`${p}.attn.c_attn.bias`,
			w.attnBias,
		);
		const [q, k, val] = g.op('Split', [qkv, splitSizes], [intAttr('axis', 2)], 3) as [
			string,
			string,
			string,
		];
		const presentKey = g.named(
			`present.${l}.key`,
			'Concat',
			[`past_key_values.${l}.key`, heads(k)],
			[intAttr('axis', 2)],
		);
		const presentValue = g.named(
			`present.${l}.value`,
			'Concat',
			[`past_key_values.${l}.value`, heads(val)],
			[intAttr('axis', 2)],
		);
		const keysT = g.one('Transpose', [presentKey], [intsAttr('perm', [0, 1, 3, 2])]);
		const scores = g.one('Div', [g.one('MatMul', [heads(q), keysT]), sqrtHeadDim]);
		const probs = g.one('Softmax', [g.one('Where', [mask, scores, lowest])], [intAttr('axis', -1)]);
		const context = g.one(
			'Transpose',
			[g.one('MatMul', [probs, presentValue])],
			[intsAttr('perm', [0, 2, 1, 3])],
		);
		const merged = g.one('Reshape', [context, mergedShape]);
		const attn = matmul(merged, `${p}.attn.c_proj.weight`, w.projWeight, e, e);
		hidden = bias(g.one('Add', [hidden, attn]), `${p}.attn.c_proj.bias`, w.projBias);
		const ln2 = layerNorm(hidden, `${p}.ln_2`, w.ln2Weight, w.ln2Bias);
		const x = bias(
			matmul(ln2, `${p}.mlp.c_fc.weight`, w.fcWeight, e, 4 * e),
			`${p}.mlp.c_fc.bias`,
			w.fcBias,
		);
		// gelu_new as the exporter writes it: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
		const cube = g.one('Mul', [x, g.one('Mul', [x, x])]);
		const inner = g.one('Add', [x, g.one('Mul', [geluCubic, cube])]);
		const tanh = g.one('Tanh', [g.one('Mul', [geluScale, inner])]);
		const gelu = g.one('Mul', [geluHalf, g.one('Mul', [x, g.one('Add', [geluOne, tanh])])]);
		const mlp = matmul(gelu, `${p}.mlp.c_proj.weight`, w.mlpProjWeight, 4 * e, e);
		hidden = bias(g.one('Add', [hidden, mlp]), `${p}.mlp.c_proj.bias`, w.mlpProjBias);
	});
	const final = layerNorm(hidden, 'transformer.ln_f', weights.lnfWeight, weights.lnfBias);
	// The exporter writes the tied output layer as its own [E, V] initializer.
	const lmHead = transpose(weights.wte, v, e);
	const logits = matmul(final, 'lm_head.weight', lmHead, e, v);
	g.nodes.push({
		input: [logits],
		output: ['logits'],
		name: '/logits_identity',
		opType: 'Identity',
		attribute: [],
	});

	const pastDims = ['batch_size', h, PAST_LENGTH, d];
	const presentDims = ['batch_size', h, TOTAL_LENGTH, d];
	const layerNames = weights.layers.map((_, l) => l);
	return {
		irVersion: 8,
		producerName: 'benchtop-bench',
		producerVersion: String(GENERATOR_VERSION),
		opsetImport: [{ domain: '', version: 17 }],
		graph: {
			name: `gpt2-shaped-${variant}`,
			node: g.nodes,
			initializer: g.initializers,
			input: [
				tensorValueInfo('input_ids', DataType.INT64, ['batch_size', 'sequence_length']),
				tensorValueInfo('attention_mask', DataType.INT64, ['batch_size', TOTAL_LENGTH]),
				tensorValueInfo('position_ids', DataType.INT64, ['batch_size', 'sequence_length']),
				...layerNames.flatMap((l) => [
					tensorValueInfo(`past_key_values.${l}.key`, floatType, pastDims),
					tensorValueInfo(`past_key_values.${l}.value`, floatType, pastDims),
				]),
			],
			output: [
				tensorValueInfo('logits', floatType, ['batch_size', 'sequence_length', v]),
				...layerNames.flatMap((l) => [
					tensorValueInfo(`present.${l}.key`, floatType, presentDims),
					tensorValueInfo(`present.${l}.value`, floatType, presentDims),
				]),
			],
		},
	};
}

/** config.json as transformers.js reads it for `model_type: gpt2`. */
export function configJson(c: Gpt2ShapedConfig, bosTokenId: number): Record<string, unknown> {
	return {
		activation_function: 'gelu_new',
		architectures: ['GPT2LMHeadModel'],
		attn_pdrop: 0,
		bos_token_id: bosTokenId,
		embd_pdrop: 0,
		eos_token_id: bosTokenId,
		initializer_range: 0.02,
		layer_norm_epsilon: 1e-5,
		model_type: 'gpt2',
		n_ctx: c.nPositions,
		n_embd: c.nEmbd,
		n_head: c.nHead,
		n_inner: null,
		n_layer: c.nLayer,
		n_positions: c.nPositions,
		pad_token_id: null,
		reorder_and_upcast_attn: false,
		resid_pdrop: 0,
		scale_attn_by_inverse_layer_idx: false,
		scale_attn_weights: true,
		tie_word_embeddings: true,
		'transformers.js_config': { dtype: 'fp32' },
		use_cache: true,
		vocab_size: c.vocabSize,
	};
}

/** The tokenizer files copied from the tokenizer folder (gpt2-en-small's byte-level BPE). */
const TOKENIZER_FILES = ['tokenizer.json', 'special_tokens_map.json', 'generation_config.json'];

export interface WriteModelOptions {
	readonly config: Gpt2ShapedConfig;
	readonly seed: number;
	/** A folder with tokenizer.json, tokenizer_config.json, special_tokens_map.json, generation_config.json. */
	readonly tokenizerDir: string;
	readonly variants?: readonly Gpt2Variant[];
}

export const ONNX_FILE: Record<Gpt2Variant, string> = {
	fp32: 'model.onnx',
	fp16: 'model_fp16.onnx',
	q8: 'model_quantized.onnx',
};

/** Writes the model folder into `dir` (created); returns what was written. */
export async function writeModelFolder(
	dir: string,
	options: WriteModelOptions,
): Promise<{ readonly parameters: number; readonly bytes: Record<string, number> }> {
	const { config, seed, tokenizerDir } = options;
	await mkdir(join(dir, 'onnx'), { recursive: true });
	for (const file of TOKENIZER_FILES) await copyFile(join(tokenizerDir, file), join(dir, file));
	const tokenizerConfig = JSON.parse(
		await readFile(join(tokenizerDir, 'tokenizer_config.json'), 'utf8'),
	) as Record<string, unknown>;
	await writeFile(
		join(dir, 'tokenizer_config.json'),
		JSON.stringify({ ...tokenizerConfig, model_max_length: config.nPositions }, null, 2),
	);
	const generation = JSON.parse(
		await readFile(join(tokenizerDir, 'generation_config.json'), 'utf8'),
	) as {
		bos_token_id?: number;
	};
	await writeFile(
		join(dir, 'config.json'),
		JSON.stringify(configJson(config, generation.bos_token_id ?? 0), null, 2),
	);
	const weights = generateWeights(config, seed);
	const bytes: Record<string, number> = {};
	for (const variant of options.variants ?? (['fp32', 'fp16', 'q8'] as const)) {
		const encoded = encodeModel(buildModel(weights, variant));
		await writeFile(join(dir, 'onnx', ONNX_FILE[variant]), encoded);
		bytes[variant] = encoded.byteLength;
	}
	return { parameters: parameterCount(config), bytes };
}

/** Where built models are kept: `${XDG_CACHE_HOME:-~/.cache}/benchtop-bench/`. */
export function benchCacheRoot(): string {
	return join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'benchtop-bench');
}

const BUILD_RECORD = 'benchtop-build.json';

/**
 * The model folder for `name`, `seed` and this generator version under the cache root: built
 * (into a temporary sibling, then renamed) only when it is missing. `built` says whether it was.
 */
export async function ensureModelFolder(
	name: string,
	options: WriteModelOptions,
	root = benchCacheRoot(),
): Promise<{ readonly dir: string; readonly built: boolean; readonly buildMs: number }> {
	const dir = join(root, name, `${options.seed}-v${GENERATOR_VERSION}`);
	const exists = await stat(join(dir, BUILD_RECORD)).then(
		() => true,
		() => false,
	);
	if (exists) return { dir, built: false, buildMs: 0 };
	const started = performance.now();
	const temporary = `${dir}.building-${process.pid}`;
	await rm(temporary, { recursive: true, force: true });
	const written = await writeModelFolder(temporary, options);
	await writeFile(
		join(temporary, BUILD_RECORD),
		JSON.stringify(
			{ generator: GENERATOR_VERSION, seed: options.seed, config: options.config, ...written },
			null,
			2,
		),
	);
	await rm(dir, { recursive: true, force: true });
	await rename(temporary, dir);
	return { dir, built: true, buildMs: performance.now() - started };
}

/**
 * Makes `target` (emptied first) a copy of the model folder `dir` made of links (hard links;
 * symbolic ones where those fail): every file, or with `dtype` only what the app reads for it
 * (config, tokenizer and that dtype's ONNX file, not the build record).
 */
export async function linkModelFolder(
	dir: string,
	target: string,
	dtype?: keyof typeof ONNX_FILE,
): Promise<void> {
	await rm(target, { recursive: true, force: true });
	await mkdir(join(target, 'onnx'), { recursive: true });
	const files = dtype
		? [
				...(await readdir(dir)).filter((f) => f !== 'onnx' && f !== BUILD_RECORD),
				join('onnx', ONNX_FILE[dtype]),
			]
		: (await readdir(dir, { recursive: true })).filter((f) => f !== 'onnx');
	for (const file of files) {
		await link(join(dir, file), join(target, file)).catch(() =>
			symlink(join(dir, file), join(target, file)),
		);
	}
}
