/**
 * The HTTP plumbing of `serve` (node:http): OpenAI-style errors, a JSON body read under a size cap
 * and an abort signal, JSON answers and server-sent event streams.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CancelledError } from '../../worker/engine-errors';

/** An answer with an OpenAI-style error body (`{ error: { message, type, param, code } }`). */
export class HttpError extends Error {
	override name = 'HttpError';
	constructor(
		readonly status: number,
		message: string,
		readonly type = 'invalid_request_error',
		readonly param: string | null = null,
		readonly code: string | null = null,
		/** Extra response headers (`retry-after` on 503). */
		readonly headers: Readonly<Record<string, string>> = {},
	) {
		super(message);
	}
}

/** The OpenAI error JSON of an HttpError. */
export function errorJson(error: HttpError): unknown {
	return {
		error: { message: error.message, type: error.type, param: error.param, code: error.code },
	};
}

export function sendJson(
	response: ServerResponse,
	status: number,
	json: unknown,
	headers: Readonly<Record<string, string>> = {},
): void {
	response.writeHead(status, { ...headers, 'content-type': 'application/json' });
	response.end(JSON.stringify(json));
}

/** Starts a server-sent event stream; the returned function sends one `data:` event. */
export function startEventStream(response: ServerResponse): (json: unknown) => void {
	response.writeHead(200, {
		'content-type': 'text/event-stream',
		'cache-control': 'no-cache',
		connection: 'keep-alive',
	});
	return (json) => response.write(`data: ${JSON.stringify(json)}\n\n`);
}

/** Ends an event stream the OpenAI way. */
export function endEventStream(response: ServerResponse): void {
	response.end('data: [DONE]\n\n');
}

/**
 * Reads the request body as JSON: 413 past `maxBytes` (checked on `content-length` before
 * reading, and while reading), 408 (and the connection closed) when the whole body has not come
 * within `deadlineMs`, 400 when it is not JSON, CancelledError when `signal` aborts.
 */
export function readJsonBody(
	request: IncomingMessage,
	maxBytes: number,
	signal: AbortSignal,
	deadlineMs: number,
): Promise<unknown> {
	const tooLarge = () => new HttpError(413, `The request body is larger than ${maxBytes} bytes.`);
	const tooSlow = () =>
		new HttpError(
			408,
			`The request body did not arrive within ${deadlineMs / 1000} s: send it whole, at once.`,
			'invalid_request_error',
			null,
			'body_timeout',
			{ connection: 'close' },
		);
	const declared = Number(request.headers['content-length']);
	if (Number.isFinite(declared) && declared > maxBytes) {
		request.resume();
		return Promise.reject(tooLarge());
	}
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const fail = (error: Error): void => {
			cleanUp();
			request.resume();
			reject(error);
		};
		const timer = setTimeout(() => fail(tooSlow()), deadlineMs);
		const onAbort = (): void => fail(new CancelledError('The request was cancelled.'));
		const onData = (chunk: Buffer): void => {
			size += chunk.length;
			if (size > maxBytes) fail(tooLarge());
			else chunks.push(chunk);
		};
		const onEnd = (): void => {
			cleanUp();
			try {
				resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
			} catch {
				reject(new HttpError(400, 'The request body is not valid JSON.'));
			}
		};
		const cleanUp = (): void => {
			clearTimeout(timer);
			signal.removeEventListener('abort', onAbort);
			request.off('data', onData).off('end', onEnd).off('error', fail);
		};
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort);
		request.on('data', onData).on('end', onEnd).on('error', fail);
	});
}
