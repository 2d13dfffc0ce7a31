// externalizeWeights on hand-made ModelProtos (field numbers of onnx.proto): which initializers
// move, that each reference points at its own bytes in the original model, and what is left as
// it is (tests/worker/externalize-weights-runs.test.ts runs a real model both ways).
import { describe, expect, it } from 'vitest';
import {
	EXTERNALIZE_MIN_BYTES,
	externalizeWeights,
} from '../../../src/core/onnx/externalize-weights';
import { node } from '../../../src/core/onnx/onnx-proto';
import {
	encodeBytesField,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
	type WireField,
} from '../../../src/core/onnx/protobuf-wire';

const LOCATION = 'weights.bin';

function bytesOf(length: number, seed: number): Uint8Array {
	return Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 251);
}

/** An initializer: dims, float type, name, then `data` as raw_data (or as `extra` fields). */
function initializer(name: string, data: Uint8Array, extra: readonly Uint8Array[] = []) {
	return encodeMessageField(5, [
		encodeVarintField(1, data.length / 4),
		encodeVarintField(2, 1),
		encodeStringField(8, name),
		encodeBytesField(9, data),
		...extra,
	]);
}

function model(graph: readonly Uint8Array[]): Uint8Array {
	const parts = [
		encodeVarintField(1, 8),
		encodeMessageField(7, [node('Identity', ['w'], 'y'), ...graph]),
		encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, 17)]),
	];
	const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
	let offset = 0;
	for (const p of parts) {
		out.set(p, offset);
		offset += p.length;
	}
	return out;
}

interface TensorView {
	readonly name: string;
	readonly raw: Uint8Array | undefined;
	readonly external: Record<string, string>;
	readonly dataLocation: number | undefined;
	readonly dims: number[];
}

function fieldsOf(bytes: Uint8Array, f: WireField) {
	return readFields(bytes, f.valueStart, f.valueEnd);
}

function initializers(bytes: Uint8Array): TensorView[] {
	const graph = readFields(bytes).find((f) => f.field === 7);
	if (!graph) return [];
	return fieldsOf(bytes, graph)
		.filter((f) => f.field === 5)
		.map((f) => {
			const fields = fieldsOf(bytes, f);
			const external: Record<string, string> = {};
			for (const e of fields.filter((t) => t.field === 13)) {
				const [key, value] = fieldsOf(bytes, e);
				if (key && value) external[readString(bytes, key)] = readString(bytes, value);
			}
			const raw = fields.find((t) => t.field === 9);
			const name = fields.find((t) => t.field === 8);
			return {
				name: name ? readString(bytes, name) : '',
				raw: raw ? bytes.subarray(raw.valueStart, raw.valueEnd) : undefined,
				external,
				dataLocation: fields.find((t) => t.field === 14)?.varint,
				dims: fields.filter((t) => t.field === 1).map((t) => t.varint),
			};
		});
}

describe('externalizeWeights', () => {
	it('moves each large initializer to a reference into the original bytes; small ones stay', () => {
		const big = bytesOf(4096, 1);
		const other = bytesOf(EXTERNALIZE_MIN_BYTES, 2);
		const small = bytesOf(8, 3);
		const original = model([
			initializer('w', big),
			initializer('b', small),
			initializer('v', other),
		]);
		const result = externalizeWeights(original, LOCATION);
		expect(result).toBeDefined();
		if (!result) return;
		expect(result.externalizedCount).toBe(2);
		expect(result.externalizedBytes).toBe(4096 + EXTERNALIZE_MIN_BYTES);
		expect(result.graphBytes.length).toBeLessThan(original.length - 4096);
		const [w, b, v] = initializers(result.graphBytes);
		for (const [tensor, data] of [
			[w, big],
			[v, other],
		] as const) {
			expect(tensor?.raw).toBeUndefined();
			expect(tensor?.dataLocation).toBe(1);
			expect(tensor?.external.location).toBe(LOCATION);
			const offset = Number(tensor?.external.offset);
			const length = Number(tensor?.external.length);
			expect(length).toBe(data.length);
			// The reference reads the tensor's own data out of the ORIGINAL model's bytes.
			expect(original.subarray(offset, offset + length)).toEqual(data);
			expect(tensor?.dims).toEqual([data.length / 4]);
		}
		expect(w?.name).toBe('w');
		expect(b).toMatchObject({ name: 'b', raw: small, external: {}, dataLocation: undefined });
		// Nodes and the opset import are carried over.
		const graph = readFields(result.graphBytes).find((f) => f.field === 7);
		expect(graph && fieldsOf(result.graphBytes, graph).filter((f) => f.field === 1)).toHaveLength(
			1,
		);
		expect(readFields(result.graphBytes).map((f) => f.field)).toEqual([1, 7, 8]);
	});

	it('leaves alone what is already external, typed data, and a doubled raw_data', () => {
		const alreadyExternal = initializer('e', bytesOf(0, 0), [
			encodeMessageField(13, [encodeStringField(1, 'location'), encodeStringField(2, 'x.data')]),
			encodeVarintField(14, 1),
		]);
		const typed = encodeMessageField(5, [
			encodeVarintField(1, 2048),
			encodeVarintField(2, 7),
			encodeStringField(8, 't'),
			encodeBytesField(7, bytesOf(4096, 4)),
		]);
		const doubled = initializer('d', bytesOf(2048, 5), [encodeBytesField(9, bytesOf(2048, 6))]);
		expect(externalizeWeights(model([alreadyExternal, typed, doubled]), LOCATION)).toBeUndefined();
	});

	it('returns undefined when nothing is large enough', () => {
		expect(externalizeWeights(model([initializer('b', bytesOf(16, 1))]), LOCATION)).toBeUndefined();
	});

	it('returns undefined for bytes that are not a model, or a model that overruns itself', () => {
		expect(externalizeWeights(Uint8Array.of(0xff, 0xff, 0xff), LOCATION)).toBeUndefined();
		expect(externalizeWeights(new Uint8Array(0), LOCATION)).toBeUndefined();
		const whole = model([initializer('w', bytesOf(4096, 1))]);
		// Cut inside the weight: the graph's declared length runs past the end.
		expect(externalizeWeights(whole.subarray(0, whole.length - 100), LOCATION)).toBeUndefined();
	});

	it('takes a smaller threshold when asked', () => {
		const result = externalizeWeights(model([initializer('b', bytesOf(16, 1))]), LOCATION, 16);
		expect(result?.externalizedCount).toBe(1);
	});
});
