/**
 * The OpenAI wire shapes `serve` speaks, as vLLM speaks them: request schemas (valibot, checked at
 * the edge), vLLM's 400s for requests that do not fit the context, and the JSON of its answers
 * (`model`, `text_completion`, `chat.completion`, their stream chunks, `usage`).
 */
import * as v from 'valibot';
import type { EchoLogprobsJson } from '../../core/scoring/echo-logprobs';
import { MAX_TOP_LOG_PROBS } from '../../core/onnx/append-log-prob-tail';
import type { GenerationParams } from '../../core/model/generation';
import { HttpError } from './http-io';

/** OpenAI's default when `max_tokens` is absent on `/v1/completions`. */
export const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

const Stop = v.optional(v.nullable(v.union([v.string(), v.array(v.string())])));
const TokenCount = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))));
/** OpenAI's `stream_options`; vLLM adds `continuous_usage_stats` (not supported here: ignored). */
const StreamOptions = v.looseObject({
	include_usage: v.optional(v.nullable(v.boolean())),
	continuous_usage_stats: v.optional(v.nullable(v.boolean())),
});
const SamplingFields = {
	model: v.optional(v.string()),
	max_tokens: TokenCount,
	temperature: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0), v.maxValue(2)))),
	top_p: v.optional(v.nullable(v.pipe(v.number(), v.gtValue(0), v.maxValue(1)))),
	stop: Stop,
	seed: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
	n: v.optional(v.nullable(v.literal(1))),
	stream: v.optional(v.nullable(v.boolean())),
	stream_options: v.optional(v.nullable(StreamOptions)),
	frequency_penalty: v.optional(v.nullable(v.number())),
	presence_penalty: v.optional(v.nullable(v.number())),
};

/** `POST /v1/completions`: a prompt or a list of prompts, vLLM's `echo` + `logprobs`. */
export const CompletionRequest = v.looseObject({
	...SamplingFields,
	prompt: v.union([v.string(), v.pipe(v.array(v.string()), v.minLength(1))]),
	echo: v.optional(v.nullable(v.boolean())),
	logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
});
export type CompletionRequest = v.InferOutput<typeof CompletionRequest>;

/** `POST /v1/chat/completions`; `max_completion_tokens` is OpenAI's newer name for `max_tokens`. */
export const ChatRequest = v.looseObject({
	...SamplingFields,
	max_completion_tokens: TokenCount,
	logprobs: v.optional(v.nullable(v.boolean())),
	top_logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
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
export type ChatRequest = v.InferOutput<typeof ChatRequest>;

/** The body checked against `schema`, or a 400 naming the first wrong field. */
export function parseRequest<T extends v.GenericSchema>(
	schema: T,
	body: unknown,
): v.InferOutput<T> {
	const parsed = v.safeParse(schema, body);
	if (parsed.success) {
		checkStreamOptions(parsed.output as { stream?: boolean | null; stream_options?: unknown });
		return parsed.output;
	}
	const issue = parsed.issues[0];
	const path = issue ? v.getDotPath(issue) : null;
	throw new HttpError(
		400,
		`${path ? `'${path}': ` : ''}${issue?.message ?? 'invalid request'}`,
		'invalid_request_error',
		path,
	);
}

/**
 * vLLM's 400 for `stream_options` without `stream: true` (a non-empty object only, as Python's
 * truthiness test: vllm/entrypoints/openai/completion/protocol.py, `validate_stream_options`).
 */
function checkStreamOptions(body: { stream?: boolean | null; stream_options?: unknown }): void {
	const options = body.stream_options;
	const given = typeof options === 'object' && options !== null && Object.keys(options).length > 0;
	if (given && body.stream !== true) {
		throw new HttpError(
			400,
			'Stream options can only be defined when `stream=True`.',
			'invalid_request_error',
			'stream_options',
		);
	}
}

/** The output-token limit a request asks for, and the field it came from (for error messages). */
export interface RequestedTokens {
	/** Undefined: the request set none and there is no default (chat: the engine's default). */
	readonly maxTokens: number | undefined;
	readonly param: 'max_tokens' | 'max_completion_tokens';
}

/**
 * The output-token limit: chat's `max_completion_tokens` wins over `max_tokens` (vLLM's
 * `ChatCompletionRequest.build_tok_params`); `/v1/completions` defaults to 16.
 */
export function requestedTokens(
	body: {
		readonly max_tokens?: number | null | undefined;
		readonly max_completion_tokens?: number | null | undefined;
	},
	defaultMaxTokens?: number,
): RequestedTokens {
	if (body.max_completion_tokens != null)
		return { maxTokens: body.max_completion_tokens, param: 'max_completion_tokens' };
	return { maxTokens: body.max_tokens ?? defaultMaxTokens, param: 'max_tokens' };
}

/**
 * vLLM's 400 when the output limit alone exceeds the context (checked before tokenizing).
 * Wording: vllm/renderers/params.py, `TokenizeParams.__post_init__` (as fixed by
 * tests/renderers/test_params.py: "max_tokens=20000 cannot be greater than max_model_len=8192").
 */
export function checkOutputLimit(requested: RequestedTokens, maxModelLen: number): void {
	const { maxTokens, param } = requested;
	if (maxTokens === undefined || maxTokens <= maxModelLen) return;
	throw new HttpError(
		400,
		`${param}=${maxTokens} cannot be greater than max_model_len=${maxModelLen}. ` +
			'Please request fewer output tokens.',
		'invalid_request_error',
		param,
	);
}

/**
 * vLLM's 400 when prompt + requested output exceed the context (undefined when they fit).
 * Wording and `param`: vllm/renderers/params.py, `TokenizeParams._token_len_check`.
 */
export function contextOverflowError(
	promptTokens: number,
	requestedOutput: number,
	maxModelLen: number,
): HttpError | undefined {
	const maxInput = maxModelLen - requestedOutput;
	if (promptTokens <= maxInput) return undefined;
	return new HttpError(
		400,
		`You passed ${promptTokens} input tokens and requested ${requestedOutput} output tokens. ` +
			`However, the model's context length is only ${maxModelLen} tokens, resulting in a ` +
			`maximum input length of ${maxInput} tokens. Please reduce the length of the input prompt.`,
		'invalid_request_error',
		'input_tokens',
	);
}

/** vLLM's default `max_logprobs` (20): the most top log-probs a request may ask for, as many as
 * the scoring graph gives. */
export const MAX_LOGPROBS = MAX_TOP_LOG_PROBS;

/**
 * vLLM's 400 for `logprobs` above `max_logprobs` (vllm/v1/engine/processor.py,
 * `_validate_logprobs`: "Requested sample logprobs of 21, which is greater than max allowed: 20").
 */
export function checkLogprobs(
	logprobs: number | null | undefined,
	param: 'logprobs' | 'top_logprobs' = 'logprobs',
): void {
	if (logprobs == null || logprobs <= MAX_LOGPROBS) return;
	throw new HttpError(
		400,
		`Requested sample logprobs of ${logprobs}, which is greater than max allowed: ${MAX_LOGPROBS}`,
		'invalid_request_error',
		param,
	);
}

/**
 * Chat's `logprobs` / `top_logprobs`, checked as vLLM checks them (`ChatCompletionRequest.
 * check_logprobs` in vllm/entrypoints/openai/chat_completion/protocol.py, then the
 * `max_logprobs` cap; `-1` asks for the whole vocabulary). A request that passes still gets a
 * 400: this server does not return the log-probs of generated tokens, and an answer without the
 * ones asked for would be taken for one that has them.
 */
export function checkChatLogprobs(
	body: {
		readonly logprobs?: boolean | null | undefined;
		readonly top_logprobs?: number | null | undefined;
	},
	vocabSize: number,
): void {
	const top = body.top_logprobs;
	if (top != null) {
		if (top < 0 && top !== -1)
			throw new HttpError(
				400,
				'`top_logprobs` must be a positive value or -1.',
				'invalid_request_error',
				'top_logprobs',
			);
		if ((top === -1 || top > 0) && body.logprobs !== true)
			throw new HttpError(
				400,
				'when using `top_logprobs`, `logprobs` must be set to true.',
				'invalid_request_error',
				'top_logprobs',
			);
	}
	if (body.logprobs !== true) return;
	checkLogprobs(top === -1 ? vocabSize : (top ?? 0), 'top_logprobs');
	throw new HttpError(
		400,
		'This server does not return log-probs of generated chat tokens: leave out `logprobs`, or ' +
			'score given text with POST /v1/completions {"echo": true, "logprobs": k, "max_tokens": 0}.',
		'invalid_request_error',
		'logprobs',
	);
}

/** Whether a stream ends with a usage chunk (`stream_options.include_usage`). */
export function includesUsage(body: CompletionRequest | ChatRequest): boolean {
	return body.stream_options?.include_usage === true;
}

/** The request's generation parameters: exactly the ones it set (`max_tokens` as resolved). */
export function generationParams(
	body: CompletionRequest | ChatRequest,
	maxTokens: number | undefined,
): GenerationParams {
	const stop = typeof body.stop === 'string' ? [body.stop] : (body.stop ?? undefined);
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

export interface UsageJson {
	readonly prompt_tokens: number;
	readonly completion_tokens: number;
	readonly total_tokens: number;
}

export function usageJson(promptTokens: number, completionTokens: number): UsageJson {
	return {
		prompt_tokens: promptTokens,
		completion_tokens: completionTokens,
		total_tokens: promptTokens + completionTokens,
	};
}

/** `id`, `object`, `created`, `model`: the fields every answer and chunk starts with. */
export interface AnswerHead {
	readonly id: string;
	readonly object: string;
	readonly created: number;
	readonly model: string;
}

/** One choice of a `text_completion` (a whole answer, or a stream chunk's piece). */
export function completionChoice(
	index: number,
	text: string,
	logprobs: EchoLogprobsJson | null,
	finishReason: string | null,
): unknown {
	return { index, text, logprobs, finish_reason: finishReason };
}

/**
 * The chunk after the last choice when a stream asked for usage: `choices` empty, `usage` set
 * (vllm/entrypoints/openai/completion/serving.py and chat_completion/serving.py, `final_usage_chunk`;
 * OpenAI documents the same). Other chunks of such a stream carry `usage: null`.
 */
export function usageChunk(head: AnswerHead, usage: UsageJson): unknown {
	return { ...head, choices: [], usage };
}

/** A `chat.completion.chunk`'s only choice. */
export function chatChunkChoice(
	delta: { readonly role?: string; readonly content?: string },
	finishReason: string | null,
): unknown {
	return { index: 0, delta, finish_reason: finishReason };
}

/** The logprobs of the completion alone, cut from those of prompt + completion at the prompt's end. */
export function completionPart(full: EchoLogprobsJson, promptLength: number): EchoLogprobsJson {
	const first = full.text_offset.findIndex((o) => o >= promptLength);
	const from = first < 0 ? full.tokens.length : first;
	return {
		tokens: full.tokens.slice(from),
		token_logprobs: full.token_logprobs.slice(from),
		top_logprobs: full.top_logprobs.slice(from),
		text_offset: full.text_offset.slice(from).map((o) => o - promptLength),
	};
}

/**
 * A model object (OpenAI's `Model`, with vLLM's `ModelCard` extras `root` and `max_model_len`):
 * `GET /v1/models/{id}` answers it, `GET /v1/models` lists it.
 */
export function modelJson(model: string, created: number, maxModelLen: number): unknown {
	return {
		id: model,
		object: 'model',
		created,
		owned_by: 'benchtop',
		root: model,
		parent: null,
		max_model_len: maxModelLen,
	};
}

/** `GET /v1/models`: the one model this server serves. */
export function modelListJson(model: string, created: number, maxModelLen: number): unknown {
	return { object: 'list', data: [modelJson(model, created, maxModelLen)] };
}
