/**
 * The smallest ONNX model onnxruntime accepts: one float32 input `x` of shape [1] and its
 * Identity `y` (IR 8, default opset 13). Creating a session from it starts the runtime (in the
 * browser: downloads and compiles onnxruntime's wasm, starts its threads) before a real model's
 * bytes are there. Pure.
 */
import {
	ELEM_FLOAT,
	GRAPH_INPUT,
	GRAPH_OUTPUT,
	MODEL_GRAPH,
	MODEL_OPSET_IMPORT,
	OPSET_VERSION,
	node,
	valueInfo,
} from './onnx-proto';
import {
	concatBytes,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
} from './protobuf-wire';

const MODEL_IR_VERSION = 1;
const GRAPH_NAME = 2;

/** Name of the identity model's input and output. */
export const IDENTITY_MODEL_INPUT = 'x';
export const IDENTITY_MODEL_OUTPUT = 'y';

/** The model's bytes (a fresh copy each call; 87 bytes). */
export function identityModelBytes(): Uint8Array {
	return concatBytes([
		encodeVarintField(MODEL_IR_VERSION, 8),
		encodeMessageField(MODEL_GRAPH, [
			node('Identity', [IDENTITY_MODEL_INPUT], IDENTITY_MODEL_OUTPUT),
			encodeStringField(GRAPH_NAME, 'benchtop_identity'),
			valueInfo(GRAPH_INPUT, IDENTITY_MODEL_INPUT, ELEM_FLOAT, [1]),
			valueInfo(GRAPH_OUTPUT, IDENTITY_MODEL_OUTPUT, ELEM_FLOAT, [1]),
		]),
		encodeMessageField(MODEL_OPSET_IMPORT, [encodeVarintField(OPSET_VERSION, 13)]),
	]);
}
