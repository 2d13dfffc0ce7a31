/**
 * Rewrites a model's tanh-approximated GELU subgraphs (GPT-2's `gelu_new`, exported as nine
 * elementwise nodes: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))) into one `com.microsoft`
 * `FastGelu` node, absorbing the MLP's bias Add when there is one. onnxruntime's CPU/WASM
 * optimizer leaves the exported form unfused (checked on gpt2-en-small), so each GELU costs
 * nine passes over [B, S, 4·hidden] where FastGelu costs one. Only for runtimes with the
 * contrib op (CPU and WASM builds of onnxruntime); float32 only, as its CPU kernel. Splices
 * protobuf bytes; never decodes weights. Pure.
 */
import {
	ELEM_FLOAT,
	GRAPH_INITIALIZER,
	GRAPH_NODE,
	MODEL_OPSET_IMPORT,
	NODE_ATTRIBUTE,
	NODE_INPUT,
	NODE_OP_TYPE,
	NODE_OUTPUT,
	OPSET_DOMAIN,
	OPSET_VERSION,
	TENSOR_DATA_TYPE,
	TENSOR_DIMS,
	TENSOR_NAME,
	TENSOR_RAW_DATA,
	ATTR_NAME,
	readGraphFields,
	indexNodes,
	withGraphParts,
	NODE_DOMAIN,
	type GraphNode,
	type NodeIndex,
} from './onnx-proto';
import {
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
	WIRE_I32,
	WIRE_LEN,
	WIRE_VARINT,
	type WireField,
} from './protobuf-wire';

const NODE_NAME = 3;
const ATTR_F = 2;
const ATTR_T = 5;
const TENSOR_FLOAT_DATA = 4;
const MS_DOMAIN = 'com.microsoft';
const FAST_GELU = 'FastGelu';

/** The GELU constants, as the exporters write them in float32. */
const SQRT_2_OVER_PI = Math.sqrt(2 / Math.PI);
const CUBIC_COEFFICIENT = 0.044715;

export interface FuseGeluResult {
	/** The rewritten model, or the input bytes themselves when nothing was fused. */
	readonly bytes: Uint8Array;
	/** GELU subgraphs replaced by FastGelu. */
	readonly fusedCount: number;
}

/** What the matcher needs of a graph: its nodes by output and by input, constants, outputs. */
interface GraphIndex extends NodeIndex {
	/** float32 scalars: Constant node outputs and one-element initializers. */
	readonly scalars: ReadonlyMap<string, number>;
	/** float32 initializers' dims (to check a bias Add and its MatMul's weight). */
	readonly floatInitializerDims: ReadonlyMap<string, readonly number[]>;
}

/** One match: the nodes it replaces, and the FastGelu's inputs and output. */
interface GeluMatch {
	readonly removed: ReadonlySet<GraphNode>;
	readonly inputs: readonly string[];
	readonly output: string;
	/** The node whose place the FastGelu takes (its producers precede it, its consumers follow). */
	readonly anchor: GraphNode;
}

/** A float32 TensorProto's name, dims and its value when it holds exactly one element. */
function readFloatTensor(
	bytes: Uint8Array,
	field: WireField,
): { name: string; dims: number[]; scalar: number | undefined } | undefined {
	let name = '';
	let elemType = 0;
	const dims: number[] = [];
	let values: Uint8Array | undefined;
	for (const f of readFields(bytes, field.valueStart, field.valueEnd)) {
		if (f.field === TENSOR_DIMS && f.wireType === WIRE_VARINT) dims.push(f.varint);
		if (f.field === TENSOR_DATA_TYPE && f.wireType === WIRE_VARINT) elemType = f.varint;
		if (f.field === TENSOR_NAME && f.wireType === WIRE_LEN) name = readString(bytes, f);
		const data = f.field === TENSOR_RAW_DATA || f.field === TENSOR_FLOAT_DATA;
		if (data && f.wireType === WIRE_LEN) values = bytes.subarray(f.valueStart, f.valueEnd);
		if (f.field === TENSOR_FLOAT_DATA && f.wireType === WIRE_I32)
			values = bytes.subarray(f.valueStart, f.valueEnd);
	}
	if (elemType !== ELEM_FLOAT) return undefined;
	const one = dims.every((d) => d === 1) && values?.length === 4;
	const scalar =
		one && values ? new DataView(values.slice().buffer).getFloat32(0, true) : undefined;
	return { name, dims, scalar };
}

/** A Constant node's float32 scalar (`value` tensor or `value_float`), if it is one. */
function constantScalar(bytes: Uint8Array, node: GraphNode): number | undefined {
	if (node.opType !== 'Constant' || node.domain !== '') return undefined;
	for (const a of readFields(bytes, node.field.valueStart, node.field.valueEnd)) {
		if (a.field !== NODE_ATTRIBUTE || a.wireType !== WIRE_LEN) continue;
		const parts = readFields(bytes, a.valueStart, a.valueEnd);
		const nameField = parts.find((p) => p.field === ATTR_NAME && p.wireType === WIRE_LEN);
		const name = nameField ? readString(bytes, nameField) : '';
		const f = parts.find((p) => p.field === ATTR_F && p.wireType === WIRE_I32);
		if (name === 'value_float' && f)
			return new DataView(bytes.slice(f.valueStart, f.valueEnd).buffer).getFloat32(0, true);
		const t = parts.find((p) => p.field === ATTR_T && p.wireType === WIRE_LEN);
		if (name === 'value' && t) return readFloatTensor(bytes, t)?.scalar;
	}
	return undefined;
}

function indexGraph(bytes: Uint8Array, graphFields: readonly WireField[]): GraphIndex {
	const nodes = indexNodes(bytes, graphFields);
	const scalars = new Map<string, number>();
	const floatInitializerDims = new Map<string, readonly number[]>();
	for (const node of new Set(nodes.producer.values())) {
		const scalar = constantScalar(bytes, node);
		if (scalar !== undefined && node.outputs[0]) scalars.set(node.outputs[0], scalar);
	}
	for (const f of graphFields) {
		if (f.field !== GRAPH_INITIALIZER || f.wireType !== WIRE_LEN) continue;
		const tensor = readFloatTensor(bytes, f);
		if (!tensor) continue;
		floatInitializerDims.set(tensor.name, tensor.dims);
		if (tensor.scalar !== undefined) scalars.set(tensor.name, tensor.scalar);
	}
	return { ...nodes, scalars, floatInitializerDims };
}

/** A default-domain `opType` node with two inputs, one of them the float32 scalar `value`:
 * returns the other input. */
function scalarOperand(
	g: GraphIndex,
	node: GraphNode | undefined,
	opType: string,
	value: number,
): string | undefined {
	if (!node || node.opType !== opType || node.domain !== '' || node.inputs.length !== 2)
		return undefined;
	const [a = '', b = ''] = node.inputs;
	const near = (name: string) => {
		const s = g.scalars.get(name);
		return s !== undefined && Math.abs(s - value) <= 1e-5 * Math.abs(value);
	};
	if (near(b)) return a;
	if (near(a)) return b;
	return undefined;
}

/** The default-domain Mul/Add producing `name`, and its two inputs. */
function binary(g: GraphIndex, name: string, opType: string): GraphNode | undefined {
	const node = g.producer.get(name);
	return node?.opType === opType && node.domain === '' && node.inputs.length === 2
		? node
		: undefined;
}

/** The only consumer of `name`, when exactly one node reads it. */
function soleConsumer(g: GraphIndex, name: string | undefined): GraphNode | undefined {
	const readers = name === undefined ? undefined : g.consumers.get(name);
	return readers?.length === 1 ? readers[0] : undefined;
}

/** x³ computed as Mul(x, Mul(x, x)) (either order) or Pow(x, 3): the nodes, or undefined. */
function cubeOf(g: GraphIndex, cube: string, x: string): GraphNode[] | undefined {
	const pow = g.producer.get(cube);
	if (pow?.opType === 'Pow' && scalarOperand(g, pow, 'Pow', 3) === x && pow.inputs[0] === x)
		return [pow];
	const outer = binary(g, cube, 'Mul');
	if (!outer) return undefined;
	const [a = '', b = ''] = outer.inputs;
	const square = a === x ? b : b === x ? a : undefined;
	const inner = square === undefined ? undefined : binary(g, square, 'Mul');
	return inner && inner.inputs.every((i) => i === x) ? [outer, inner] : undefined;
}

/** Matches the inner part, tanh's argument √(2/π)·(x + 0.044715·x³): x and its nodes. */
function matchTanhArgument(
	g: GraphIndex,
	tanh: GraphNode,
): { x: string; nodes: GraphNode[] } | undefined {
	const scaledNode = g.producer.get(tanh.inputs[0] ?? '');
	const sum = scalarOperand(g, scaledNode, 'Mul', SQRT_2_OVER_PI);
	const add = sum === undefined ? undefined : binary(g, sum, 'Add');
	if (!add || !scaledNode) return undefined;
	for (const [x = '', term = ''] of [add.inputs, [...add.inputs].reverse()]) {
		const termNode = g.producer.get(term);
		const cube = scalarOperand(g, termNode, 'Mul', CUBIC_COEFFICIENT);
		const cubeNodes = cube === undefined ? undefined : cubeOf(g, cube, x);
		if (termNode && cubeNodes) return { x, nodes: [scaledNode, add, termNode, ...cubeNodes] };
	}
	return undefined;
}

function isBinary(node: GraphNode | undefined, opType: string): node is GraphNode {
	return node?.opType === opType && node.domain === '' && node.inputs.length === 2;
}

/** A two-input node's input other than `name` (`name` when both are). */
function otherThan(node: GraphNode, name: string): string | undefined {
	const [a, b] = node.inputs;
	return a === name ? b : b === name ? a : undefined;
}

/** Matches the outer part 0.5·x·(1 + t), any grouping of its two Muls: its nodes and output. */
function matchOuter(
	g: GraphIndex,
	tanh: GraphNode,
	x: string,
): { nodes: GraphNode[]; output: string } | undefined {
	const t = tanh.outputs[0] ?? '';
	const onePlus = soleConsumer(g, t);
	if (!onePlus || scalarOperand(g, onePlus, 'Add', 1) !== t) return undefined;
	const u = onePlus.outputs[0] ?? '';
	const first = soleConsumer(g, u);
	const other = isBinary(first, 'Mul') ? otherThan(first, u) : undefined;
	if (!first || other === undefined) return undefined;
	const firstOut = first.outputs[0] ?? '';
	const second = soleConsumer(g, firstOut);
	const done = (last: GraphNode, third: GraphNode) => ({
		nodes: [onePlus, first, third],
		output: last.outputs[0] ?? '',
	});
	if (other === x) {
		// 0.5·(x·(1+t))
		return second && scalarOperand(g, second, 'Mul', 0.5) === firstOut
			? done(second, second)
			: undefined;
	}
	if (g.scalars.get(other) === 0.5) {
		// x·(0.5·(1+t))
		return isBinary(second, 'Mul') && otherThan(second, firstOut) === x
			? done(second, second)
			: undefined;
	}
	// (0.5·x)·(1+t)
	const half = g.producer.get(other);
	return half && scalarOperand(g, half, 'Mul', 0.5) === x ? done(first, half) : undefined;
}

/** The MLP's bias Add producing `x` (MatMul output + a 1-D float32 initializer as wide as the
 * MatMul's weight) when only `removed` reads `x`: FastGelu takes the bias as its second input. */
function matchBias(
	g: GraphIndex,
	x: string,
	removed: ReadonlySet<GraphNode>,
): { add: GraphNode; inputs: [string, string] } | undefined {
	const add = binary(g, x, 'Add');
	if (!add || g.graphOutputs.has(x)) return undefined;
	if (!(g.consumers.get(x) ?? []).every((reader) => removed.has(reader))) return undefined;
	for (const [product = '', bias = ''] of [add.inputs, [...add.inputs].reverse()]) {
		const biasDims = g.floatInitializerDims.get(bias);
		const matMul = g.producer.get(product);
		const weight = matMul?.opType === 'MatMul' && matMul.domain === '' ? matMul.inputs[1] : '';
		const weightDims = g.floatInitializerDims.get(weight ?? '');
		const width = biasDims?.length === 1 ? biasDims[0] : undefined;
		if (width !== undefined && width > 1 && weightDims?.length === 2 && weightDims[1] === width)
			return { add, inputs: [product, bias] };
	}
	return undefined;
}

/** The GELU subgraph around `tanh`, when its inner values are read by nothing else. */
function matchGelu(g: GraphIndex, tanh: GraphNode): GeluMatch | undefined {
	const argument = matchTanhArgument(g, tanh);
	const outer = argument ? matchOuter(g, tanh, argument.x) : undefined;
	if (!argument || !outer) return undefined;
	const removed = new Set([tanh, ...argument.nodes, ...outer.nodes]);
	const anchor = g.producer.get(outer.output);
	const xProducer = g.producer.get(argument.x);
	if (!anchor || (xProducer && removed.has(xProducer))) return undefined;
	for (const node of removed) {
		for (const output of node.outputs) {
			if (output === outer.output) continue;
			if (g.graphOutputs.has(output)) return undefined;
			if (!(g.consumers.get(output) ?? []).every((reader) => removed.has(reader))) return undefined;
		}
	}
	const bias = matchBias(g, argument.x, removed);
	if (bias) removed.add(bias.add);
	return { removed, inputs: bias ? bias.inputs : [argument.x], output: outer.output, anchor };
}

/** Constant nodes read only by removed nodes (they would be left dangling). */
function orphanedConstants(g: GraphIndex, removed: ReadonlySet<GraphNode>): GraphNode[] {
	const orphans = new Set<GraphNode>();
	for (const node of removed) {
		for (const input of node.inputs) {
			const constant = g.producer.get(input);
			if (constant?.opType !== 'Constant' || removed.has(constant)) continue;
			if ((g.consumers.get(input) ?? []).every((reader) => removed.has(reader)))
				orphans.add(constant);
		}
	}
	return [...orphans];
}

function fastGeluNode(inputs: readonly string[], output: string): Uint8Array {
	return encodeMessageField(GRAPH_NODE, [
		...inputs.map((name) => encodeStringField(NODE_INPUT, name)),
		encodeStringField(NODE_OUTPUT, output),
		encodeStringField(NODE_NAME, `benchtop_fast_gelu_${output}`),
		encodeStringField(NODE_OP_TYPE, FAST_GELU),
		encodeStringField(NODE_DOMAIN, MS_DOMAIN),
	]);
}

/** Whether the model already imports the `com.microsoft` opset. */
function importsMsDomain(bytes: Uint8Array, modelFields: readonly WireField[]): boolean {
	return modelFields.some(
		(f) =>
			f.field === MODEL_OPSET_IMPORT &&
			f.wireType === WIRE_LEN &&
			readFields(bytes, f.valueStart, f.valueEnd).some(
				(o) =>
					o.field === OPSET_DOMAIN && o.wireType === WIRE_LEN && readString(bytes, o) === MS_DOMAIN,
			),
	);
}

/** The model with every matched GELU replaced; `model` itself when nothing matched. */
export function fuseTanhGelu(model: Uint8Array): FuseGeluResult {
	const read = readGraphFields(model);
	if (!read) return { bytes: model, fusedCount: 0 };
	const { modelFields, graph, graphFields } = read;
	const g = indexGraph(model, graphFields);
	if (g.hasSubgraphs) return { bytes: model, fusedCount: 0 };
	const matches = [...g.producer.values()]
		.filter((node) => node.opType === 'Tanh' && node.domain === '')
		.flatMap((tanh) => matchGelu(g, tanh) ?? []);
	if (matches.length === 0) return { bytes: model, fusedCount: 0 };
	const removed = new Set(matches.flatMap((m) => [...m.removed]));
	for (const constant of orphanedConstants(g, removed)) removed.add(constant);
	const byAnchor = new Map(matches.map((m) => [m.anchor.field, m]));
	const byField = new Map([...removed].map((node) => [node.field, node]));
	const graphParts = graphFields.flatMap((f) => {
		const match = byAnchor.get(f);
		if (match) return [fastGeluNode(match.inputs, match.output)];
		return byField.has(f) ? [] : [model.subarray(f.start, f.end)];
	});
	const msImport = importsMsDomain(model, modelFields)
		? []
		: [
				encodeMessageField(MODEL_OPSET_IMPORT, [
					encodeStringField(OPSET_DOMAIN, MS_DOMAIN),
					encodeVarintField(OPSET_VERSION, 1),
				]),
			];
	return {
		bytes: withGraphParts(model, modelFields, graph, graphParts, msImport),
		fusedCount: matches.length,
	};
}
