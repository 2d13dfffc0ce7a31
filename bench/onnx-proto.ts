/**
 * The subset of onnx.proto (proto3 field numbers, as published by the ONNX project) that the bench
 * needs to write a model, described as code for protobufjs: ModelProto, GraphProto, NodeProto,
 * AttributeProto, TensorProto, ValueInfoProto and the type/shape messages. `encodeModel` writes
 * the bytes onnxruntime loads; `decodeModel` reads them back (tests, inspection).
 */
import protobuf from 'protobufjs';

/** ONNX TensorProto.DataType values used here. */
export const DataType = {
	FLOAT: 1,
	UINT8: 2,
	INT8: 3,
	INT32: 6,
	INT64: 7,
	FLOAT16: 10,
} as const;

/** AttributeProto.AttributeType values used here. */
export const AttributeType = {
	FLOAT: 1,
	INT: 2,
	STRING: 3,
	TENSOR: 4,
	FLOATS: 6,
	INTS: 7,
} as const;

export interface TensorProto {
	name: string;
	dims: number[];
	dataType: number;
	rawData?: Uint8Array;
	floatData?: number[];
	int64Data?: number[];
}

export interface AttributeProto {
	name: string;
	type: number;
	f?: number;
	i?: number;
	s?: Uint8Array;
	t?: TensorProto;
	floats?: number[];
	ints?: number[];
}

export interface NodeProto {
	input: string[];
	output: string[];
	name: string;
	opType: string;
	domain?: string;
	attribute?: AttributeProto[];
}

/** A dimension: a number, or a named symbolic size (`batch_size`). */
export type Dim = number | string;

export interface ValueInfoProto {
	name: string;
	type: { tensorType: { elemType: number; shape: { dim: DimProto[] } } };
}

export interface DimProto {
	dimValue?: number;
	dimParam?: string;
}

export interface GraphProto {
	name: string;
	node: NodeProto[];
	initializer: TensorProto[];
	input: ValueInfoProto[];
	output: ValueInfoProto[];
}

export interface ModelProto {
	irVersion: number;
	producerName: string;
	producerVersion?: string;
	opsetImport: { domain: string; version: number }[];
	graph: GraphProto;
}

/** The schema: message name → field name → [id, type, rule?]. */
const MESSAGES: Record<string, Record<string, [number, string, 'repeated'?]>> = {
	ModelProto: {
		irVersion: [1, 'int64'],
		producerName: [2, 'string'],
		producerVersion: [3, 'string'],
		domain: [4, 'string'],
		modelVersion: [5, 'int64'],
		docString: [6, 'string'],
		graph: [7, 'GraphProto'],
		opsetImport: [8, 'OperatorSetIdProto', 'repeated'],
	},
	OperatorSetIdProto: {
		domain: [1, 'string'],
		version: [2, 'int64'],
	},
	GraphProto: {
		node: [1, 'NodeProto', 'repeated'],
		name: [2, 'string'],
		initializer: [5, 'TensorProto', 'repeated'],
		docString: [10, 'string'],
		input: [11, 'ValueInfoProto', 'repeated'],
		output: [12, 'ValueInfoProto', 'repeated'],
		valueInfo: [13, 'ValueInfoProto', 'repeated'],
	},
	NodeProto: {
		input: [1, 'string', 'repeated'],
		output: [2, 'string', 'repeated'],
		name: [3, 'string'],
		opType: [4, 'string'],
		attribute: [5, 'AttributeProto', 'repeated'],
		docString: [6, 'string'],
		domain: [7, 'string'],
	},
	AttributeProto: {
		name: [1, 'string'],
		f: [2, 'float'],
		i: [3, 'int64'],
		s: [4, 'bytes'],
		t: [5, 'TensorProto'],
		floats: [7, 'float', 'repeated'],
		ints: [8, 'int64', 'repeated'],
		docString: [13, 'string'],
		type: [20, 'int32'],
	},
	TensorProto: {
		dims: [1, 'int64', 'repeated'],
		dataType: [2, 'int32'],
		floatData: [4, 'float', 'repeated'],
		int32Data: [5, 'int32', 'repeated'],
		int64Data: [7, 'int64', 'repeated'],
		name: [8, 'string'],
		rawData: [9, 'bytes'],
		docString: [12, 'string'],
	},
	ValueInfoProto: {
		name: [1, 'string'],
		type: [2, 'TypeProto'],
		docString: [3, 'string'],
	},
	TypeProto: {
		tensorType: [1, 'TypeTensor'],
	},
	TypeTensor: {
		elemType: [1, 'int32'],
		shape: [2, 'TensorShapeProto'],
	},
	TensorShapeProto: {
		dim: [1, 'Dimension', 'repeated'],
	},
	Dimension: {
		dimValue: [1, 'int64'],
		dimParam: [2, 'string'],
	},
};

function buildRoot(): protobuf.Root {
	const root = new protobuf.Root();
	const ns = root.define('onnx');
	for (const [name, fields] of Object.entries(MESSAGES)) {
		const type = new protobuf.Type(name);
		for (const [field, [id, kind, rule]] of Object.entries(fields)) {
			type.add(new protobuf.Field(field, id, kind, rule));
		}
		ns.add(type);
	}
	root.resolveAll();
	return root;
}

const root = buildRoot();
const Model = root.lookupType('onnx.ModelProto');

/** The model's bytes (protobuf wire format). */
export function encodeModel(model: ModelProto): Uint8Array {
	return Model.encode(Model.fromObject(model)).finish();
}

/** A model read back; int64 fields as numbers (every value here is below 2^53). */
export function decodeModel(bytes: Uint8Array): ModelProto {
	return Model.toObject(Model.decode(bytes), {
		longs: Number,
		defaults: false,
		arrays: true,
	}) as ModelProto;
}

/** A ValueInfoProto for a tensor of `elemType` with `dims`. */
export function tensorValueInfo(
	name: string,
	elemType: number,
	dims: readonly Dim[],
): ValueInfoProto {
	return {
		name,
		type: {
			tensorType: {
				elemType,
				shape: {
					dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
				},
			},
		},
	};
}
