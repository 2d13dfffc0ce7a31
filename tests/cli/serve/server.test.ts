// `serve`'s HTTP rules against real servers on 127.0.0.1 (port 0, no mocked fetch): CORS for
// loopback and listed origins only, 400 / 404 / 401 / 413, a full queue's 503 + Retry-After, the
// request timeout's 504, a generic 500 whose request id is in the log, and a clean shutdown
// mid-generation. Engines: gpt2-random-tiny (real), FakeEngine variants that hold or fail.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCompletion } from '../../../src/core/model/generation';
import { EndpointModel } from '../../../src/providers/endpoint-model';
import { EndpointAuthError, OpenAIClient } from '../../../src/providers/openai-client';
import {
	MAX_BODY_BYTES,
	RETRY_AFTER_SECONDS,
	startServer,
	type RunningServer,
	type ServeOptions,
} from '../../../src/cli/serve/server';
import type { GenerateTextOptions } from '../../../src/worker/engine';
import { FakeEngine } from '../../../src/worker/fake-engine';
import { TransformersEngine } from '../../../src/worker/transformers-engine';
import { createNodeEngine } from '../../../src/worker/node-engine';
import type { GenerateTextParams, GenerateTextResult } from '../../../src/worker/protocol';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const CALL = { runId: 'r', sampleId: 's', role: 'policy' } as const;
const MODEL = 'gpt2-random-tiny';

/**
 * Generations wait until `release()`; `started` counts those that reached the engine. A 0-token
 * generation (serve's prompt count before the context check) generates nothing: not held.
 */
class HeldEngine extends FakeEngine {
	started = 0;
	#release: () => void = () => undefined;
	readonly #released = new Promise<void>((resolve) => {
		this.#release = resolve;
	});
	release(): void {
		this.#release();
	}
	override async generate(
		params: GenerateTextParams,
		options?: GenerateTextOptions,
	): Promise<GenerateTextResult> {
		if (params.params.max_tokens === 0) return super.generate(params, options);
		this.started++;
		await this.#released;
		return super.generate(params, options);
	}
}

/** Every generation fails with a message that must not reach the client. */
class FailingEngine extends FakeEngine {
	override async generate(): Promise<GenerateTextResult> {
		throw new Error('ORT session 0x7f3a: /home/alice/models/secret.onnx');
	}
}

const engine = createNodeEngine({ threads: 2 });
const servers: RunningServer[] = [];
let tiny: RunningServer;

async function serve(options: ServeOptions): Promise<RunningServer> {
	const server = await startServer({ model: MODEL, port: 0, ...options });
	servers.push(server);
	return server;
}

beforeAll(async () => {
	tiny = await serve({ engine });
});
afterEach(async () => {
	await Promise.all(servers.splice(1).map((s) => s.close()));
});
afterAll(async () => {
	await tiny.close();
});

function post(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}) {
	return fetch(`${baseUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(body),
	});
}

function preflight(baseUrl: string, origin: string): Promise<Response> {
	return fetch(`${baseUrl}/chat/completions`, {
		method: 'OPTIONS',
		headers: {
			origin,
			'access-control-request-method': 'POST',
			'access-control-request-headers': 'authorization, content-type',
		},
	});
}

describe('CORS', () => {
	it.each(['http://127.0.0.1:4173', 'http://localhost:5173', 'http://[::1]:8080'])(
		'grants the loopback origin %s by default',
		async (origin) => {
			const answer = await preflight(tiny.baseUrl, origin);
			expect(answer.status).toBe(204);
			expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
			expect(answer.headers.get('vary')).toBe('Origin');
			expect(answer.headers.get('access-control-allow-headers')).toContain('authorization');
		},
	);

	it.each(['http://evil.test', 'http://127.0.0.1.evil.test', 'null', 'http://localhost.evil:80'])(
		'grants nothing to %s by default, and refuses its requests before any work',
		async (origin) => {
			const refused = await preflight(tiny.baseUrl, origin);
			expect(refused.status).toBe(403);
			expect(refused.headers.get('access-control-allow-origin')).toBeNull();
			// A "simple" POST (text/plain) needs no preflight in a browser: it is refused too.
			const held = new HeldEngine();
			const server = await serve({ engine: held });
			const simple = await fetch(`${server.baseUrl}/completions`, {
				method: 'POST',
				headers: { origin, 'content-type': 'text/plain' },
				body: JSON.stringify({ prompt: 'Hi', max_tokens: 2 }),
			});
			expect(simple.status).toBe(403);
			expect(simple.headers.get('access-control-allow-origin')).toBeNull();
			expect(held.started).toBe(0);
		},
	);

	it('grants listed origins besides loopback ones, and any origin only for an explicit *', async () => {
		const listed = await serve({ engine, allowedOrigins: ['https://lab.example.org'] });
		const lab = await preflight(listed.baseUrl, 'https://lab.example.org');
		expect(lab.headers.get('access-control-allow-origin')).toBe('https://lab.example.org');
		const loopback = await preflight(listed.baseUrl, 'http://127.0.0.1:4173');
		expect(loopback.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
		expect((await preflight(listed.baseUrl, 'http://evil.test')).status).toBe(403);
		const open = await serve({ engine, allowedOrigins: ['*'] });
		const any = await preflight(open.baseUrl, 'http://evil.test');
		expect(any.status).toBe(204);
		expect(any.headers.get('access-control-allow-origin')).toBe('*');
		const models = await fetch(`${open.baseUrl}/models`, {
			headers: { origin: 'http://evil.test' },
		});
		expect(models.status).toBe(200);
		expect(models.headers.get('access-control-allow-origin')).toBe('*');
	});
});

describe('input and keys', () => {
	it.each([
		['not JSON', '{oops'],
		['no prompt', JSON.stringify({ model: MODEL })],
		['prompt of token ids', JSON.stringify({ prompt: [1, 2, 3] })],
		['negative max_tokens', JSON.stringify({ prompt: 'a', max_tokens: -1 })],
		['temperature 3', JSON.stringify({ prompt: 'a', temperature: 3 })],
		['top_p 0', JSON.stringify({ prompt: 'a', top_p: 0 })],
		['n 2', JSON.stringify({ prompt: 'a', n: 2 })],
	])('400 with OpenAI error JSON on bad input: %s', async (_what, body) => {
		const response = await fetch(`${tiny.baseUrl}/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});
		expect(response.status).toBe(400);
		const json = (await response.json()) as { error: { message: string; type: string } };
		expect(json.error.type).toBe('invalid_request_error');
		expect(json.error.message.length).toBeGreaterThan(0);
	});

	it('413 for a body over the cap, before reading it', async () => {
		const prompt = 'x'.repeat(MAX_BODY_BYTES);
		const response = await post(tiny.baseUrl, '/completions', { prompt, max_tokens: 0 });
		expect(response.status).toBe(413);
	});

	it('404 for another model id, and for an unknown route', async () => {
		const wrongModel = await post(tiny.baseUrl, '/chat/completions', {
			model: 'gpt-4',
			messages: [{ role: 'user', content: 'hi' }],
		});
		expect(wrongModel.status).toBe(404);
		expect((await fetch(`${tiny.baseUrl}/embeddings`)).status).toBe(404);
	});

	it('401 when a key is set and the key is wrong or missing; the right key generates', async () => {
		const locked = await serve({ engine, apiKey: 'k1-secret' });
		const wrong = new OpenAIClient({ baseUrl: locked.baseUrl, apiKey: 'k2-secret' });
		await expect(wrong.listModels()).rejects.toBeInstanceOf(EndpointAuthError);
		for (const authorization of [undefined, 'Bearer k1', 'Bearer k1-secret2', 'k1-secret']) {
			const headers: Record<string, string> = authorization ? { authorization } : {};
			expect((await fetch(`${locked.baseUrl}/models`, { headers })).status).toBe(401);
		}
		const right = new EndpointModel({
			spec: { source: 'openai', model: MODEL, baseUrl: locked.baseUrl },
			apiKey: 'k1-secret',
		});
		const done = await generateCompletion(
			right,
			{ prompt: { kind: 'text', text: 'Hello' }, params: { temperature: 0, max_tokens: 3 } },
			CALL,
		);
		expect(done.usage?.completionTokens).toBe(3);
	});
});

describe('load, failures and shutdown', () => {
	it('answers 503 with Retry-After when one request runs and the queue is full', async () => {
		const held = new HeldEngine();
		const server = await serve({ engine: held, maxQueue: 1 });
		const body = { prompt: 'Once', max_tokens: 2, temperature: 0 };
		const running = post(server.baseUrl, '/completions', body);
		await vi.waitFor(() => expect(held.started).toBe(1));
		// Two more: whichever arrives first waits (the one place), the other is refused at once.
		const more = [
			post(server.baseUrl, '/completions', body),
			post(server.baseUrl, '/completions', body),
		];
		const refused = await Promise.race(more);
		expect(refused.status).toBe(503);
		expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
		const json = (await refused.json()) as { error: { code: string } };
		expect(json.error.code).toBe('queue_full');
		expect((await fetch(`${server.baseUrl}/models`)).status).toBe(200);
		held.release();
		expect((await running).status).toBe(200);
		const statuses = (await Promise.all(more)).map((r) => r.status);
		expect(statuses.sort()).toEqual([200, 503]);
		expect(held.started).toBe(2);
	});

	it('gives a generic 500 with a request id; the log has the id and the detail', async () => {
		const log: string[] = [];
		const server = await serve({ engine: new FailingEngine(), log: (line) => log.push(line) });
		const response = await post(server.baseUrl, '/chat/completions', {
			messages: [{ role: 'user', content: 'hi' }],
		});
		expect(response.status).toBe(500);
		const requestId = response.headers.get('x-request-id') ?? '';
		expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
		const text = await response.text();
		expect(text).toContain(requestId);
		expect(text).not.toMatch(/secret|alice|ORT|0x7f3a/);
		expect(log).toHaveLength(1);
		expect(log[0]).toContain(requestId);
		expect(log[0]).toContain('/home/alice/models/secret.onnx');
	});

	it('stops a request past the timeout with 504 and says so in the log', async () => {
		const log: string[] = [];
		const server = await serve({
			engine: new FakeEngine({ batchDelayMs: 1000 }),
			requestTimeoutMs: 250,
			log: (line) => log.push(line),
		});
		const started = Date.now();
		const response = await post(server.baseUrl, '/completions', {
			prompt: 'Once',
			max_tokens: 8,
			temperature: 0,
		});
		expect(response.status).toBe(504);
		expect(Date.now() - started).toBeLessThan(4000);
		expect(((await response.json()) as { error: { code: string } }).error.code).toBe('timeout');
		expect(log.join('\n')).toMatch(/stopped after 0\.25 s/);
	});

	it('stops mid-generation cleanly: the stream ends, the model goes after, nothing is printed', async () => {
		const events: string[] = [];
		const generate = TransformersEngine.prototype.generate;
		const dispose = TransformersEngine.prototype.disposeModel;
		vi.spyOn(TransformersEngine.prototype, 'generate').mockImplementation(function (
			this: TransformersEngine,
			...args
		) {
			// The 0-token call is serve's prompt count before its context check: not a generation.
			if (args[0].params.max_tokens === 0) return generate.apply(this, args);
			return generate.apply(this, args).finally(() => events.push('generation ended'));
		});
		vi.spyOn(TransformersEngine.prototype, 'disposeModel').mockImplementation(function (
			this: TransformersEngine,
			...args
		) {
			events.push('model disposed');
			return dispose.apply(this, args);
		});
		const printed = vi.spyOn(console, 'error');
		const log: string[] = [];
		// Its own engine, so close() disposes the model (the path that printed "Session already disposed").
		const server = await startServer({
			model: MODEL,
			port: 0,
			threads: 1,
			log: (l) => log.push(l),
		});
		try {
			const response = await post(server.baseUrl, '/completions', {
				prompt: 'Once',
				max_tokens: 120,
				temperature: 0,
				stream: true,
			});
			const reader = response.body?.getReader();
			const first = await reader?.read();
			expect(new TextDecoder().decode(first?.value)).toContain('data: ');
			await server.close();
			let rest = '';
			for (let part = await reader?.read(); part && !part.done; part = await reader?.read())
				rest += new TextDecoder().decode(part.value);
			expect(rest).not.toContain('[DONE]');
			expect(events).toEqual(['generation ended', 'model disposed']);
			expect(printed).not.toHaveBeenCalled();
			expect(log).toEqual([]);
		} finally {
			vi.restoreAllMocks();
			await server.close();
		}
	});
});
