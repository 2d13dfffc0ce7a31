/**
 * `serve`'s server (node:http) over one local model: CORS for loopback and listed origins, an
 * optional API key, a bounded queue (503 + Retry-After when full), a per-request timeout, generic
 * 500s with a request id, and a shutdown that lets running generations stop before the model goes.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_MODEL_ID, type ModelDtype } from '../../core/model/model-spec';
import { resolveLocalSpec } from '../../providers/open-model';
import type { InferenceEngine } from '../../worker/engine';
import { CancelledError } from '../../worker/engine-errors';
import { createNodeEngine } from '../../worker/node-engine';
import type { ModelInfo } from '../../worker/protocol';
import { authorizationMatches } from './api-key';
import { corsGrant } from './cors';
import { errorJson, HttpError, readJsonBody, sendJson } from './http-io';
import { modelListJson } from './openai-shapes';
import { RequestQueue } from './request-queue';
import { answerTokenize, longestTokenChars, parseTokenizeRequest } from './tokenize-route';
import {
	answerChatCompletions,
	answerCompletions,
	answerModel,
	FALLBACK_CHARS_PER_TOKEN,
	parseChatRequest,
	parseCompletionRequest,
	type ModelRoutes,
} from './routes';

/** Requests that may wait behind the running one before the server answers 503. */
export const DEFAULT_MAX_QUEUE = 32;
/** Longest a request may take, from arrival (waiting included) to its last byte. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 300_000;
/** Largest request body accepted (bytes). */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Longest a request body may take to arrive, from the request's arrival (then 408). */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/**
 * Bytes of request bodies read at once, by their declared `content-length` (a body sent without
 * one counts as {@link MAX_BODY_BYTES}); a request past it gets 503 before its body is read.
 */
export const MAX_READING_BYTES = 64 * 1024 * 1024;
/** `Retry-After` (seconds) on a 503 from a full queue. */
export const RETRY_AFTER_SECONDS = 5;

export interface ServeOptions {
	/** Model spec string (default gpt2-en-small); also the model id served at /v1/models. */
	readonly model?: string;
	readonly host?: string;
	/** 0 picks a free port. Default 8000. */
	readonly port?: number;
	/** Origins CORS allows besides loopback ones (`http://127.0.0.1:*`, …); `*` allows any. */
	readonly allowedOrigins?: readonly string[];
	/** When set, every /v1 request needs `Authorization: Bearer <key>`. */
	readonly apiKey?: string;
	/** Requests waiting behind the running one (default {@link DEFAULT_MAX_QUEUE}). */
	readonly maxQueue?: number;
	/** Default {@link DEFAULT_REQUEST_TIMEOUT_MS}. */
	readonly requestTimeoutMs?: number;
	/** Default {@link DEFAULT_BODY_TIMEOUT_MS}. */
	readonly bodyTimeoutMs?: number;
	readonly dtype?: ModelDtype;
	readonly threads?: number;
	/** A caller's engine keeps its models when the server closes (other servers may share them). */
	readonly engine?: InferenceEngine;
	/** The server's log (failures with their request ids, timeouts). */
	readonly log?: (line: string) => void;
}

export interface RunningServer {
	/** `http://host:port/v1`. */
	readonly baseUrl: string;
	readonly modelId: string;
	readonly info: ModelInfo;
	/** Stops accepting, stops running requests, then disposes the model (its own engine only). */
	close(): Promise<void>;
}

/** Why a request's signal aborted. */
type StopReason = 'client-gone' | 'timeout' | 'shutdown';

/** What every request of one server shares. */
interface ServerState {
	readonly routes: ModelRoutes;
	readonly options: ServeOptions;
	readonly queue: RequestQueue;
	readonly log: (line: string) => void;
	readonly timeoutMs: number;
	readonly bodyTimeoutMs: number;
	/** Bytes of the bodies being read now (see {@link MAX_READING_BYTES}). */
	readingBytes: number;
	/** Running requests' controllers, aborted on shutdown. */
	readonly controllers: Set<AbortController>;
	closing: boolean;
}

/** Starts the server; resolves once it listens (the model is loaded first). */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
	const modelId = options.model ?? DEFAULT_MODEL_ID;
	const host = options.host ?? '127.0.0.1';
	const engine =
		options.engine ??
		createNodeEngine(options.threads !== undefined ? { threads: options.threads } : {});
	const spec = await resolveLocalSpec(modelId, options.dtype);
	const info = await engine.loadModel({ spec });
	const state: ServerState = {
		routes: {
			engine,
			info,
			modelId,
			created: Math.floor(Date.now() / 1000),
			charsPerToken: (await longestTokenChars(info)) ?? FALLBACK_CHARS_PER_TOKEN,
		},
		options,
		queue: new RequestQueue(options.maxQueue ?? DEFAULT_MAX_QUEUE),
		log: options.log ?? (() => undefined),
		timeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
		bodyTimeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
		readingBytes: 0,
		controllers: new Set(),
		closing: false,
	};
	const running = new Set<Promise<void>>();
	const server: Server = createServer((request, response) => {
		const handled = handleRequest(state, request, response);
		running.add(handled);
		void handled.finally(() => running.delete(handled));
	});
	try {
		await listen(server, options.port ?? 8000, host);
	} catch (error) {
		if (!options.engine) await engine.disposeModel(info.modelKey);
		throw error;
	}
	const { port } = server.address() as AddressInfo;
	const urlHost = host.includes(':') ? `[${host}]` : host;
	let closed: Promise<void> | undefined;
	const close = async (): Promise<void> => {
		state.closing = true;
		const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
		for (const controller of state.controllers) controller.abort('shutdown' satisfies StopReason);
		// Running generations stop within one token step; only then may the model go.
		await Promise.allSettled([...running]);
		server.closeAllConnections();
		await stopped;
		if (!options.engine) await engine.disposeModel(info.modelKey);
	};
	return {
		baseUrl: `http://${urlHost}:${port}/v1`,
		modelId,
		info,
		close: () => (closed ??= close()),
	};
}

function listen(server: Server, port: number, host: string): Promise<void> {
	return new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
}

/** Answers one request; never rejects (failures become error answers and log lines). */
async function handleRequest(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
): Promise<void> {
	const requestId = randomUUID();
	response.setHeader('x-request-id', requestId);
	const controller = new AbortController();
	const stop = (reason: StopReason) => controller.abort(reason);
	const timer = setTimeout(() => stop('timeout'), state.timeoutMs);
	// A client that goes away (closed stream, cancelled fetch) stops the generation.
	response.on('close', () => {
		if (!response.writableFinished) stop('client-gone');
	});
	state.controllers.add(controller);
	try {
		await route(state, request, response, controller.signal);
	} catch (error) {
		answerFailure(state, requestId, error, response, controller.signal);
	} finally {
		clearTimeout(timer);
		state.controllers.delete(controller);
	}
}

async function route(
	state: ServerState,
	request: IncomingMessage,
	response: ServerResponse,
	signal: AbortSignal,
): Promise<void> {
	const path = (request.url ?? '/').split('?')[0] ?? '/';
	if (answerCors(state.options.allowedOrigins ?? [], request, response)) return;
	if (state.closing) {
		throw new HttpError(503, 'The server is shutting down.', 'server_error', null, null, {
			connection: 'close',
		});
	}
	const key = state.options.apiKey;
	// vLLM guards /v1 only; /tokenize is guarded too (it runs the model's tokenizer).
	if (key !== undefined && (path.startsWith('/v1/') || path === '/tokenize')) {
		if (!authorizationMatches(request.headers.authorization, key)) {
			throw new HttpError(
				401,
				'Incorrect or missing API key: send Authorization: Bearer <the key serve was started with>.',
				'invalid_request_error',
				null,
				'invalid_api_key',
			);
		}
	}
	const { routes } = state;
	if (request.method === 'GET' && path === '/v1/models') {
		sendJson(
			response,
			200,
			modelListJson(routes.modelId, routes.created, routes.info.maxPositions),
		);
	} else if (request.method === 'GET' && path.startsWith('/v1/models/')) {
		answerModel(routes, path.slice('/v1/models/'.length), response);
	} else if (request.method === 'POST' && path === '/v1/completions') {
		await queued(state, request, signal, async (body) => {
			const parsed = parseCompletionRequest(routes, body);
			return () => answerCompletions(routes, parsed, response, signal);
		});
	} else if (request.method === 'POST' && path === '/v1/chat/completions') {
		await queued(state, request, signal, async (body) => {
			const parsed = parseChatRequest(routes, body);
			return () => answerChatCompletions(routes, parsed, response, signal);
		});
	} else if (request.method === 'POST' && path === '/tokenize') {
		await queued(state, request, signal, async (body) => {
			const parsed = parseTokenizeRequest(routes, body);
			return () => answerTokenize(routes, parsed, response);
		});
	} else {
		throw new HttpError(
			404,
			`No route ${request.method ?? ''} ${path}: this server has GET /v1/models, GET /v1/models/{id}, POST /v1/completions, POST /v1/chat/completions and POST /tokenize.`,
		);
	}
}

/**
 * Sets the CORS headers of an allowed origin and answers a preflight (true: answered). A request
 * from an origin that is not allowed gets 403 before any work: browsers send simple POSTs without
 * a preflight, and the model must not run for a page that may not read the answer.
 */
function answerCors(
	listed: readonly string[],
	request: IncomingMessage,
	response: ServerResponse,
): boolean {
	const origin = request.headers.origin;
	const granted = corsGrant(listed, origin);
	if (origin !== undefined && granted === undefined) {
		throw new HttpError(
			403,
			`Origin ${origin} is not allowed: start serve with --allowed-origins ${origin}.`,
		);
	}
	if (granted !== undefined) {
		response.setHeader('access-control-allow-origin', granted);
		response.setHeader('access-control-expose-headers', 'x-request-id, retry-after');
		if (granted !== '*') response.setHeader('vary', 'Origin');
	}
	if (request.method !== 'OPTIONS') return false;
	response.writeHead(204, {
		'access-control-allow-methods': 'GET, POST, OPTIONS',
		'access-control-allow-headers':
			request.headers['access-control-request-headers'] ?? 'authorization, content-type',
		'access-control-max-age': '600',
	});
	response.end();
	return true;
}

function busy(message: string): HttpError {
	return new HttpError(503, message, 'server_error', null, 'queue_full', {
		'retry-after': String(RETRY_AFTER_SECONDS),
	});
}

/**
 * A model request through the queue: the body is read first, within the body deadline (408) and
 * the bytes read at once (503), so that clients that send slowly hold no place; it is checked
 * (`prepare`: 400 / 404, prompt sizes included, before any tokenizing); then a place is taken
 * (503 + Retry-After when none is left) and the answer runs on its turn.
 */
async function queued(
	state: ServerState,
	request: IncomingMessage,
	signal: AbortSignal,
	prepare: (body: unknown) => Promise<() => Promise<void>>,
): Promise<void> {
	const declared = Number(request.headers['content-length']);
	const size = Number.isFinite(declared) ? Math.min(declared, MAX_BODY_BYTES) : MAX_BODY_BYTES;
	if (state.readingBytes + size > MAX_READING_BYTES) {
		request.resume();
		throw busy(
			`The server is busy reading other requests' bodies: retry in ${RETRY_AFTER_SECONDS} s.`,
		);
	}
	state.readingBytes += size;
	let body: unknown;
	try {
		body = await readJsonBody(request, MAX_BODY_BYTES, signal, state.bodyTimeoutMs);
	} finally {
		state.readingBytes -= size;
	}
	const answer = await prepare(body);
	const ticket = state.queue.admit();
	if (!ticket) {
		throw busy(
			`The server is busy (${state.queue.size} requests running or waiting): retry in ${RETRY_AFTER_SECONDS} s.`,
		);
	}
	try {
		await ticket.turn(signal);
		await answer();
	} finally {
		ticket.release();
	}
}

/** The answer to a failed request: its own status for HttpErrors, a generic 500 otherwise. */
function answerFailure(
	state: ServerState,
	requestId: string,
	error: unknown,
	response: ServerResponse,
	signal: AbortSignal,
): void {
	const reason = signal.aborted ? (signal.reason as StopReason) : undefined;
	const failure = httpErrorOf(state, requestId, error, reason);
	if (failure === undefined || response.headersSent) {
		// A cancelled request, or a stream already under way: end it as it stands.
		if (reason === 'client-gone') response.destroy();
		else response.end();
		return;
	}
	sendJson(response, failure.status, errorJson(failure), failure.headers);
}

/** The HttpError to answer with (undefined: the client went away), logging what needs it. */
function httpErrorOf(
	state: ServerState,
	requestId: string,
	error: unknown,
	reason: StopReason | undefined,
): HttpError | undefined {
	if (error instanceof HttpError) return error;
	if (error instanceof CancelledError || reason !== undefined) {
		if (reason === 'timeout') {
			const seconds = state.timeoutMs / 1000;
			state.log(`request ${requestId}: stopped after ${seconds} s (--request-timeout).`);
			return new HttpError(
				504,
				`The request took longer than this server's limit of ${seconds} s.`,
				'server_error',
				null,
				'timeout',
			);
		}
		if (reason === 'shutdown') {
			return new HttpError(503, 'The server is shutting down.', 'server_error', null, null, {
				connection: 'close',
			});
		}
		return undefined;
	}
	if (error instanceof RangeError) return new HttpError(400, error.message);
	const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
	state.log(`request ${requestId} failed: ${detail}`);
	return new HttpError(
		500,
		`The server failed on this request (request id ${requestId}); its log has the details.`,
		'server_error',
	);
}
