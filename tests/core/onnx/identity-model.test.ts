// The identity model's bytes: a ModelProto with IR 8, opset 13 and one Identity node x → y.
import { describe, expect, it } from 'vitest';
import {
	IDENTITY_MODEL_INPUT,
	IDENTITY_MODEL_OUTPUT,
	identityModelBytes,
} from '../../../src/core/onnx/identity-model';
import { readFields, readString, type WireField } from '../../../src/core/onnx/protobuf-wire';

const only = (fields: WireField[], number: number): WireField[] =>
	fields.filter((field) => field.field === number);
const inside = (bytes: Uint8Array, field: WireField | undefined): WireField[] =>
	field ? readFields(bytes, field.valueStart, field.valueEnd) : [];

describe('identityModelBytes', () => {
	const bytes = identityModelBytes();
	const model = readFields(bytes);

	it('IR version 8 and the default opset 13', () => {
		expect(only(model, 1).map((field) => field.varint)).toEqual([8]);
		const opset = inside(bytes, only(model, 8)[0]);
		expect(only(opset, 1)).toEqual([]); // default domain: no domain string
		expect(only(opset, 2).map((field) => field.varint)).toEqual([13]);
	});

	it('one Identity node from the input to the output, both float32 [1]', () => {
		const graph = inside(bytes, only(model, 7)[0]);
		const nodes = only(graph, 1).map((node) => inside(bytes, node));
		expect(nodes).toHaveLength(1);
		const node = nodes[0] ?? [];
		const strings = (number: number) => only(node, number).map((f) => readString(bytes, f));
		expect([strings(1), strings(2), strings(4)]).toEqual([
			[IDENTITY_MODEL_INPUT],
			[IDENTITY_MODEL_OUTPUT],
			['Identity'],
		]);
		for (const [number, name] of [
			[11, IDENTITY_MODEL_INPUT],
			[12, IDENTITY_MODEL_OUTPUT],
		] as const) {
			const [valueInfo] = only(graph, number).map((field) => inside(bytes, field));
			expect(only(valueInfo ?? [], 1).map((f) => readString(bytes, f))).toEqual([name]);
			const tensorType = inside(bytes, only(inside(bytes, only(valueInfo ?? [], 2)[0]), 1)[0]);
			expect(only(tensorType, 1).map((f) => f.varint)).toEqual([1]); // float32
			const dims = only(inside(bytes, only(tensorType, 2)[0]), 1).map((dim) =>
				only(inside(bytes, dim), 1).map((f) => f.varint),
			);
			expect(dims).toEqual([[1]]);
		}
	});

	it('a fresh copy each call', () => {
		const again = identityModelBytes();
		expect(again).toEqual(bytes);
		expect(again).not.toBe(bytes);
	});
});
