/**
 * The "Try it" box's state: a prompt, max tokens and temperature, one generation at a time with
 * the text streamed in as tokens arrive, and cancel. Works on any TextModel (local worker,
 * endpoint); knows nothing of providers. No response cache: the point is to see the model talk.
 */
import { describeError } from '../../../core/messages/describe-error';
import { BenchtopError } from '../../../core/errors';
import type {
	GenerationParams,
	GenerationPrompt,
	TextModel,
	TokenUsage,
} from '../../../core/model/generation';

export type TryItStatus = 'idle' | 'generating' | 'done' | 'cancelled' | 'failed';

/** Bounds of the box's inputs (a demo box, not a batch job). */
export const TRY_IT_MAX_TOKENS_LIMIT = 1024;
export const TRY_IT_TEMPERATURE_LIMIT = 2;

function isCancellation(error: unknown): boolean {
	return error instanceof Error && (error.name === 'CancelledError' || error.name === 'AbortError');
}

export class TryIt {
	prompt = $state('The teacher asked the class a question, and');
	maxTokens = $state(24);
	temperature = $state(0);
	/** Send the prompt as one user chat message (chat template / chat API) instead of plain text:
	 * chat-only endpoints (OpenAI's chat models) need it. */
	asChat = $state(false);

	#status = $state<TryItStatus>('idle');
	#output = $state('');
	#message = $state<string | null>(null);
	#usage = $state.raw<TokenUsage | null>(null);
	#finishReason = $state<string | null>(null);
	#elapsedMs = $state(0);
	#abort: AbortController | null = null;
	#calls = 0;
	readonly #now: () => number;

	constructor(now: () => number = () => performance.now()) {
		this.#now = now;
	}

	get status(): TryItStatus {
		return this.#status;
	}

	get generating(): boolean {
		return this.#status === 'generating';
	}

	/** The completion so far (streamed) or in full. */
	get output(): string {
		return this.#output;
	}

	/** What went wrong or what happened, for the user. */
	get message(): string | null {
		return this.#message;
	}

	get usage(): TokenUsage | null {
		return this.#usage;
	}

	/** `stop` (end of text or a stop sequence) or `length` (max tokens reached). */
	get finishReason(): string | null {
		return this.#finishReason;
	}

	/** Completion tokens per second of the last finished generation, or null. */
	get tokensPerSecond(): number | null {
		const usage = this.#usage;
		if (!usage || this.#elapsedMs <= 0) return null;
		return (usage.completionTokens * 1000) / this.#elapsedMs;
	}

	/** Why Generate cannot run with these inputs, or null. */
	get problem(): string | null {
		if (this.prompt.length === 0) return 'Type a prompt first.';
		if (
			!Number.isInteger(this.maxTokens) ||
			this.maxTokens < 1 ||
			this.maxTokens > TRY_IT_MAX_TOKENS_LIMIT
		) {
			return `Max tokens must be a whole number from 1 to ${TRY_IT_MAX_TOKENS_LIMIT}.`;
		}
		if (
			!Number.isFinite(this.temperature) ||
			this.temperature < 0 ||
			this.temperature > TRY_IT_TEMPERATURE_LIMIT
		) {
			return `Temperature must be from 0 (greedy) to ${TRY_IT_TEMPERATURE_LIMIT}.`;
		}
		return null;
	}

	/** The parameters sent: exactly the two the box sets. */
	get params(): GenerationParams {
		return { max_tokens: this.maxTokens, temperature: this.temperature };
	}

	/**
	 * Generates a completion of the prompt with `model`, streaming it into `output`. Resolves when
	 * it ends (done, cancelled, failed); a second call while one runs is ignored.
	 */
	async generate(model: TextModel | (() => Promise<TextModel>)): Promise<void> {
		if (this.generating || this.problem !== null) return;
		const abort = new AbortController();
		this.#abort = abort;
		this.#status = 'generating';
		this.#output = '';
		this.#message = null;
		this.#usage = null;
		this.#finishReason = null;
		this.#elapsedMs = 0;
		this.#calls += 1;
		const request = { prompt: this.#prompt(), params: this.params };
		try {
			const resolved = typeof model === 'function' ? await model() : model;
			if (abort.signal.aborted) throw new DOMException('cancelled', 'AbortError');
			const started = this.#now();
			const call = { runId: 'try-it', sampleId: `try-${this.#calls}`, role: 'try' } as const;
			for await (const event of resolved.generate(request, call, abort.signal)) {
				if (event.type === 'token') {
					this.#output += event.text;
				} else {
					this.#output = event.completion;
					this.#usage = event.usage ?? null;
					this.#finishReason = event.finishReason;
				}
				if (abort.signal.aborted) break;
			}
			this.#elapsedMs = this.#now() - started;
			if (abort.signal.aborted) {
				this.#status = 'cancelled';
				this.#message = 'Generation cancelled.';
			} else {
				this.#status = 'done';
			}
		} catch (error) {
			if (abort.signal.aborted || isCancellation(error)) {
				this.#status = 'cancelled';
				this.#message = 'Generation cancelled.';
			} else {
				this.#status = 'failed';
				this.#message = `Generation failed: ${describeOwnError(error)}`;
			}
		} finally {
			if (this.#abort === abort) this.#abort = null;
		}
	}

	#prompt(): GenerationPrompt {
		return this.asChat
			? { kind: 'chat', messages: [{ role: 'user', content: this.prompt }] }
			: { kind: 'text', text: this.prompt };
	}

	/** Stops the generation within one token step; the text so far stays. */
	cancel(): void {
		this.#abort?.abort();
	}
}

/** Our own errors (endpoint failures included) already say what to do: shown as they are. */
function describeOwnError(error: unknown): string {
	return error instanceof BenchtopError ? error.message : describeError(error);
}
