// gatherOutputRows on hand-made output layers (float32 and the q8 exporters' form) and on the
// bundled model: where the rows gather goes, and every graph it must refuse
// (tests/worker/output-rows-runs.test.ts runs the rewritten bundled model on onnxruntime).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
	gatherOutputRows,
	OUTPUT_ROWS_INPUT_NAME,
} from '../../../src/core/onnx/gather-output-rows';
import { node, valueInfo } from '../../../src/core/onnx/onnx-proto';
import {
	concatBytes,
	encodeBytesField,
	encodeMessageField,
	encodeStringField,
	encodeVarintField,
	readFields,
	readString,
} from '../../../src/core/onnx/protobuf-wire';
import { nodesOf } from './gelu-model';

const ELEM_FLOAT = 1;
const ELEM_UINT8 = 2;
const ELEM_INT64 = 7;

function initializer(name: string, dims: readonly number[], elemType: number): Uint8Array {
	const size = dims.reduce((a, b) => a * b, 1) * (elemType === ELEM_UINT8 ? 1 : 4);
	return encodeMessageField(5, [
		...dims.map((d) => encodeVarintField(1, d)),
		encodeVarintField(2, elemType),
		encodeStringField(8, name),
		encodeBytesField(9, new Uint8Array(size)),
	]);
}

function model(graphParts: readonly Uint8Array[], extraInputs: readonly string[] = []): Uint8Array {
	const graph = encodeMessageField(7, [
		...graphParts,
		encodeStringField(2, 'head'),
		valueInfo(11, 'h', ELEM_FLOAT, ['batch', 'sequence', 4]),
		...extraInputs.map((name) => valueInfo(11, name, ELEM_FLOAT, [1])),
		valueInfo(12, 'logits', ELEM_FLOAT, ['batch', 'sequence', 6]),
	]);
	return concatBytes([
		encodeVarintField(1, 8),
		graph,
		encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, 17)]),
	]);
}

/** logits = MatMul(h, W) + b: GPT-2's float32 output layer with a bias. */
const floatHead = (): Uint8Array =>
	model([
		node('MatMul', ['h', 'w'], 'product'),
		node('Add', ['product', 'b'], 'logits'),
		initializer('w', [4, 6], ELEM_FLOAT),
		initializer('b', [6], ELEM_FLOAT),
	]);

/** The q8 exporters' output layer: quantize h, MatMulInteger, Cast, Mul by the scales. */
const quantizedHead = (): Uint8Array =>
	model([
		node('DynamicQuantizeLinear', ['h'], ['h_q', 'h_scale', 'h_zero']),
		node('MatMulInteger', ['h_q', 'w_q', 'h_zero', 'w_zero'], 'product_i32'),
		node('Cast', ['product_i32'], 'product_f32', [
			encodeMessageField(5, [
				encodeStringField(1, 'to'),
				encodeVarintField(3, ELEM_FLOAT),
				encodeVarintField(20, 2),
			]),
		]),
		node('Mul', ['h_scale', 'w_scale'], 'scales'),
		node('Mul', ['product_f32', 'scales'], 'scaled'),
		node('Identity', ['scaled'], 'logits'),
		initializer('w_q', [4, 6], ELEM_UINT8),
		initializer('w_zero', [], ELEM_UINT8),
		initializer('w_scale', [], ELEM_FLOAT),
	]);

function graphInputs(bytes: Uint8Array): { name: string; elemType: number }[] {
	const graph = readFields(bytes).find((f) => f.field === 7)!;
	return readFields(bytes, graph.valueStart, graph.valueEnd)
		.filter((f) => f.field === 11)
		.map((f) => {
			const fields = readFields(bytes, f.valueStart, f.valueEnd);
			const name = readString(
				bytes,
				fields.find((x) => x.field === 1)!,
			);
			const type = fields.find((x) => x.field === 2)!;
			const tensor = readFields(bytes, type.valueStart, type.valueEnd)[0]!;
			const elem = readFields(bytes, tensor.valueStart, tensor.valueEnd).find((x) => x.field === 1);
			return { name, elemType: elem?.varint ?? 0 };
		});
}

describe('gatherOutputRows', () => {
	it('gathers the fed rows of the flattened hidden states before a float32 output layer', () => {
		const result = gatherOutputRows(floatHead());
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.outputLayerOp).toBe('MatMul');
		expect(
			nodesOf(result.bytes).map(({ op, inputs, outputs }) => ({ op, inputs, outputs })),
		).toEqual([
			{ op: 'Flatten', inputs: ['h'], outputs: ['benchtop_output_rows_flat'] },
			{
				op: 'Gather',
				inputs: ['benchtop_output_rows_flat', OUTPUT_ROWS_INPUT_NAME],
				outputs: ['benchtop_output_rows_hidden'],
			},
			{ op: 'MatMul', inputs: ['benchtop_output_rows_hidden', 'w'], outputs: ['product'] },
			{ op: 'Add', inputs: ['product', 'b'], outputs: ['logits'] },
		]);
		expect(graphInputs(result.bytes)).toEqual([
			{ name: 'h', elemType: ELEM_FLOAT },
			{ name: OUTPUT_ROWS_INPUT_NAME, elemType: ELEM_INT64 },
		]);
	});

	it('gathers after the q8 quantization of the hidden states, so its scale is the full pass’s', () => {
		const result = gatherOutputRows(quantizedHead());
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.outputLayerOp).toBe('MatMulInteger');
		const nodes = nodesOf(result.bytes);
		expect(nodes.map((n) => n.op)).toEqual([
			'DynamicQuantizeLinear',
			'Flatten',
			'Gather',
			'MatMulInteger',
			'Cast',
			'Mul',
			'Mul',
			'Identity',
		]);
		expect(nodes[1]?.inputs).toEqual(['h_q']);
		expect(nodes[3]?.inputs).toEqual(['benchtop_output_rows_hidden', 'w_q', 'h_zero', 'w_zero']);
	});

	it('finds the bundled model’s output layer, float32 and q8', async () => {
		const dir = new URL('../../../public/models/gpt2-en-small/onnx/', import.meta.url);
		for (const [file, op] of [
			['model.onnx', 'MatMul'],
			['model_quantized.onnx', 'MatMulInteger'],
		] as const) {
			const result = gatherOutputRows(new Uint8Array(await readFile(new URL(file, dir))));
			expect(result.ok && result.outputLayerOp).toBe(op);
		}
	});

	it.each<[string, () => Uint8Array, RegExp]>([
		['bytes that are no model', () => Uint8Array.of(0xff, 0xff, 0xff), /not an ONNX model/],
		[
			'a node whose bytes are broken (a length past its end)',
			() => model([encodeMessageField(1, [Uint8Array.of(0x0a, 0x7f, 0x61)])]),
			/not an ONNX model/,
		],
		[
			'logits that no node writes',
			() => model([node('MatMul', ['h', 'w'], 'other'), initializer('w', [4, 6], ELEM_FLOAT)]),
			/no output layer/,
		],
		[
			'logits scaled by a value fed per run (it may differ per position)',
			() =>
				model(
					[
						node('MatMul', ['h', 'w'], 'product'),
						node('Mul', ['product', 'temperature'], 'logits'),
						initializer('w', [4, 6], ELEM_FLOAT),
					],
					['temperature'],
				),
			/no output layer/,
		],
		[
			'logits through an op that mixes positions or classes (Softmax)',
			() =>
				model([
					node('MatMul', ['h', 'w'], 'product'),
					node('Softmax', ['product'], 'logits'),
					initializer('w', [4, 6], ELEM_FLOAT),
				]),
			/no output layer/,
		],
		[
			'a product of two activations (no weight)',
			() => model([node('MatMul', ['h', 'h'], 'logits')]),
			/no output layer/,
		],
		[
			'a value on the path read by another node',
			() =>
				model([
					node('MatMul', ['h', 'w'], 'product'),
					node('Add', ['product', 'b'], 'logits'),
					node('Relu', ['product'], 'elsewhere'),
					initializer('w', [4, 6], ELEM_FLOAT),
					initializer('b', [6], ELEM_FLOAT),
				]),
			/'product' is also read outside the output layer/,
		],
		[
			'a graph that already takes the rows input',
			() =>
				model(
					[node('MatMul', ['h', 'w'], 'logits'), initializer('w', [4, 6], ELEM_FLOAT)],
					[OUTPUT_ROWS_INPUT_NAME],
				),
			/already has an input named benchtop_output_rows/,
		],
		[
			'a graph with an If node (its branches could read any value)',
			() =>
				model([
					node('MatMul', ['h', 'w'], 'logits'),
					node('If', ['h'], 'branch'),
					initializer('w', [4, 6], ELEM_FLOAT),
				]),
			/subgraphs/,
		],
	])('refuses %s', (_, build, reason) => {
		const result = gatherOutputRows(build());
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(reason);
	});

	it('refuses a graph whose logits are not among its outputs', () => {
		const bytes = model([
			node('MatMul', ['h', 'w'], 'logits'),
			initializer('w', [4, 6], ELEM_FLOAT),
		]);
		const graph = readFields(bytes).find((f) => f.field === 7)!;
		const parts = readFields(bytes, graph.valueStart, graph.valueEnd)
			.filter((f) => f.field !== 12)
			.map((f) => bytes.subarray(f.start, f.end));
		const withoutOutputs = concatBytes([
			encodeVarintField(1, 8),
			encodeMessageField(7, parts),
			encodeMessageField(8, [encodeStringField(1, ''), encodeVarintField(2, 17)]),
		]);
		const result = gatherOutputRows(withoutOutputs);
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.reason).toMatch(/no output 'logits'/);
	});
});
