// The identity model is a real ONNX model: onnxruntime (Node, the same runtime family as the
// browser's) creates a session from it and returns its input unchanged.
import { describe, expect, it } from 'vitest';
import {
	IDENTITY_MODEL_INPUT,
	IDENTITY_MODEL_OUTPUT,
	identityModelBytes,
} from '../../src/core/onnx/identity-model';
import { createNodeOrtRuntime } from '../../src/worker/ort-node';

describe('identity model on onnxruntime', () => {
	it('loads and returns x as y', async () => {
		const runtime = createNodeOrtRuntime(1);
		const session = await runtime.InferenceSession.create(identityModelBytes(), {
			executionProviders: ['cpu'],
		});
		expect([...session.inputNames, ...session.outputNames]).toEqual([
			IDENTITY_MODEL_INPUT,
			IDENTITY_MODEL_OUTPUT,
		]);
		const x = new runtime.Tensor('float32', new Float32Array([3.5]), [1]);
		const out = await session.run({ [IDENTITY_MODEL_INPUT]: x });
		expect([...(out[IDENTITY_MODEL_OUTPUT]?.data as Float32Array)]).toEqual([3.5]);
		await session.release();
	});
});
