/**
 * A small OpenAI-compatible HTTP client over `fetch` (browser and Node): `/v1/models`,
 * `/v1/chat/completions` (also streamed as server-sent events) and `/v1/completions`. It sends the
 * body it is given (callers put in only the parameters that were set), retries 429 and 5xx with
 * backoff, runs at most `concurrency` requests at once, sums token usage, and turns failures into
 * EndpointError subclasses whose message says what to do (src/core/model/endpoint-errors.ts).
 */
import { BenchtopError } from '../core/errors';
import {
	endpointFailureMessage,
	failureKindOfStatus,
	failureOfFetchError,
	isRetryableFailure,
	type EndpointContext,
	type EndpointFailure,
	type EndpointFailureKind,
} from '../core/model/endpoint-errors';
import type { TokenUsage } from '../core/model/generation';
import { normalizeBaseUrl } from '../core/model/model-spec';
import { ServerSentEventParser } from '../core/model/server-sent-events';

/** A failed endpoint call; `kind` says which failure, the message what to do. */
export class EndpointError extends BenchtopError {
	override name = 'EndpointError';
	override readonly failureKind = 'run';
	constructor(
		message: string,
		readonly kind: EndpointFailureKind,
		readonly status?: number,
	) {
		super(message);
	}
}
/** The server could not be reached (down, wrong URL, or CORS from a page). */
export class EndpointUnreachableError extends EndpointError {
	override name = 'EndpointUnreachableError';
}
/** 401 / 403: the API key is missing, wrong, or not allowed. */
export class EndpointAuthError extends EndpointError {
	override name = 'EndpointAuthError';
}
/** 404: wrong base URL or model id. */
export class EndpointNotFoundError extends EndpointError {
	override name = 'EndpointNotFoundError';
}
/** 429 after every retry. */
export class EndpointRateLimitError extends EndpointError {
	override name = 'EndpointRateLimitError';
}
/** 5xx after every retry. */
export class EndpointServerError extends EndpointError {
	override name = 'EndpointServerError';
}
/** Another 4xx: the server rejected the request. */
export class EndpointRequestError extends EndpointError {
	override name = 'EndpointRequestError';
}
/** The endpoint returns no prompt logprobs: it cannot score text. */
export class EndpointCannotScoreError extends EndpointError {
	override name = 'EndpointCannotScoreError';
}

const ERROR_CLASS: Record<EndpointFailureKind, typeof EndpointError> = {
	network: EndpointUnreachableError,
	'mixed-content': EndpointUnreachableError,
	unauthorized: EndpointAuthError,
	'not-found': EndpointNotFoundError,
	'rate-limited': EndpointRateLimitError,
	server: EndpointServerError,
	'bad-request': EndpointRequestError,
	'cannot-score': EndpointCannotScoreError,
};

/** The error for a failure, with the message that says what to do. */
export function endpointError(failure: EndpointFailure, context: EndpointContext): EndpointError {
	const ErrorClass = ERROR_CLASS[failure.kind];
	return new ErrorClass(endpointFailureMessage(failure, context), failure.kind, failure.status);
}

export interface OpenAIClientOptions {
	/** Up to and including `/v1`. */
	readonly baseUrl: string;
	/** Sent as `Authorization: Bearer <key>`; kept in memory only. */
	readonly apiKey?: string;
	/** Requests in flight at once (default 4). */
	readonly concurrency?: number;
	/** Retries of a 429 / 5xx answer (default 4). */
	readonly maxRetries?: number;
	/** First backoff wait in ms, doubled per retry (default 500); a Retry-After header wins. */
	readonly retryBaseMs?: number;
	/** The page's origin, for the CORS / mixed-content advice (browser only). */
	readonly pageOrigin?: string;
	readonly fetch?: typeof fetch;
}

/** OpenAI's `usage` object. */
export interface UsageJson {
	readonly prompt_tokens?: number;
	readonly completion_tokens?: number;
}

export interface ChatCompletionJson {
	readonly choices: readonly {
		readonly index?: number;
		readonly message?: { readonly content?: string | null };
		readonly finish_reason?: string | null;
	}[];
	readonly usage?: UsageJson;
}

export interface CompletionLogprobsJson {
	readonly tokens?: readonly string[];
	readonly token_logprobs?: readonly (number | null)[];
	readonly top_logprobs?: readonly (Record<string, number> | null)[] | null;
	readonly text_offset?: readonly number[];
}

export interface CompletionJson {
	readonly choices: readonly {
		readonly index?: number;
		readonly text?: string;
		readonly logprobs?: CompletionLogprobsJson | null;
		readonly finish_reason?: string | null;
	}[];
	readonly usage?: UsageJson;
}

/** One streamed chunk of either API: the new text, and the finish reason / usage when given. */
export interface StreamChunk {
	readonly text: string;
	readonly finishReason?: string;
	readonly usage?: UsageJson;
}

/** Resolves after `ms`, or rejects when `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve, reject) => {
		if (signal?.aborted) {
			reject(signal.reason);
			return;
		}
		const timer = setTimeout(() => {
			signal?.removeEventListener('abort', onAbort);
			resolve();
		}, ms);
		const onAbort = (): void => {
			clearTimeout(timer);
			reject(signal?.reason);
		};
		signal?.addEventListener('abort', onAbort, { once: true });
	});
}

/** A counting semaphore: at most `limit` holders. */
class Limiter {
	#active = 0;
	readonly #waiting: (() => void)[] = [];
	constructor(public limit: number) {}

	/** Waits for a free slot; the returned function frees it (once). */
	async acquire(): Promise<() => void> {
		while (this.#active >= this.limit) await new Promise<void>((r) => this.#waiting.push(r));
		this.#active++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.#active--;
			this.#waiting.shift()?.();
		};
	}

	async run<T>(task: () => Promise<T>): Promise<T> {
		const release = await this.acquire();
		try {
			return await task();
		} finally {
			release();
		}
	}
}

/** What a server's error JSON says (`{error: {message}}`, `{error: "..."}`, `{detail}`), or its text. */
async function errorDetail(response: Response): Promise<string | undefined> {
	const text = await response.text().catch(() => '');
	if (text === '') return undefined;
	try {
		const json = JSON.parse(text) as {
			error?: { message?: unknown } | string;
			message?: unknown;
			detail?: unknown;
		};
		const message =
			typeof json.error === 'string'
				? json.error
				: (json.error?.message ?? json.message ?? json.detail);
		if (typeof message === 'string') return message;
		if (message !== undefined) return JSON.stringify(message);
	} catch {
		// Not JSON: the text itself, shortened.
	}
	return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export class OpenAIClient {
	readonly baseUrl: string;
	readonly #options: OpenAIClientOptions;
	readonly #limiter: Limiter;
	#promptTokens = 0;
	#completionTokens = 0;

	constructor(options: OpenAIClientOptions) {
		this.#options = options;
		this.baseUrl = normalizeBaseUrl(options.baseUrl);
		this.#limiter = new Limiter(Math.max(1, options.concurrency ?? 4));
	}

	/** Requests in flight at once. */
	get concurrency(): number {
		return this.#limiter.limit;
	}
	set concurrency(limit: number) {
		this.#limiter.limit = Math.max(1, Math.floor(limit));
	}

	/** Token usage summed over every answer so far. */
	get usage(): TokenUsage {
		return { promptTokens: this.#promptTokens, completionTokens: this.#completionTokens };
	}

	context(model?: string): EndpointContext {
		return {
			baseUrl: this.baseUrl,
			...(model !== undefined ? { model } : {}),
			...(this.#options.pageOrigin !== undefined ? { pageOrigin: this.#options.pageOrigin } : {}),
		};
	}

	/** Model ids the server lists at `/v1/models`. */
	async listModels(signal?: AbortSignal): Promise<string[]> {
		const json = (await this.#json('GET', '/models', undefined, signal)) as {
			data?: { id?: unknown }[];
		};
		return (json.data ?? []).map((m) => String(m.id));
	}

	async chatCompletion(
		body: Record<string, unknown>,
		signal?: AbortSignal,
	): Promise<ChatCompletionJson> {
		const json = (await this.#json(
			'POST',
			'/chat/completions',
			body,
			signal,
		)) as ChatCompletionJson;
		this.#addUsage(json.usage);
		return json;
	}

	async completion(body: Record<string, unknown>, signal?: AbortSignal): Promise<CompletionJson> {
		const json = (await this.#json('POST', '/completions', body, signal)) as CompletionJson;
		this.#addUsage(json.usage);
		return json;
	}

	/**
	 * Streams `/chat/completions` or `/completions` (`stream: true` and usage asked for): yields
	 * each chunk's new text; the last chunks carry the finish reason and the usage.
	 */
	async *stream(
		path: '/chat/completions' | '/completions',
		body: Record<string, unknown>,
		signal?: AbortSignal,
	): AsyncGenerator<StreamChunk> {
		// The slot is held until the stream ends: a stream is one request in flight.
		const release = await this.#limiter.acquire();
		let response: Response;
		try {
			response = await this.#send(
				'POST',
				path,
				{ ...body, stream: true, stream_options: { include_usage: true } },
				signal,
			);
		} catch (error) {
			release();
			throw error;
		}
		if (!response.body) {
			release();
			throw new Error(`${this.baseUrl}${path}: the stream has no body`);
		}
		const parser = new ServerSentEventParser();
		const decoder = new TextDecoder();
		const reader = response.body.getReader();
		const chunks = (events: string[]): StreamChunk[] => {
			const out: StreamChunk[] = [];
			for (const data of events) {
				if (data.trim() === '[DONE]') continue;
				const json = JSON.parse(data) as {
					choices?: {
						delta?: { content?: string | null };
						text?: string;
						finish_reason?: string | null;
					}[];
					usage?: UsageJson | null;
				};
				const choice = json.choices?.[0];
				const text = choice?.delta?.content ?? choice?.text ?? '';
				if (json.usage) this.#addUsage(json.usage);
				out.push({
					text,
					...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
					...(json.usage ? { usage: json.usage } : {}),
				});
			}
			return out;
		};
		try {
			for (;;) {
				const { done, value } = await reader.read();
				if (done) break;
				yield* chunks(parser.feed(decoder.decode(value, { stream: true })));
			}
			yield* chunks([...parser.feed(decoder.decode()), ...parser.end()]);
		} finally {
			release();
			await reader.cancel().catch(() => undefined);
		}
	}

	#addUsage(usage: UsageJson | null | undefined): void {
		this.#promptTokens += usage?.prompt_tokens ?? 0;
		this.#completionTokens += usage?.completion_tokens ?? 0;
	}

	/** One request in a limiter slot (body read inside it), parsed as JSON. */
	#json(
		method: 'GET' | 'POST',
		path: string,
		body: Record<string, unknown> | undefined,
		signal: AbortSignal | undefined,
	): Promise<unknown> {
		return this.#limiter.run(async () => (await this.#send(method, path, body, signal)).json());
	}

	/** One request, retried on 429 / 5xx; an error response throws. No limiter here. */
	async #send(
		method: 'GET' | 'POST',
		path: string,
		body: Record<string, unknown> | undefined,
		signal: AbortSignal | undefined,
	): Promise<Response> {
		const model = typeof body?.['model'] === 'string' ? body['model'] : undefined;
		const context = this.context(model);
		const fetchImpl = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
		const headers: Record<string, string> = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.#options.apiKey) headers['authorization'] = `Bearer ${this.#options.apiKey}`;
		const maxRetries = this.#options.maxRetries ?? 4;
		const baseMs = this.#options.retryBaseMs ?? 500;
		for (let attempt = 0; ; attempt++) {
			let response: Response;
			try {
				response = await fetchImpl(`${this.baseUrl}${path}`, {
					method,
					headers,
					...(body !== undefined ? { body: JSON.stringify(body) } : {}),
					...(signal ? { signal } : {}),
				});
			} catch (error) {
				if (signal?.aborted) throw error;
				throw endpointError(failureOfFetchError(context), context);
			}
			const kind = failureKindOfStatus(response.status);
			if (kind === undefined) return response;
			const detail = await errorDetail(response);
			if (isRetryableFailure(kind) && attempt < maxRetries) {
				const retryAfter = Number(response.headers.get('retry-after'));
				const waitMs =
					Number.isFinite(retryAfter) && retryAfter > 0
						? Math.min(retryAfter * 1000, 60_000)
						: baseMs * 2 ** attempt;
				await wait(waitMs, signal);
				continue;
			}
			throw endpointError(
				{ kind, status: response.status, ...(detail !== undefined ? { detail } : {}) },
				context,
			);
		}
	}
}
