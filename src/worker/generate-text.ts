/**
 * Local text generation on a plain (unfused) transformers.js causal LM: the prompt (text, or chat
 * through the tokenizer's chat template, else the upstream Evals text rendering), then
 * transformers.js's own decoding loop (KV cache) with our token choice (greedy at temperature 0,
 * else seeded temperature / top_p sampling), stop sequences, streaming and cancel. The model and
 * tokenizer come from TransformersEngine (the only module importing transformers.js).
 */
import type { ChatMessage, GenerationPrompt, TokenUsage } from '../core/model/generation';
import { renderChatAsText } from '../core/model/render-chat-as-text';
import {
	applyPenalties,
	sampleToken,
	seededRandom,
	type RandomSource,
} from '../core/model/sample-token';
import { findStopIndex, safeEmitLength } from '../core/model/stop-sequences';
import type { GenerateTextOptions } from './engine';
import type { GenerateTextParams, GenerateTextResult } from './protocol';
import { CancelledError } from './engine-errors';

/** New tokens when a request names no `max_tokens` (upstream templates often pass none). */
export const DEFAULT_MAX_NEW_TOKENS = 256;

/** What generation needs of a transformers.js tokenizer. */
export interface GenerationTokenizer {
	readonly chat_template?: unknown;
	encode(text: string, options: { add_special_tokens: boolean }): number[];
	decode(
		ids: number[],
		options: { skip_special_tokens: boolean; clean_up_tokenization_spaces: boolean },
	): string;
	apply_chat_template(
		conversation: { role: string; content: string }[],
		options: { tokenize: false; add_generation_prompt: boolean },
	): unknown;
}

/** A transformers.js Tensor as the logits processor sees it (one row: [vocab]). */
interface LogitsRow {
	readonly data: Float32Array;
}

/** Hooks handed to transformers.js's `generate` (duck-typed: it only calls them). */
export interface GenerationHooks {
	/** `(inputIds, logits [batch, vocab])` → logits; we force the chosen token per row. */
	readonly logitsProcessor: (inputIds: bigint[][], logits: Iterable<LogitsRow>) => unknown;
	/** `(inputIds)` → one stop flag per row. */
	readonly stoppingCriteria: (inputIds: bigint[][]) => boolean[];
	readonly streamer: { put(ids: bigint[][]): void; end(): void };
}

/** What the engine provides for one generation. */
export interface GenerationRuntime {
	readonly tokenizer: GenerationTokenizer;
	/** Ids that end a generation (EOS); never part of the completion text. */
	readonly eosTokenIds: readonly number[];
	/** Fed when a prompt has no tokens at all (BOS, else EOS: GPT-2's `<|endoftext|>`). */
	readonly startTokenId: number | undefined;
	/** Positions the model can attend to; generation stops before running past them. */
	readonly maxPositions: number;
	/** Runs transformers.js's decoding loop (greedy) over `inputIds` with our hooks. */
	runGenerate(
		inputIds: readonly number[],
		maxNewTokens: number,
		hooks: GenerationHooks,
	): Promise<void>;
}

/** A chat for a chat template: Evals few-shot names map onto user / assistant (reference §4.1). */
function templateMessages(messages: readonly ChatMessage[]): { role: string; content: string }[] {
	return messages.map((m) => {
		if (m.name === 'example_user') return { role: 'user', content: m.content };
		if (m.name === 'example_assistant') return { role: 'assistant', content: m.content };
		return { role: m.role, content: m.content };
	});
}

/** True when the tokenizer carries a chat template. */
export function hasChatTemplate(tokenizer: GenerationTokenizer): boolean {
	const template = tokenizer.chat_template;
	return (
		(typeof template === 'string' && template.length > 0) ||
		(typeof template === 'object' && template !== null)
	);
}

/** The prompt's token ids: chat template (template text, no extra special tokens), or text. */
export function encodePrompt(prompt: GenerationPrompt, runtime: GenerationRuntime): number[] {
	const { tokenizer } = runtime;
	let ids: number[];
	if (prompt.kind === 'chat' && hasChatTemplate(tokenizer)) {
		const text = tokenizer.apply_chat_template(templateMessages(prompt.messages), {
			tokenize: false,
			add_generation_prompt: true,
		});
		ids = tokenizer.encode(String(text), { add_special_tokens: false });
	} else {
		const text =
			prompt.kind === 'chat'
				? renderChatAsText(prompt.messages, { forCompletion: true })
				: prompt.text;
		ids = tokenizer.encode(text, { add_special_tokens: true });
	}
	if (ids.length === 0 && runtime.startTokenId !== undefined) ids = [runtime.startTokenId];
	return ids;
}

/** Resolves on a fresh macrotask (no timer clamping): pending messages (a cancel) run first. */
export function nextMacrotask(): Promise<void> {
	if (typeof globalThis.setImmediate === 'function') {
		return new Promise((resolve) => globalThis.setImmediate(resolve));
	}
	if (typeof MessageChannel === 'function') {
		return new Promise((resolve) => {
			const channel = new MessageChannel();
			channel.port1.onmessage = () => {
				channel.port1.close();
				resolve();
			};
			channel.port2.postMessage(null);
		});
	}
	return new Promise((resolve) => setTimeout(resolve, 0));
}

function randomSourceFor(seed: number | undefined): RandomSource {
	return seededRandom(seed ?? Math.floor(Math.random() * 2 ** 32));
}

/**
 * Generates one completion. Tokens stream through `onToken` (text not yet emitted, never the start
 * of a possible stop sequence); an aborted signal stops after the current token step and rejects
 * with CancelledError.
 */
export async function generateText(
	runtime: GenerationRuntime,
	request: Pick<GenerateTextParams, 'prompt' | 'params'>,
	options: GenerateTextOptions = {},
): Promise<GenerateTextResult> {
	const started = globalThis.performance?.now() ?? Date.now();
	const { params } = request;
	const { tokenizer } = runtime;
	if (options.signal?.aborted) throw new CancelledError('The generation was cancelled.');
	if (params.n !== undefined && params.n !== 1) {
		throw new RangeError(`n = ${params.n}: a local model gives one completion per call (n = 1).`);
	}
	const promptIds = encodePrompt(request.prompt, runtime);
	if (promptIds.length === 0) {
		throw new RangeError(
			'The prompt has no tokens and the model has no BOS/EOS token to start from.',
		);
	}
	const room = runtime.maxPositions - promptIds.length;
	if (room <= 0) {
		throw new RangeError(
			`The prompt has ${promptIds.length} tokens; the model attends to ${runtime.maxPositions} at most.`,
		);
	}
	const maxNewTokens = Math.min(params.max_tokens ?? DEFAULT_MAX_NEW_TOKENS, room);
	const stops = params.stop ?? [];
	const temperature = params.temperature ?? 1;
	const topP = params.top_p ?? 1;
	const random = randomSourceFor(params.seed);
	const eos = new Set(runtime.eosTokenIds);
	const frequencyPenalty = params.frequency_penalty ?? 0;
	const presencePenalty = params.presence_penalty ?? 0;
	const penalised = frequencyPenalty !== 0 || presencePenalty !== 0;
	const counts = new Map<number, number>();

	const generated: number[] = [];
	let emitted = 0;
	let completion = '';
	let finishReason: GenerateTextResult['finishReason'] = 'length';
	let finished = maxNewTokens <= 0;
	let cancelled = false;
	let promptSeen = false;

	const decodeGenerated = (): string =>
		tokenizer.decode(
			generated.filter((id) => !eos.has(id)),
			{ skip_special_tokens: true, clean_up_tokenization_spaces: false },
		);
	const emitUpTo = (end: number, text: string): void => {
		if (end > emitted) {
			options.onToken?.(text.slice(emitted, end));
			emitted = end;
		}
	};

	const hooks: GenerationHooks = {
		logitsProcessor: (_inputIds, logits) => {
			if (penalised) {
				for (const row of logits)
					applyPenalties(row.data, counts, frequencyPenalty, presencePenalty);
			}
			if (temperature > 0) {
				for (const row of logits) {
					const chosen = sampleToken(row.data, { temperature, topP, random });
					row.data.fill(Number.NEGATIVE_INFINITY);
					row.data[chosen] = 0;
				}
			}
			return logits;
		},
		streamer: {
			put: (ids) => {
				// The first call carries the prompt; then one new id per step.
				if (!promptSeen) {
					promptSeen = true;
					return;
				}
				if (finished) return;
				const id = Number(ids[0]?.[0] ?? -1);
				generated.push(id);
				counts.set(id, (counts.get(id) ?? 0) + 1);
				const text = decodeGenerated();
				const stopAt = findStopIndex(text, stops);
				if (stopAt >= 0) {
					completion = text.slice(0, stopAt);
					emitUpTo(stopAt, text);
					finishReason = 'stop';
					finished = true;
					return;
				}
				completion = text;
				if (eos.has(id)) {
					emitUpTo(text.length, text);
					finishReason = 'stop';
					finished = true;
					return;
				}
				emitUpTo(safeEmitLength(text, stops), text);
				if (generated.length >= maxNewTokens) {
					emitUpTo(text.length, text);
					finished = true;
				}
			},
			end: () => undefined,
		},
		stoppingCriteria: (inputIds) => {
			if (options.signal?.aborted) cancelled = true;
			return inputIds.map(() => finished || cancelled);
		},
	};

	if (!finished) await runtime.runGenerate(promptIds, maxNewTokens, hooks);
	if (cancelled || options.signal?.aborted) {
		throw new CancelledError('The generation was cancelled.');
	}
	if (!finished) {
		// transformers.js stopped on its own criteria (max length): flush what is held back.
		const text = decodeGenerated();
		completion = text;
		emitUpTo(text.length, text);
	}
	const usage: TokenUsage = { promptTokens: promptIds.length, completionTokens: generated.length };
	const elapsedMs = (globalThis.performance?.now() ?? Date.now()) - started;
	return { completion, finishReason, usage, elapsedMs };
}
