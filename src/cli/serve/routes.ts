/**
 * `serve`'s model routes over one loaded model: `GET /v1/models/{id}`, `POST /v1/completions`
 * (echoed prompt logprobs in vLLM's shape, streamed or not) and `POST /v1/chat/completions`
 * (streamed or not), with vLLM's 400s for requests that do not fit the context.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
	echoLogprobsFromScoredTokens,
	type EchoLogprobsJson,
} from '../../core/scoring/echo-logprobs';
import type { GenerationParams, GenerationPrompt } from '../../core/model/generation';
import type { InferenceEngine } from '../../worker/engine';
import type { GenerateTextResult, ModelInfo } from '../../worker/protocol';
import { endEventStream, HttpError, sendJson, startEventStream } from './http-io';
import {
	ChatRequest,
	chatChunkChoice,
	checkChatLogprobs,
	checkLogprobs,
	checkOutputLimit,
	COMPLETIONS_DEFAULT_MAX_TOKENS,
	completionChoice,
	completionPart,
	CompletionRequest,
	contextOverflowError,
	generationParams,
	includesUsage,
	modelJson,
	parseRequest,
	requestedTokens,
	usageChunk,
	usageJson,
	type AnswerHead,
	type RequestedTokens,
} from './openai-shapes';

/** The model a server answers with, and when it started (`created` on every answer). */
export interface ModelRoutes {
	readonly engine: InferenceEngine;
	readonly info: ModelInfo;
	/** The id served at /v1/models; requests naming another model get 404. */
	readonly modelId: string;
	readonly created: number;
	/**
	 * The most characters one token stands for (its tokenizer's longest vocabulary entry): a
	 * prompt longer than this times the context cannot fit, and is refused before tokenizing.
	 */
	readonly charsPerToken: number;
}

/** {@link ModelRoutes.charsPerToken} when the tokenizer is not on disk (a hub model). */
export const FALLBACK_CHARS_PER_TOKEN = 128;

/** One model request: the routes, its response and its abort signal. */
interface Call {
	readonly routes: ModelRoutes;
	readonly response: ServerResponse;
	readonly signal: AbortSignal;
}

/** 404 when a request names a model other than the served one. */
export function checkModel(routes: ModelRoutes, model: string | undefined): void {
	if (model !== undefined && model !== routes.modelId) {
		throw new HttpError(
			404,
			`The model '${model}' does not exist: this server serves '${routes.modelId}' (see /v1/models).`,
			'invalid_request_error',
			'model',
			'model_not_found',
		);
	}
}

/**
 * 400 for a prompt of more characters than the whole context can hold, checked before it is
 * tokenized (tokenizing runs on the server's one thread: an 8 MiB prompt held up every request
 * for over a minute). Shorter prompts are tokenized, so vLLM's own 400 keeps its token count.
 */
export function checkPromptChars(routes: ModelRoutes, promptChars: number): void {
	const { maxPositions } = routes.info;
	const most = maxPositions * routes.charsPerToken;
	if (promptChars <= most) return;
	throw new HttpError(
		400,
		`The prompt has ${promptChars} characters, more than the model's context length of ` +
			`${maxPositions} tokens can hold (${most}: this tokenizer's longest token has ` +
			`${routes.charsPerToken} characters); it was not tokenized. Please reduce the length of ` +
			'the input prompt.',
		'invalid_request_error',
		'input_tokens',
	);
}

/**
 * `GET /v1/models/{id}` (OpenAI's retrieve): the served model's object, 404 for any other id. The
 * id comes URL-encoded (the openai client sends `owner%2Fname` for a hub id); vLLM has no such
 * route (vllm/entrypoints/openai/models/api_router.py lists only), so OpenAI's shape is the rule.
 */
export function answerModel(
	routes: ModelRoutes,
	encodedId: string,
	response: ServerResponse,
): void {
	let id: string;
	try {
		id = decodeURIComponent(encodedId);
	} catch {
		id = encodedId;
	}
	checkModel(routes, id);
	sendJson(response, 200, modelJson(routes.modelId, routes.created, routes.info.maxPositions));
}

function generate(
	call: Call,
	prompt: GenerationPrompt,
	params: GenerationParams,
	onToken?: (text: string) => void,
): Promise<GenerateTextResult> {
	const { engine, info } = call.routes;
	return engine.generate(
		{ modelKey: info.modelKey, prompt, params },
		{ signal: call.signal, ...(onToken ? { onToken } : {}) },
	);
}

/** The engine's words for a prompt that leaves no room to generate (src/worker/generate-text.ts). */
const PROMPT_FILLS_CONTEXT = /^The prompt has (\d+) tokens/;

/**
 * The prompt's token count as the engine encodes it for generation (chat template included): a
 * generation of 0 tokens, which encodes the prompt and runs nothing.
 */
async function countPromptTokens(call: Call, prompt: GenerationPrompt): Promise<number> {
	try {
		return (await generate(call, prompt, { max_tokens: 0 })).usage.promptTokens;
	} catch (error) {
		const filled = error instanceof RangeError ? PROMPT_FILLS_CONTEXT.exec(error.message) : null;
		if (filled?.[1] !== undefined) return Number(filled[1]);
		throw error;
	}
}

/**
 * The prompt's token count, after vLLM's check that prompt + requested output fit the context
 * (400 otherwise; see {@link contextOverflowError}).
 */
async function fittedPromptTokens(
	call: Call,
	prompt: GenerationPrompt,
	maxTokens: number,
): Promise<number> {
	const promptTokens = await countPromptTokens(call, prompt);
	const overflow = contextOverflowError(promptTokens, maxTokens, call.routes.info.maxPositions);
	if (overflow) throw overflow;
	return promptTokens;
}

/** Prompt logprobs of `text` (prompt and completion scored together), vLLM's echo shape, with
 * each token's `topK` most likely alternatives (computed in the model's graph) when asked. */
async function scoreEcho(call: Call, text: string, topK: number): Promise<EchoLogprobsJson> {
	const { engine, info } = call.routes;
	const result = await engine.scoreTexts(
		{
			modelKey: info.modelKey,
			texts: [text],
			convention: 'reference',
			...(topK > 0 ? { topLogprobs: topK } : {}),
		},
		{ signal: call.signal },
	);
	const scored = result.texts[0];
	return echoLogprobsFromScoredTokens(text, scored?.tokens ?? [], 0, scored?.topLogprobs);
}

/** `/v1/completions` has no `max_completion_tokens` (vLLM ignores it there): `max_tokens`, or 16. */
function completionLimit(request: CompletionRequest): RequestedTokens {
	return requestedTokens({ max_tokens: request.max_tokens }, COMPLETIONS_DEFAULT_MAX_TOKENS);
}

/** `POST /v1/completions` with a checked body (see {@link parseCompletionRequest}). */
export async function answerCompletions(
	routes: ModelRoutes,
	request: CompletionRequest,
	response: ServerResponse,
	signal: AbortSignal,
): Promise<void> {
	const call: Call = { routes, response, signal };
	const head: AnswerHead = {
		id: `cmpl-${randomUUID()}`,
		object: 'text_completion',
		created: routes.created,
		model: routes.modelId,
	};
	const prompts = typeof request.prompt === 'string' ? [request.prompt] : request.prompt;
	const maxTokens = completionLimit(request).maxTokens ?? 0;
	// Every prompt is checked before any generation starts, as vLLM renders all prompts first.
	const promptTokens: number[] = [];
	for (const prompt of prompts)
		promptTokens.push(await fittedPromptTokens(call, { kind: 'text', text: prompt }, maxTokens));
	if (request.stream === true)
		await streamCompletion(call, head, request, prompts[0] ?? '', promptTokens[0] ?? 0);
	else await wholeCompletions(call, head, request, prompts, promptTokens);
}

/** The checked body of `POST /v1/completions` (400 / 404 before the request waits in the queue). */
export function parseCompletionRequest(routes: ModelRoutes, body: unknown): CompletionRequest {
	const request = parseRequest(CompletionRequest, body);
	checkModel(routes, request.model);
	checkLogprobs(request.logprobs);
	if (request.stream === true && typeof request.prompt !== 'string' && request.prompt.length !== 1)
		throw new HttpError(400, 'Streaming takes a single prompt.');
	checkOutputLimit(completionLimit(request), routes.info.maxPositions);
	for (const prompt of typeof request.prompt === 'string' ? [request.prompt] : request.prompt)
		checkPromptChars(routes, prompt.length);
	return request;
}

async function streamCompletion(
	call: Call,
	head: AnswerHead,
	request: CompletionRequest,
	prompt: string,
	promptTokens: number,
): Promise<void> {
	const maxTokens = completionLimit(request).maxTokens ?? 0;
	const params = generationParams(request, maxTokens);
	const withUsage = includesUsage(request);
	const send = startEventStream(call.response);
	const chunk = (text: string, finishReason: string | null) => ({
		...head,
		choices: [completionChoice(0, text, null, finishReason)],
		...(withUsage ? { usage: null } : {}),
	});
	if (request.echo === true) send(chunk(prompt, null));
	const result =
		maxTokens > 0
			? await generate(call, { kind: 'text', text: prompt }, params, (text) =>
					send(chunk(text, null)),
				)
			: undefined;
	send(chunk('', result?.finishReason ?? 'length'));
	if (withUsage)
		send(usageChunk(head, usageJson(promptTokens, result?.usage.completionTokens ?? 0)));
	endEventStream(call.response);
}

async function wholeCompletions(
	call: Call,
	head: AnswerHead,
	request: CompletionRequest,
	prompts: readonly string[],
	promptTokens: readonly number[],
): Promise<void> {
	const maxTokens = completionLimit(request).maxTokens ?? 0;
	const params = generationParams(request, maxTokens);
	const choices = [];
	let completionTokens = 0;
	for (const [index, prompt] of prompts.entries()) {
		const result =
			maxTokens > 0 ? await generate(call, { kind: 'text', text: prompt }, params) : undefined;
		const completion = result?.completion ?? '';
		let logprobs: EchoLogprobsJson | null = null;
		if (request.logprobs != null) {
			// Prompt and completion scored together; the echo keeps the prompt's tokens.
			const full = await scoreEcho(call, prompt + completion, request.logprobs);
			logprobs = request.echo === true ? full : completionPart(full, prompt.length);
		}
		completionTokens += result?.usage.completionTokens ?? 0;
		const text = (request.echo === true ? prompt : '') + completion;
		choices.push(completionChoice(index, text, logprobs, result?.finishReason ?? 'length'));
	}
	const promptTotal = promptTokens.reduce((sum, n) => sum + n, 0);
	sendJson(call.response, 200, {
		...head,
		choices,
		usage: usageJson(promptTotal, completionTokens),
	});
}

/** The checked body of `POST /v1/chat/completions`. */
export function parseChatRequest(routes: ModelRoutes, body: unknown): ChatRequest {
	const request = parseRequest(ChatRequest, body);
	checkModel(routes, request.model);
	checkChatLogprobs(request, routes.info.vocabSize);
	checkOutputLimit(requestedTokens(request), routes.info.maxPositions);
	// Every message's text is in the templated prompt (besides the template's own tokens).
	const chars = request.messages.reduce((sum, m) => sum + m.content.length, 0);
	checkPromptChars(routes, chars);
	return request;
}

/** `POST /v1/chat/completions` with a checked body. */
export async function answerChatCompletions(
	routes: ModelRoutes,
	request: ChatRequest,
	response: ServerResponse,
	signal: AbortSignal,
): Promise<void> {
	const call: Call = { routes, response, signal };
	const prompt: GenerationPrompt = {
		kind: 'chat',
		messages: request.messages.map((m) => ({
			role: m.role,
			content: m.content,
			...(m.name !== undefined ? { name: m.name } : {}),
		})),
	};
	const { maxTokens } = requestedTokens(request);
	// No limit asked: the engine's default, capped by the room left (vLLM's default is the room).
	await fittedPromptTokens(call, prompt, maxTokens ?? 0);
	const params = generationParams(request, maxTokens);
	const id = `chatcmpl-${randomUUID()}`;
	const { created, modelId: model } = routes;
	if (request.stream === true) {
		const head: AnswerHead = { id, object: 'chat.completion.chunk', created, model };
		await streamChat(call, head, prompt, params, includesUsage(request));
		return;
	}
	const result = await generate(call, prompt, params);
	sendJson(response, 200, {
		id,
		object: 'chat.completion',
		created,
		model,
		choices: [
			{
				index: 0,
				message: { role: 'assistant', content: result.completion },
				finish_reason: result.finishReason,
			},
		],
		usage: usageJson(result.usage.promptTokens, result.usage.completionTokens),
	});
}

/**
 * A streamed chat: the role chunk, one chunk per piece of text, the finish chunk; then, only when
 * `stream_options.include_usage` asks, a usage chunk with no choices (other chunks `usage: null`).
 */
async function streamChat(
	call: Call,
	head: AnswerHead,
	prompt: GenerationPrompt,
	params: GenerationParams,
	withUsage: boolean,
): Promise<void> {
	const send = startEventStream(call.response);
	const chunk = (delta: { role?: string; content?: string }, finishReason: string | null) =>
		send({
			...head,
			choices: [chatChunkChoice(delta, finishReason)],
			...(withUsage ? { usage: null } : {}),
		});
	chunk({ role: 'assistant', content: '' }, null);
	const result = await generate(call, prompt, params, (content) => {
		if (content !== '') chunk({ content }, null);
	});
	chunk({}, result.finishReason);
	const { promptTokens, completionTokens } = result.usage;
	if (withUsage) send(usageChunk(head, usageJson(promptTokens, completionTokens)));
	endEventStream(call.response);
}
