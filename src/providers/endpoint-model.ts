/**
 * A model behind an OpenAI-compatible endpoint as a TextModel: chat prompts go to
 * `/v1/chat/completions`, text prompts to `/v1/completions`, streamed; only the parameters the
 * caller set are sent. Scoring (prompt logprobs) is in endpoint-scoring.ts.
 */
import type {
	CancelSignal,
	ChatMessage,
	GenerateRequest,
	GenerationEvent,
	GenerationParams,
	ModelAbilities,
	ModelCall,
	TextModel,
	TokenUsage,
} from '../core/model/generation';
import { describeModelSpec, type EndpointModelSpec } from '../core/model/model-spec';
import { renderChatAsText } from '../core/model/render-chat-as-text';
import { OpenAIClient, type OpenAIClientOptions } from './openai-client';

export interface EndpointModelOptions {
	readonly spec: EndpointModelSpec;
	/** A shared client (one concurrency limit and usage sum per run), or options to make one. */
	readonly client?: OpenAIClient;
	readonly apiKey?: string;
	readonly clientOptions?: Omit<OpenAIClientOptions, 'baseUrl' | 'apiKey'>;
	/**
	 * `chat` (default): chat prompts use the chat API. `completions`: a base model without a chat
	 * template; chat prompts are rendered as Evals text and sent to `/v1/completions`.
	 */
	readonly chatApi?: 'chat' | 'completions';
	/** What the endpoint can do, when known (`score`: it echoes prompt logprobs, e.g. vLLM). */
	readonly abilities?: Partial<ModelAbilities>;
	/** Token counter for `countTokens` (e.g. cl100k from token-count.ts); default ≈ 4 chars/token. */
	readonly countTokens?: (text: string) => number;
}

/** The request body's generation parameters: exactly the ones set, under their OpenAI names. */
export function openAIParams(params: GenerationParams): Record<string, unknown> {
	const body: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value !== undefined) body[key] = value;
	}
	return body;
}

/** A chat message as the chat API takes it (`name` only when the message has one). */
function messageJson(message: ChatMessage): Record<string, string> {
	return {
		role: message.role,
		content: message.content,
		...(message.name !== undefined ? { name: message.name } : {}),
	};
}

/** `stop`, `length`, or (for `content_filter`, `tool_calls`, absent) `stop`. */
function finishReasonOf(reason: string | undefined): 'stop' | 'length' {
	return reason === 'length' ? 'length' : 'stop';
}

function toAbortSignal(signal: CancelSignal | undefined): {
	signal?: AbortSignal;
	dispose: () => void;
} {
	if (!signal) return { dispose: () => undefined };
	if (typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal) {
		return { signal, dispose: () => undefined };
	}
	const controller = new AbortController();
	const timer = setInterval(() => {
		if (signal.aborted) controller.abort();
	}, 50);
	return { signal: controller.signal, dispose: () => clearInterval(timer) };
}

export class EndpointModel implements TextModel {
	readonly label: string;
	readonly spec: EndpointModelSpec;
	readonly abilities: ModelAbilities;
	readonly client: OpenAIClient;
	readonly #chatApi: 'chat' | 'completions';
	readonly #countTokens: ((text: string) => number) | undefined;

	constructor(options: EndpointModelOptions) {
		this.#countTokens = options.countTokens;
		this.spec = options.spec;
		this.label = describeModelSpec(options.spec);
		this.client =
			options.client ??
			new OpenAIClient({
				...options.clientOptions,
				baseUrl: options.spec.baseUrl,
				...(options.apiKey ? { apiKey: options.apiKey } : {}),
			});
		this.#chatApi = options.chatApi ?? 'chat';
		this.abilities = {
			score: false,
			generate: true,
			chat: this.#chatApi === 'chat',
			...options.abilities,
		};
	}

	async *generate(
		request: GenerateRequest,
		_call: ModelCall,
		cancel?: CancelSignal,
	): AsyncGenerator<GenerationEvent> {
		const { prompt } = request;
		const params = openAIParams(request.params);
		const useChat = prompt.kind === 'chat' && this.#chatApi === 'chat';
		const body: Record<string, unknown> = { model: this.spec.model };
		if (useChat && prompt.kind === 'chat') body['messages'] = prompt.messages.map(messageJson);
		else
			body['prompt'] =
				prompt.kind === 'text'
					? prompt.text
					: renderChatAsText(prompt.messages, { forCompletion: true });
		Object.assign(body, params);
		const { signal, dispose } = toAbortSignal(cancel);
		let completion = '';
		let finishReason: string | undefined;
		let promptTokens: number | undefined;
		let completionTokens: number | undefined;
		let details: Pick<TokenUsage, 'completionTokensDetails' | 'promptTokensDetails'> = {};
		let served: string | undefined;
		try {
			for await (const chunk of this.client.stream(
				useChat ? '/chat/completions' : '/completions',
				body,
				signal,
			)) {
				if (chunk.text !== '') {
					completion += chunk.text;
					yield { type: 'token', text: chunk.text };
				}
				finishReason = chunk.finishReason ?? finishReason;
				served = chunk.model ?? served;
				if (chunk.usage) {
					promptTokens = chunk.usage.prompt_tokens;
					completionTokens = chunk.usage.completion_tokens;
					const { completion_tokens_details: completion, prompt_tokens_details: prompt } =
						chunk.usage;
					details = {
						...(completion === undefined ? {} : { completionTokensDetails: completion }),
						...(prompt === undefined ? {} : { promptTokensDetails: prompt }),
					};
				}
			}
		} catch (error) {
			if (cancel?.aborted) {
				yield { type: 'done', completion, finishReason: 'cancelled' };
				return;
			}
			throw error;
		} finally {
			dispose();
		}
		yield {
			type: 'done',
			completion,
			finishReason: finishReasonOf(finishReason),
			...(promptTokens !== undefined && completionTokens !== undefined
				? { usage: { promptTokens, completionTokens, ...details } }
				: {}),
			...(served === undefined ? {} : { model: served }),
		};
	}

	/** Endpoints do not tokenize for us: the given counter, else about 4 characters per token. */
	countTokens(text: string): number {
		return this.#countTokens ? this.#countTokens(text) : Math.ceil(text.length / 4);
	}
}
