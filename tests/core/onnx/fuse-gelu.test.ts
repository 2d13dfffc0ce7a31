// fuseTanhGelu on hand-made graphs holding GPT-2's tanh GELU: the nodes it replaces and what it
// refuses (tests/worker/fuse-gelu-runs.test.ts runs the rewritten graphs on onnxruntime).
import { describe, expect, it } from 'vitest';
import { fuseTanhGelu } from '../../../src/core/onnx/fuse-gelu';
import {
	ELEM_FLOAT16,
	geluModel,
	nodesOf,
	opsetDomains,
	type GeluOptions,
	type Grouping,
} from './gelu-model';

describe('fuseTanhGelu', () => {
	it('replaces the exported GELU and its bias Add by one com.microsoft FastGelu', () => {
		const fused = fuseTanhGelu(geluModel());
		expect(fused.fusedCount).toBe(1);
		expect(nodesOf(fused.bytes)).toEqual([
			{ op: 'MatMul', domain: '', inputs: ['h', 'w'], outputs: ['product'] },
			{ op: 'FastGelu', domain: 'com.microsoft', inputs: ['product', 'b'], outputs: ['y'] },
		]);
		expect(opsetDomains(fused.bytes)).toEqual(['', 'com.microsoft']);
	});

	it.each<Grouping>(['pow', 'half-x-first', 'half-tanh-first'])(
		'recognises the %s grouping',
		(grouping) => {
			const fused = fuseTanhGelu(geluModel({ grouping }));
			expect(fused.fusedCount).toBe(1);
			expect(nodesOf(fused.bytes).map((n) => n.op)).toEqual(['MatMul', 'FastGelu']);
		},
	);

	it('takes x alone when no bias Add produces it', () => {
		expect(nodesOf(fuseTanhGelu(geluModel({ bias: false })).bytes)).toEqual([
			{ op: 'FastGelu', domain: 'com.microsoft', inputs: ['x'], outputs: ['y'] },
		]);
	});
	it.each<[string, GeluOptions]>([
		['an inner value is also a graph output', { tanhAsOutput: true }],
		['the cubic coefficient is not 0.044715', { cubic: 0.05 }],
		['the graph has an If node', { ifNode: true }],
		[
			'the constants are float16 (FastGelu runs float32 on the CPU)',
			{ constantType: ELEM_FLOAT16 },
		],
	])('leaves the model as it is when %s', (_, options) => {
		const model = geluModel(options);
		const fused = fuseTanhGelu(model);
		expect(fused.fusedCount).toBe(0);
		expect(fused.bytes).toBe(model);
	});

	it('returns bytes that are not an ONNX model unchanged', () => {
		const garbage = Uint8Array.of(0xff, 0xff, 0xff);
		expect(fuseTanhGelu(garbage)).toEqual({ bytes: garbage, fusedCount: 0 });
	});
});
