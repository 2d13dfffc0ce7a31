/**
 * A small OpenAI-compatible HTTP client over `fetch` (browser and Node): `/v1/models`,
 * `/v1/chat/completions` (also streamed as server-sent events) and `/v1/completions`. It sends the
 * body it is given (callers put in only the parameters that were set). An answer counts only when
 * complete (JSON of the expected shape; a stream ending with a finish reason and `[DONE]`):
 * anything else, 429, 5xx and connection faults are retried with backoff. It runs at most
 * `concurrency` requests at once, sums token usage, and turns failures into EndpointError
 * subclasses whose message says what to do (src/core/model/endpoint-errors.ts). Every answer is
 * bounded ({@link EndpointLimits}): a body read stops at a size cap (error bodies too), a call has
 * one deadline over all its attempts and waits, a wait for headers, body bytes or a stream event
 * (comment lines do not count) ends at an idle timeout, and a stream stops once it sends more
 * text events than its `max_tokens`; these end the call without a retry.
 */
import * as v from 'valibot';
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
import { baseUrlProblem } from '../core/model/model-spec';
import { normalizeEndpointBaseUrl } from '../core/model/endpoint-choice';
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
/** A 2xx answer that never became complete (cut off, empty, not JSON, HTML) after every retry. */
export class EndpointIncompleteError extends EndpointError {
	override name = 'EndpointIncompleteError';
}

/** No answer headers or stream event within the idle timeout, or the call's deadline passed. */
export class EndpointTimeoutError extends EndpointError {
	override name = 'EndpointTimeoutError';
}
/** A body over the size cap, or a stream past its `max_tokens`. */
export class EndpointTooLargeError extends EndpointError {
	override name = 'EndpointTooLargeError';
}

/** A base URL that cannot be used (not http(s), or with user:password in it): bad input. */
export class EndpointBaseUrlError extends BenchtopError {
	override name = 'EndpointBaseUrlError';
}

/** A limit set in the environment that is not a positive number: bad input (exit 2). */
export class EndpointLimitsError extends BenchtopError {
	override name = 'EndpointLimitsError';
}

/** An answer that is not complete: a transport fault, retried like a 5xx. Internal. */
class IncompleteAnswer extends Error {
	constructor(readonly detail: string) {
		super(detail);
	}
}

/** A limit of {@link EndpointLimits} was hit: ends the call with `failure`, never retried. Internal. */
class LimitHit extends Error {
	constructor(readonly failure: EndpointFailure) {
		super(failure.detail);
	}
}

/** A retried stream that disagrees with the part already passed on: not retried again. */
class DivergentRetry extends Error {}

const ERROR_CLASS: Record<EndpointFailureKind, typeof EndpointError> = {
	network: EndpointUnreachableError,
	'mixed-content': EndpointUnreachableError,
	unauthorized: EndpointAuthError,
	'not-found': EndpointNotFoundError,
	'rate-limited': EndpointRateLimitError,
	server: EndpointServerError,
	'bad-request': EndpointRequestError,
	'cannot-score': EndpointCannotScoreError,
	incomplete: EndpointIncompleteError,
	timeout: EndpointTimeoutError,
	'too-large': EndpointTooLargeError,
};

/** How long and how much of an answer the client waits for and reads. */
export interface EndpointLimits {
	/**
	 * Bytes of one JSON answer body, and characters of one streamed answer's text (16 MiB): past
	 * it the call fails. An error body is read up to {@link MAX_ERROR_BODY_BYTES} at most.
	 */
	readonly maxBodyBytes: number;
	/**
	 * Ms without progress before the call fails (120 s): waiting for the answer's headers, for
	 * the next bytes of a JSON body, for the next event of a stream (comment lines such as
	 * `: keepalive` are not progress).
	 */
	readonly idleTimeoutMs: number;
	/** Ms one call may take in all, every retry and backoff wait included (10 min). */
	readonly deadlineMs: number;
}

export const DEFAULT_ENDPOINT_LIMITS: EndpointLimits = {
	maxBodyBytes: 16 * 1024 * 1024,
	idleTimeoutMs: 120_000,
	deadlineMs: 600_000,
};

/** Bytes of an error answer's body read for its message; the rest is not read. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The environment variables the CLI reads its {@link EndpointLimits} from. */
export const ENDPOINT_LIMIT_VARIABLES = {
	idleTimeoutMs: 'BENCHTOP_ENDPOINT_IDLE_S',
	deadlineMs: 'BENCHTOP_ENDPOINT_DEADLINE_S',
	maxBodyBytes: 'BENCHTOP_ENDPOINT_MAX_BODY_MIB',
} as const;

/**
 * The limits set in `env` (seconds, and MiB for the body cap; decimals allowed), the defaults for
 * those not set. A value that is not a positive number is an EndpointLimitsError naming it.
 */
export function endpointLimitsFromEnv(
	env: Readonly<Record<string, string | undefined>>,
): EndpointLimits {
	const read = (name: string, scale: number, fallback: number): number => {
		const text = env[name];
		if (text === undefined || text.trim() === '') return fallback;
		const value = Number(text);
		if (!Number.isFinite(value) || value <= 0) {
			throw new EndpointLimitsError(
				`${name} must be a positive number, got '${text.slice(0, 40)}'.`,
			);
		}
		return Math.max(1, Math.round(value * scale));
	};
	const names = ENDPOINT_LIMIT_VARIABLES;
	const defaults = DEFAULT_ENDPOINT_LIMITS;
	return {
		idleTimeoutMs: read(names.idleTimeoutMs, 1000, defaults.idleTimeoutMs),
		deadlineMs: read(names.deadlineMs, 1000, defaults.deadlineMs),
		maxBodyBytes: read(names.maxBodyBytes, 1024 * 1024, defaults.maxBodyBytes),
	};
}

/** `ms` as seconds for a message (`2 s`, `0.5 s`). */
function seconds(ms: number): string {
	return `${Number((ms / 1000).toFixed(3))} s`;
}

/**
 * One call's clock: its signal aborts at the caller's abort or at the deadline (a LimitHit as the
 * reason), and `within` bounds one wait by the idle timeout.
 */
class CallClock {
	readonly signal: AbortSignal;
	readonly #deadline = new AbortController();
	readonly #timer: ReturnType<typeof setTimeout>;
	constructor(
		readonly limits: EndpointLimits,
		readonly caller: AbortSignal | undefined,
	) {
		this.signal = caller ? AbortSignal.any([caller, this.#deadline.signal]) : this.#deadline.signal;
		this.#timer = setTimeout(() => this.#deadline.abort(this.deadlineHit()), limits.deadlineMs);
	}

	get pastDeadline(): boolean {
		return this.#deadline.signal.aborted;
	}

	deadlineHit(): LimitHit {
		return new LimitHit({
			kind: 'timeout',
			detail: `the answer was not complete within the deadline of ${seconds(this.limits.deadlineMs)}`,
		});
	}

	/** What a failed read or fetch means: the caller's abort and the deadline win over `fault`. */
	fault(error: unknown, fault: () => Error): Error {
		if (this.caller?.aborted) return error instanceof Error ? error : new Error(String(error));
		if (this.pastDeadline) return this.deadlineHit();
		return fault();
	}

	/** `promise`, or a LimitHit (`what`) when it has not settled after `ms` (the idle timeout). */
	async within<T>(promise: Promise<T>, what: string, ms = this.limits.idleTimeoutMs): Promise<T> {
		let timer: ReturnType<typeof setTimeout> | undefined;
		const idle = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(new LimitHit({ kind: 'timeout', detail: what })),
				Math.max(0, ms),
			);
		});
		try {
			return await Promise.race([promise, idle]);
		} finally {
			clearTimeout(timer);
		}
	}

	dispose(): void {
		clearTimeout(this.#timer);
	}
}

/**
 * Up to `maxBytes` of a body, read under the clock's idle timeout. `over` says what a longer body
 * means: `'fail'` a LimitHit, `'cut'` the first `maxBytes` (the rest is not read). The body is
 * cancelled when this returns or throws.
 */
async function readCapped(
	response: Response,
	clock: CallClock,
	maxBytes: number,
	over: 'fail' | 'cut',
): Promise<string> {
	if (!response.body) return '';
	const reader = response.body.getReader();
	const parts: Uint8Array[] = [];
	let size = 0;
	try {
		for (;;) {
			let read: ReadableStreamReadResult<Uint8Array>;
			try {
				read = await clock.within(
					reader.read(),
					`no data of the answer for ${seconds(clock.limits.idleTimeoutMs)}`,
				);
			} catch (error) {
				if (error instanceof LimitHit) throw error;
				throw clock.fault(error, () => new IncompleteAnswer(droppedDetail(error)));
			}
			if (read.done) break;
			if (size + read.value.byteLength > maxBytes) {
				if (over === 'fail') {
					throw new LimitHit({
						kind: 'too-large',
						status: response.status,
						detail: `a body over the cap of ${maxBytes} bytes`,
					});
				}
				parts.push(read.value.subarray(0, maxBytes - size));
				size = maxBytes;
				break;
			}
			parts.push(read.value);
			size += read.value.byteLength;
		}
	} finally {
		void reader.cancel().catch(() => undefined);
	}
	const bytes = new Uint8Array(size);
	let at = 0;
	for (const part of parts) {
		bytes.set(part, at);
		at += part.byteLength;
	}
	return new TextDecoder().decode(bytes);
}

/**
 * Up to `limits.maxBodyBytes` of a body (a request outside OpenAIClient, such as vLLM's
 * `/tokenize`), read under the idle timeout and deadline; undefined when it is longer, stalls or
 * drops.
 */
export async function readBoundedText(
	response: Response,
	limits: EndpointLimits,
): Promise<string | undefined> {
	const clock = new CallClock(limits, undefined);
	try {
		return await readCapped(response, clock, limits.maxBodyBytes, 'fail');
	} catch {
		return undefined;
	} finally {
		clock.dispose();
	}
}

/** The `max_tokens` (or `max_completion_tokens`) a request body sets, if any. */
function maxTokensOf(body: Record<string, unknown>): number | undefined {
	const value = body['max_tokens'] ?? body['max_completion_tokens'];
	return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Network retries are fewer: a server that is down should not keep the user waiting. */
const MAX_NETWORK_RETRIES = 2;

/** A Retry-After header (seconds or an HTTP date) in ms, capped at a minute; undefined if absent. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
	if (header === null || header.trim() === '') return undefined;
	const seconds = Number(header);
	const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
	return Number.isFinite(ms) && ms >= 0 ? Math.min(ms, 60_000) : undefined;
}

/** Why a body read failed, for the message: the connection dropped mid-answer. */
function droppedDetail(error: unknown): string {
	const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
	const what = error instanceof Error ? error.message : String(error);
	return `the connection closed before the answer was complete (${cause || what})`;
}

/** The shapes a complete JSON answer must have (fields not listed are kept as they are). */
const UsageSchema = v.looseObject({
	prompt_tokens: v.optional(v.number()),
	completion_tokens: v.optional(v.number()),
});
const ModelsSchema = v.looseObject({
	data: v.array(v.looseObject({ id: v.string() })),
});
const ChatCompletionSchema = v.looseObject({
	choices: v.pipe(
		v.array(
			v.looseObject({
				message: v.looseObject({ content: v.nullish(v.string()) }),
				finish_reason: v.nullish(v.string()),
			}),
		),
		v.minLength(1),
	),
	usage: v.nullish(UsageSchema),
});
const CompletionSchema = v.looseObject({
	choices: v.pipe(
		v.array(
			v.looseObject({
				text: v.string(),
				finish_reason: v.nullish(v.string()),
			}),
		),
		v.minLength(1),
	),
	usage: v.nullish(UsageSchema),
});

/** The body of a 2xx JSON answer, complete and of the expected shape, or an IncompleteAnswer. */
async function readCompleteJson(
	response: Response,
	schema: v.GenericSchema<unknown>,
	clock: CallClock,
): Promise<unknown> {
	const text = await readCapped(response, clock, clock.limits.maxBodyBytes, 'fail');
	const type = response.headers.get('content-type') ?? '';
	if (/html/i.test(type) || /^\s*<(!doctype|html)/i.test(text)) {
		throw new IncompleteAnswer(
			'an HTML page instead of JSON (a login page, proxy or another server answered)',
		);
	}
	if (text.trim() === '') throw new IncompleteAnswer('an empty body instead of JSON');
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new IncompleteAnswer(`malformed JSON (${text.length} characters, cut off or not JSON)`);
	}
	const parsed = v.safeParse(schema, json);
	if (!parsed.success) {
		const issue = parsed.issues[0];
		const path = (issue.path ?? []).map((item) => String(item.key)).join('.');
		throw new IncompleteAnswer(
			`JSON without the expected fields (${path || 'root'}: ${issue.message})`,
		);
	}
	return parsed.output;
}

/** One streamed event of either API. */
interface StreamEventJson {
	readonly choices?: readonly {
		readonly delta?: { readonly content?: string | null };
		readonly text?: string;
		readonly finish_reason?: string | null;
	}[];
	readonly usage?: UsageJson | null;
	readonly model?: unknown;
	readonly error?: unknown;
}

/** The chunks of one `data:` event; `[DONE]` and malformed events are the caller's business. */
function chunkOfEvent(data: string): StreamChunk {
	let json: StreamEventJson;
	try {
		json = JSON.parse(data) as StreamEventJson;
	} catch {
		throw new IncompleteAnswer('malformed JSON in the stream');
	}
	if (typeof json !== 'object' || json === null)
		throw new IncompleteAnswer('a stream event that is not an object');
	if (json.error !== undefined) {
		throw new IncompleteAnswer(
			`the stream carried an error (${JSON.stringify(json.error).slice(0, 200)})`,
		);
	}
	const choice = json.choices?.[0];
	const text = choice?.delta?.content ?? choice?.text ?? '';
	return {
		text: typeof text === 'string' ? text : '',
		...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
		...(json.usage ? { usage: json.usage } : {}),
		...(typeof json.model === 'string' && json.model !== '' ? { model: json.model } : {}),
	};
}

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
	/** Size cap, idle timeout and deadline; those not given are the defaults. */
	readonly limits?: Partial<EndpointLimits>;
	readonly fetch?: typeof fetch;
}

/** OpenAI's `usage` object. */
export interface UsageJson {
	readonly prompt_tokens?: number;
	readonly completion_tokens?: number;
	/** Counts by kind (`reasoning_tokens`, `cached_tokens`...), when the server sends them. */
	readonly completion_tokens_details?: { readonly [kind: string]: number | null } | null;
	readonly prompt_tokens_details?: { readonly [kind: string]: number | null } | null;
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
	/** The model name the server answered with. */
	readonly model?: string;
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
async function errorDetail(response: Response, clock: CallClock): Promise<string | undefined> {
	const maxBytes = Math.min(MAX_ERROR_BODY_BYTES, clock.limits.maxBodyBytes);
	// A body that stalls or drops gives no detail; the deadline and the caller's abort still end it.
	let text = '';
	try {
		text = await readCapped(response, clock, maxBytes, 'cut');
	} catch (error) {
		if (clock.caller?.aborted || clock.pastDeadline) throw clock.fault(error, () => error as Error);
	}
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
	/** The limits every call runs under. */
	readonly limits: EndpointLimits;
	#promptTokens = 0;
	#completionTokens = 0;

	constructor(options: OpenAIClientOptions) {
		this.#options = options;
		const problem = baseUrlProblem(options.baseUrl);
		if (problem !== undefined) throw new EndpointBaseUrlError(problem);
		this.baseUrl = normalizeEndpointBaseUrl(options.baseUrl);
		this.#limiter = new Limiter(Math.max(1, options.concurrency ?? 4));
		this.limits = { ...DEFAULT_ENDPOINT_LIMITS, ...options.limits };
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
		const json = (await this.#json('GET', '/models', undefined, signal, ModelsSchema)) as {
			data: { id: string }[];
		};
		return json.data.map((m) => m.id);
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
			ChatCompletionSchema,
		)) as ChatCompletionJson;
		this.#addUsage(json.usage);
		return json;
	}

	async completion(body: Record<string, unknown>, signal?: AbortSignal): Promise<CompletionJson> {
		const json = (await this.#json(
			'POST',
			'/completions',
			body,
			signal,
			CompletionSchema,
		)) as CompletionJson;
		this.#addUsage(json.usage);
		return json;
	}

	/**
	 * Streams `/chat/completions` or `/completions` (`stream: true` and usage asked for): yields
	 * each chunk's new text; the last chunks carry the finish reason and the usage. A stream counts
	 * only when it ends with a finish reason and `[DONE]`: one that is cut off, empty, malformed or
	 * an HTML page is retried (the text already passed on must come again, and is not repeated),
	 * then fails with an EndpointIncompleteError. A stream with no event for the idle timeout, or
	 * not complete by the deadline, fails with an EndpointTimeoutError; one whose text passes the
	 * size cap, or that sends more text events than its `max_tokens`, with an
	 * EndpointTooLargeError. Neither is retried.
	 */
	async *stream(
		path: '/chat/completions' | '/completions',
		body: Record<string, unknown>,
		signal?: AbortSignal,
	): AsyncGenerator<StreamChunk> {
		// The slot is held until the stream ends: a stream is one request in flight.
		const release = await this.#limiter.acquire();
		const request = { ...body, stream: true, stream_options: { include_usage: true } };
		const context = this.context(typeof body['model'] === 'string' ? body['model'] : undefined);
		// The deadline runs from the slot on: a call waiting for a slot is not yet sent.
		const clock = new CallClock(this.limits, signal);
		const maxTokens = maxTokensOf(body);
		let passedOn = '';
		try {
			for (let attempt = 0; ; attempt++) {
				const response = await this.#send('POST', path, request, clock);
				/** Characters of this attempt's answer so far. */
				let received = 0;
				try {
					for await (const chunk of this.#readStream(response, clock, maxTokens)) {
						const fresh = newText(passedOn, received, chunk.text);
						received += chunk.text.length;
						passedOn += fresh;
						if (fresh !== '' || chunk.finishReason || chunk.usage) yield { ...chunk, text: fresh };
					}
					return;
				} catch (error) {
					if (signal?.aborted || !(error instanceof IncompleteAnswer)) throw error;
					if (attempt >= (this.#options.maxRetries ?? 4)) {
						throw endpointError({ kind: 'incomplete', detail: error.detail }, context);
					}
					await wait((this.#options.retryBaseMs ?? 500) * 2 ** attempt, clock.signal);
				}
			}
		} catch (error) {
			if (error instanceof DivergentRetry) {
				throw endpointError(
					{ kind: 'incomplete', detail: `${error.message}, so it cannot be completed` },
					context,
				);
			}
			if (error instanceof LimitHit) throw endpointError(error.failure, context);
			throw error;
		} finally {
			clock.dispose();
			release();
		}
	}

	/**
	 * The chunks of one streamed answer; an IncompleteAnswer unless it ends with a finish reason and
	 * `[DONE]`; a LimitHit when no event comes for the idle timeout (comment lines do not count),
	 * when its text passes the size cap, or when more events carry text than `maxTokens`.
	 */
	async *#readStream(
		response: Response,
		clock: CallClock,
		maxTokens: number | undefined,
	): AsyncGenerator<StreamChunk> {
		if (/html/i.test(response.headers.get('content-type') ?? '')) {
			await response.body?.cancel().catch(() => undefined);
			throw new IncompleteAnswer(
				'an HTML page instead of an event stream (a login page or proxy answered)',
			);
		}
		if (!response.body) throw new IncompleteAnswer('a stream with no body');
		const { idleTimeoutMs, maxBodyBytes } = clock.limits;
		const parser = new ServerSentEventParser();
		const decoder = new TextDecoder();
		const reader = response.body.getReader();
		let done = false;
		let finished = false;
		let usage: UsageJson | undefined;
		let textChars = 0;
		let textEvents = 0;
		let lastEventAt = Date.now();
		const chunks = (events: readonly string[]): StreamChunk[] =>
			events.flatMap((data) => {
				lastEventAt = Date.now();
				if (done) return [];
				if (data.trim() === '[DONE]') {
					done = true;
					return [];
				}
				const chunk = chunkOfEvent(data);
				if (chunk.finishReason) finished = true;
				if (chunk.usage) usage = chunk.usage;
				if (chunk.text !== '') {
					textEvents += 1;
					textChars += chunk.text.length;
				}
				if (maxTokens !== undefined && textEvents > maxTokens) {
					throw new LimitHit({
						kind: 'too-large',
						detail: `the stream went on past max_tokens ${maxTokens} (${textEvents} events with text)`,
					});
				}
				if (textChars > maxBodyBytes) {
					throw new LimitHit({
						kind: 'too-large',
						detail: `a streamed answer over the cap of ${maxBodyBytes} characters`,
					});
				}
				return [chunk];
			});
		try {
			for (;;) {
				let read: ReadableStreamReadResult<Uint8Array>;
				try {
					read = await clock.within(
						reader.read(),
						`no event in the stream for ${seconds(idleTimeoutMs)}`,
						idleTimeoutMs - (Date.now() - lastEventAt),
					);
				} catch (error) {
					if (error instanceof LimitHit) throw error;
					throw clock.fault(error, () => new IncompleteAnswer(droppedDetail(error)));
				}
				if (read.done) break;
				yield* chunks(parser.feed(decoder.decode(read.value, { stream: true })));
			}
			yield* chunks([...parser.feed(decoder.decode()), ...parser.end()]);
		} finally {
			void reader.cancel().catch(() => undefined);
		}
		if (!done || !finished) {
			throw new IncompleteAnswer(
				!done && !finished
					? 'the stream ended before a finish_reason and [DONE]'
					: !done
						? 'the stream ended before [DONE]'
						: 'the stream ended without a finish_reason',
			);
		}
		this.#addUsage(usage);
	}

	#addUsage(usage: UsageJson | null | undefined): void {
		this.#promptTokens += usage?.prompt_tokens ?? 0;
		this.#completionTokens += usage?.completion_tokens ?? 0;
	}

	/** One request in a limiter slot, retried until its body is complete JSON of `schema`'s shape. */
	#json(
		method: 'GET' | 'POST',
		path: string,
		body: Record<string, unknown> | undefined,
		signal: AbortSignal | undefined,
		schema: v.GenericSchema<unknown>,
	): Promise<unknown> {
		const context = this.context(typeof body?.['model'] === 'string' ? body['model'] : undefined);
		return this.#limiter.run(async () => {
			const clock = new CallClock(this.limits, signal);
			try {
				for (let attempt = 0; ; attempt++) {
					const response = await this.#send(method, path, body, clock);
					try {
						return await readCompleteJson(response, schema, clock);
					} catch (error) {
						if (signal?.aborted || !(error instanceof IncompleteAnswer)) throw error;
						if (attempt >= (this.#options.maxRetries ?? 4)) {
							throw endpointError(
								{ kind: 'incomplete', status: response.status, detail: error.detail },
								context,
							);
						}
						await wait((this.#options.retryBaseMs ?? 500) * 2 ** attempt, clock.signal);
					}
				}
			} catch (error) {
				if (error instanceof LimitHit) throw endpointError(error.failure, context);
				throw error;
			} finally {
				clock.dispose();
			}
		});
	}

	/**
	 * One request whose answer has a 2xx status: retried with backoff on 429 / 5xx (a Retry-After
	 * header wins) and on no answer at all (refused, reset); other statuses throw. No headers within
	 * the idle timeout, or the deadline passing, is a LimitHit (not retried). The body is the
	 * caller's to read and check. No limiter here.
	 */
	async #send(
		method: 'GET' | 'POST',
		path: string,
		body: Record<string, unknown> | undefined,
		clock: CallClock,
	): Promise<Response> {
		const model = typeof body?.['model'] === 'string' ? body['model'] : undefined;
		const context = this.context(model);
		const fetchImpl = this.#options.fetch ?? globalThis.fetch.bind(globalThis);
		const headers: Record<string, string> = { accept: 'application/json' };
		if (body !== undefined) headers['content-type'] = 'application/json';
		if (this.#options.apiKey) headers['authorization'] = `Bearer ${this.#options.apiKey}`;
		const maxRetries = this.#options.maxRetries ?? 4;
		const baseMs = this.#options.retryBaseMs ?? 500;
		const { idleTimeoutMs } = clock.limits;
		for (let attempt = 0; ; attempt++) {
			let failure: EndpointFailure;
			let waitMs: number | undefined;
			// Aborted when no headers come within the idle timeout; the body is read under its own.
			const headersWait = new AbortController();
			const timer = setTimeout(() => headersWait.abort(), idleTimeoutMs);
			try {
				let response: Response;
				try {
					response = await fetchImpl(`${this.baseUrl}${path}`, {
						method,
						headers,
						...(body !== undefined ? { body: JSON.stringify(body) } : {}),
						signal: AbortSignal.any([clock.signal, headersWait.signal]),
					});
				} finally {
					clearTimeout(timer);
				}
				const kind = failureKindOfStatus(response.status);
				if (kind === undefined) return response;
				const detail = await errorDetail(response, clock);
				failure = { kind, status: response.status, ...(detail !== undefined ? { detail } : {}) };
				waitMs = retryAfterMs(response.headers.get('retry-after'));
			} catch (error) {
				if (clock.caller?.aborted || clock.pastDeadline)
					throw clock.fault(error, () => error as Error);
				if (headersWait.signal.aborted) {
					throw new LimitHit({
						kind: 'timeout',
						detail: `no answer headers within ${seconds(idleTimeoutMs)}`,
					});
				}
				const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
				const detail = cause && 'code' in cause ? String(cause.code) : undefined;
				failure = {
					...failureOfFetchError(context),
					...(detail !== undefined && context.pageOrigin === undefined ? { detail } : {}),
				};
			}
			const limit =
				failure.kind === 'network' ? Math.min(maxRetries, MAX_NETWORK_RETRIES) : maxRetries;
			if (!isRetryableFailure(failure.kind) || attempt >= limit)
				throw endpointError(failure, context);
			await wait(waitMs ?? baseMs * 2 ** attempt, clock.signal);
		}
	}
}
/**
 * The part of `chunk` (which follows the `received` characters of this attempt) not yet passed on.
 * A retried stream must repeat what was passed on before (greedy answers do): the chunk's overlap
 * with it is compared, one chunk at a time; an answer that differs cannot be completed.
 */
function newText(passedOn: string, received: number, chunk: string): string {
	const overlap = Math.max(0, Math.min(chunk.length, passedOn.length - received));
	if (chunk.slice(0, overlap) !== passedOn.slice(received, received + overlap)) {
		throw new DivergentRetry('the retried answer differs from the part already received');
	}
	return chunk.slice(overlap);
}
