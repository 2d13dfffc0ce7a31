import { describe, expect, it } from 'vitest';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../src/worker/fake-engine';
import {
	CancelledError,
	ModelFileMissingError,
	createInThreadClient,
} from '../../src/worker/inference-client';
import type { GenerateProgress, LoadProgress, ScoreProgress } from '../../src/worker/protocol';
import type { ModelSpec } from '../../src/core/model/model-spec';

const SPEC: ModelSpec = { source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' };

describe('createInThreadClient over FakeEngine', () => {
	it('loads, scores with progress, and returns plain results', async () => {
		const client = createInThreadClient(new FakeEngine());
		const loadEvents: LoadProgress[] = [];
		const info = await client.call(
			'loadModel',
			{ spec: SPEC },
			{ onLoadProgress: (p) => loadEvents.push(p) },
		);
		expect(info.spec).toEqual(SPEC);
		expect(loadEvents.map((e) => e.status)).toEqual(['initiate', 'progress', 'done']);
		const scoreEvents: ScoreProgress[] = [];
		const result = await client.call(
			'scoreTexts',
			{ modelKey: info.modelKey, texts: ['a b', 'c'], convention: 'bos', maxBatchSize: 1 },
			{ onScoreProgress: (p) => scoreEvents.push(p) },
		);
		expect(result.texts.map((t) => t.tokens.map((k) => k.token))).toEqual([
			['<s>', 'a', ' b'],
			['<s>', 'c'],
		]);
		expect(scoreEvents.map((e) => e.done)).toEqual([1, 2]);
		client.dispose();
	});

	it('rebuilds named errors so instanceof works', async () => {
		const client = createInThreadClient(new FakeEngine());
		const error = await client
			.call('loadModel', { spec: { ...SPEC, id: 'fake-missing-file' } })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ModelFileMissingError);
		expect((error as Error).message).toContain('onnx/model.onnx');
	});

	it('turns an AbortSignal into a cancel that stops scoring within one batch', async () => {
		const client = createInThreadClient(new FakeEngine({ batchDelayMs: 20 }));
		const { modelKey } = await client.call('loadModel', { spec: SPEC });
		const controller = new AbortController();
		let progressEvents = 0;
		const promise = client.call(
			'scoreTexts',
			{
				modelKey,
				texts: Array.from({ length: 30 }, () => 'w'),
				convention: 'bos',
				maxBatchSize: 3,
			},
			{
				signal: controller.signal,
				onScoreProgress: () => {
					progressEvents++;
					if (progressEvents === 1) controller.abort();
				},
			},
		);
		await expect(promise).rejects.toBeInstanceOf(CancelledError);
		expect(progressEvents).toBeLessThanOrEqual(2);
	});

	it('rejects at once for an already aborted signal and after dispose', async () => {
		const client = createInThreadClient(new FakeEngine({ loadDelayMs: 50 }));
		await expect(
			client.call('loadModel', { spec: SPEC }, { signal: AbortSignal.abort() }),
		).rejects.toBeInstanceOf(CancelledError);
		const pending = client.call('loadModel', { spec: SPEC });
		client.dispose();
		await expect(pending).rejects.toBeInstanceOf(CancelledError);
		await expect(client.call('listCachedModels', {})).rejects.toBeInstanceOf(CancelledError);
	});

	it('streams generated text to onToken and resolves with the whole completion', async () => {
		const client = createInThreadClient(new FakeEngine());
		const { modelKey } = await client.call('loadModel', { spec: SPEC });
		const tokens: GenerateProgress[] = [];
		const result = await client.call(
			'generate',
			{ modelKey, prompt: { kind: 'text', text: 'Hello' }, params: { temperature: 0 } },
			{ onToken: (p) => tokens.push(p) },
		);
		expect(tokens).toHaveLength(FAKE_GREEDY_TOKENS);
		expect(tokens.map((t) => t.text).join('')).toBe(result.completion);
		expect(result).toMatchObject({
			finishReason: 'stop',
			usage: { completionTokens: FAKE_GREEDY_TOKENS },
		});
		client.dispose();
	});

	it('turns an AbortSignal into a cancel that stops generation within one token step', async () => {
		const client = createInThreadClient(new FakeEngine({ batchDelayMs: 20 }));
		const { modelKey } = await client.call('loadModel', { spec: SPEC });
		const controller = new AbortController();
		let tokens = 0;
		const promise = client.call(
			'generate',
			{ modelKey, prompt: { kind: 'text', text: 'Hello' }, params: { temperature: 0 } },
			{
				signal: controller.signal,
				onToken: () => {
					tokens++;
					if (tokens === 2) controller.abort();
				},
			},
		);
		await expect(promise).rejects.toBeInstanceOf(CancelledError);
		expect(tokens).toBeLessThanOrEqual(3);
		client.dispose();
	});
});
