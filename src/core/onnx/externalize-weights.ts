/**
 * Moves a model's large initializers out of its graph without copying them: each top-level
 * initializer whose `raw_data` is at least `minBytes` long becomes an external-data reference
 * (location, offset, length) into the ORIGINAL model bytes, which the runtime then receives as
 * that external file. The graph left is small (names, shapes, nodes), so rewriting it (the
 * log-prob tail, the GELU fusion) no longer copies the weights, and onnxruntime-web copies each
 * weight once, from the caller's bytes straight into its tensor, where an inline model is first
 * copied whole into the WASM heap and parsed there. Splices protobuf bytes; never decodes
 * weights. Pure.
 */
import {
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	WIRE_LEN,
	WIRE_VARINT,
	type WireField,
} from './protobuf-wire';
import { GRAPH_INITIALIZER, readGraphFields, TENSOR_RAW_DATA, withGraphParts } from './onnx-proto';

/** TensorProto fields (onnx.proto3). */
const TENSOR_EXTERNAL_DATA = 13;
const TENSOR_DATA_LOCATION = 14;
const DATA_LOCATION_EXTERNAL = 1;
/** StringStringEntryProto fields. */
const ENTRY_KEY = 1;
const ENTRY_VALUE = 2;

/** Initializers smaller than this stay in the graph: scalars and shapes that graph rewrites and
 * the runtime's optimizers read, where the weights are megabytes. onnx's own external-data
 * writer uses the same threshold. */
export const EXTERNALIZE_MIN_BYTES = 1024;

export interface ExternalizedWeights {
	/** The model with the large initializers' data referring to `location`. */
	readonly graphBytes: Uint8Array;
	/** How many initializers now refer to `location`, and their bytes. */
	readonly externalizedCount: number;
	readonly externalizedBytes: number;
}

function entry(key: string, value: string): Uint8Array {
	return encodeMessageField(TENSOR_EXTERNAL_DATA, [
		encodeStringField(ENTRY_KEY, key),
		encodeStringField(ENTRY_VALUE, value),
	]);
}

/** The initializer (payload fields) rewritten to refer to `location`, or undefined to keep it. */
function externalTensor(
	model: Uint8Array,
	tensorFields: readonly WireField[],
	location: string,
	minBytes: number,
): Uint8Array | undefined {
	const raw = tensorFields.filter((f) => f.field === TENSOR_RAW_DATA && f.wireType === WIRE_LEN);
	// Already external, or data in typed fields (float_data...), or a repeated raw_data (the
	// last would win): left as it is.
	const alreadyExternal = tensorFields.some(
		(f) =>
			f.field === TENSOR_EXTERNAL_DATA ||
			(f.field === TENSOR_DATA_LOCATION && f.wireType === WIRE_VARINT && f.varint !== 0),
	);
	const only = raw.length === 1 ? raw[0] : undefined;
	if (!only || alreadyExternal) return undefined;
	const length = only.valueEnd - only.valueStart;
	if (length < minBytes) return undefined;
	return encodeMessageField(GRAPH_INITIALIZER, [
		...tensorFields
			.filter((f) => f !== only && f.field !== TENSOR_DATA_LOCATION)
			.map((f) => model.subarray(f.start, f.end)),
		entry('location', location),
		entry('offset', String(only.valueStart)),
		entry('length', String(length)),
		encodeVarintField(TENSOR_DATA_LOCATION, DATA_LOCATION_EXTERNAL),
	]);
}

/**
 * `model` with every top-level initializer of at least `minBytes` of raw data referring to the
 * external file `location`, which must then be given the runtime as `model` itself (offsets are
 * into it). Undefined when `model` is not a ModelProto with a graph, or nothing was moved.
 */
export function externalizeWeights(
	model: Uint8Array,
	location: string,
	minBytes = EXTERNALIZE_MIN_BYTES,
): ExternalizedWeights | undefined {
	const read = readGraphFields(model);
	if (!read) return undefined;
	const { modelFields, graph, graphFields } = read;
	let externalizedCount = 0;
	let externalizedBytes = 0;
	const graphParts: Uint8Array[] = [];
	for (const f of graphFields) {
		let rewritten: Uint8Array | undefined;
		if (f.field === GRAPH_INITIALIZER && f.wireType === WIRE_LEN) {
			let tensorFields: WireField[] | undefined;
			try {
				tensorFields = readFields(model, f.valueStart, f.valueEnd);
			} catch {
				tensorFields = undefined;
			}
			if (tensorFields) rewritten = externalTensor(model, tensorFields, location, minBytes);
			if (rewritten) {
				externalizedCount++;
				const raw = tensorFields?.find((t) => t.field === TENSOR_RAW_DATA);
				externalizedBytes += raw ? raw.valueEnd - raw.valueStart : 0;
			}
		}
		graphParts.push(rewritten ?? model.subarray(f.start, f.end));
	}
	if (externalizedCount === 0) return undefined;
	return {
		graphBytes: withGraphParts(model, modelFields, graph, graphParts),
		externalizedCount,
		externalizedBytes,
	};
}
