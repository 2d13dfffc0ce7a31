/**
 * The smallest ONNX model onnxruntime accepts: one float32 input `x` of shape [1] and its
 * Identity `y` (IR 8, default opset 13). Creating a session from it starts the runtime (in the
 * browser: downloads and compiles onnxruntime's wasm, starts its threads) before a real model's
 * bytes are there. Pure; encoded with the wire helpers.
 */
import {
	concatBytes,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
} from './protobuf-wire';

// onnx.proto3 field numbers.
const MODEL_IR_VERSION = 1;
const MODEL_GRAPH = 7;
const MODEL_OPSET_IMPORT = 8;
const OPSET_VERSION = 2;
const GRAPH_NODE = 1;
const GRAPH_NAME = 2;
const GRAPH_INPUT = 11;
const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const VALUE_INFO_NAME = 1;
const VALUE_INFO_TYPE = 2;
const TYPE_TENSOR = 1;
const TENSOR_TYPE_ELEM = 1;
const TENSOR_TYPE_SHAPE = 2;
const SHAPE_DIM = 1;
const DIM_VALUE = 1;
const ELEM_FLOAT = 1;

/** Name of the identity model's input and output. */
export const IDENTITY_MODEL_INPUT = 'x';
export const IDENTITY_MODEL_OUTPUT = 'y';

function floatVector(name: string): Uint8Array {
	return concatBytes([
		encodeStringField(VALUE_INFO_NAME, name),
		encodeMessageField(VALUE_INFO_TYPE, [
			encodeMessageField(TYPE_TENSOR, [
				encodeVarintField(TENSOR_TYPE_ELEM, ELEM_FLOAT),
				encodeMessageField(TENSOR_TYPE_SHAPE, [
					encodeMessageField(SHAPE_DIM, [encodeVarintField(DIM_VALUE, 1)]),
				]),
			]),
		]),
	]);
}

/** The model's bytes (a fresh copy each call; 70-odd bytes). */
export function identityModelBytes(): Uint8Array {
	return concatBytes([
		encodeVarintField(MODEL_IR_VERSION, 8),
		encodeMessageField(MODEL_GRAPH, [
			encodeMessageField(GRAPH_NODE, [
				encodeStringField(NODE_INPUT, IDENTITY_MODEL_INPUT),
				encodeStringField(NODE_OUTPUT, IDENTITY_MODEL_OUTPUT),
				encodeStringField(NODE_OP_TYPE, 'Identity'),
			]),
			encodeStringField(GRAPH_NAME, 'benchtop_identity'),
			encodeMessageField(GRAPH_INPUT, [floatVector(IDENTITY_MODEL_INPUT)]),
			encodeMessageField(GRAPH_OUTPUT, [floatVector(IDENTITY_MODEL_OUTPUT)]),
		]),
		encodeMessageField(MODEL_OPSET_IMPORT, [encodeVarintField(OPSET_VERSION, 13)]),
	]);
}
