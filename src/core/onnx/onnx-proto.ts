/**
 * ONNX protobuf field numbers (onnx.proto3) and encoders for the few messages Benchtop writes
 * (nodes, attributes, value infos), on the wire helpers. Pure.
 */
import {
	concatBytes,
	encodeMessageField,
	encodeStringField,
	encodeVarint,
	encodeVarintField,
	readFields,
	readString,
	WIRE_LEN,
	type WireField,
} from './protobuf-wire';

export const MODEL_GRAPH = 7;
export const MODEL_OPSET_IMPORT = 8;
export const OPSET_DOMAIN = 1;
export const OPSET_VERSION = 2;
export const GRAPH_NODE = 1;
export const GRAPH_INITIALIZER = 5;
export const GRAPH_INPUT = 11;
export const GRAPH_OUTPUT = 12;
export const VALUE_INFO_NAME = 1;
export const VALUE_INFO_TYPE = 2;
export const TYPE_TENSOR = 1;
export const TENSOR_TYPE_ELEM = 1;
export const TENSOR_TYPE_SHAPE = 2;
export const SHAPE_DIM = 1;
export const DIM_VALUE = 1;
export const DIM_PARAM = 2;
export const NODE_INPUT = 1;
export const NODE_OUTPUT = 2;
export const NODE_NAME = 3;
export const NODE_OP_TYPE = 4;
export const NODE_ATTRIBUTE = 5;
export const NODE_DOMAIN = 7;
export const ATTR_NAME = 1;
export const ATTR_I = 3;
export const ATTR_INTS = 8;
export const ATTR_TYPE = 20;
export const ATTR_TYPE_INT = 2;
export const ATTR_TYPE_INTS = 7;
export const TENSOR_DIMS = 1;
export const TENSOR_DATA_TYPE = 2;
export const TENSOR_NAME = 8;
export const TENSOR_RAW_DATA = 9;
export const ELEM_FLOAT = 1;
export const ELEM_INT64 = 7;

export type Attribute = Uint8Array;

export function intAttribute(name: string, value: number): Attribute {
	return encodeMessageField(NODE_ATTRIBUTE, [
		encodeStringField(ATTR_NAME, name),
		encodeVarintField(ATTR_I, value),
		encodeVarintField(ATTR_TYPE, ATTR_TYPE_INT),
	]);
}

export function intsAttribute(name: string, values: readonly number[]): Attribute {
	return encodeMessageField(NODE_ATTRIBUTE, [
		encodeStringField(ATTR_NAME, name),
		...values.map((v) => encodeVarintField(ATTR_INTS, v)),
		encodeVarintField(ATTR_TYPE, ATTR_TYPE_INTS),
	]);
}

/** A NodeProto with one output, or several (TopK's values and indices), named after the first. */
export function node(
	opType: string,
	inputs: readonly string[],
	output: string | readonly string[],
	attributes: readonly Attribute[] = [],
): Uint8Array {
	const outputs = typeof output === 'string' ? [output] : output;
	return encodeMessageField(GRAPH_NODE, [
		...inputs.map((name) => encodeStringField(NODE_INPUT, name)),
		...outputs.map((name) => encodeStringField(NODE_OUTPUT, name)),
		encodeStringField(NODE_NAME, `${outputs[0] ?? opType}_node`),
		encodeStringField(NODE_OP_TYPE, opType),
		...attributes,
	]);
}

export function valueInfo(
	field: number,
	name: string,
	elemType: number,
	dims: readonly (string | number)[],
): Uint8Array {
	const shape = dims.map((d) =>
		encodeMessageField(SHAPE_DIM, [
			typeof d === 'number' ? encodeVarintField(DIM_VALUE, d) : encodeStringField(DIM_PARAM, d),
		]),
	);
	const tensorType = encodeMessageField(TYPE_TENSOR, [
		encodeVarintField(TENSOR_TYPE_ELEM, elemType),
		encodeMessageField(TENSOR_TYPE_SHAPE, shape),
	]);
	return encodeMessageField(field, [
		encodeStringField(VALUE_INFO_NAME, name),
		encodeMessageField(VALUE_INFO_TYPE, [tensorType]),
	]);
}

/**
 * `model` (its fields `modelFields`) with the payload of its `graph` field replaced by
 * `graphParts` and `appended` model fields after the rest; every other field is copied as it is.
 */
export function withGraphParts(
	model: Uint8Array,
	modelFields: readonly WireField[],
	graph: WireField,
	graphParts: readonly Uint8Array[],
	appended: readonly Uint8Array[] = [],
): Uint8Array {
	const graphLength = graphParts.reduce((sum, part) => sum + part.length, 0);
	const parts = modelFields.flatMap((f) =>
		f === graph
			? [encodeVarint(MODEL_GRAPH * 8 + WIRE_LEN), encodeVarint(graphLength), ...graphParts]
			: [model.subarray(f.start, f.end)],
	);
	return concatBytes([...parts, ...appended]);
}

/** A model's fields, its graph field and the graph's fields; undefined when `model` is not a
 * ModelProto with a graph (malformed bytes included). */
export function readGraphFields(
	model: Uint8Array,
): { modelFields: WireField[]; graph: WireField; graphFields: WireField[] } | undefined {
	try {
		const modelFields = readFields(model);
		const graph = modelFields.find((f) => f.field === MODEL_GRAPH && f.wireType === WIRE_LEN);
		if (!graph) return undefined;
		return { modelFields, graph, graphFields: readFields(model, graph.valueStart, graph.valueEnd) };
	} catch {
		return undefined;
	}
}

/** A NodeProto as the rewrites read it: its field (for splicing), op, domain, inputs, outputs. */
export interface GraphNode {
	readonly field: WireField;
	readonly opType: string;
	readonly domain: string;
	readonly inputs: readonly string[];
	readonly outputs: readonly string[];
}

export function readNode(bytes: Uint8Array, field: WireField): GraphNode {
	let opType = '';
	let domain = '';
	const inputs: string[] = [];
	const outputs: string[] = [];
	for (const f of readFields(bytes, field.valueStart, field.valueEnd)) {
		if (f.wireType !== WIRE_LEN) continue;
		if (f.field === NODE_INPUT) inputs.push(readString(bytes, f));
		else if (f.field === NODE_OUTPUT) outputs.push(readString(bytes, f));
		else if (f.field === NODE_OP_TYPE) opType = readString(bytes, f);
		else if (f.field === NODE_DOMAIN) domain = readString(bytes, f);
	}
	return { field, opType, domain, inputs, outputs };
}

/** The If/Loop/Scan ops: their bodies (subgraphs) may read any value of the graph. */
const SUBGRAPH_OPS = new Set(['If', 'Loop', 'Scan']);

/** The string field `nameField` of the message in `field` ('' when absent). */
export function messageName(bytes: Uint8Array, field: WireField, nameField: number): string {
	const name = readFields(bytes, field.valueStart, field.valueEnd).find(
		(f) => f.field === nameField && f.wireType === WIRE_LEN,
	);
	return name ? readString(bytes, name) : '';
}

/** A graph's nodes by the values they write and read, and its inputs' and outputs' names. */
export interface NodeIndex {
	readonly producer: ReadonlyMap<string, GraphNode>;
	readonly consumers: ReadonlyMap<string, readonly GraphNode[]>;
	readonly graphInputs: ReadonlySet<string>;
	readonly graphOutputs: ReadonlySet<string>;
	/** The graph has If/Loop/Scan nodes, whose bodies may read any value unseen here. */
	readonly hasSubgraphs: boolean;
}

export function indexNodes(bytes: Uint8Array, graphFields: readonly WireField[]): NodeIndex {
	const producer = new Map<string, GraphNode>();
	const consumers = new Map<string, GraphNode[]>();
	const graphInputs = new Set<string>();
	const graphOutputs = new Set<string>();
	let hasSubgraphs = false;
	for (const f of graphFields) {
		if (f.wireType !== WIRE_LEN) continue;
		if (f.field === GRAPH_NODE) {
			const node = readNode(bytes, f);
			hasSubgraphs ||= SUBGRAPH_OPS.has(node.opType);
			for (const output of node.outputs) producer.set(output, node);
			for (const input of node.inputs)
				consumers.set(input, [...(consumers.get(input) ?? []), node]);
		} else if (f.field === GRAPH_INPUT) graphInputs.add(messageName(bytes, f, VALUE_INFO_NAME));
		else if (f.field === GRAPH_OUTPUT) graphOutputs.add(messageName(bytes, f, VALUE_INFO_NAME));
	}
	return { producer, consumers, graphInputs, graphOutputs, hasSubgraphs };
}
