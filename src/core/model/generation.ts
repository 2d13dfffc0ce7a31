/**
 * Models that generate: the one interface every provider (local worker engine, OpenAI-compatible
 * endpoint, replay file, and the response cache over any of them) implements, and the plain data
 * that crosses it. Evals and LTM runners in core depend on `TextModel` only, never on a provider.
 * See ../shared/docs/generative-design.md §2.
 */

/** One chat message, as the OpenAI chat API and the Evals sample format write it. */
export interface ChatMessage {
	/** `system`, `user`, `assistant` (other roles pass through as the sample wrote them). */
	readonly role: string;
	readonly content: string;
	/** Evals few-shot convention: `example_user` / `example_assistant` on system messages. */
	readonly name?: string;
}

/** What to continue: a chat (rendered by the chat template or the Evals text rendering) or text. */
export type GenerationPrompt =
	| { readonly kind: 'chat'; readonly messages: readonly ChatMessage[] }
	| { readonly kind: 'text'; readonly text: string };

/**
 * New tokens when a request names no `max_tokens`: the local engine's cap, and the value an Evals
 * run sends (to any provider) for a template that passes none (evals/generation-overrides.ts).
 */
export const DEFAULT_MAX_NEW_TOKENS = 256;

/**
 * Generation parameters. Only the ones the caller set are present: a provider sends exactly these
 * (nothing more); an Evals run fills in `max_tokens` where its template passes none.
 */
export interface GenerationParams {
	/** 0 means greedy decoding. */
	readonly temperature?: number;
	readonly top_p?: number;
	readonly max_tokens?: number;
	readonly stop?: readonly string[];
	readonly seed?: number;
	readonly frequency_penalty?: number;
	readonly presence_penalty?: number;
	readonly n?: number;
}

export interface GenerateRequest {
	readonly prompt: GenerationPrompt;
	readonly params: GenerationParams;
}

/** Who is asking: replay answers and the response cache key on it. */
export type ModelRole = 'policy' | 'grader' | 'agent' | 'judge' | 'generator' | 'try';

export interface ModelCall {
	readonly runId: string;
	/** Evals sample id, LTM test id, or a free label (the "Try it" box). */
	readonly sampleId: string;
	readonly role: ModelRole;
	/** Index of this call among the calls of the same sample and role (LTM judge call index). */
	readonly callIndex?: number;
}

export interface TokenUsage {
	readonly promptTokens: number;
	readonly completionTokens: number;
	/** OpenAI's `completion_tokens_details` as the server sent it (e.g. `reasoning_tokens`). */
	readonly completionTokensDetails?: TokenDetails | null;
	/** OpenAI's `prompt_tokens_details` as the server sent it (e.g. `cached_tokens`). */
	readonly promptTokensDetails?: TokenDetails | null;
}

/** A `*_tokens_details` object of OpenAI's usage: counts by kind (null where not counted). */
export type TokenDetails = { readonly [kind: string]: number | null };

/** Streamed while generating; the last event is `done` (or the iterator throws). */
export type GenerationEvent =
	| { readonly type: 'token'; readonly text: string }
	| {
			readonly type: 'done';
			/** The whole completion, stop sequence excluded, never stripped. */
			readonly completion: string;
			readonly finishReason: 'stop' | 'length' | 'cancelled';
			readonly usage?: TokenUsage;
			/** The model name the server answered with (OpenAI's `model`), when it gave one. */
			readonly model?: string;
			/** True when the answer came from the response cache (no model was called). */
			readonly cached?: boolean;
	  };

export interface ModelAbilities {
	/** Surprisal of given text (local engine; vLLM prompt logprobs). */
	readonly score: boolean;
	readonly generate: boolean;
	/** Has a chat template (or a chat endpoint). */
	readonly chat: boolean;
}

/** What core sees of an AbortSignal (core has no DOM types): checked between tokens / calls. */
export interface CancelSignal {
	readonly aborted: boolean;
}

/** One interface, four providers (local, endpoint, replay, cache wrapper). */
export interface TextModel {
	/** A stable label of the model for logs and the run record (`openai/<m>@<url>`, `replay:<f>`...). */
	readonly label: string;
	readonly abilities: ModelAbilities;
	generate(
		request: GenerateRequest,
		call: ModelCall,
		signal?: CancelSignal,
	): AsyncIterable<GenerationEvent>;
	/** Token count of a text with the model's tokenizer (LTM scheduling). */
	countTokens(text: string): number | Promise<number>;
}

/** Runs a generation to its end and returns the `done` event (tokens are dropped). */
export async function generateCompletion(
	model: TextModel,
	request: GenerateRequest,
	call: ModelCall,
	signal?: CancelSignal,
): Promise<Extract<GenerationEvent, { type: 'done' }>> {
	let done: Extract<GenerationEvent, { type: 'done' }> | undefined;
	for await (const event of model.generate(request, call, signal)) {
		if (event.type === 'done') done = event;
	}
	if (!done) throw new Error(`${model.label}: the generation ended without a completion`);
	return done;
}
