// The FastGelu graphs fuseTanhGelu writes are real models: onnxruntime (Node, the CPU kernels
// the browser's WASM build shares) runs them and gives the unfused graph's outputs.
import { describe, expect, it } from 'vitest';
import { fuseTanhGelu } from '../../src/core/onnx/fuse-gelu';
import { createNodeOrtRuntime } from '../../src/worker/ort-node';
import { geluModel, nodesOf, WIDTH, type Grouping } from '../core/onnx/gelu-model';

/** y for a fixed input, from onnxruntime-node (CPU). */
async function runModel(model: Uint8Array, inputName: string): Promise<Float32Array> {
	const runtime = createNodeOrtRuntime(1);
	const session = await runtime.InferenceSession.create(model, { executionProviders: ['cpu'] });
	const x = Float32Array.from({ length: 2 * 3 * WIDTH }, (_, i) => (i - 12) / 3);
	const out = await session.run({ [inputName]: new runtime.Tensor('float32', x, [2, 3, WIDTH]) });
	await session.release();
	return out['y']?.data as Float32Array;
}

function maxRelativeDifference(a: Float32Array, b: Float32Array): number {
	expect(a.length).toBe(b.length);
	return Math.max(
		...Array.from(a, (v, i) => Math.abs(v - (b[i] ?? NaN)) / Math.max(1, Math.abs(v))),
	);
}

describe('fuseTanhGelu on onnxruntime', () => {
	it.each<Grouping>(['exported', 'pow', 'half-x-first', 'half-tanh-first'])(
		'the %s grouping gives the unfused outputs (relative ≤ 1e-6)',
		async (grouping) => {
			const model = geluModel({ grouping });
			const fused = fuseTanhGelu(model);
			expect(nodesOf(fused.bytes).map((n) => n.op)).toEqual(['MatMul', 'FastGelu']);
			const difference = maxRelativeDifference(
				await runModel(model, 'h'),
				await runModel(fused.bytes, 'h'),
			);
			expect(difference).toBeLessThanOrEqual(1e-6);
		},
	);

	it('without a bias Add too', async () => {
		const model = geluModel({ bias: false });
		const fused = fuseTanhGelu(model);
		expect(fused.fusedCount).toBe(1);
		const difference = maxRelativeDifference(
			await runModel(model, 'x'),
			await runModel(fused.bytes, 'x'),
		);
		expect(difference).toBeLessThanOrEqual(1e-6);
	});
});
