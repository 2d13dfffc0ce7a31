// A model whose weights externalizeWeights moved out of the graph is the same model: the
// browser's onnxruntime (onnxruntime-web's WASM build, here in Node) given the original bytes as
// the external file returns exactly the inline model's logits, float32 and q8.
import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { externalizeWeights } from '../../src/core/onnx/externalize-weights';

const MODELS = new URL('../../public/models/gpt2-en-small/onnx/', import.meta.url);
const LOCATION = 'weights-under-test';

ort.env.wasm.numThreads = 1;

async function logits(model: Uint8Array, externalData?: Uint8Array): Promise<Float32Array> {
	const session = await ort.InferenceSession.create(model, {
		executionProviders: ['wasm'],
		graphOptimizationLevel: 'all',
		...(externalData ? { externalData: [{ path: LOCATION, data: externalData }] } : {}),
	});
	const [batch, length] = [2, 5];
	const ids = BigInt64Array.from({ length: batch * length }, (_, i) => BigInt((i * 977) % 8000));
	const feeds: Record<string, ort.Tensor> = {};
	for (const name of session.inputNames) {
		if (name.startsWith('past_key_values')) {
			const meta = session.inputMetadata.find((m) => m.name === name);
			const shape = meta && 'shape' in meta ? meta.shape : [];
			const heads = typeof shape[1] === 'number' ? shape[1] : 4;
			const size = typeof shape[3] === 'number' ? shape[3] : 64;
			feeds[name] = new ort.Tensor('float32', new Float32Array(0), [batch, heads, 0, size]);
		} else if (name === 'position_ids') {
			const positions = BigInt64Array.from({ length: batch * length }, (_, i) =>
				BigInt(i % length),
			);
			feeds[name] = new ort.Tensor('int64', positions, [batch, length]);
		} else if (name === 'attention_mask') {
			feeds[name] = new ort.Tensor('int64', new BigInt64Array(batch * length).fill(1n), [
				batch,
				length,
			]);
		} else {
			feeds[name] = new ort.Tensor('int64', ids, [batch, length]);
		}
	}
	const out = await session.run(feeds, ['logits']);
	await session.release();
	return out['logits']?.data as Float32Array;
}

describe('externalized weights on onnxruntime-web', () => {
	it.each(['model.onnx', 'model_quantized.onnx'])(
		'%s gives the inline model’s logits exactly',
		async (file) => {
			const bytes = new Uint8Array(await readFile(new URL(file, MODELS)));
			const moved = externalizeWeights(bytes, LOCATION);
			expect(moved).toBeDefined();
			if (!moved) return;
			// Nearly all of the file is weights, and the graph left is small.
			expect(moved.externalizedBytes / bytes.length).toBeGreaterThan(0.95);
			expect(moved.graphBytes.length).toBeLessThan(bytes.length / 20);
			const inline = await logits(bytes);
			const external = await logits(moved.graphBytes, bytes);
			expect(inline.length).toBeGreaterThan(0);
			expect(external).toEqual(inline);
		},
		60_000,
	);

	it('a reference past the end of the external file fails the load, not silently', async () => {
		const bytes = new Uint8Array(await readFile(new URL('model.onnx', MODELS)));
		const moved = externalizeWeights(bytes, LOCATION);
		expect(moved).toBeDefined();
		if (!moved) return;
		// The external file handed over is shorter than the references say.
		await expect(logits(moved.graphBytes, bytes.subarray(0, bytes.length >> 1))).rejects.toThrow();
	}, 60_000);
});
