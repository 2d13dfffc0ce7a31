// Issue 28: every endpoint answer is bounded (src/providers/openai-client.ts, EndpointLimits).
// Against answers that never end (tests/support/fault-proxy.ts's endless faults, real HTTP on
// 127.0.0.1), with limits of a second or two: a stream of comments only and a server that
// never sends headers end with an EndpointTimeoutError, text past max_tokens or the size cap and
// a JSON body that never ends with an EndpointTooLargeError, an error body that never ends is read
// up to its cap; none of these is retried, and no retry policy waits past the call's deadline.
import { afterEach, describe, expect, it } from 'vitest';
import { endpointFailureMessage } from '../../src/core/model/endpoint-errors';
import {
	DEFAULT_ENDPOINT_LIMITS,
	EndpointServerError,
	EndpointTimeoutError,
	EndpointTooLargeError,
	endpointLimitsFromEnv,
	EndpointLimitsError,
	MAX_ERROR_BODY_BYTES,
	OpenAIClient,
	readBoundedText,
	type EndpointLimits,
} from '../../src/providers/openai-client';
import { startFaultProxy, type EndlessFault, type FaultProxy } from '../support/fault-proxy';
import { startRecordingServer, type RecordingServer } from './recording-server';

const LIMITS: EndpointLimits = {
	idleTimeoutMs: 1_000,
	deadlineMs: 20_000,
	maxBodyBytes: 64 * 1024,
};

let proxy: FaultProxy | undefined;
let server: RecordingServer | undefined;
afterEach(async () => {
	await proxy?.close();
	await server?.close();
	proxy = undefined;
	server = undefined;
});

/** A proxy that answers every request with `fault` (no target behind it is ever asked). */
async function endless(fault: EndlessFault): Promise<FaultProxy> {
	proxy = await startFaultProxy('http://127.0.0.1:9/v1', () => fault);
	return proxy;
}

function client(baseUrl: string, limits: Partial<EndpointLimits> = LIMITS): OpenAIClient {
	return new OpenAIClient({ baseUrl, retryBaseMs: 1, maxRetries: 3, limits });
}

/** Reads the whole stream of a chat request; the text it passed on. */
async function streamed(api: OpenAIClient, body: Record<string, unknown> = {}): Promise<string> {
	let text = '';
	for await (const chunk of api.stream('/chat/completions', { model: 'm', messages: [], ...body }))
		text += chunk.text;
	return text;
}

describe('endpoint limits from the environment', () => {
	it('reads seconds and MiB, keeps the defaults for what is not set, refuses the rest', () => {
		expect(endpointLimitsFromEnv({})).toEqual(DEFAULT_ENDPOINT_LIMITS);
		expect(DEFAULT_ENDPOINT_LIMITS).toEqual({
			maxBodyBytes: 16 * 1024 * 1024,
			idleTimeoutMs: 120_000,
			deadlineMs: 600_000,
		});
		expect(
			endpointLimitsFromEnv({
				BENCHTOP_ENDPOINT_IDLE_S: '1.5',
				BENCHTOP_ENDPOINT_DEADLINE_S: '30',
				BENCHTOP_ENDPOINT_MAX_BODY_MIB: '0.5',
			}),
		).toEqual({ idleTimeoutMs: 1500, deadlineMs: 30_000, maxBodyBytes: 512 * 1024 });
		for (const bad of ['0', '-1', 'soon', 'Infinity']) {
			const read = () => endpointLimitsFromEnv({ BENCHTOP_ENDPOINT_DEADLINE_S: bad });
			expect(read).toThrow(EndpointLimitsError);
			expect(read).toThrow(`BENCHTOP_ENDPOINT_DEADLINE_S must be a positive number, got '${bad}'.`);
		}
	});

	it('a client runs under the defaults unless given limits', () => {
		expect(new OpenAIClient({ baseUrl: 'http://127.0.0.1:9/v1' }).limits).toEqual(
			DEFAULT_ENDPOINT_LIMITS,
		);
		expect(client('http://127.0.0.1:9/v1', { idleTimeoutMs: 5 }).limits).toEqual({
			...DEFAULT_ENDPOINT_LIMITS,
			idleTimeoutMs: 5,
		});
	});
});

describe('answers that never end (issue 28)', () => {
	it('a stream of keepalive comments only ends at the idle timeout, not retried', async () => {
		const { baseUrl } = await endless('keepalive-forever');
		const failure = streamed(client(baseUrl));
		await expect(failure).rejects.toBeInstanceOf(EndpointTimeoutError);
		await expect(failure).rejects.toThrow(
			`${baseUrl} did not answer in time: no event in the stream for 1 s. Nothing of it was kept, and it was not retried`,
		);
		expect(proxy?.requests).toBe(1);
	});

	it('a server that never sends headers ends at the idle timeout, streamed or JSON', async () => {
		const { baseUrl } = await endless('no-headers');
		const api = client(baseUrl);
		await expect(streamed(api)).rejects.toThrow(
			/did not answer in time: no answer headers within 1 s/,
		);
		await expect(api.completion({ model: 'm', prompt: 'x' })).rejects.toBeInstanceOf(
			EndpointTimeoutError,
		);
		expect(proxy?.requests).toBe(2);
	});

	it('text deltas past max_tokens stop the stream; without max_tokens, the size cap does', async () => {
		const { baseUrl } = await endless('endless-deltas');
		const failure = streamed(client(baseUrl), { max_tokens: 8 });
		await expect(failure).rejects.toBeInstanceOf(EndpointTooLargeError);
		await expect(failure).rejects.toThrow(
			`${baseUrl} sent an answer too large to take: the stream went on past max_tokens 8 (9 events with text)`,
		);
		await expect(streamed(client(baseUrl))).rejects.toThrow(
			/too large to take: a streamed answer over the cap of 65536 characters/,
		);
		expect(proxy?.requests).toBe(2);
	});

	it('a 200 JSON body that never ends fails at the size cap, not retried', async () => {
		const { baseUrl } = await endless('endless-json');
		const failure = client(baseUrl).completion({ model: 'm', prompt: 'x' });
		await expect(failure).rejects.toBeInstanceOf(EndpointTooLargeError);
		await expect(failure).rejects.toThrow(
			`${baseUrl} sent an answer too large to take (HTTP 200): a body over the cap of 65536 bytes`,
		);
		expect(proxy?.requests).toBe(1);
	});

	it('a 500 whose body never ends is read up to its cap, and retried as a 500', async () => {
		const { baseUrl } = await endless('endless-500');
		const failure = client(baseUrl).completion({ model: 'm', prompt: 'x' });
		await expect(failure).rejects.toBeInstanceOf(EndpointServerError);
		await expect(failure).rejects.toThrow(
			`${baseUrl} failed (HTTP 500) and retries did not help. Look at the server's log; it may be overloaded or out of memory. The server said: overloaded overloaded`,
		);
		expect(proxy?.requests).toBe(4);
		expect(MAX_ERROR_BODY_BYTES).toBe(64 * 1024);
	});

	it('a stream of empty events (no comment) ends at the deadline', async () => {
		server = await startRecordingServer((_request, response) => {
			response.writeHead(200, { 'content-type': 'text/event-stream' });
			const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: {} }] })}\n\n`;
			const timer = setInterval(() => response.write(event), 50);
			response.on('close', () => clearInterval(timer));
		});
		const failure = streamed(client(server.baseUrl, { ...LIMITS, deadlineMs: 1_500 }));
		await expect(failure).rejects.toBeInstanceOf(EndpointTimeoutError);
		await expect(failure).rejects.toThrow(
			'did not answer in time: the answer was not complete within the deadline of 1.5 s',
		);
	});

	it('retries never wait past the deadline: a 503 asking for 60 s ends at it', async () => {
		server = await startRecordingServer((_request, response) => {
			response.writeHead(503, { 'content-type': 'application/json', 'retry-after': '60' });
			response.end('{"error": {"message": "busy"}}');
		});
		const failure = client(server.baseUrl, { ...LIMITS, deadlineMs: 2_000 }).completion({
			model: 'm',
			prompt: 'x',
		});
		await expect(failure).rejects.toBeInstanceOf(EndpointTimeoutError);
		await expect(failure).rejects.toThrow(/within the deadline of 2 s/);
		expect(server.requests).toHaveLength(1);
	});

	it('names the variables that set the limits in a terminal, not on a page', () => {
		const failure = { kind: 'timeout', detail: 'x' } as const;
		const url = 'http://127.0.0.1:8000/v1';
		expect(endpointFailureMessage(failure, { baseUrl: url })).toMatch(
			/limits are set with BENCHTOP_ENDPOINT_IDLE_S and BENCHTOP_ENDPOINT_DEADLINE_S\.$/,
		);
		expect(
			endpointFailureMessage(failure, { baseUrl: url, pageOrigin: 'http://127.0.0.1:4173' }),
		).not.toMatch(/BENCHTOP_/);
		expect(endpointFailureMessage({ kind: 'too-large', detail: 'x' }, { baseUrl: url })).toMatch(
			/does it honour max_tokens\?\)\. The size cap is set with BENCHTOP_ENDPOINT_MAX_BODY_MIB\.$/,
		);
	});
});

describe('readBoundedText (answers read outside the client, e.g. /tokenize)', () => {
	it('reads a body up to the cap, and gives up on one that never ends', async () => {
		server = await startRecordingServer((_request, response) => {
			response.writeHead(200, { 'content-type': 'application/json' });
			response.end('{"token_strs": ["a"]}');
		});
		const small = await fetch(`${server.baseUrl}/x`, { method: 'POST', body: '{}' });
		expect(await readBoundedText(small, LIMITS)).toBe('{"token_strs": ["a"]}');
		const { baseUrl } = await endless('endless-json');
		const never = await fetch(`${baseUrl}/x`, { method: 'POST', body: '{}' });
		expect(await readBoundedText(never, LIMITS)).toBeUndefined();
	});
});
