/**
 * A local model (bundled, hub or folder) as a TextModel: generation runs in the inference worker
 * through InferenceClientApi, tokens stream back as events. The app's Evals and Memory pages use
 * it exactly like an endpoint model. No model I/O here, only the bridge.
 */
import type {
	CancelSignal,
	GenerateRequest,
	GenerationEvent,
	ModelAbilities,
	ModelCall,
	TextModel,
} from '../../core/model/generation';
import type { ModelSpec } from '../../core/model/model-spec';
import type { GenerateTextResult, InferenceClientApi, ModelInfo } from '../../worker/protocol';

/** Loads a spec (the model picker's `load`, which reuses a loaded model); default: the client. */
export type LoadLocalModel = (spec: ModelSpec, signal?: AbortSignal) => Promise<ModelInfo>;

export interface LocalWorkerModelOptions {
	readonly client: InferenceClientApi;
	readonly spec: ModelSpec;
	readonly load?: LoadLocalModel;
	/** How often a plain `{ aborted }` signal (not an AbortSignal) is checked, ms (default 50). */
	readonly cancelPollMs?: number;
}

/** A label for run records and logs: `bundled:gpt2-en-small`, `hub:Xenova/distilgpt2@main`. */
export function localModelLabel(spec: ModelSpec): string {
	return `${spec.source}:${spec.id}${spec.revision ? `@${spec.revision}` : ''}`;
}

function isAbortSignal(signal: CancelSignal | undefined): signal is AbortSignal {
	return typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal;
}

export class LocalWorkerModel implements TextModel {
	readonly label: string;
	readonly spec: ModelSpec;
	readonly #client: InferenceClientApi;
	readonly #load: LoadLocalModel;
	readonly #cancelPollMs: number;
	#info: ModelInfo | null = null;

	constructor(options: LocalWorkerModelOptions) {
		this.#client = options.client;
		this.spec = options.spec;
		this.label = localModelLabel(options.spec);
		this.#load =
			options.load ??
			((spec, signal) =>
				options.client.call('loadModel', { spec }, signal ? { signal } : undefined));
		this.#cancelPollMs = options.cancelPollMs ?? 50;
	}

	/** Every local model scores and generates; `chat` once the loaded tokenizer has a template. */
	get abilities(): ModelAbilities {
		return { score: true, generate: true, chat: this.#info?.hasChatTemplate === true };
	}

	/** Loads the model (once); later calls reuse it. */
	async load(signal?: AbortSignal): Promise<ModelInfo> {
		this.#info = await this.#load(this.spec, signal);
		return this.#info;
	}

	async *generate(
		request: GenerateRequest,
		_call: ModelCall,
		signal?: CancelSignal,
	): AsyncGenerator<GenerationEvent> {
		const controller = new AbortController();
		let poll: ReturnType<typeof setInterval> | undefined;
		const forwardAbort = (): void => controller.abort();
		if (isAbortSignal(signal)) {
			if (signal.aborted) controller.abort();
			else signal.addEventListener('abort', forwardAbort, { once: true });
		} else if (signal) {
			poll = setInterval(() => {
				if (signal.aborted) controller.abort();
			}, this.#cancelPollMs);
		}

		const texts: string[] = [];
		let wake: (() => void) | null = null;
		let settled = false;
		let result: GenerateTextResult | undefined;
		let failure: unknown;
		try {
			const info = await this.load(controller.signal);
			const call = this.#client.call(
				'generate',
				{ modelKey: info.modelKey, prompt: request.prompt, params: request.params },
				{
					signal: controller.signal,
					onToken: ({ text }) => {
						if (text.length === 0) return;
						texts.push(text);
						wake?.();
					},
				},
			);
			call.then(
				(value) => {
					result = value;
				},
				(error: unknown) => {
					failure = error;
				},
			);
			call
				.catch(() => undefined)
				.finally(() => {
					settled = true;
					wake?.();
				});
			for (;;) {
				while (texts.length > 0) yield { type: 'token', text: texts.shift() ?? '' };
				if (settled) break;
				await new Promise<void>((resolve) => {
					wake = resolve;
				});
				wake = null;
			}
			if (failure !== undefined) throw failure;
			if (!result) throw new Error(`${this.label}: the generation ended without a result`);
			yield {
				type: 'done',
				completion: result.completion,
				finishReason: result.finishReason,
				usage: result.usage,
			};
		} finally {
			if (poll !== undefined) clearInterval(poll);
			if (isAbortSignal(signal)) signal.removeEventListener('abort', forwardAbort);
			// The consumer stopped early (break / return): stop the worker too.
			if (!settled) controller.abort();
		}
	}

	/** Tokens of `text` without special tokens (the `reference` convention adds none). */
	async countTokens(text: string): Promise<number> {
		const info = await this.load();
		const { tokens } = await this.#client.call('tokenize', {
			modelKey: info.modelKey,
			text,
			convention: 'reference',
		});
		return tokens.filter((token) => token.special !== true).length;
	}
}
