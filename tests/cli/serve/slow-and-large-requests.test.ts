// `serve` against clients that send slowly or too much, on real sockets on 127.0.0.1: 40 sockets
// that send headers and one byte of a 100-byte body hold no place in the queue (a real request
// gets 200 meanwhile), a body that has not come within the body deadline gets 408 and its
// connection closed, bodies declared at 8 MiB are read 8 at a time (then 503), a prompt longer
// than the context can hold is refused with 400 before the engine sees it (GET /v1/models answers
// meanwhile), and chat's `logprobs` / `top_logprobs` get vLLM's 400s. Model: gpt2-random-tiny.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
	MAX_BODY_BYTES,
	MAX_READING_BYTES,
	startServer,
	type RunningServer,
	type ServeOptions,
} from '../../../src/cli/serve/server';
import { createNodeEngine } from '../../../src/worker/node-engine';
import { TransformersEngine } from '../../../src/worker/transformers-engine';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MODEL = 'gpt2-random-tiny';
const engine = createNodeEngine({ threads: 2 });
const servers: RunningServer[] = [];
const sockets: Socket[] = [];

async function serve(options: ServeOptions = {}): Promise<RunningServer> {
	const server = await startServer({ model: MODEL, port: 0, engine, ...options });
	servers.push(server);
	return server;
}

let tiny: RunningServer;
beforeAll(async () => {
	tiny = await serve();
});
afterEach(() => {
	for (const socket of sockets.splice(0)) socket.destroy();
	vi.restoreAllMocks();
});
afterAll(async () => {
	await Promise.all(servers.map((s) => s.close()));
});

/** Everything a socket receives, and whether the server has closed it. */
interface SlowClient {
	readonly socket: Socket;
	received: string;
	closed: boolean;
}

/** A socket that sends a POST's headers (`Content-Length: declared`) and one byte of its body. */
async function slowClient(server: RunningServer, declared: number): Promise<SlowClient> {
	const { port } = new URL(server.baseUrl);
	const socket = connect(Number(port), '127.0.0.1');
	sockets.push(socket);
	const client: SlowClient = { socket, received: '', closed: false };
	socket.on('data', (chunk: Buffer) => (client.received += chunk.toString('utf8')));
	socket.on('close', () => (client.closed = true));
	socket.on('error', () => undefined);
	await new Promise<void>((resolve) => socket.once('connect', resolve));
	await new Promise<void>((resolve) =>
		socket.write(
			'POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
				`Content-Length: ${declared}\r\n\r\n{`,
			() => resolve(),
		),
	);
	return client;
}

function post(server: RunningServer, path: string, body: unknown): Promise<Response> {
	return fetch(`${server.baseUrl}${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

async function errorOf(response: Response): Promise<{ message: string; param: string | null }> {
	return ((await response.json()) as { error: { message: string; param: string | null } }).error;
}

describe('slow request bodies', () => {
	it('holds no place in the queue: a real request gets 200 beside 40 slow sockets', async () => {
		const slow = [];
		for (let i = 0; i < 40; i++) slow.push(await slowClient(tiny, 100));
		// The server has read every slow socket's headers once it has answered after them.
		expect((await fetch(`${tiny.baseUrl}/models`)).status).toBe(200);
		for (let i = 0; i < 3; i++) {
			const real = await post(tiny, '/completions', { prompt: 'Hi', max_tokens: 1 });
			expect(real.status).toBe(200);
			expect(((await real.json()) as { choices: unknown[] }).choices).toHaveLength(1);
		}
		// The slow ones are still waiting for their bodies (default deadline: 10 s).
		expect(slow.every((c) => c.received === '' && !c.closed)).toBe(true);
	});

	it('answers 408 and closes the connection when the body has not come by the deadline', async () => {
		const server = await serve({ bodyTimeoutMs: 200 });
		const slow = await slowClient(server, 100);
		await vi.waitFor(() => expect(slow.closed).toBe(true), { timeout: 10_000 });
		expect(slow.received).toMatch(/^HTTP\/1\.1 408 /);
		expect(slow.received).toContain('"code":"body_timeout"');
		expect(slow.received).toMatch(/did not arrive within 0\.2 s/);
		expect((await post(server, '/completions', { prompt: 'Hi', max_tokens: 1 })).status).toBe(200);
	});

	it('reads at most 64 MiB of declared bodies at once (then 503), and again once they go', async () => {
		const server = await serve();
		const held = MAX_READING_BYTES / MAX_BODY_BYTES;
		const slow = [];
		for (let i = 0; i < held; i++) slow.push(await slowClient(server, MAX_BODY_BYTES));
		expect((await fetch(`${server.baseUrl}/models`)).status).toBe(200);
		const refused = await post(server, '/completions', { prompt: 'Hi', max_tokens: 1 });
		expect(refused.status).toBe(503);
		expect(refused.headers.get('retry-after')).toBe('5');
		expect((await errorOf(refused)).message).toMatch(/busy reading other requests' bodies/);
		for (const client of slow) client.socket.destroy();
		await vi.waitFor(
			async () =>
				expect((await post(server, '/completions', { prompt: 'Hi', max_tokens: 1 })).status).toBe(
					200,
				),
			{ timeout: 10_000 },
		);
	});
});

describe('prompts longer than the context can hold', () => {
	// gpt2-random-tiny: 128 positions, longest vocabulary entry 15 characters: 1,920 at most.
	const huge = 'x'.repeat(4 * 1024 * 1024);

	it('are refused with 400 before tokenizing, while GET /v1/models answers', async () => {
		const generate = vi.spyOn(TransformersEngine.prototype, 'generate');
		const tokenize = vi.spyOn(TransformersEngine.prototype, 'tokenize');
		const [completion, models] = await Promise.all([
			post(tiny, '/completions', { prompt: huge, max_tokens: 1 }),
			fetch(`${tiny.baseUrl}/models`),
		]);
		expect(models.status).toBe(200);
		expect(completion.status).toBe(400);
		const error = await errorOf(completion);
		expect(error.param).toBe('input_tokens');
		expect(error.message).toBe(
			`The prompt has ${huge.length} characters, more than the model's context length of 128 ` +
				"tokens can hold (1920: this tokenizer's longest token has 15 characters); it was not " +
				'tokenized. Please reduce the length of the input prompt.',
		);
		const chat = await post(tiny, '/chat/completions', {
			messages: [
				{ role: 'system', content: 'x'.repeat(1000) },
				{ role: 'user', content: 'x'.repeat(1000) },
			],
		});
		expect(chat.status).toBe(400);
		expect((await errorOf(chat)).message).toMatch(/^The prompt has 2000 characters/);
		const tokenized = await fetch(`${tiny.baseUrl.replace(/\/v1$/, '')}/tokenize`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ prompt: huge }),
		});
		expect(tokenized.status).toBe(400);
		expect(generate).not.toHaveBeenCalled();
		expect(tokenize).not.toHaveBeenCalled();
	});

	it('up to the cap are tokenized: vLLM’s 400 with the token count', async () => {
		const response = await post(tiny, '/completions', { prompt: 'x'.repeat(1920), max_tokens: 1 });
		expect(response.status).toBe(400);
		expect((await errorOf(response)).message).toMatch(/^You passed \d+ input tokens/);
	});
});

describe("chat's logprobs and top_logprobs", () => {
	const chat = (extra: Record<string, unknown>) =>
		post(tiny, '/chat/completions', {
			messages: [{ role: 'user', content: 'Hi' }],
			max_tokens: 1,
			...extra,
		});

	it.each([
		[
			'top_logprobs 1e9',
			{ logprobs: true, top_logprobs: 1e9 },
			'Requested sample logprobs of 1000000000, which is greater than max allowed: 20',
			'top_logprobs',
		],
		[
			'top_logprobs -1 (the whole vocabulary)',
			{ logprobs: true, top_logprobs: -1 },
			'Requested sample logprobs of 8192, which is greater than max allowed: 20',
			'top_logprobs',
		],
		[
			'top_logprobs without logprobs',
			{ top_logprobs: 1e9 },
			'when using `top_logprobs`, `logprobs` must be set to true.',
			'top_logprobs',
		],
		[
			'negative top_logprobs',
			{ logprobs: true, top_logprobs: -2 },
			'`top_logprobs` must be a positive value or -1.',
			'top_logprobs',
		],
		['top_logprobs 1.5', { logprobs: true, top_logprobs: 1.5 }, /integer/, 'top_logprobs'],
		['logprobs 5', { logprobs: 5 }, /boolean/, 'logprobs'],
		['logprobs "yes"', { logprobs: 'yes' }, /boolean/, 'logprobs'],
		[
			'logprobs true (not served)',
			{ logprobs: true, top_logprobs: 2 },
			/does not return log-probs of generated chat tokens/,
			'logprobs',
		],
	])('400 for %s', async (_what, extra, message, param) => {
		const response = await chat(extra);
		expect(response.status).toBe(400);
		const error = await errorOf(response);
		if (typeof message === 'string') expect(error.message).toBe(message);
		else expect(error.message).toMatch(message);
		expect(error.param).toBe(param);
	});

	it('answers when logprobs is false or null and top_logprobs 0', async () => {
		expect((await chat({ logprobs: false, top_logprobs: 0 })).status).toBe(200);
		expect((await chat({ logprobs: null, top_logprobs: null })).status).toBe(200);
	});
});
