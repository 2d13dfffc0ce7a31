/**
 * Local text generation on a plain (unfused) transformers.js causal LM: the prompt (text, or chat
 * through the tokenizer's chat template, else the upstream Evals text rendering), then
 * transformers.js's own decoding loop (KV cache) with our token choice (greedy at temperature 0,
 * else seeded temperature / top_p sampling), stop sequences, streaming and cancel. The model and
 * tokenizer come from text-generator.ts (transformers.js itself: transformers-library.ts).
 */
import {
	DEFAULT_MAX_NEW_TOKENS,
	type ChatMessage,
	type GenerationPrompt,
	type TokenUsage,
} from '../core/model/generation';
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
import { decodeTextIds } from './decode-text-ids';

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

/** The prompt's ids and how many tokens may follow them; RangeError for a request a local model
 * cannot answer (n > 1, no tokens to start from, a prompt that fills the model's positions). */
function planGeneration(
	runtime: GenerationRuntime,
	request: Pick<GenerateTextParams, 'prompt' | 'params'>,
): { readonly promptIds: number[]; readonly maxNewTokens: number } {
	const { params } = request;
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
	return { promptIds, maxNewTokens: Math.min(params.max_tokens ?? DEFAULT_MAX_NEW_TOKENS, room) };
}

/**
 * One completion as transformers.js's decoding loop produces it, through the hooks it is given:
 * our token choice (penalties, then sampling unless greedy), the generated ids decoded and
 * streamed as they come (never the start of a possible stop sequence), stop sequences and EOS.
 */
class CompletionStream {
	readonly generated: number[] = [];
	completion = '';
	finishReason: GenerateTextResult['finishReason'] = 'length';
	finished: boolean;
	cancelled = false;
	readonly #tokenizer: GenerationTokenizer;
	readonly #eos: Set<number>;
	readonly #stops: readonly string[];
	readonly #maxNewTokens: number;
	readonly #temperature: number;
	readonly #topP: number;
	readonly #random: RandomSource;
	readonly #frequencyPenalty: number;
	readonly #presencePenalty: number;
	readonly #counts = new Map<number, number>();
	readonly #options: GenerateTextOptions;
	#emitted = 0;
	#promptSeen = false;

	constructor(
		runtime: GenerationRuntime,
		params: GenerateTextParams['params'],
		maxNewTokens: number,
		options: GenerateTextOptions,
	) {
		this.#tokenizer = runtime.tokenizer;
		this.#eos = new Set(runtime.eosTokenIds);
		this.#stops = params.stop ?? [];
		this.#maxNewTokens = maxNewTokens;
		this.#temperature = params.temperature ?? 1;
		this.#topP = params.top_p ?? 1;
		this.#random = randomSourceFor(params.seed);
		this.#frequencyPenalty = params.frequency_penalty ?? 0;
		this.#presencePenalty = params.presence_penalty ?? 0;
		this.#options = options;
		this.finished = maxNewTokens <= 0;
	}

	/** The hooks for transformers.js's `generate`. */
	hooks(): GenerationHooks {
		return {
			logitsProcessor: (_inputIds, logits) => this.#chooseTokens(logits),
			streamer: { put: (ids) => this.#put(ids), end: () => undefined },
			stoppingCriteria: (inputIds) => {
				if (this.#options.signal?.aborted) this.cancelled = true;
				return inputIds.map(() => this.finished || this.cancelled);
			},
		};
	}

	/** After a loop that stopped on its own criteria (max length): emits what is held back. */
	flush(): void {
		const text = this.#decode();
		this.completion = text;
		this.#emitUpTo(text.length, text);
	}

	#chooseTokens(logits: Iterable<LogitsRow>): Iterable<LogitsRow> {
		if (this.#frequencyPenalty !== 0 || this.#presencePenalty !== 0) {
			for (const row of logits)
				applyPenalties(row.data, this.#counts, this.#frequencyPenalty, this.#presencePenalty);
		}
		if (this.#temperature > 0) {
			for (const row of logits) {
				const chosen = sampleToken(row.data, {
					temperature: this.#temperature,
					topP: this.#topP,
					random: this.#random,
				});
				row.data.fill(Number.NEGATIVE_INFINITY);
				row.data[chosen] = 0;
			}
		}
		return logits;
	}

	#put(ids: bigint[][]): void {
		// The first call carries the prompt; then one new id per step.
		if (!this.#promptSeen) {
			this.#promptSeen = true;
			return;
		}
		if (this.finished) return;
		const id = Number(ids[0]?.[0] ?? -1);
		this.generated.push(id);
		this.#counts.set(id, (this.#counts.get(id) ?? 0) + 1);
		const text = this.#decode();
		const stopAt = findStopIndex(text, this.#stops);
		if (stopAt >= 0) {
			this.completion = text.slice(0, stopAt);
			this.#emitUpTo(stopAt, text);
			this.#finish('stop');
			return;
		}
		this.completion = text;
		if (this.#eos.has(id)) {
			this.#emitUpTo(text.length, text);
			this.#finish('stop');
			return;
		}
		this.#emitUpTo(safeEmitLength(text, this.#stops), text);
		if (this.generated.length >= this.#maxNewTokens) {
			this.#emitUpTo(text.length, text);
			this.finished = true;
		}
	}

	#finish(reason: GenerateTextResult['finishReason']): void {
		this.finishReason = reason;
		this.finished = true;
	}

	#decode(): string {
		// A first token that ends it is an empty answer.
		return decodeTextIds(
			this.#tokenizer,
			this.generated.filter((id) => !this.#eos.has(id)),
		);
	}

	#emitUpTo(end: number, text: string): void {
		if (end > this.#emitted) {
			this.#options.onToken?.(text.slice(this.#emitted, end));
			this.#emitted = end;
		}
	}
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
	if (options.signal?.aborted) throw new CancelledError('The generation was cancelled.');
	const { promptIds, maxNewTokens } = planGeneration(runtime, request);
	const stream = new CompletionStream(runtime, request.params, maxNewTokens, options);
	if (!stream.finished) await runtime.runGenerate(promptIds, maxNewTokens, stream.hooks());
	if (stream.cancelled || options.signal?.aborted) {
		throw new CancelledError('The generation was cancelled.');
	}
	// transformers.js stopped on its own criteria (max length): flush what is held back.
	if (!stream.finished) stream.flush();
	const usage: TokenUsage = {
		promptTokens: promptIds.length,
		completionTokens: stream.generated.length,
	};
	const elapsedMs = (globalThis.performance?.now() ?? Date.now()) - started;
	const { completion, finishReason } = stream;
	return { completion, finishReason, usage, elapsedMs };
}
