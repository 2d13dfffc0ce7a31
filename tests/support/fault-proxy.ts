// A small fault-injecting HTTP proxy for tests (Node, 127.0.0.1, port 0): it forwards each request
// to a real server (our `serve`) unless the plan names a fault for it. Faults are the ways an
// endpoint answer goes wrong in the field: status codes, resets, drops mid-body, delays, malformed
// JSON, HTML or empty 200s, and streams cut before `[DONE]`; and (issue 28) answers that never
// end: headers never sent, an event stream of `: keepalive` comments only, text deltas past any
// `max_tokens`, a 500 or a 200 JSON body that never ends. Those stop by themselves after
// ENDLESS_MS or ENDLESS_BYTES (whichever comes first), or when the client hangs up. For a page (Playwright), CORS passes
// through: preflights go to the target unfaulted, its `access-control-*` headers come back, and an
// injected fault carries the same allow-origin (a browser hides an answer without it as a network
// error, so a fault would look like "cannot reach").
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
	| '401'
	| '429'
	| '500'
	| '503'
	| 'reset'
	| 'drop-mid-body'
	| 'delay'
	| 'malformed-json'
	| 'html-200'
	| 'empty-200'
	| 'truncated-stream'
	| EndlessFault;

/** Answers that never end (until ENDLESS_MS / ENDLESS_BYTES): not in FAULTS, no retry helps. */
export type EndlessFault =
	'no-headers' | 'keepalive-forever' | 'endless-deltas' | 'endless-500' | 'endless-json';

export const ENDLESS_FAULTS: readonly EndlessFault[] = [
	'no-headers',
	'keepalive-forever',
	'endless-deltas',
	'endless-500',
	'endless-json',
];

/** How long, and how many bytes, an endless answer goes on before the proxy ends it itself. */
export const ENDLESS_MS = 30_000;
export const ENDLESS_BYTES = 256 * 1024 * 1024;

export const FAULTS: readonly Fault[] = [
	'401',
	'429',
	'500',
	'503',
	'reset',
	'drop-mid-body',
	'delay',
	'malformed-json',
	'html-200',
	'empty-200',
	'truncated-stream',
];

/** Which fault (if any) the n-th request (1-based) to `path` gets. */
export type FaultPlan = (index: number, path: string) => Fault | undefined;

export interface FaultProxy {
	/** `http://127.0.0.1:<port>/v1`. */
	readonly baseUrl: string;
	/** Requests seen, and the faults injected. */
	readonly requests: number;
	readonly injected: readonly Fault[];
	close(): Promise<void>;
}

const DELAY_MS = 300;

function readBody(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

/** Forwards to the target and returns its whole answer. */
async function forward(
	target: string,
	request: IncomingMessage,
	body: Buffer,
): Promise<{ status: number; type: string; text: string; cors: Record<string, string> }> {
	const headers: Record<string, string> = {};
	for (const name of [
		'content-type',
		'authorization',
		'accept',
		'origin',
		'access-control-request-method',
		'access-control-request-headers',
	]) {
		const value = request.headers[name];
		if (typeof value === 'string') headers[name] = value;
	}
	const upstream = await fetch(`${target}${(request.url ?? '').replace(/^\/v1/, '')}`, {
		method: request.method ?? 'GET',
		headers,
		...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
	});
	const cors: Record<string, string> = {};
	upstream.headers.forEach((value, name) => {
		if (name.startsWith('access-control-') || name === 'vary') cors[name] = value;
	});
	return {
		status: upstream.status,
		type: upstream.headers.get('content-type') ?? 'application/json',
		text: await upstream.text(),
		cors,
	};
}

/** For an injected fault: the allow-origin the target would have sent to a page (none in Node). */
function corsOf(request: IncomingMessage): Record<string, string> {
	const origin = request.headers.origin;
	return typeof origin === 'string'
		? { 'access-control-allow-origin': origin, vary: 'Origin' }
		: {};
}

/**
 * Writes `piece()` over and over (respecting backpressure), pausing `pauseMs` between pieces,
 * until ENDLESS_MS or ENDLESS_BYTES have passed or the client hung up; then ends the answer.
 */
function writeEndlessly(response: ServerResponse, piece: () => string, pauseMs: number): void {
	const started = Date.now();
	let written = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const stop = (): void => {
		clearTimeout(timer);
		if (!response.destroyed) response.end();
	};
	response.on('close', () => clearTimeout(timer));
	const next = (): void => {
		for (;;) {
			if (response.destroyed) return;
			if (Date.now() - started > ENDLESS_MS || written > ENDLESS_BYTES) return stop();
			const text = piece();
			written += text.length;
			const more = response.write(text);
			if (pauseMs > 0) {
				timer = setTimeout(next, pauseMs);
				return;
			}
			if (!more) {
				response.once('drain', next);
				return;
			}
		}
	};
	next();
}

/** Answers with a never-ending answer of `fault`'s kind. */
function answerEndlessly(fault: EndlessFault, request: IncomingMessage, response: ServerResponse) {
	const cors = corsOf(request);
	switch (fault) {
		case 'no-headers': {
			// Nothing at all; the socket is closed after ENDLESS_MS.
			const timer = setTimeout(() => request.socket.destroy(), ENDLESS_MS);
			response.on('close', () => clearTimeout(timer));
			return;
		}
		case 'keepalive-forever':
			response.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
			writeEndlessly(response, () => ': keepalive\n\n', 20);
			return;
		case 'endless-deltas': {
			// Text deltas whatever the request's max_tokens, never a finish_reason nor [DONE].
			const event = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: ' la' }, text: ' la' }] })}\n\n`;
			const piece = event.repeat(64);
			response.writeHead(200, { ...cors, 'content-type': 'text/event-stream' });
			writeEndlessly(response, () => piece, 0);
			return;
		}
		case 'endless-500':
			response.writeHead(500, { ...cors, 'content-type': 'text/plain', 'retry-after': '0' });
			writeEndlessly(response, () => 'overloaded '.repeat(1024), 0);
			return;
		case 'endless-json':
			response.writeHead(200, { ...cors, 'content-type': 'application/json' });
			response.write('{"choices": [{"index": 0, "text": "');
			writeEndlessly(response, () => 'a'.repeat(16 * 1024), 0);
			return;
	}
}

function sendStatus(response: ServerResponse, status: number): void {
	response.writeHead(status, {
		...corsOf(response.req),
		'content-type': 'application/json',
		'retry-after': '0',
	});
	response.end(JSON.stringify({ error: { message: `injected ${status}` } }));
}

async function answer(
	fault: Fault | undefined,
	target: string,
	request: IncomingMessage,
	response: ServerResponse,
	body: Buffer,
): Promise<void> {
	if (fault !== undefined && (ENDLESS_FAULTS as readonly Fault[]).includes(fault)) {
		answerEndlessly(fault as EndlessFault, request, response);
		return;
	}
	switch (fault) {
		case '401':
		case '429':
		case '500':
		case '503':
			return sendStatus(response, Number(fault));
		case 'reset':
			request.socket.destroy();
			return;
		case 'html-200':
			response.writeHead(200, { ...corsOf(request), 'content-type': 'text/html' });
			response.end('<!doctype html><title>Sign in</title><form action="/login"></form>');
			return;
		case 'empty-200':
			response.writeHead(200, { ...corsOf(request), 'content-type': 'application/json' });
			response.end();
			return;
		case 'malformed-json':
			response.writeHead(200, { ...corsOf(request), 'content-type': 'application/json' });
			response.end('{"choices": [{"index": 0, "text": "unfinish');
			return;
		case 'delay':
			await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
			break;
		default:
			break;
	}
	const upstream = await forward(target, request, body);
	if (fault === 'drop-mid-body') {
		response.writeHead(upstream.status, {
			...upstream.cors,
			'content-type': upstream.type,
			'content-length': String(Buffer.byteLength(upstream.text)),
		});
		response.write(upstream.text.slice(0, Math.floor(upstream.text.length / 2)));
		setTimeout(() => request.socket.destroy(), 20);
		return;
	}
	const text =
		fault === 'truncated-stream' && upstream.text.includes('data: [DONE]')
			? upstream.text.slice(0, upstream.text.indexOf('data: [DONE]'))
			: upstream.text;
	response.writeHead(upstream.status, { ...upstream.cors, 'content-type': upstream.type });
	response.end(text);
}

/** Starts a proxy in front of `target` (a base URL ending in /v1) that injects `plan`'s faults. */
export async function startFaultProxy(target: string, plan: FaultPlan): Promise<FaultProxy> {
	let requests = 0;
	const injected: Fault[] = [];
	const server = createServer((request, response) => {
		if (request.method === 'OPTIONS') {
			// A CORS preflight: never faulted nor counted, so plans see the same requests as in Node.
			void forward(target, request, Buffer.alloc(0))
				.then((upstream) => {
					response.writeHead(upstream.status, upstream.cors);
					response.end(upstream.text);
				})
				.catch(() => response.destroy());
			return;
		}
		requests += 1;
		const fault = plan(requests, request.url ?? '');
		if (fault) injected.push(fault);
		void readBody(request)
			.then((body) => answer(fault, target, request, response, body))
			.catch(() => {
				if (!response.headersSent) sendStatus(response, 502);
				else response.destroy();
			});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		get requests() {
			return requests;
		},
		injected,
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
