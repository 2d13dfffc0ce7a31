/**
 * `serve [--model M] [--host 127.0.0.1] [--port 8000] [--allowed-origins ...] [--api-key K]`: an
 * OpenAI-compatible HTTP server (node:http) over a local model, for classrooms and as the real
 * server the endpoint tests talk to. `GET /v1/models`, `POST /v1/completions` (vLLM's echoed
 * prompt logprobs: natural logs, first null, `text_offset`) and `POST /v1/chat/completions`
 * (also streamed as server-sent events); `usage` on every answer; CORS for the allowed origins;
 * OpenAI-style error JSON (400 bad input, 401 wrong key, 404 unknown model or route).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import {
	echoLogprobsFromScoredTokens,
	type EchoLogprobsJson,
} from '../../core/model/echo-logprobs';
import type { GenerationParams, GenerationPrompt } from '../../core/model/generation';
import { DEFAULT_MODEL_ID, type ModelDtype } from '../../core/model/model-spec';
import { resolveLocalSpec } from '../../providers/open-model';
import type { InferenceEngine } from '../../worker/engine';
import { CancelledError } from '../../worker/engine-errors';
import { createNodeEngine } from '../../worker/node-engine';
import type { ModelInfo } from '../../worker/protocol';
import { CliInputError, type CliCommand } from '../cli-io';
import { parseCommandArgs } from '../parse-command-args';

export const SERVE_USAGE =
	'usage: serve [--model <bundled name | folder | hub owner/name>] [--host 127.0.0.1] [--port 8000] ' +
	'[--allowed-origins <origin,origin | *>] [--api-key <key>] [--dtype fp32|fp16|q8] [--threads <n>]';

/** Largest request body accepted (bytes). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** OpenAI's default when `max_tokens` is absent on `/v1/completions`. */
const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

export interface ServeOptions {
	/** Model spec string (default gpt2-en-small); also the model id served at /v1/models. */
	readonly model?: string;
	readonly host?: string;
	/** 0 picks a free port. Default 8000. */
	readonly port?: number;
	/** Origins allowed by CORS; `*` any (default on a loopback host). */
	readonly allowedOrigins?: readonly string[];
	/** When set, every /v1 request needs `Authorization: Bearer <key>`. */
	readonly apiKey?: string;
	readonly dtype?: ModelDtype;
	readonly threads?: number;
	readonly engine?: InferenceEngine;
	readonly log?: (line: string) => void;
}

export interface RunningServer {
	/** `http://host:port/v1`. */
	readonly baseUrl: string;
	readonly modelId: string;
	readonly info: ModelInfo;
	close(): Promise<void>;
}

/** An answer with an OpenAI-style error body. */
class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly type = 'invalid_request_error',
		readonly param: string | null = null,
		readonly code: string | null = null,
	) {
		super(message);
	}
}

const Stop = v.optional(v.nullable(v.union([v.string(), v.array(v.string())])));
const SamplingFields = {
	model: v.optional(v.string()),
	max_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
	temperature: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(2)))),
	top_p: v.optional(v.nullable(v.pipe(v.number(), v.gtValue(0), v.maxValue(1)))),
	stop: Stop,
	seed: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
	n: v.optional(v.nullable(v.literal(1))),
	stream: v.optional(v.nullable(v.boolean())),
	stream_options: v.optional(v.nullable(v.looseObject({}))),
	frequency_penalty: v.optional(v.nullable(v.number())),
	presence_penalty: v.optional(v.nullable(v.number())),
};
const CompletionRequest = v.looseObject({
	...SamplingFields,
	prompt: v.union([v.string(), v.pipe(v.array(v.string()), v.minLength(1))]),
	echo: v.optional(v.nullable(v.boolean())),
	logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)))),
});
const ChatRequest = v.looseObject({
	...SamplingFields,
	messages: v.pipe(
		v.array(
			v.looseObject({
				role: v.string(),
				content: v.string(),
				name: v.optional(v.string()),
			}),
		),
		v.minLength(1),
	),
});
type SamplingRequest = v.InferOutput<typeof CompletionRequest> | v.InferOutput<typeof ChatRequest>;

/** The request's generation parameters: exactly the ones it set. */
function generationParams(body: SamplingRequest, defaultMaxTokens?: number): GenerationParams {
	const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined);
	const maxTokens = body.max_tokens ?? defaultMaxTokens;
	return {
		...(body.temperature != null ? { temperature: body.temperature } : {}),
		...(body.top_p != null ? { top_p: body.top_p } : {}),
		...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
		...(stop !== undefined && stop.length > 0 ? { stop } : {}),
		...(body.seed != null ? { seed: body.seed } : {}),
		...(body.frequency_penalty != null ? { frequency_penalty: body.frequency_penalty } : {}),
		...(body.presence_penalty != null ? { presence_penalty: body.presence_penalty } : {}),
	};
}

function parseBody<T extends v.GenericSchema>(schema: T, body: unknown): v.InferOutput<T> {
	const parsed = v.safeParse(schema, body);
	if (parsed.success) return parsed.output;
	const issue = parsed.issues[0];
	const path = issue ? v.getDotPath(issue) : null;
	throw new HttpError(
		400,
		`${path ? `'${path}': ` : ''}${issue?.message ?? 'invalid request'}`,
		'invalid_request_error',
		path,
	);
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request) {
		size += (chunk as Buffer).length;
		if (size > MAX_BODY_BYTES) throw new HttpError(413, 'The request body is too large.');
		chunks.push(chunk as Buffer);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		throw new HttpError(400, 'The request body is not valid JSON.');
	}
}

function isLoopback(host: string): boolean {
	return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** Starts the server; resolves once it listens (the model is loaded first). */
export async function startServer(options: ServeOptions = {}): Promise<RunningServer> {
	const modelId = options.model ?? DEFAULT_MODEL_ID;
	const host = options.host ?? '127.0.0.1';
	const allowed = options.allowedOrigins ?? (isLoopback(host) ? ['*'] : []);
	const log = options.log ?? (() => undefined);
	const engine =
		options.engine ??
		createNodeEngine(options.threads !== undefined ? { threads: options.threads } : {});
	const spec = await resolveLocalSpec(modelId, options.dtype);
	const info = await engine.loadModel({ spec });
	const created = Math.floor(Date.now() / 1000);

	const allowOrigin = (origin: string | undefined): string | undefined => {
		if (origin === undefined) return undefined;
		if (allowed.includes('*')) return '*';
		return allowed.includes(origin) ? origin : undefined;
	};

	const countTokens = async (text: string): Promise<number> =>
		(await engine.tokenize({ modelKey: info.modelKey, text, convention: 'reference' })).tokens
			.length;

	const scoreEcho = async (text: string, firstOffset = 0): Promise<EchoLogprobsJson> => {
		const result = await engine.scoreTexts({
			modelKey: info.modelKey,
			texts: [text],
			convention: 'reference',
		});
		return echoLogprobsFromScoredTokens(text, result.texts[0]?.tokens ?? [], firstOffset);
	};

	const checkModel = (model: string | undefined): void => {
		if (model !== undefined && model !== modelId) {
			throw new HttpError(
				404,
				`The model '${model}' does not exist: this server serves '${modelId}' (see /v1/models).`,
				'invalid_request_error',
				'model',
				'model_not_found',
			);
		}
	};

	const generate = (
		prompt: GenerationPrompt,
		params: GenerationParams,
		signal: AbortSignal,
		onToken?: (text: string) => void,
	) =>
		engine.generate(
			{ modelKey: info.modelKey, prompt, params },
			{ signal, ...(onToken ? { onToken } : {}) },
		);

	const sendJson = (response: ServerResponse, status: number, json: unknown): void => {
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(JSON.stringify(json));
	};

	const startStream = (response: ServerResponse): ((json: unknown) => void) => {
		response.writeHead(200, {
			'content-type': 'text/event-stream',
			'cache-control': 'no-cache',
			connection: 'keep-alive',
		});
		return (json) => response.write(`data: ${JSON.stringify(json)}\n\n`);
	};

	const completions = async (
		body: unknown,
		response: ServerResponse,
		signal: AbortSignal,
	): Promise<void> => {
		const request = parseBody(CompletionRequest, body);
		checkModel(request.model);
		const prompts = typeof request.prompt === 'string' ? [request.prompt] : request.prompt;
		const params = generationParams(request, COMPLETIONS_DEFAULT_MAX_TOKENS);
		const maxTokens = params.max_tokens ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
		const wantLogprobs = request.logprobs != null;
		const id = `cmpl-${randomUUID()}`;
		const base = { id, object: 'text_completion', created, model: modelId };
		if (request.stream === true) {
			if (prompts.length !== 1) throw new HttpError(400, 'Streaming takes a single prompt.');
			const send = startStream(response);
			const prompt = prompts[0] ?? '';
			if (request.echo === true)
				send({
					...base,
					choices: [{ index: 0, text: prompt, logprobs: null, finish_reason: null }],
				});
			const result =
				maxTokens > 0
					? await generate({ kind: 'text', text: prompt }, params, signal, (text) =>
							send({ ...base, choices: [{ index: 0, text, logprobs: null, finish_reason: null }] }),
						)
					: undefined;
			const promptTokens = result?.usage.promptTokens ?? (await countTokens(prompt));
			const completionTokens = result?.usage.completionTokens ?? 0;
			send({
				...base,
				choices: [
					{ index: 0, text: '', logprobs: null, finish_reason: result?.finishReason ?? 'length' },
				],
				usage: {
					prompt_tokens: promptTokens,
					completion_tokens: completionTokens,
					total_tokens: promptTokens + completionTokens,
				},
			});
			response.end('data: [DONE]\n\n');
			return;
		}
		const choices = [];
		let promptTokens = 0;
		let completionTokens = 0;
		for (const [index, prompt] of prompts.entries()) {
			const result =
				maxTokens > 0 ? await generate({ kind: 'text', text: prompt }, params, signal) : undefined;
			const completion = result?.completion ?? '';
			let logprobs: EchoLogprobsJson | null = null;
			if (wantLogprobs) {
				// Prompt and completion scored together; the echo keeps the prompt's tokens.
				const full = await scoreEcho(prompt + completion);
				if (request.echo === true) logprobs = full;
				else {
					const first = full.text_offset.findIndex((o) => o >= prompt.length);
					const from = first < 0 ? full.tokens.length : first;
					logprobs = {
						tokens: full.tokens.slice(from),
						token_logprobs: full.token_logprobs.slice(from),
						top_logprobs: full.top_logprobs.slice(from),
						text_offset: full.text_offset.slice(from).map((o) => o - prompt.length),
					};
				}
			}
			const used = result?.usage.promptTokens ?? (await countTokens(prompt));
			promptTokens += used;
			completionTokens += result?.usage.completionTokens ?? 0;
			choices.push({
				index,
				text: (request.echo === true ? prompt : '') + completion,
				logprobs,
				finish_reason: result?.finishReason ?? 'length',
			});
		}
		sendJson(response, 200, {
			...base,
			choices,
			usage: {
				prompt_tokens: promptTokens,
				completion_tokens: completionTokens,
				total_tokens: promptTokens + completionTokens,
			},
		});
	};

	const chatCompletions = async (
		body: unknown,
		response: ServerResponse,
		signal: AbortSignal,
	): Promise<void> => {
		const request = parseBody(ChatRequest, body);
		checkModel(request.model);
		const prompt: GenerationPrompt = {
			kind: 'chat',
			messages: request.messages.map((m) => ({
				role: m.role,
				content: m.content,
				...(m.name !== undefined ? { name: m.name } : {}),
			})),
		};
		const params = generationParams(request);
		const id = `chatcmpl-${randomUUID()}`;
		if (request.stream === true) {
			const base = { id, object: 'chat.completion.chunk', created, model: modelId };
			const send = startStream(response);
			send({
				...base,
				choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
			});
			const result = await generate(prompt, params, signal, (text) =>
				send({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
			);
			const usage = {
				prompt_tokens: result.usage.promptTokens,
				completion_tokens: result.usage.completionTokens,
				total_tokens: result.usage.promptTokens + result.usage.completionTokens,
			};
			send({
				...base,
				choices: [{ index: 0, delta: {}, finish_reason: result.finishReason }],
				usage,
			});
			response.end('data: [DONE]\n\n');
			return;
		}
		const result = await generate(prompt, params, signal);
		sendJson(response, 200, {
			id,
			object: 'chat.completion',
			created,
			model: modelId,
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: result.completion },
					finish_reason: result.finishReason,
				},
			],
			usage: {
				prompt_tokens: result.usage.promptTokens,
				completion_tokens: result.usage.completionTokens,
				total_tokens: result.usage.promptTokens + result.usage.completionTokens,
			},
		});
	};

	const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const origin = request.headers.origin;
		const allowedOrigin = allowOrigin(origin);
		if (allowedOrigin !== undefined) {
			response.setHeader('access-control-allow-origin', allowedOrigin);
			if (allowedOrigin !== '*') response.setHeader('vary', 'Origin');
		}
		const path = (request.url ?? '/').split('?')[0] ?? '/';
		if (request.method === 'OPTIONS') {
			if (origin !== undefined && allowedOrigin === undefined) {
				throw new HttpError(
					403,
					`Origin ${origin} is not allowed: start serve with --allowed-origins ${origin}.`,
				);
			}
			response.writeHead(204, {
				'access-control-allow-methods': 'GET, POST, OPTIONS',
				'access-control-allow-headers':
					request.headers['access-control-request-headers'] ?? 'authorization, content-type',
				'access-control-max-age': '600',
			});
			response.end();
			return;
		}
		if (options.apiKey !== undefined && path.startsWith('/v1/')) {
			if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
				throw new HttpError(
					401,
					'Incorrect or missing API key: send Authorization: Bearer <the key serve was started with>.',
					'invalid_request_error',
					null,
					'invalid_api_key',
				);
			}
		}
		const controller = new AbortController();
		// A client that goes away (closed stream, cancelled fetch) stops the generation.
		response.on('close', () => {
			if (!response.writableFinished) controller.abort();
		});
		if (request.method === 'GET' && path === '/v1/models') {
			sendJson(response, 200, {
				object: 'list',
				data: [
					{
						id: modelId,
						object: 'model',
						created,
						owned_by: 'benchtop',
						max_model_len: info.maxPositions,
					},
				],
			});
			return;
		}
		if (request.method === 'POST' && path === '/v1/completions') {
			await completions(await readJsonBody(request), response, controller.signal);
			return;
		}
		if (request.method === 'POST' && path === '/v1/chat/completions') {
			await chatCompletions(await readJsonBody(request), response, controller.signal);
			return;
		}
		throw new HttpError(
			404,
			`No route ${request.method ?? ''} ${path}: this server has GET /v1/models, POST /v1/completions and POST /v1/chat/completions.`,
		);
	};

	const server: Server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (error instanceof CancelledError) {
				response.destroy();
				return;
			}
			const http =
				error instanceof HttpError
					? error
					: error instanceof RangeError
						? new HttpError(400, error.message)
						: new HttpError(
								500,
								error instanceof Error ? error.message : String(error),
								'server_error',
							);
			if (http.status >= 500) log(`error: ${http.message}`);
			if (response.headersSent) {
				response.end();
				return;
			}
			sendJson(response, http.status, {
				error: { message: http.message, type: http.type, param: http.param, code: http.code },
			});
		});
	});
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 8000, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	const urlHost = host.includes(':') ? `[${host}]` : host;
	return {
		baseUrl: `http://${urlHost}:${port}/v1`,
		modelId,
		info,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}).then(async () => {
				// A caller's engine keeps its models (other servers may share them).
				if (!options.engine) await engine.disposeModel(info.modelKey);
			}),
	};
}

/** `--allowed-origins`: comma-separated, or vLLM's JSON list (`'["http://a"]'`). */
export function parseOrigins(text: string | undefined): string[] | undefined {
	if (text === undefined) return undefined;
	if (text.trim().startsWith('[')) {
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch {
			json = undefined;
		}
		const parsed = v.safeParse(v.array(v.string()), json);
		if (!parsed.success)
			throw new CliInputError(
				`--allowed-origins: a JSON list of strings, or origins separated by commas.`,
			);
		return parsed.output;
	}
	return text
		.split(',')
		.map((o) => o.trim())
		.filter((o) => o !== '');
}

function stringValue(value: string | boolean | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

export const serveCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, SERVE_USAGE, {
		model: { type: 'string' },
		host: { type: 'string' },
		port: { type: 'string' },
		'allowed-origins': { type: 'string' },
		'api-key': { type: 'string' },
		dtype: { type: 'string' },
		threads: { type: 'string' },
	});
	if (positionals.length > 0)
		throw new CliInputError(`serve takes no file arguments.\n${SERVE_USAGE}`);
	const portText = stringValue(values.port) ?? '8000';
	const port = Number(portText);
	if (!Number.isInteger(port) || port < 0 || port > 65535) {
		throw new CliInputError(
			`--port must be a whole number 0–65535 (got '${portText}').\n${SERVE_USAGE}`,
		);
	}
	const threadsText = stringValue(values.threads);
	const threads = threadsText === undefined ? undefined : Number(threadsText);
	if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) {
		throw new CliInputError(
			`--threads must be a whole number ≥ 1 (got '${threadsText}').\n${SERVE_USAGE}`,
		);
	}
	const dtype = (stringValue(values.dtype) ?? 'fp32') as ModelDtype;
	if (!['fp32', 'fp16', 'q8'].includes(dtype)) {
		throw new CliInputError(
			`--dtype must be one of fp32, fp16, q8 (got '${dtype}').\n${SERVE_USAGE}`,
		);
	}
	const origins = parseOrigins(stringValue(values['allowed-origins']));
	const apiKey = stringValue(values['api-key']) ?? process.env['BENCHTOP_SERVE_API_KEY'];
	const model = stringValue(values.model);
	const host = stringValue(values.host);
	const server = await startServer({
		...(model !== undefined ? { model } : {}),
		...(host !== undefined ? { host } : {}),
		port,
		...(origins !== undefined ? { allowedOrigins: origins } : {}),
		...(apiKey !== undefined ? { apiKey } : {}),
		dtype,
		...(threads !== undefined ? { threads } : {}),
		log: (line) => io.stderr(`${line}\n`),
	});
	io.stdout(`Benchtop serve: model ${server.modelId} at ${server.baseUrl}\n`);
	await new Promise<void>((resolve) => {
		const stop = (): void => {
			void server.close().then(resolve);
		};
		process.once('SIGINT', stop);
		process.once('SIGTERM', stop);
	});
	return 0;
};
