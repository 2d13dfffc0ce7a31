// Replay files as a TextModel, and the response cache wrapper (memory store and the CLI's folder).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	generateCompletion,
	type GenerateRequest,
	type GenerationEvent,
	type ModelCall,
	type TextModel,
} from '../../src/core/model/generation';
import { createNodeFileCache } from '../../src/providers/node-file-cache';
import { createReplayModel } from '../../src/providers/replay';
import {
	createMemoryResponseCache,
	withResponseCache,
	type CachedResponse,
	type ResponseCacheStore,
} from '../../src/providers/response-cache';
import { ReplayMissError } from '../../src/core/model/replay-file';

const CALL: ModelCall = { runId: 'r', sampleId: 'a.0', role: 'policy' };
const GREEDY: GenerateRequest = {
	prompt: { kind: 'text', text: 'Hi' },
	params: { temperature: 0 },
};

/** A model that counts its calls and answers `answer-<n>`. */
function countingModel(): TextModel & { calls: number } {
	const model = {
		label: 'counting',
		abilities: { score: false, generate: true, chat: true },
		calls: 0,
		async *generate(): AsyncGenerator<GenerationEvent> {
			model.calls++;
			yield { type: 'token', text: `answer-${model.calls}` };
			yield { type: 'done', completion: `answer-${model.calls}`, finishReason: 'stop' };
		},
		countTokens: () => 1,
	};
	return model;
}

describe('createReplayModel', () => {
	it('answers from the file and names its spec by content hash', async () => {
		const text = '{"sample_id": "a.0", "role": "policy", "completion": " 42"}\n';
		const model = createReplayModel(text, 'run.jsonl');
		expect(model.label).toBe('replay:run.jsonl');
		expect(model.spec.sha256).toMatch(/^[0-9a-f]{64}$/);
		expect((await generateCompletion(model, GREEDY, CALL)).completion).toBe(' 42');
		await expect(
			generateCompletion(model, GREEDY, { ...CALL, sampleId: 'b.0' }),
		).rejects.toBeInstanceOf(ReplayMissError);
	});
});

describe.each<[string, () => Promise<{ store: ResponseCacheStore; done: () => Promise<void> }>]>([
	['memory', async () => ({ store: createMemoryResponseCache(), done: async () => undefined })],
	[
		'folder',
		async () => {
			const dir = await mkdtemp(join(tmpdir(), 'benchtop-cache-'));
			return { store: createNodeFileCache(dir), done: () => rm(dir, { recursive: true }) };
		},
	],
])('withResponseCache (%s store)', (_name, makeStore) => {
	const spec = { source: 'openai', model: 'm', baseUrl: 'http://h/v1' } as const;

	it('answers a repeated greedy call from the cache, and lists, sizes and clears', async () => {
		const { store, done } = await makeStore();
		const inner = countingModel();
		const model = withResponseCache(inner, store, { spec });
		const first = await generateCompletion(model, GREEDY, CALL);
		const second = await generateCompletion(model, GREEDY, { ...CALL, runId: 'a re-run' });
		expect(first).toMatchObject({ completion: 'answer-1' });
		expect(first.cached).toBeUndefined();
		expect(second).toMatchObject({ completion: 'answer-1', cached: true });
		expect(inner.calls).toBe(1);
		// Another sample with the same prompt is asked anew (issue 18: samples never share).
		const other = await generateCompletion(model, GREEDY, { ...CALL, sampleId: 'other' });
		expect(other.completion).toBe('answer-2');
		expect(other.cached).toBeUndefined();
		expect(inner.calls).toBe(2);
		expect(await store.list()).toHaveLength(2);
		expect((await store.size()).entries).toBe(2);
		expect((await store.size()).bytes).toBeGreaterThan(0);
		await store.clear();
		expect((await store.size()).entries).toBe(0);
		await done();
	});

	it('gives a cached answer back with the usage (details too) and the model name the server sent', async () => {
		const { store, done } = await makeStore();
		let calls = 0;
		const live: GenerationEvent = {
			type: 'done',
			completion: ' Paris',
			finishReason: 'stop',
			usage: {
				promptTokens: 12,
				completionTokens: 2,
				completionTokensDetails: { reasoning_tokens: 0, audio_tokens: null },
				promptTokensDetails: { cached_tokens: 8 },
			},
			model: 'm-2026-01-01',
		};
		const inner: TextModel = {
			label: 'openai/m @ http://h/v1',
			abilities: { score: false, generate: true, chat: true },
			async *generate(): AsyncGenerator<GenerationEvent> {
				calls++;
				yield { type: 'token', text: ' Paris' };
				yield live;
			},
			countTokens: () => 1,
		};
		const model = withResponseCache(inner, store, { spec });
		expect(await generateCompletion(model, GREEDY, CALL)).toEqual(live);
		const again = await generateCompletion(model, GREEDY, { ...CALL, runId: 'a re-run' });
		expect(calls).toBe(1);
		expect(again).toEqual({ ...live, cached: true });
		await done();
	});

	it('takes an entry with damaged usage details or model name as a miss', async () => {
		const { store, done } = await makeStore();
		const inner = countingModel();
		const model = withResponseCache(inner, store, { spec });
		await generateCompletion(model, GREEDY, CALL);
		const [entry] = await store.list();
		if (!entry) throw new Error('nothing stored');
		for (const damaged of [
			{ ...entry, usage: { promptTokens: 1, completionTokens: 1, promptTokensDetails: 'x' } },
			{
				...entry,
				usage: { promptTokens: 1, completionTokens: 1, completionTokensDetails: { a: -1 } },
			},
			{ ...entry, servedModel: 42 },
			{ ...entry, servedModel: 'm'.repeat(10_000) },
		]) {
			await store.put(damaged as unknown as CachedResponse);
			const answer = await generateCompletion(model, GREEDY, CALL);
			expect(answer.cached).toBeUndefined();
		}
		await done();
	});

	it('keys sampled calls per sample: a re-run repeats, a new sample samples anew', async () => {
		const { store, done } = await makeStore();
		const inner = countingModel();
		const model = withResponseCache(inner, store, { spec });
		const sampled = { ...GREEDY, params: { temperature: 1 } };
		const a = await generateCompletion(model, sampled, CALL);
		const again = await generateCompletion(model, sampled, CALL);
		const b = await generateCompletion(model, sampled, { ...CALL, sampleId: 'a.1' });
		expect(again.completion).toBe(a.completion);
		expect(b.completion).not.toBe(a.completion);
		expect(inner.calls).toBe(2);
		await done();
	});

	it('takes a damaged or incomplete entry as a miss and stores the complete answer over it', async () => {
		const { store, done } = await makeStore();
		const inner = countingModel();
		const model = withResponseCache(inner, store, { spec });
		await generateCompletion(model, GREEDY, CALL);
		const [entry] = await store.list();
		if (!entry) throw new Error('no entry stored');
		for (const damaged of [
			{ ...entry, finishReason: 'cancelled' },
			{ ...entry, completion: 42 },
			{ ...entry, key: 'another key' },
		]) {
			await store.put({ ...(damaged as unknown as typeof entry), key: entry.key });
			if (damaged.key === 'another key') {
				// A store answering with an entry filed under another key.
				const lying: ResponseCacheStore = { ...store, get: async () => damaged as typeof entry };
				const answer = await generateCompletion(
					withResponseCache(inner, lying, { spec }),
					GREEDY,
					CALL,
				);
				expect(answer.cached).toBeUndefined();
				continue;
			}
			const answer = await generateCompletion(model, GREEDY, CALL);
			expect(answer.cached).toBeUndefined();
			expect(answer.completion).toBe(`answer-${inner.calls}`);
		}
		expect(inner.calls).toBe(4);
		const healed = await generateCompletion(model, GREEDY, CALL);
		expect(healed.cached).toBe(true);
		await done();
	});

	it('never stores a cancelled answer', async () => {
		const { store, done } = await makeStore();
		const cancelled: TextModel = {
			label: 'cancelled',
			abilities: { score: false, generate: true, chat: true },
			async *generate(): AsyncGenerator<GenerationEvent> {
				yield { type: 'token', text: ' What is' };
				yield { type: 'done', completion: ' What is', finishReason: 'cancelled' };
			},
			countTokens: () => 1,
		};
		await generateCompletion(withResponseCache(cancelled, store, { spec }), GREEDY, CALL).catch(
			() => undefined,
		);
		expect(await store.list()).toHaveLength(0);
		await done();
	});
});
