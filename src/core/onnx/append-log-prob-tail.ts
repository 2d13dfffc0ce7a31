/**
 * Rewrites a causal LM's ONNX graph so it returns only the log-probability of each position's
 * target token ([B,S,1] float32, nats) instead of full logits [B,S,V]: the log-softmax is
 * reduced where the model runs (optionally also the log-probability that the next token starts
 * a word with the next-token distribution's entropy, and the top-k next tokens). Splices protobuf bytes; never decodes weights. Pure.
 */
import {
	encodeBytesField,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
	WIRE_LEN,
	WIRE_VARINT,
	type WireField,
} from './protobuf-wire';
import {
	MODEL_GRAPH,
	MODEL_OPSET_IMPORT,
	OPSET_DOMAIN,
	OPSET_VERSION,
	GRAPH_INITIALIZER,
	GRAPH_INPUT,
	GRAPH_OUTPUT,
	VALUE_INFO_NAME,
	VALUE_INFO_TYPE,
	TYPE_TENSOR,
	TENSOR_TYPE_ELEM,
	TENSOR_TYPE_SHAPE,
	SHAPE_DIM,
	DIM_VALUE,
	TENSOR_DIMS,
	TENSOR_DATA_TYPE,
	TENSOR_NAME,
	TENSOR_RAW_DATA,
	ELEM_FLOAT,
	ELEM_INT64,
	intAttribute,
	intsAttribute,
	node,
	valueInfo,
	withGraphParts,
} from './onnx-proto';

/** Name of the added int64 input [B,S,K]: at position t, the ids whose log-probabilities are
 * wanted (the token at t+1, and with shared-prefix reuse other sequences' tokens there); any
 * valid id, e.g. 0, where nothing is scored. */
export const TARGETS_INPUT_NAME = 'benchtop_targets';
/** Name of the output [B,S,K] float32: log p(target | prefix) in nats, per target. */
export const LOG_PROBS_OUTPUT_NAME = 'benchtop_log_probs';
/** Name of the added float32 input [V,1] with `wordBoundaries`: 1 for the vocabulary ids that
 * start a word (`findWordStartTokens`), 0 for the others; V is the logits' width. */
export const WORD_START_MASK_INPUT_NAME = 'benchtop_word_start_mask';
/**
 * Name of the added int64 input [P] with `wordBoundaries`: the positions (0…S−1) whose boundary
 * log-prob is computed. A runtime runs every node whether or not its output is fetched, so a run
 * that does not want the boundaries feeds `[0]`: the boundary nodes then cost one position per
 * row (not measurable), where all S positions cost a few percent of the forward pass.
 */
export const BOUNDARY_POSITIONS_INPUT_NAME = 'benchtop_boundary_positions';
/** Name of the output [B,P,1] float32 with `wordBoundaries`: at each position fed in
 * {@link BOUNDARY_POSITIONS_INPUT_NAME}, log Σ_{v starts a word} p(v | prefix) in nats, the
 * log-probability that the next token starts a word. */
export const BOUNDARY_LOG_PROBS_OUTPUT_NAME = 'benchtop_boundary_log_probs';
/** Name of the output [B,P,1] float32 with `wordBoundaries`: at each position fed in
 * {@link BOUNDARY_POSITIONS_INPUT_NAME}, Σ_v p(v | prefix) log p(v | prefix) in nats, the expected
 * log-probability of the next token: minus the entropy of the next-token distribution. */
export const EXPECTED_LOG_PROB_OUTPUT_NAME = 'benchtop_expected_log_prob';
/** The most next tokens the top-k outputs give per position (vLLM's default `max_logprobs`). */
export const MAX_TOP_LOG_PROBS = 20;
/**
 * Name of the added int64 input [Q] with `topLogProbs`: the positions (0…S−1) whose top-k next
 * tokens are computed. As with {@link BOUNDARY_POSITIONS_INPUT_NAME}, a run that does not want
 * them feeds `[0]` (one position per row).
 */
export const TOP_POSITIONS_INPUT_NAME = 'benchtop_top_positions';
/** Name of the output [B,Q,K] float32 with `topLogProbs`: at each position fed, the K largest
 * log p(v | prefix) in nats, largest first (K = {@link MAX_TOP_LOG_PROBS}, or V when smaller). */
export const TOP_LOG_PROBS_OUTPUT_NAME = 'benchtop_top_log_probs';
/** Name of the output [B,Q,K] int64 with `topLogProbs`: the vocabulary ids of those values. */
export const TOP_IDS_OUTPUT_NAME = 'benchtop_top_ids';

/**
 * `log-softmax`: LogSoftmax + GatherElements (CPU/WASM kernels exist; fastest there).
 * `decomposed`: ReduceMax/Sub/Exp/ReduceSum/Log/GatherElements/Sub (WebGPU has no LogSoftmax).
 */
export type LogProbTailVariant = 'log-softmax' | 'decomposed';

export type AppendLogProbTailResult =
	| {
			readonly ok: true;
			readonly bytes: Uint8Array;
			/** Default-domain opset of the model (decides where Reduce* axes go). */
			readonly opsetVersion: number;
			/** ONNX elem type of the logits (1 float32, 10 float16, 16 bfloat16). */
			readonly logitsElemType: number;
			/** V, the logits' last dimension, when the graph declares it as a number. */
			readonly logitsWidth?: number;
			/** Graph outputs dropped (logits, and present.* unless kept): they no longer leave
			 * the runtime. */
			readonly removedOutputs: readonly string[];
			/** Graph outputs kept beside the log-probs (`present.*` with `keepCacheOutputs`). */
			readonly keptOutputs: readonly string[];
	  }
	| { readonly ok: false; readonly reason: string };

const LOGITS = 'logits';
const SEQUENCE_AXIS = 1;
const VOCAB_AXIS = 2;
const AXES_INITIALIZER = 'benchtop_vocab_axis';
const TOP_K_INITIALIZER = 'benchtop_top_k';
const PREFIX = 'benchtop_';

function int64Initializer(name: string, values: readonly number[]): Uint8Array {
	const raw = new Uint8Array(values.length * 8);
	const view = new DataView(raw.buffer);
	values.forEach((v, i) => view.setBigInt64(i * 8, BigInt(v), true));
	return encodeMessageField(GRAPH_INITIALIZER, [
		encodeVarintField(TENSOR_DIMS, values.length),
		encodeVarintField(TENSOR_DATA_TYPE, ELEM_INT64),
		encodeStringField(TENSOR_NAME, name),
		encodeBytesField(TENSOR_RAW_DATA, raw),
	]);
}

/** Name, elem type and dims (a number, or undefined for a named or missing dim) of a
 * ValueInfoProto payload. */
function readValueInfo(
	bytes: Uint8Array,
	field: WireField,
): { name: string; elemType: number; dims: (number | undefined)[] } {
	let name = '';
	let elemType = 0;
	const dims: (number | undefined)[] = [];
	for (const f of readFields(bytes, field.valueStart, field.valueEnd)) {
		if (f.field === VALUE_INFO_NAME && f.wireType === WIRE_LEN) name = readString(bytes, f);
		if (f.field === VALUE_INFO_TYPE && f.wireType === WIRE_LEN) {
			for (const t of readFields(bytes, f.valueStart, f.valueEnd)) {
				if (t.field !== TYPE_TENSOR || t.wireType !== WIRE_LEN) continue;
				for (const e of readFields(bytes, t.valueStart, t.valueEnd)) {
					if (e.field === TENSOR_TYPE_ELEM && e.wireType === WIRE_VARINT) elemType = e.varint;
					if (e.field !== TENSOR_TYPE_SHAPE || e.wireType !== WIRE_LEN) continue;
					for (const d of readFields(bytes, e.valueStart, e.valueEnd)) {
						if (d.field !== SHAPE_DIM || d.wireType !== WIRE_LEN) continue;
						const value = readFields(bytes, d.valueStart, d.valueEnd).find(
							(v) => v.field === DIM_VALUE && v.wireType === WIRE_VARINT,
						);
						dims.push(value?.varint);
					}
				}
			}
		}
	}
	return { name, elemType, dims };
}

function readOpsetVersion(
	bytes: Uint8Array,
	modelFields: readonly WireField[],
): number | undefined {
	for (const f of modelFields) {
		if (f.field !== MODEL_OPSET_IMPORT || f.wireType !== WIRE_LEN) continue;
		let domain = '';
		let version = 0;
		for (const o of readFields(bytes, f.valueStart, f.valueEnd)) {
			if (o.field === OPSET_DOMAIN && o.wireType === WIRE_LEN) domain = readString(bytes, o);
			if (o.field === OPSET_VERSION && o.wireType === WIRE_VARINT) version = o.varint;
		}
		if (domain === '' || domain === 'ai.onnx') return version;
	}
	return undefined;
}

/** A piece of the tail: nodes, and the initializers they read. */
interface TailPart {
	nodes: Uint8Array[];
	initializers: Uint8Array[];
}

/** The tail nodes (and an axes initializer when the opset wants axes as an input). */
function buildTail(
	variant: LogProbTailVariant,
	opsetVersion: number,
	logitsElemType: number,
	wordBoundaries: boolean,
): TailPart {
	const nodes: Uint8Array[] = [];
	let x = LOGITS;
	if (logitsElemType !== ELEM_FLOAT) {
		nodes.push(node('Cast', [x], `${PREFIX}logits_f32`, [intAttribute('to', ELEM_FLOAT)]));
		x = `${PREFIX}logits_f32`;
	}
	if (variant === 'log-softmax') {
		nodes.push(...logSoftmaxTailNodes(x, wordBoundaries));
		if (!wordBoundaries) return { nodes, initializers: [] };
		const expected = reduceSumOverVocab(`${PREFIX}boundary_p_log_p`, EXPECTED_LOG_PROB_OUTPUT_NAME);
		nodes.push(
			node(
				'Mul',
				[`${PREFIX}boundary_probs`, `${PREFIX}boundary_rows`],
				`${PREFIX}boundary_p_log_p`,
			),
			expected.node,
		);
		return { nodes, initializers: expected.initializers };
	}
	const decomposed = decomposedTail(x, opsetVersion, wordBoundaries);
	nodes.push(...decomposed.nodes);
	return { nodes, initializers: decomposed.initializers };
}

/** A ReduceSum over the vocabulary axis (keepdims), its axes an int64 input (ReduceSum takes
 * them so from opset 13, the oldest the tail takes), with the initializer that holds them. */
function reduceSumOverVocab(
	input: string,
	output: string,
): { node: Uint8Array; initializers: Uint8Array[] } {
	return {
		node: node('ReduceSum', [input, AXES_INITIALIZER], output, [intAttribute('keepdims', 1)]),
		initializers: [int64Initializer(AXES_INITIALIZER, [VOCAB_AXIS])],
	};
}

/** `log-softmax`: LogSoftmax, GatherElements of the targets, and the boundary nodes. */
function logSoftmaxTailNodes(x: string, wordBoundaries: boolean): Uint8Array[] {
	const nodes = [
		node('LogSoftmax', [x], `${PREFIX}log_softmax`, [intAttribute('axis', VOCAB_AXIS)]),
		node('GatherElements', [`${PREFIX}log_softmax`, TARGETS_INPUT_NAME], LOG_PROBS_OUTPUT_NAME, [
			intAttribute('axis', VOCAB_AXIS),
		]),
	];
	if (wordBoundaries) {
		// Σ_W p = exp(log-softmax) · mask at the asked positions (a GEMV; a Gather of the
		// word-start columns and a ReduceLogSumExp measured 8× slower on the CPU).
		nodes.push(
			node(
				'Gather',
				[`${PREFIX}log_softmax`, BOUNDARY_POSITIONS_INPUT_NAME],
				`${PREFIX}boundary_rows`,
				[intAttribute('axis', SEQUENCE_AXIS)],
			),
		);
		nodes.push(node('Exp', [`${PREFIX}boundary_rows`], `${PREFIX}boundary_probs`));
		nodes.push(
			node(
				'MatMul',
				[`${PREFIX}boundary_probs`, WORD_START_MASK_INPUT_NAME],
				`${PREFIX}word_start_prob`,
			),
		);
		nodes.push(node('Log', [`${PREFIX}word_start_prob`], BOUNDARY_LOG_PROBS_OUTPUT_NAME));
	}
	return nodes;
}

/** `decomposed`: the log-softmax of the targets from Reduce*, Sub, Exp and Log. */
function decomposedTail(x: string, opsetVersion: number, wordBoundaries: boolean): TailPart {
	const nodes: Uint8Array[] = [];
	const initializers: Uint8Array[] = [];
	const reduce = (
		opType: string,
		input: string,
		output: string,
		axesAsInputSince: number,
	): Uint8Array => {
		if (opsetVersion >= axesAsInputSince) {
			if (initializers.length === 0)
				initializers.push(int64Initializer(AXES_INITIALIZER, [VOCAB_AXIS]));
			return node(opType, [input, AXES_INITIALIZER], output, [intAttribute('keepdims', 1)]);
		}
		return node(opType, [input], output, [
			intsAttribute('axes', [VOCAB_AXIS]),
			intAttribute('keepdims', 1),
		]);
	};
	nodes.push(reduce('ReduceMax', x, `${PREFIX}max`, 18));
	nodes.push(node('Sub', [x, `${PREFIX}max`], `${PREFIX}shifted`));
	nodes.push(node('Exp', [`${PREFIX}shifted`], `${PREFIX}exp`));
	nodes.push(reduce('ReduceSum', `${PREFIX}exp`, `${PREFIX}sum`, 13));
	nodes.push(node('Log', [`${PREFIX}sum`], `${PREFIX}log_sum`));
	nodes.push(
		node('GatherElements', [`${PREFIX}shifted`, TARGETS_INPUT_NAME], `${PREFIX}target_shifted`, [
			intAttribute('axis', VOCAB_AXIS),
		]),
	);
	nodes.push(node('Sub', [`${PREFIX}target_shifted`, `${PREFIX}log_sum`], LOG_PROBS_OUTPUT_NAME));
	if (wordBoundaries) {
		nodes.push(...decomposedBoundaryNodes());
		// E[log p] = Σ e·shifted / Σ e − log Σ e over the boundary rows (e = exp(shifted)).
		if (initializers.length === 0)
			initializers.push(int64Initializer(AXES_INITIALIZER, [VOCAB_AXIS]));
		nodes.push(...decomposedExpectedLogProbNodes());
	}
	return { nodes, initializers };
}

/** `decomposed`'s expected log-prob nodes (see {@link EXPECTED_LOG_PROB_OUTPUT_NAME}), from
 * the boundary rows' exponentials and log Σ exp. Axes as an input (opset 13 and later). */
function decomposedExpectedLogProbNodes(): Uint8Array[] {
	const positionsAxis = [intAttribute('axis', SEQUENCE_AXIS)];
	return [
		node(
			'Gather',
			[`${PREFIX}shifted`, BOUNDARY_POSITIONS_INPUT_NAME],
			`${PREFIX}boundary_shifted`,
			positionsAxis,
		),
		node(
			'Mul',
			[`${PREFIX}boundary_rows`, `${PREFIX}boundary_shifted`],
			`${PREFIX}boundary_e_shifted`,
		),
		node(
			'ReduceSum',
			[`${PREFIX}boundary_e_shifted`, AXES_INITIALIZER],
			`${PREFIX}boundary_e_shifted_sum`,
			[intAttribute('keepdims', 1)],
		),
		node(
			'Gather',
			[`${PREFIX}sum`, BOUNDARY_POSITIONS_INPUT_NAME],
			`${PREFIX}boundary_sum`,
			positionsAxis,
		),
		node(
			'Div',
			[`${PREFIX}boundary_e_shifted_sum`, `${PREFIX}boundary_sum`],
			`${PREFIX}boundary_mean_shifted`,
		),
		node(
			'Sub',
			[`${PREFIX}boundary_mean_shifted`, `${PREFIX}boundary_log_sum`],
			EXPECTED_LOG_PROB_OUTPUT_NAME,
		),
	];
}

/**
 * `decomposed`'s boundary nodes: log(exp(shifted) · mask) − log Σ exp(shifted) at the asked
 * positions, from the exponentials already computed.
 */
function decomposedBoundaryNodes(): Uint8Array[] {
	const positionsAxis = [intAttribute('axis', SEQUENCE_AXIS)];
	return [
		node(
			'Gather',
			[`${PREFIX}exp`, BOUNDARY_POSITIONS_INPUT_NAME],
			`${PREFIX}boundary_rows`,
			positionsAxis,
		),
		node(
			'MatMul',
			[`${PREFIX}boundary_rows`, WORD_START_MASK_INPUT_NAME],
			`${PREFIX}word_start_sum`,
		),
		node('Log', [`${PREFIX}word_start_sum`], `${PREFIX}log_word_start_sum`),
		node(
			'Gather',
			[`${PREFIX}log_sum`, BOUNDARY_POSITIONS_INPUT_NAME],
			`${PREFIX}boundary_log_sum`,
			positionsAxis,
		),
		node(
			'Sub',
			[`${PREFIX}log_word_start_sum`, `${PREFIX}boundary_log_sum`],
			BOUNDARY_LOG_PROBS_OUTPUT_NAME,
		),
	];
}

/**
 * The top-k nodes, after the tail's: Gather of the asked positions' rows, TopK (largest first)
 * into the values and {@link TOP_IDS_OUTPUT_NAME}, K an int64 initializer. `log-softmax` takes
 * the log-softmax's rows; `decomposed` the shifted logits' (same order), minus their log Σ exp.
 */
function topKTail(variant: LogProbTailVariant, k: number): TailPart {
	const decomposed = variant === 'decomposed';
	const positionsAxis = [intAttribute('axis', SEQUENCE_AXIS)];
	const scores = decomposed ? `${PREFIX}shifted` : `${PREFIX}log_softmax`;
	const values = decomposed ? `${PREFIX}top_shifted` : TOP_LOG_PROBS_OUTPUT_NAME;
	const nodes = [
		node('Gather', [scores, TOP_POSITIONS_INPUT_NAME], `${PREFIX}top_rows`, positionsAxis),
		node(
			'TopK',
			[`${PREFIX}top_rows`, TOP_K_INITIALIZER],
			[values, TOP_IDS_OUTPUT_NAME],
			[intAttribute('axis', VOCAB_AXIS), intAttribute('largest', 1), intAttribute('sorted', 1)],
		),
	];
	if (decomposed) {
		const logSum = `${PREFIX}top_log_sum`;
		nodes.push(
			node('Gather', [`${PREFIX}log_sum`, TOP_POSITIONS_INPUT_NAME], logSum, positionsAxis),
		);
		nodes.push(node('Sub', [values, logSum], TOP_LOG_PROBS_OUTPUT_NAME));
	}
	return { nodes, initializers: [int64Initializer(TOP_K_INITIALIZER, [k])] };
}

/** The top positions input and the two top-k outputs [B,Q,K]. */
function topKValueInfos(k: number): Uint8Array[] {
	const dims = ['batch_size', 'top_positions', k];
	return [
		valueInfo(GRAPH_INPUT, TOP_POSITIONS_INPUT_NAME, ELEM_INT64, ['top_positions']),
		valueInfo(GRAPH_OUTPUT, TOP_LOG_PROBS_OUTPUT_NAME, ELEM_FLOAT, dims),
		valueInfo(GRAPH_OUTPUT, TOP_IDS_OUTPUT_NAME, ELEM_INT64, dims),
	];
}

/** The inputs the tail adds: a graph that already has one is refused. */
const ADDED_INPUTS = new Set([
	TARGETS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
]);

/** Outputs named like this are the key/value cache (`present.0.key`, `present.1.value`, ...). */
const CACHE_OUTPUT_PREFIX = 'present';

export interface AppendLogProbTailOptions {
	/**
	 * Keep the graph's `present.*` outputs (its key/value cache), for shared-prefix reuse. A
	 * runtime computes an output only when a run fetches it, so keeping them costs nothing in
	 * runs that fetch the log-probs alone. Default false.
	 */
	readonly keepCacheOutputs?: boolean;
	/**
	 * Also add the word-start mask and boundary positions inputs and the boundary log-prob output
	 * (see {@link BOUNDARY_LOG_PROBS_OUTPUT_NAME}), for the beginning-of-word correction. Default
	 * false.
	 */
	readonly wordBoundaries?: boolean;
	/**
	 * Also add the top positions input and the top-k outputs (see
	 * {@link TOP_LOG_PROBS_OUTPUT_NAME}), for `top_logprobs`. Default false.
	 */
	readonly topLogProbs?: boolean;
}

/** A model's fields, its one graph and its default-domain opset, or why they cannot be had. */
type ModelGraph =
	| {
			readonly ok: true;
			readonly modelFields: readonly WireField[];
			readonly graph: WireField;
			readonly opsetVersion: number;
	  }
	| { readonly ok: false; readonly reason: string };

function readModelGraph(model: Uint8Array): ModelGraph {
	let modelFields: WireField[];
	try {
		modelFields = readFields(model);
	} catch (error) {
		return { ok: false, reason: `not an ONNX model (${(error as Error).message})` };
	}
	const graphs = modelFields.filter((f) => f.field === MODEL_GRAPH && f.wireType === WIRE_LEN);
	const graph = graphs[0];
	if (!graph || graphs.length > 1) return { ok: false, reason: 'the model has no single graph' };
	const opsetVersion = readOpsetVersion(model, modelFields);
	if (opsetVersion === undefined)
		return { ok: false, reason: 'the model imports no default-domain opset' };
	if (opsetVersion < 13) return { ok: false, reason: `opset ${opsetVersion} is older than 13` };
	return { ok: true, modelFields, graph, opsetVersion };
}

/** The graph's outputs sorted into dropped and kept, and the logits' elem type and width. */
type GraphOutputs =
	| {
			readonly ok: true;
			readonly removedOutputs: readonly string[];
			readonly keptOutputs: readonly string[];
			readonly keptFields: ReadonlySet<WireField>;
			readonly logitsElemType: number;
			readonly logitsWidth: number | undefined;
	  }
	| { readonly ok: false; readonly reason: string };

/** Reads the graph's inputs (refusing one the tail adds) and outputs. */
function readGraphOutputs(
	model: Uint8Array,
	graphFields: readonly WireField[],
	keepCacheOutputs: boolean,
): GraphOutputs {
	const removedOutputs: string[] = [];
	const keptOutputs: string[] = [];
	const keptFields = new Set<WireField>();
	let logitsElemType: number | undefined;
	let logitsWidth: number | undefined;
	for (const f of graphFields) {
		const inputName = f.field === GRAPH_INPUT ? readValueInfo(model, f).name : undefined;
		if (inputName !== undefined && ADDED_INPUTS.has(inputName)) {
			return { ok: false, reason: `the graph already has an input named ${inputName}` };
		}
		if (f.field !== GRAPH_OUTPUT) continue;
		const { name, elemType, dims } = readValueInfo(model, f);
		if (keepCacheOutputs && name.startsWith(CACHE_OUTPUT_PREFIX)) {
			keptOutputs.push(name);
			keptFields.add(f);
			continue;
		}
		removedOutputs.push(name);
		if (name === LOGITS) {
			logitsElemType = elemType;
			logitsWidth = dims.length === 3 ? dims[2] : undefined;
		}
	}
	if (logitsElemType === undefined) {
		return { ok: false, reason: "the graph has no output named 'logits' (not a causal LM export)" };
	}
	return { ok: true, removedOutputs, keptOutputs, keptFields, logitsElemType, logitsWidth };
}

/** The inputs and outputs the tail adds to the graph. */
function tailValueInfos(
	wordBoundaries: boolean,
	logitsWidth: number | undefined,
	topK: number,
): Uint8Array[] {
	return [
		valueInfo(GRAPH_INPUT, TARGETS_INPUT_NAME, ELEM_INT64, [
			'batch_size',
			'sequence_length',
			'targets_per_position',
		]),
		valueInfo(GRAPH_OUTPUT, LOG_PROBS_OUTPUT_NAME, ELEM_FLOAT, [
			'batch_size',
			'sequence_length',
			'targets_per_position',
		]),
		...(wordBoundaries
			? [
					valueInfo(GRAPH_INPUT, WORD_START_MASK_INPUT_NAME, ELEM_FLOAT, [
						logitsWidth ?? 'vocab_size',
						1,
					]),
					valueInfo(GRAPH_INPUT, BOUNDARY_POSITIONS_INPUT_NAME, ELEM_INT64, ['boundary_positions']),
					valueInfo(GRAPH_OUTPUT, BOUNDARY_LOG_PROBS_OUTPUT_NAME, ELEM_FLOAT, [
						'batch_size',
						'boundary_positions',
						1,
					]),
					valueInfo(GRAPH_OUTPUT, EXPECTED_LOG_PROB_OUTPUT_NAME, ELEM_FLOAT, [
						'batch_size',
						'boundary_positions',
						1,
					]),
				]
			: []),
		...(topK > 0 ? topKValueInfos(topK) : []),
	];
}

/**
 * Appends the log-prob tail to `model` (a serialized ModelProto whose graph has a rank-3 output
 * named `logits`). All other graph outputs are dropped, but the cache outputs when
 * `keepCacheOutputs`. The input bytes are not modified.
 */
export function appendLogProbTail(
	model: Uint8Array,
	variant: LogProbTailVariant,
	options: AppendLogProbTailOptions = {},
): AppendLogProbTailResult {
	const read = readModelGraph(model);
	if (!read.ok) return read;
	const { modelFields, graph, opsetVersion } = read;
	const graphFields = readFields(model, graph.valueStart, graph.valueEnd);
	const outputs = readGraphOutputs(model, graphFields, options.keepCacheOutputs === true);
	if (!outputs.ok) return outputs;
	const { logitsElemType, logitsWidth } = outputs;

	const wordBoundaries = options.wordBoundaries === true;
	const topK =
		options.topLogProbs === true
			? Math.min(MAX_TOP_LOG_PROBS, logitsWidth ?? MAX_TOP_LOG_PROBS)
			: 0;
	const tail = buildTail(variant, opsetVersion, logitsElemType, wordBoundaries);
	const top = topK > 0 ? topKTail(variant, topK) : { nodes: [], initializers: [] };
	const kept = graphFields
		.filter((f) => f.field !== GRAPH_OUTPUT || outputs.keptFields.has(f))
		.map((f) => model.subarray(f.start, f.end));
	// NOTE: written into one buffer: the weights are copied once (models can be gigabytes).
	const graphParts = [
		...kept,
		...tail.nodes,
		...top.nodes,
		...tail.initializers,
		...top.initializers,
		...tailValueInfos(wordBoundaries, logitsWidth, topK),
	];
	return {
		ok: true,
		bytes: withGraphParts(model, modelFields, graph, graphParts),
		opsetVersion,
		logitsElemType,
		...(logitsWidth !== undefined ? { logitsWidth } : {}),
		removedOutputs: outputs.removedOutputs,
		keptOutputs: outputs.keptOutputs,
	};
}
