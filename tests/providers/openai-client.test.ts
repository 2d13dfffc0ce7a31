// The OpenAI-compatible client and EndpointModel against a real node:http server: only the
// parameters set are sent, streaming, retries, concurrency, usage and error classes.
import { afterEach, describe, expect, it } from 'vitest';
import { generateCompletion } from '../../src/core/model/generation';
import { EndpointModel, openAIParams } from '../../src/providers/endpoint-model';
import {
	EndpointAuthError,
	EndpointNotFoundError,
	EndpointRateLimitError,
	EndpointServerError,
	EndpointUnreachableError,
	OpenAIClient,
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
