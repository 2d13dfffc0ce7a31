import { describe, expect, it } from 'vitest';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../src/worker/fake-engine';
import { createRequestHandler } from '../../src/worker/handler';
import type { InferenceEngine } from '../../src/worker/engine';
import type { WorkerEvent, WorkerRequest } from '../../src/worker/protocol';
import type { ModelSpec } from '../../src/core/model/model-spec';
import { OutOfMemoryError } from '../../src/worker/engine-errors';

const SPEC: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};

/** Runs requests through a handler and collects the events until every call has ended. */
function harness(engine: InferenceEngine) {
	const events: WorkerEvent[] = [];
	const waiters = new Map<number, (event: WorkerEvent) => void>();
	const handle = createRequestHandler(engine, (event) => {
		events.push(event);
		if ((event.type === 'result' || event.type === 'error') && waiters.has(event.id)) {
			waiters.get(event.id)?.(event);
		}
	});
	return {
		events,
		send(request: WorkerRequest): Promise<WorkerEvent> | undefined {
			if (request.type === 'cancel') {
				handle(request);
				return undefined;
			}
			const ended = new Promise<WorkerEvent>((resolve) => waiters.set(request.id, resolve));
			handle(request);
			return ended;
		},
	};
}

describe('createRequestHandler', () => {
	it('routes each kind to the engine and posts its result under the request id', async () => {
		const h = harness(new FakeEngine());
		const loaded = await h.send({ type: 'call', id: 1, kind: 'loadModel', params: { spec: SPEC } });
		expect(loaded?.type).toBe('result');
		const modelKey =
			loaded?.type === 'result' ? (loaded.result as { modelKey: string }).modelKey : '';
		const scored = await h.send({
			type: 'call',
			id: 2,
			kind: 'scoreTexts',
			params: { modelKey, texts: ['a b'], convention: 'reference' },
		});
		expect(scored).toMatchObject({ type: 'result', id: 2, result: { tokenCount: 2 } });
		const tokenized = await h.send({
			type: 'call',
			id: 3,
			kind: 'tokenize',
			params: { modelKey, text: 'a', convention: 'reference' },
		});
		expect(tokenized).toMatchObject({ type: 'result', id: 3 });
		expect(await h.send({ type: 'call', id: 4, kind: 'listCachedModels', params: {} })).toEqual({
			type: 'result',
			id: 4,
			result: [],
		});
		expect(
			await h.send({ type: 'call', id: 5, kind: 'deleteCachedModel', params: { id: 'x' } }),
		).toEqual({ type: 'result', id: 5, result: { filesDeleted: 0 } });
		expect(
			await h.send({ type: 'call', id: 6, kind: 'disposeModel', params: { modelKey } }),
		).toEqual({ type: 'result', id: 6, result: null });
	});

	it('forwards load and score progress tagged with the request id', async () => {
		const h = harness(new FakeEngine());
		const loaded = await h.send({ type: 'call', id: 7, kind: 'loadModel', params: { spec: SPEC } });
		const modelKey =
			loaded?.type === 'result' ? (loaded.result as { modelKey: string }).modelKey : '';
		await h.send({
			type: 'call',
			id: 8,
			kind: 'scoreTexts',
			params: { modelKey, texts: ['a', 'b', 'c'], convention: 'bos', maxBatchSize: 1 },
		});
		expect(h.events.filter((e) => e.type === 'load-progress').map((e) => e.id)).toEqual([7, 7, 7]);
		const score = h.events.flatMap((e) =>
			e.type === 'score-progress' && e.id === 8 ? [e.progress.done] : [],
		);
		expect(score).toEqual([1, 2, 3]);
	});

	it('cancels a request by id within one batch and reports CancelledError', async () => {
		const h = harness(new FakeEngine({ batchDelayMs: 25 }));
		const loaded = await h.send({ type: 'call', id: 1, kind: 'loadModel', params: { spec: SPEC } });
		const modelKey =
			loaded?.type === 'result' ? (loaded.result as { modelKey: string }).modelKey : '';
		const ended = h.send({
			type: 'call',
			id: 2,
			kind: 'scoreTexts',
			params: {
				modelKey,
				texts: Array.from({ length: 40 }, () => 'x y'),
				convention: 'bos',
				maxBatchSize: 4,
			},
		});
		await new Promise((resolve) => setTimeout(resolve, 60));
		h.send({ type: 'cancel', id: 2 });
		const before = h.events.filter((e) => e.type === 'score-progress').length;
		const end = await ended;
		expect(end).toEqual({
			type: 'error',
			id: 2,
			error: { name: 'CancelledError', message: 'The request was cancelled.' },
		});
		const after = h.events.filter((e) => e.type === 'score-progress').length;
		expect(after - before).toBeLessThanOrEqual(1);
		expect(after).toBeLessThan(10);
	});

	it('serialises thrown errors as plain { name, message }', async () => {
		const failing: InferenceEngine = {
			...new FakeEngine(),
			loadModel: () => Promise.reject(new OutOfMemoryError('wasm heap exhausted')),
			tokenize: () => Promise.reject('a bare string'),
			scoreTexts: () => Promise.reject(new TypeError('bad input')),
			generate: () => Promise.reject(new RangeError('prompt too long')),
			disposeModel: async () => undefined,
			listCachedModels: async () => [],
			deleteCachedModel: async () => ({ filesDeleted: 0 }),
		};
		const h = harness(failing);
		expect(
			await h.send({ type: 'call', id: 1, kind: 'loadModel', params: { spec: SPEC } }),
		).toEqual({
			type: 'error',
			id: 1,
			error: { name: 'OutOfMemoryError', message: 'wasm heap exhausted' },
		});
		expect(
			await h.send({
				type: 'call',
				id: 2,
				kind: 'tokenize',
				params: { modelKey: 'k', text: 'a', convention: 'bos' },
			}),
		).toEqual({ type: 'error', id: 2, error: { name: 'Error', message: 'a bare string' } });
		const scored = await h.send({
			type: 'call',
			id: 3,
			kind: 'scoreTexts',
			params: { modelKey: 'k', texts: [], convention: 'bos' },
		});
		expect(scored).toEqual({
			type: 'error',
			id: 3,
			error: { name: 'TypeError', message: 'bad input' },
		});
		expect(structuredClone(scored)).toEqual(scored);
		expect(
			await h.send({
				type: 'call',
				id: 4,
				kind: 'generate',
				params: { modelKey: 'k', prompt: { kind: 'text', text: 'a' }, params: {} },
			}),
		).toEqual({ type: 'error', id: 4, error: { name: 'RangeError', message: 'prompt too long' } });
	});

	it('streams generate-progress events under the request id; their texts make the completion', async () => {
		const h = harness(new FakeEngine());
		const loaded = await h.send({ type: 'call', id: 1, kind: 'loadModel', params: { spec: SPEC } });
		const modelKey =
			loaded?.type === 'result' ? (loaded.result as { modelKey: string }).modelKey : '';
		const ended = await h.send({
			type: 'call',
			id: 2,
			kind: 'generate',
			params: {
				modelKey,
				prompt: { kind: 'text', text: 'The cat' },
				params: { temperature: 0, max_tokens: 5 },
			},
		});
		const texts = h.events.flatMap((e) =>
			e.type === 'generate-progress' && e.id === 2 ? [e.progress.text] : [],
		);
		expect(texts).toHaveLength(5);
		expect(ended).toMatchObject({
			type: 'result',
			id: 2,
			result: { completion: texts.join(''), finishReason: 'length' },
		});
		expect(h.events.every((e) => e.type !== 'generate-progress' || e.id === 2)).toBe(true);
	});

	it('cancels a generation within one token step and reports CancelledError', async () => {
		const h = harness(new FakeEngine({ batchDelayMs: 30 }));
		const loaded = await h.send({ type: 'call', id: 1, kind: 'loadModel', params: { spec: SPEC } });
		const modelKey =
			loaded?.type === 'result' ? (loaded.result as { modelKey: string }).modelKey : '';
		const ended = h.send({
			type: 'call',
			id: 2,
			kind: 'generate',
			params: { modelKey, prompt: { kind: 'text', text: 'Once' }, params: { temperature: 0 } },
		});
		while (!h.events.some((e) => e.type === 'generate-progress')) {
			await new Promise((resolve) => setTimeout(resolve, 5));
		}
		h.send({ type: 'cancel', id: 2 });
		const before = h.events.filter((e) => e.type === 'generate-progress').length;
		expect(await ended).toMatchObject({ type: 'error', id: 2, error: { name: 'CancelledError' } });
		const after = h.events.filter((e) => e.type === 'generate-progress').length;
		expect(after - before).toBeLessThanOrEqual(1);
		expect(after).toBeLessThan(FAKE_GREEDY_TOKENS);
	});

	it('ignores a cancel for an unknown id', () => {
		const h = harness(new FakeEngine());
		expect(() => h.send({ type: 'cancel', id: 99 })).not.toThrow();
		expect(h.events).toEqual([]);
	});
});
