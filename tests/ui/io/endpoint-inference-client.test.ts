// @vitest-environment node
// EndpointInferenceClient against a real `serve` (in-process server on 127.0.0.1 port 0, a real
// socket; no mocked fetch): load checks the listed models, scoreTexts equals the endpoint's echo
// scoring with per-batch progress, tokenize, generate streams to onToken, cancel.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/cli/serve/server';
import type { ModelSpec } from '../../../src/core/model/model-spec';
import { scoreTextsViaEndpoint } from '../../../src/providers/endpoint-scoring';
import {
	DEFAULT_ENDPOINT_LIMITS,
	EndpointNotFoundError,
	OpenAIClient,
} from '../../../src/providers/openai-client';
import {
	EndpointInferenceClient,
	endpointModelKey,
} from '../../../src/ui/io/endpoint-inference-client';
import { CancelledError } from '../../../src/worker/engine-errors';
import { createNodeEngine } from '../../../src/worker/node-engine';
import type { GenerateProgress, ScoreProgress } from '../../../src/worker/protocol';
import { startFaultProxy, type EndlessFault } from '../../support/fault-proxy';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MODEL = 'gpt2-random-tiny';
const TEXTS = [
	'The keys to the cabinet are on the table.',
	'The author that the guards like laughs.',
	'A dog barked.',
	'Two cats slept on the warm mat all day.',
	'She said hello.',
	'Birds sing.',
	'The old man the boats.',
];
// The spec the run records for the local side of the comparison (loadModel passes it through).
const RECORDED: ModelSpec = { source: 'bundled', id: MODEL, dtype: 'fp32', backend: 'node-cpu' };

let server: RunningServer;
beforeAll(async () => {
	server = await startServer({
		model: MODEL,
		port: 0,
		engine: createNodeEngine({ threads: 1 }),
	});
});
afterAll(async () => {
	await server.close();
});

function client(batchSize = 3, model = MODEL): EndpointInferenceClient {
	return new EndpointInferenceClient({
		spec: { source: 'openai', model, baseUrl: server.baseUrl },
		batchSize,
	});
}

describe('EndpointInferenceClient over serve', () => {
	it('loads a listed model under a key without secrets, and refuses an unlisted one', async () => {
		const endpoint = client();
		const info = await endpoint.call('loadModel', { spec: RECORDED });
		expect(info.modelKey).toBe(endpointModelKey(endpoint.spec));
		expect(info.modelKey).toBe(`openai:${server.baseUrl}#${MODEL}`);
		expect(info.spec).toEqual(RECORDED);
		const wrong = client(3, 'no-such-model');
		const error = await wrong.call('loadModel', { spec: RECORDED }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(EndpointNotFoundError);
		expect((error as Error).message).toContain(`it lists: ${MODEL}`);
	});

	it('scores texts in batches with progress, equal to the endpoint scoring in one go', async () => {
		const endpoint = client(3);
		const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
		const progress: ScoreProgress[] = [];
		const result = await endpoint.call(
			'scoreTexts',
			{ modelKey, texts: TEXTS, convention: 'bos' },
			{ onScoreProgress: (p) => progress.push(p) },
		);
		const direct = await scoreTextsViaEndpoint(
			new OpenAIClient({ baseUrl: server.baseUrl }),
			TEXTS,
			{ model: MODEL, convention: 'bos' },
		);
		expect(result.texts).toEqual(direct);
		expect(result.texts.map((t) => t.index)).toEqual(TEXTS.map((_, i) => i));
		expect(result.tokenCount).toBe(direct.reduce((sum, t) => sum + t.tokens.length, 0));
		// 7 texts in batches of 3: three events, each with the texts it finished.
		expect(progress.map((p) => p.texts.length).sort()).toEqual([1, 3, 3]);
		// `done` counts every text finished so far.
		let finished = 0;
		for (const event of progress) {
			finished += event.texts.length;
			expect(event.done).toBe(finished);
			expect(event.total).toBe(TEXTS.length);
		}
		expect(progress.at(-1)?.done).toBe(TEXTS.length);
	});

	it('a request for word boundaries is refused, with the reason', async () => {
		const endpoint = client(3);
		const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
		await expect(
			endpoint.call('scoreTexts', {
				modelKey,
				texts: TEXTS,
				convention: 'bos',
				wordBoundaries: true,
			}),
		).rejects.toThrow(/cannot give word-boundary probabilities/);
	});

	it('tokenizes with offsets and no surprisals', async () => {
		const endpoint = client();
		const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
		const { tokens } = await endpoint.call('tokenize', {
			modelKey,
			text: 'A dog barked.',
			convention: 'reference',
		});
		expect(tokens.map((t) => t.token).join('')).toBe('A dog barked.');
		expect(tokens.every((t) => Number.isNaN(t.surprisalBits))).toBe(true);
	});

	it('generates with tokens streamed to onToken', async () => {
		const endpoint = client();
		const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
		const tokens: GenerateProgress[] = [];
		const result = await endpoint.call(
			'generate',
			{
				modelKey,
				prompt: { kind: 'text', text: 'Once upon' },
				params: { max_tokens: 6, temperature: 0 },
			},
			{ onToken: (t) => tokens.push(t) },
		);
		expect(tokens.length).toBeGreaterThan(1);
		expect(tokens.map((t) => t.text).join('')).toBe(result.completion);
		expect(result.usage.completionTokens).toBe(6);
		expect(result.finishReason).toBe('length');
	});

	it('rejects with CancelledError when the signal aborts, and after dispose', async () => {
		const endpoint = client(1);
		const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
		const controller = new AbortController();
		let events = 0;
		const scoring = endpoint.call(
			'scoreTexts',
			{ modelKey, texts: [...TEXTS, ...TEXTS, ...TEXTS], convention: 'reference' },
			{
				signal: controller.signal,
				onScoreProgress: () => {
					events++;
					controller.abort();
				},
			},
		);
		await expect(scoring).rejects.toBeInstanceOf(CancelledError);
		expect(events).toBeLessThan(TEXTS.length * 3);
		endpoint.dispose();
		await expect(endpoint.call('listCachedModels', {})).rejects.toBeInstanceOf(CancelledError);
	});
});

// Issue 28: the tab's endpoint client runs every request under the same limits as the CLI (the
// defaults unless given), so an answer that never ends stops the tab's call too.
describe('EndpointInferenceClient limits', () => {
	it('runs under the default limits, or those given', () => {
		expect(client().client.limits).toEqual(DEFAULT_ENDPOINT_LIMITS);
		const limited = new EndpointInferenceClient({
			spec: { source: 'openai', model: MODEL, baseUrl: server.baseUrl },
			limits: { idleTimeoutMs: 1_000, maxBodyBytes: 1024 },
		});
		expect(limited.client.limits).toEqual({
			...DEFAULT_ENDPOINT_LIMITS,
			idleTimeoutMs: 1_000,
			maxBodyBytes: 1024,
		});
	});

	it.each<[EndlessFault, 'generate' | 'scoreTexts', RegExp]>([
		['endless-deltas', 'generate', /too large to take: the stream went on past max_tokens 6 /],
		['keepalive-forever', 'generate', /did not answer in time: no event in the stream for 1 s\./],
		[
			'endless-json',
			'scoreTexts',
			/too large to take \(HTTP 200\): a body over the cap of 65536 bytes/,
		],
	])('%s: %s fails with a worded error', async (fault, kind, said) => {
		const proxy = await startFaultProxy(server.baseUrl, (_index, path) =>
			path.startsWith('/v1/models') ? undefined : fault,
		);
		try {
			const endpoint = new EndpointInferenceClient({
				spec: { source: 'openai', model: MODEL, baseUrl: proxy.baseUrl },
				limits: { idleTimeoutMs: 1_000, maxBodyBytes: 64 * 1024 },
				pageOrigin: 'http://127.0.0.1:4173',
			});
			const { modelKey } = await endpoint.call('loadModel', { spec: RECORDED });
			const call =
				kind === 'generate'
					? endpoint.call('generate', {
							modelKey,
							prompt: { kind: 'text', text: 'Once upon' },
							params: { max_tokens: 6, temperature: 0 },
						})
					: endpoint.call('scoreTexts', { modelKey, texts: TEXTS, convention: 'bos' });
			await expect(call).rejects.toThrow(said);
			await expect(call).rejects.toThrow(proxy.baseUrl);
			expect(proxy.injected).toEqual([fault]);
		} finally {
			await proxy.close();
		}
	});
});
