/**
 * `serve`'s model routes over one loaded model: `POST /v1/completions` (echoed prompt logprobs in
 * vLLM's shape, streamed or not) and `POST /v1/chat/completions` (streamed or not).
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import {
	echoLogprobsFromScoredTokens,
	type EchoLogprobsJson,
} from '../../core/model/echo-logprobs';
import type { GenerationParams, GenerationPrompt } from '../../core/model/generation';
import type { InferenceEngine } from '../../worker/engine';
import type { GenerateTextResult, ModelInfo } from '../../worker/protocol';
import { endEventStream, HttpError, sendJson, startEventStream } from './http-io';
import {
	ChatRequest,
	chatChunkChoice,
	COMPLETIONS_DEFAULT_MAX_TOKENS,
	completionChoice,
	completionPart,
	CompletionRequest,
	generationParams,
	parseRequest,
	usageJson,
	type AnswerHead,
} from './openai-shapes';

/** The model a server answers with, and when it started (`created` on every answer). */
export interface ModelRoutes {
	readonly engine: InferenceEngine;
	readonly info: ModelInfo;
	/** The id served at /v1/models; requests naming another model get 404. */
	readonly modelId: string;
	readonly created: number;
}

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

async function countTokens(routes: ModelRoutes, text: string): Promise<number> {
	const { engine, info } = routes;
	const result = await engine.tokenize({ modelKey: info.modelKey, text, convention: 'reference' });
	return result.tokens.length;
}

/** Prompt logprobs of `text` (prompt and completion scored together), vLLM's echo shape. */
async function scoreEcho(call: Call, text: string): Promise<EchoLogprobsJson> {
	const { engine, info } = call.routes;
	const result = await engine.scoreTexts(
		{ modelKey: info.modelKey, texts: [text], convention: 'reference' },
		{ signal: call.signal },
	);
	return echoLogprobsFromScoredTokens(text, result.texts[0]?.tokens ?? [], 0);
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
	if (request.stream === true) await streamCompletion(call, head, request, prompts[0] ?? '');
	else await wholeCompletions(call, head, request, prompts);
}

/** The checked body of `POST /v1/completions` (400 / 404 before the request waits in the queue). */
export function parseCompletionRequest(routes: ModelRoutes, body: unknown): CompletionRequest {
	const request = parseRequest(CompletionRequest, body);
	checkModel(routes, request.model);
	if (request.stream === true && typeof request.prompt !== 'string' && request.prompt.length !== 1)
		throw new HttpError(400, 'Streaming takes a single prompt.');
	return request;
}

async function streamCompletion(
	call: Call,
	head: AnswerHead,
	request: CompletionRequest,
	prompt: string,
): Promise<void> {
	const params = generationParams(request, COMPLETIONS_DEFAULT_MAX_TOKENS);
	const maxTokens = params.max_tokens ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
	const send = startEventStream(call.response);
	const chunk = (text: string, finishReason: string | null) => ({
		...head,
		choices: [completionChoice(0, text, null, finishReason)],
	});
	if (request.echo === true) send(chunk(prompt, null));
	const result =
		maxTokens > 0
			? await generate(call, { kind: 'text', text: prompt }, params, (text) =>
					send(chunk(text, null)),
				)
			: undefined;
	const promptTokens = result?.usage.promptTokens ?? (await countTokens(call.routes, prompt));
	send({
		...chunk('', result?.finishReason ?? 'length'),
		usage: usageJson(promptTokens, result?.usage.completionTokens ?? 0),
	});
	endEventStream(call.response);
}

async function wholeCompletions(
	call: Call,
	head: AnswerHead,
	request: CompletionRequest,
	prompts: readonly string[],
): Promise<void> {
	const params = generationParams(request, COMPLETIONS_DEFAULT_MAX_TOKENS);
	const maxTokens = params.max_tokens ?? COMPLETIONS_DEFAULT_MAX_TOKENS;
	const choices = [];
	let promptTokens = 0;
	let completionTokens = 0;
	for (const [index, prompt] of prompts.entries()) {
		const result =
			maxTokens > 0 ? await generate(call, { kind: 'text', text: prompt }, params) : undefined;
		const completion = result?.completion ?? '';
		let logprobs: EchoLogprobsJson | null = null;
		if (request.logprobs != null) {
			// Prompt and completion scored together; the echo keeps the prompt's tokens.
			const full = await scoreEcho(call, prompt + completion);
			logprobs = request.echo === true ? full : completionPart(full, prompt.length);
		}
		promptTokens += result?.usage.promptTokens ?? (await countTokens(call.routes, prompt));
		completionTokens += result?.usage.completionTokens ?? 0;
		const text = (request.echo === true ? prompt : '') + completion;
		choices.push(completionChoice(index, text, logprobs, result?.finishReason ?? 'length'));
	}
	sendJson(call.response, 200, {
		...head,
		choices,
		usage: usageJson(promptTokens, completionTokens),
	});
}

/** The checked body of `POST /v1/chat/completions`. */
export function parseChatRequest(routes: ModelRoutes, body: unknown): ChatRequest {
	const request = parseRequest(ChatRequest, body);
	checkModel(routes, request.model);
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
	const params = generationParams(request);
	const id = `chatcmpl-${randomUUID()}`;
	const { created, modelId: model } = routes;
	if (request.stream === true) {
		const head: AnswerHead = { id, object: 'chat.completion.chunk', created, model };
		const send = startEventStream(response);
		send({ ...head, choices: [chatChunkChoice({ role: 'assistant', content: '' }, null)] });
		const result = await generate(call, prompt, params, (content) =>
			send({ ...head, choices: [chatChunkChoice({ content }, null)] }),
		);
		send({
			...head,
			choices: [chatChunkChoice({}, result.finishReason)],
			usage: usageJson(result.usage.promptTokens, result.usage.completionTokens),
		});
		endEventStream(response);
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
