/**
 * Rewrites a causal LM's ONNX graph so its output layer (the `[hidden, vocab]` MatMul that makes
 * the logits, and everything after it) runs only at the positions whose outputs are read: the
 * hidden states `[B, S, H]` are flattened to `[B·S, H]` and the rows fed in
 * {@link OUTPUT_ROWS_INPUT_NAME} are gathered, so the logits become `[1, N, V]` for N fed rows.
 * A padded batch's padding and each sequence's last position (no next token to score) then cost
 * nothing in the output layer and the log-softmax, which at GPT-2's 50,257-token vocabulary are a
 * third of the model's multiply-adds. Splices protobuf bytes; never decodes weights. Pure.
 *
 * The rows are gathered at the output layer's own input, after any dynamic quantization of the
 * hidden states (q8 exports quantize them with one scale over the whole tensor), so every
 * gathered row's logits are those of the full pass, to the bit.
 */
import {
	ELEM_INT64,
	GRAPH_INITIALIZER,
	GRAPH_INPUT,
	GRAPH_NODE,
	NODE_INPUT,
	TENSOR_NAME,
	VALUE_INFO_NAME,
	indexNodes,
	intAttribute,
	messageName,
	node,
	readGraphFields,
	valueInfo,
	withGraphParts,
	type GraphNode,
	type NodeIndex,
} from './onnx-proto';
import {
	encodeMessageField,
	encodeStringField,
	readFields,
	WIRE_LEN,
	type WireField,
} from './protobuf-wire';

/** Name of the added int64 input `[1, N]`: the rows b·S + t (batch row b, position t) whose
 * logits the graph computes, in the order its logits `[1, N, V]` then hold them. */
export const OUTPUT_ROWS_INPUT_NAME = 'benchtop_output_rows';

export type GatherOutputRowsResult =
	| {
			readonly ok: true;
			readonly bytes: Uint8Array;
			/** The output layer's op (`MatMul`, or `MatMulInteger` in a q8 export). */
			readonly outputLayerOp: string;
	  }
	| { readonly ok: false; readonly reason: string };

const LOGITS = 'logits';
const FLAT_HIDDEN = 'benchtop_output_rows_flat';
const GATHERED_HIDDEN = 'benchtop_output_rows_hidden';
/** Graph field 13: value_info (shapes recorded for inner values). */
const GRAPH_VALUE_INFO = 13;
/** The output layer: a matrix product whose second input is a weight. */
const OUTPUT_LAYER_OPS = new Set(['MatMul', 'MatMulInteger']);
/** Ops between the output layer and the logits that act on each element alone. */
const ELEMENTWISE_UNARY = new Set(['Identity', 'Cast', 'Tanh']);
const ELEMENTWISE_BINARY = new Set(['Add', 'Sub', 'Mul', 'Div']);
/** How many nodes may sit between the output layer and the logits (q8: Cast, Mul, Identity). */
const MAX_PATH = 6;

/** The graph's nodes, inputs and outputs, and its initializers' names. */
interface Graph extends NodeIndex {
	readonly initializers: ReadonlySet<string>;
}

function indexGraph(bytes: Uint8Array, graphFields: readonly WireField[]): Graph {
	const initializers = graphFields
		.filter((f) => f.field === GRAPH_INITIALIZER && f.wireType === WIRE_LEN)
		.map((f) => messageName(bytes, f, TENSOR_NAME));
	return { ...indexNodes(bytes, graphFields), initializers: new Set(initializers) };
}

/**
 * Whether `name` is the same for every position: a weight, a constant, a dynamic quantization's
 * scale or zero point (scalars by the op's definition), or an elementwise op of such values.
 */
function positionFree(g: Graph, name: string, depth = 0): boolean {
	if (g.initializers.has(name)) return true;
	const n = g.producer.get(name);
	if (!n || n.domain !== '' || depth > MAX_PATH) return false;
	if (n.opType === 'Constant') return true;
	if (n.opType === 'DynamicQuantizeLinear') return name !== n.outputs[0];
	if (!ELEMENTWISE_UNARY.has(n.opType) && !ELEMENTWISE_BINARY.has(n.opType)) return false;
	return n.inputs.every((input) => positionFree(g, input, depth + 1));
}

/** The nodes from the output layer to the node that writes `value`, output layer first, when
 * every node after the output layer is elementwise with position-free other operands. */
function pathToOutputLayer(g: Graph, value: string, depth = 0): GraphNode[] | undefined {
	const n = g.producer.get(value);
	if (!n || n.domain !== '' || depth > MAX_PATH) return undefined;
	const [first = '', second = ''] = n.inputs;
	if (OUTPUT_LAYER_OPS.has(n.opType) && g.initializers.has(second)) return [n];
	if (ELEMENTWISE_UNARY.has(n.opType)) {
		const path = pathToOutputLayer(g, first, depth + 1);
		return path && [...path, n];
	}
	if (!ELEMENTWISE_BINARY.has(n.opType) || n.inputs.length !== 2) return undefined;
	for (const [activation, other] of [
		[first, second],
		[second, first],
	] as const) {
		if (!positionFree(g, other)) continue;
		const path = pathToOutputLayer(g, activation, depth + 1);
		if (path) return [...path, n];
	}
	return undefined;
}

/** The output layer node with its first input renamed `input` (its other fields as they are). */
function withFirstInput(bytes: Uint8Array, outputLayer: GraphNode, input: string): Uint8Array {
	let renamed = false;
	const parts = readFields(bytes, outputLayer.field.valueStart, outputLayer.field.valueEnd).map(
		(f) => {
			if (renamed || f.field !== NODE_INPUT || f.wireType !== WIRE_LEN)
				return bytes.subarray(f.start, f.end);
			renamed = true;
			return encodeStringField(NODE_INPUT, input);
		},
	);
	return encodeMessageField(GRAPH_NODE, parts);
}

/**
 * The model with the rows gather before its output layer; refused (with the reason) when the
 * logits do not come from a `[hidden, vocab]` weight through elementwise nodes alone, or when a
 * value on that path is read by anything but the path.
 */
export function gatherOutputRows(model: Uint8Array): GatherOutputRowsResult {
	const read = readGraphFields(model);
	if (!read) return { ok: false, reason: 'not an ONNX model' };
	const { modelFields, graph, graphFields } = read;
	let g: Graph;
	try {
		g = indexGraph(model, graphFields);
	} catch (error) {
		return { ok: false, reason: `not an ONNX model (${(error as Error).message})` };
	}
	if (g.hasSubgraphs) return { ok: false, reason: 'the graph has subgraphs' };
	if (g.graphInputs.has(OUTPUT_ROWS_INPUT_NAME))
		return { ok: false, reason: `the graph already has an input named ${OUTPUT_ROWS_INPUT_NAME}` };
	if (!g.graphOutputs.has(LOGITS)) return { ok: false, reason: "the graph has no output 'logits'" };
	const path = pathToOutputLayer(g, LOGITS);
	const outputLayer = path?.[0];
	if (!path || !outputLayer)
		return { ok: false, reason: 'no output layer found: the logits are not a weight product' };
	const onPath = new Set(path);
	const reshaped = new Set(path.flatMap((n) => n.outputs));
	for (const value of reshaped) {
		const readers = g.consumers.get(value) ?? [];
		const elsewhere =
			value !== LOGITS && (g.graphOutputs.has(value) || readers.some((r) => !onPath.has(r)));
		if (elsewhere) return { ok: false, reason: `'${value}' is also read outside the output layer` };
	}
	const hidden = outputLayer.inputs[0] ?? '';
	const gatherNodes = [
		node('Flatten', [hidden], FLAT_HIDDEN, [intAttribute('axis', 2)]),
		node('Gather', [FLAT_HIDDEN, OUTPUT_ROWS_INPUT_NAME], GATHERED_HIDDEN, [
			intAttribute('axis', 0),
		]),
	];
	const graphParts = graphFields.flatMap((f) => {
		if (f === outputLayer.field)
			return [...gatherNodes, withFirstInput(model, outputLayer, GATHERED_HIDDEN)];
		// Shapes recorded for the values whose shape changes would contradict the new ones.
		if (f.field === GRAPH_VALUE_INFO && reshaped.has(messageName(model, f, VALUE_INFO_NAME)))
			return [];
		return [model.subarray(f.start, f.end)];
	});
	graphParts.push(valueInfo(GRAPH_INPUT, OUTPUT_ROWS_INPUT_NAME, ELEM_INT64, [1, 'output_rows']));
	return {
		ok: true,
		bytes: withGraphParts(model, modelFields, graph, graphParts),
		outputLayerOp: outputLayer.opType,
	};
}
