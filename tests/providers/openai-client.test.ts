// The OpenAI-compatible client and EndpointModel against a real node:http server: only the
// parameters set are sent, streaming, retries, concurrency, usage and error classes.
import { afterEach, describe, expect, it } from 'vitest';
import { generateCompletion, type GenerationEvent } from '../../src/core/model/generation';
import { EndpointModel, openAIParams } from '../../src/providers/endpoint-model';
import {
	EndpointAuthError,
	EndpointIncompleteError,
	EndpointNotFoundError,
	EndpointRateLimitError,
	EndpointServerError,
	EndpointUnreachableError,
	OpenAIClient,
	retryAfterMs,
} from '../../src/providers/openai-client';
import { sendJson, startRecordingServer, type RecordingServer } from './recording-server';

const CALL = { runId: 'r', sampleId: 's.0', role: 'policy' } as const;
let server: RecordingServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

function chatAnswer(content: string) {
	return {
		choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
		usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
	};
}

function streamAnswer(pieces: readonly string[], chat: boolean) {
	return (
		pieces
			.map((p) => {
				const choice = chat ? { index: 0, delta: { content: p } } : { index: 0, text: p };
				return `data: ${JSON.stringify({ choices: [choice] })}\n\n`;
			})
			.join('') +
		`data: ${JSON.stringify({ choices: [{ index: 0, ...(chat ? { delta: {} } : { text: '' }), finish_reason: 'length' }] })}\n\n` +
		`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: pieces.length } })}\n\n` +
		'data: [DONE]\n\n'
	);
}

describe('openAIParams', () => {
	it('keeps exactly the parameters that are set', () => {
		expect(openAIParams({})).toEqual({});
		expect(openAIParams({ temperature: 0, max_tokens: 5, stop: ['\n'] })).toEqual({
			temperature: 0,
			max_tokens: 5,
			stop: ['\n'],
		});
	});
});

describe('EndpointModel over HTTP', () => {
	it("passes on the server's model name and usage details (oaieval's sampling events record them)", async () => {
		const usage = {
			prompt_tokens: 4,
			completion_tokens: 1,
			total_tokens: 5,
			completion_tokens_details: { reasoning_tokens: 0, audio_tokens: null },
			prompt_tokens_details: { cached_tokens: 2 },
		};
		server = await startRecordingServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.end(
				`data: ${JSON.stringify({ model: 'm1-2026', choices: [{ index: 0, delta: { content: 'Y' }, finish_reason: 'stop' }] })}\n\n` +
					`data: ${JSON.stringify({ model: 'm1-2026', choices: [], usage })}\n\ndata: [DONE]\n\n`,
			);
		});
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'm1', baseUrl: server.baseUrl },
		});
		const events = [];
		for await (const event of model.generate(
			{ prompt: { kind: 'chat', messages: [{ role: 'user', content: 'Hi' }] }, params: {} },
			CALL,
		))
			events.push(event);
		expect(events.at(-1)).toEqual({
			type: 'done',
			completion: 'Y',
			finishReason: 'stop',
			usage: {
				promptTokens: 4,
				completionTokens: 1,
				completionTokensDetails: { reasoning_tokens: 0, audio_tokens: null },
				promptTokensDetails: { cached_tokens: 2 },
			},
			model: 'm1-2026',
		});
	});

	it('sends a chat with only the parameters set, streams tokens, reports usage', async () => {
		server = await startRecordingServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.end(streamAnswer(['Hel', 'lo'], true));
		});
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'm1', baseUrl: server.baseUrl },
			apiKey: 'sk-test',
		});
		const events = [];
		for await (const event of model.generate(
			{
				prompt: {
					kind: 'chat',
					messages: [
						{ role: 'system', content: 'Be brief.', name: 'example_user' },
						{ role: 'user', content: 'Hi' },
					],
				},
				params: { temperature: 0 },
			},
			CALL,
		))
			events.push(event);
		expect(events).toEqual([
			{ type: 'token', text: 'Hel' },
			{ type: 'token', text: 'lo' },
			{
				type: 'done',
				completion: 'Hello',
				finishReason: 'length',
				usage: { promptTokens: 3, completionTokens: 2 },
			},
		]);
		const [request] = server.requests;
		expect(request?.url).toBe('/v1/chat/completions');
		expect(request?.headers.authorization).toBe('Bearer sk-test');
		expect(request?.body).toEqual({
			model: 'm1',
			messages: [
				{ role: 'system', content: 'Be brief.', name: 'example_user' },
				{ role: 'user', content: 'Hi' },
			],
			temperature: 0,
			stream: true,
			stream_options: { include_usage: true },
		});
		expect(model.client.usage).toEqual({ promptTokens: 3, completionTokens: 2 });
	});

	it('sends a text prompt to /v1/completions with no parameters when none are set', async () => {
		server = await startRecordingServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.end(streamAnswer([' world'], false));
		});
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'm', baseUrl: server.baseUrl },
		});
		const done = await generateCompletion(
			model,
			{ prompt: { kind: 'text', text: 'Hello' }, params: {} },
			CALL,
		);
		expect(done.completion).toBe(' world');
		expect(server.requests[0]?.url).toBe('/v1/completions');
		expect(server.requests[0]?.headers.authorization).toBeUndefined();
		expect(server.requests[0]?.body).toEqual({
			model: 'm',
			prompt: 'Hello',
			stream: true,
			stream_options: { include_usage: true },
		});
	});

	it('renders a chat as Evals text for a completions-only endpoint', async () => {
		server = await startRecordingServer((_req, res) => {
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.end(streamAnswer(['x'], false));
		});
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'base', baseUrl: server.baseUrl },
			chatApi: 'completions',
		});
		await generateCompletion(
			model,
			{
				prompt: {
					kind: 'chat',
					messages: [
						{ role: 'system', content: 'Q and A.' },
						{ role: 'user', content: '2+2?' },
					],
				},
				params: { max_tokens: 3 },
			},
			CALL,
		);
		expect(server.requests[0]?.body).toMatchObject({
			prompt: 'Q and A.\nUser: 2+2?\nAssistant:',
			max_tokens: 3,
		});
	});
});

describe('OpenAIClient', () => {
	it('lists models and sums usage of plain answers', async () => {
		server = await startRecordingServer((req, res) => {
			if (req.url === '/v1/models') sendJson(res, 200, { data: [{ id: 'a' }, { id: 'b' }] });
			else sendJson(res, 200, chatAnswer('ok'));
		});
		const client = new OpenAIClient({ baseUrl: `${server.baseUrl}/` });
		expect(await client.listModels()).toEqual(['a', 'b']);
		await client.chatCompletion({ model: 'a', messages: [] });
		await client.chatCompletion({ model: 'a', messages: [] });
		expect(client.usage).toEqual({ promptTokens: 10, completionTokens: 4 });
	});

	it('retries 429 and 5xx with backoff, then succeeds', async () => {
		let calls = 0;
		server = await startRecordingServer((_req, res) => {
			calls++;
			if (calls === 1) sendJson(res, 429, { error: { message: 'slow down' } });
			else if (calls === 2) sendJson(res, 503, { error: { message: 'busy' } });
			else sendJson(res, 200, chatAnswer('ok'));
		});
		const client = new OpenAIClient({ baseUrl: server.baseUrl, retryBaseMs: 5 });
		const json = await client.chatCompletion({ model: 'a', messages: [] });
		expect(json.choices[0]?.message?.content).toBe('ok');
		expect(server.requests).toHaveLength(3);
	});

	it.each([
		[401, EndpointAuthError, 'API key'],
		[404, EndpointNotFoundError, '/v1/models'],
		[429, EndpointRateLimitError, 'concurrency'],
		[500, EndpointServerError, "server's log"],
	])('maps HTTP %i to %o with what to do', async (status, ErrorClass, advice) => {
		server = await startRecordingServer((_req, res) =>
			sendJson(res, status, { error: { message: 'nope' } }),
		);
		const client = new OpenAIClient({ baseUrl: server.baseUrl, maxRetries: 1, retryBaseMs: 1 });
		const failure = client.chatCompletion({ model: 'a', messages: [] });
		await expect(failure).rejects.toBeInstanceOf(ErrorClass);
		await expect(failure).rejects.toThrow(advice);
		await expect(failure).rejects.toThrow('The server said: nope');
	});

	it('says how to allow CORS when the server cannot be reached', async () => {
		const closed = await startRecordingServer(() => undefined);
		const baseUrl = closed.baseUrl;
		await closed.close();
		const client = new OpenAIClient({ baseUrl, pageOrigin: 'http://127.0.0.1:4173' });
		const failure = client.listModels();
		await expect(failure).rejects.toBeInstanceOf(EndpointUnreachableError);
		await expect(failure).rejects.toThrow('OLLAMA_ORIGINS');
	});

	it('counts a stream as in flight until it ends', async () => {
		let active = 0;
		let peak = 0;
		server = await startRecordingServer((_req, res) => {
			active++;
			peak = Math.max(peak, active);
			res.writeHead(200, { 'content-type': 'text/event-stream' });
			res.write(`data: ${JSON.stringify({ choices: [{ index: 0, text: 'a' }] })}\n\n`);
			setTimeout(() => {
				active--;
				res.end(streamAnswer(['b'], false));
			}, 40);
		});
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'm', baseUrl: server.baseUrl },
			clientOptions: { concurrency: 2 },
		});
		const done = await Promise.all(
			Array.from({ length: 5 }, () =>
				generateCompletion(model, { prompt: { kind: 'text', text: 'x' }, params: {} }, CALL),
			),
		);
		expect(done.map((d) => d.completion)).toEqual(Array(5).fill('ab'));
		expect(peak).toBe(2);
	});

	it('runs at most `concurrency` requests at once', async () => {
		let active = 0;
		let peak = 0;
		server = await startRecordingServer((_req, res) => {
			active++;
			peak = Math.max(peak, active);
			setTimeout(() => {
				active--;
				sendJson(res, 200, chatAnswer('ok'));
			}, 30);
		});
		const client = new OpenAIClient({ baseUrl: server.baseUrl, concurrency: 2 });
		await Promise.all(
			Array.from({ length: 6 }, () => client.chatCompletion({ model: 'a', messages: [] })),
		);
		expect(peak).toBe(2);
		expect(server.requests).toHaveLength(6);
	});
});

/** A server that answers the n-th request (1-based) with `faults[n - 1]`, then cleanly. */
function faultyServer(
	faults: readonly ((res: import('node:http').ServerResponse) => void)[],
	clean: (res: import('node:http').ServerResponse) => void,
): Promise<RecordingServer> {
	let calls = 0;
	return startRecordingServer((_req, res) => {
		calls++;
		(faults[calls - 1] ?? clean)(res);
	});
}

const html200 = (res: import('node:http').ServerResponse) => {
	res.writeHead(200, { 'content-type': 'text/html' });
	res.end('<!doctype html><title>Sign in</title><form>login</form>');
};
const empty200 = (res: import('node:http').ServerResponse) => {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end();
};
const malformed = (res: import('node:http').ServerResponse) => {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end('{"choices": [{"message": {"content": "o');
};
const dropMidBody = (res: import('node:http').ServerResponse) => {
	res.writeHead(200, { 'content-type': 'application/json', 'content-length': '400' });
	res.write('{"choices": [{"message": {"content": "o');
	setTimeout(() => res.socket?.destroy(), 10);
};
const wrongShape = (res: import('node:http').ServerResponse) => sendJson(res, 200, { choices: [] });

describe('complete or error (issue 18): a JSON answer counts only when complete', () => {
	it.each([
		['an HTML page with status 200', html200],
		['an empty 200', empty200],
		['malformed JSON', malformed],
		['a connection dropped mid-body', dropMidBody],
		['JSON without choices', wrongShape],
	])('retries %s to exactly the clean answer', async (_what, fault) => {
		server = await faultyServer([fault, fault], (res) => sendJson(res, 200, chatAnswer('ok')));
		const client = new OpenAIClient({ baseUrl: server.baseUrl, retryBaseMs: 1 });
		const json = await client.chatCompletion({ model: 'a', messages: [] });
		expect(json.choices[0]?.message?.content).toBe('ok');
		expect(server.requests).toHaveLength(3);
		expect(client.usage).toEqual({ promptTokens: 5, completionTokens: 2 });
	});

	it.each([
		['an HTML page with status 200', html200, /HTML page/],
		['malformed JSON', malformed, /malformed JSON/],
		['a connection dropped mid-body', dropMidBody, /connection closed before the answer/],
	])(
		'fails on %s that never ends, naming the URL and what came back',
		async (_what, fault, said) => {
			server = await faultyServer([], fault);
			const client = new OpenAIClient({ baseUrl: server.baseUrl, maxRetries: 2, retryBaseMs: 1 });
			const failure = client.chatCompletion({ model: 'a', messages: [] });
			await expect(failure).rejects.toBeInstanceOf(EndpointIncompleteError);
			await expect(failure).rejects.toThrow(server.baseUrl);
			await expect(failure).rejects.toThrow(said);
			await expect(failure).rejects.toThrow(/Nothing of it was kept: check the server/);
			expect(server.requests).toHaveLength(3);
		},
	);

	it('waits as long as Retry-After says before retrying a 429', async () => {
		server = await faultyServer(
			[
				(res) => {
					res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
					res.end('{"error": {"message": "slow down"}}');
				},
			],
			(res) => sendJson(res, 200, chatAnswer('ok')),
		);
		const client = new OpenAIClient({ baseUrl: server.baseUrl, retryBaseMs: 1 });
		const started = Date.now();
		await client.chatCompletion({ model: 'a', messages: [] });
		expect(Date.now() - started).toBeGreaterThanOrEqual(950);
	});

	it.each([
		['3', 3000],
		['0', 0],
		['600', 60_000],
		['Wed, 25 Nov 2026 12:00:10 GMT', 10_000],
		['soon', undefined],
		[null, undefined],
	])('reads Retry-After %s as %s ms', (header, ms) => {
		expect(retryAfterMs(header, Date.parse('Wed, 25 Nov 2026 12:00:00 GMT'))).toBe(ms);
	});

	it('says no word of CORS or page origins in a terminal (no page origin)', async () => {
		const closed = await startRecordingServer(() => undefined);
		const baseUrl = closed.baseUrl;
		await closed.close();
		const client = new OpenAIClient({ baseUrl, retryBaseMs: 1 });
		const failure = client.listModels();
		await expect(failure).rejects.toBeInstanceOf(EndpointUnreachableError);
		await expect(failure).rejects.toThrow(`Cannot reach ${baseUrl}`);
		await expect(failure).rejects.not.toThrow(/CORS|origin/i);
	});
});

describe('complete or error (issue 18): a stream counts only with a finish reason and [DONE]', () => {
	const CLEAN = streamAnswer(['The', ' cat', ' sat'], true);
	const sseHead = { 'content-type': 'text/event-stream' };
	const generate = (baseUrl: string) => {
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'm', baseUrl },
			clientOptions: { retryBaseMs: 1, maxRetries: 2 },
		});
		const tokens: string[] = [];
		const request = {
			prompt: { kind: 'chat', messages: [{ role: 'user', content: 'Hi' }] },
			params: { temperature: 0 },
		} as const;
		const done = (async () => {
			let last: GenerationEvent | undefined;
			for await (const event of model.generate(request, CALL)) {
				if (event.type === 'token') tokens.push(event.text);
				last = event;
			}
			if (last?.type !== 'done') throw new Error('no done event');
			return last;
		})();
		return { tokens, done };
	};
	const cutBeforeDone = (res: import('node:http').ServerResponse) => {
		res.writeHead(200, sseHead);
		res.end(CLEAN.slice(0, CLEAN.indexOf('data: [DONE]')));
	};
	const cutMidAnswer = (res: import('node:http').ServerResponse) => {
		res.writeHead(200, sseHead);
		res.write(
			streamAnswer(['The', ' cat'], true).split('data: {"choices":[{"index":0,"delta":{}')[0],
		);
		setTimeout(() => res.socket?.destroy(), 10);
	};
	const emptyStream = (res: import('node:http').ServerResponse) => {
		res.writeHead(200, sseHead);
		res.end();
	};

	it.each([
		['cut off before [DONE]', cutBeforeDone],
		['dropped mid-answer', cutMidAnswer],
		['empty', emptyStream],
		['an HTML page', html200],
	])(
		'retries a stream %s to exactly the clean completion, no token twice',
		async (_what, fault) => {
			server = await faultyServer([fault], (res) => {
				res.writeHead(200, sseHead);
				res.end(CLEAN);
			});
			const { tokens, done } = generate(server.baseUrl);
			const answer = await done;
			expect(answer.completion).toBe('The cat sat');
			expect(tokens.join('')).toBe('The cat sat');
			expect(answer.finishReason).toBe('length');
			expect(server.requests).toHaveLength(2);
		},
	);

	it('fails a stream that never completes, and a retry that differs from what was passed on', async () => {
		server = await faultyServer([], cutBeforeDone);
		await expect(generate(server.baseUrl).done).rejects.toThrow(/before \[DONE\]/);
		await server.close();
		server = await faultyServer([cutMidAnswer], (res) => {
			res.writeHead(200, sseHead);
			res.end(streamAnswer(['A', ' dog'], true));
		});
		const failure = generate(server.baseUrl).done;
		await expect(failure).rejects.toBeInstanceOf(EndpointIncompleteError);
		await expect(failure).rejects.toThrow(/differs from the part already received/);
	});
});
