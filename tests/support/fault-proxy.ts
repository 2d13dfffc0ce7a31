// A small fault-injecting HTTP proxy for tests (Node, 127.0.0.1, port 0): it forwards each request
// to a real server (our `serve`) unless the plan names a fault for it. Faults are the ways an
// endpoint answer goes wrong in the field: status codes, resets, drops mid-body, delays, malformed
// JSON, HTML or empty 200s, and streams cut before `[DONE]`. For a page (Playwright), CORS passes
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
	| 'truncated-stream';

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
