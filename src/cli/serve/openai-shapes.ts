/**
 * The OpenAI wire shapes `serve` speaks: request schemas (valibot, checked at the edge) and the
 * JSON of its answers (`text_completion`, `chat.completion`, their stream chunks, `usage`).
 */
import * as v from 'valibot';
import type { EchoLogprobsJson } from '../../core/model/echo-logprobs';
import type { GenerationParams } from '../../core/model/generation';
import { HttpError } from './http-io';

/** OpenAI's default when `max_tokens` is absent on `/v1/completions`. */
export const COMPLETIONS_DEFAULT_MAX_TOKENS = 16;

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

/** `POST /v1/completions`: a prompt or a list of prompts, vLLM's `echo` + `logprobs`. */
export const CompletionRequest = v.looseObject({
	...SamplingFields,
	prompt: v.union([v.string(), v.pipe(v.array(v.string()), v.minLength(1))]),
	echo: v.optional(v.nullable(v.boolean())),
	logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)))),
});
export type CompletionRequest = v.InferOutput<typeof CompletionRequest>;

/** `POST /v1/chat/completions`. */
export const ChatRequest = v.looseObject({
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
export type ChatRequest = v.InferOutput<typeof ChatRequest>;

/** The body checked against `schema`, or a 400 naming the first wrong field. */
export function parseRequest<T extends v.GenericSchema>(
	schema: T,
	body: unknown,
): v.InferOutput<T> {
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

/** The request's generation parameters: exactly the ones it set. */
export function generationParams(
	body: CompletionRequest | ChatRequest,
	defaultMaxTokens?: number,
): GenerationParams {
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

/** `GET /v1/models`: the one model this server serves. */
export function modelListJson(model: string, created: number, maxModelLen: number): unknown {
	return {
		object: 'list',
		data: [
			{ id: model, object: 'model', created, owned_by: 'benchtop', max_model_len: maxModelLen },
		],
	};
}
