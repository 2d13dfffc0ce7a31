/**
 * A model behind an OpenAI-compatible endpoint as an InferenceClientApi, so the run session and
 * the results page treat it like the worker: loadModel checks `/v1/models`, scoreTexts and
 * tokenize use prompt logprobs (endpoint-scoring), generate streams through EndpointModel.
 * Plain TS; the API key stays in memory (never in a spec, a ModelInfo or a run).
 */
import type { EndpointModelSpec } from '../../core/model/model-spec';
import { EndpointModel } from '../../providers/endpoint-model';
import { scoreTextsViaEndpoint } from '../../providers/endpoint-scoring';
import {
	EndpointNotFoundError,
	OpenAIClient,
	type EndpointLimits,
} from '../../providers/openai-client';
import { CancelledError } from '../../worker/engine-errors';
import type {
	CallKind,
	CallOptions,
	Calls,
	GenerateTextResult,
	InferenceClientApi,
	ModelInfo,
	ScoredText,
} from '../../worker/protocol';

/** Sentences per echo request (one progress event each). */
export const DEFAULT_ENDPOINT_SCORE_BATCH = 8;

export interface EndpointInferenceClientOptions {
	readonly spec: EndpointModelSpec;
	readonly apiKey?: string;
	/** A shared client (one concurrency limit and usage sum); default: a new one for `spec`. */
	readonly client?: OpenAIClient;
	/** Sentences per echo request (default {@link DEFAULT_ENDPOINT_SCORE_BATCH}). */
	readonly batchSize?: number;
	/** The page's origin, for the CORS advice in error messages. */
	readonly pageOrigin?: string;
	/** Size cap, idle timeout and deadline of every request (default DEFAULT_ENDPOINT_LIMITS). */
	readonly limits?: Partial<EndpointLimits>;
}

type Handlers = {
	[K in CallKind]: (
		params: Calls[K]['params'],
		options: CallOptions | undefined,
	) => Promise<Calls[K]['result']>;
};

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new CancelledError('The request was cancelled.');
}

/** The key a loaded endpoint model goes by (no key material in it). */
export function endpointModelKey(spec: EndpointModelSpec): string {
	return `openai:${spec.baseUrl}#${spec.model}`;
}

/** What {@link EndpointInferenceClient.open} tells of the endpoint's model. */
export type EndpointModelInfo = Omit<ModelInfo, 'spec'> & { readonly spec: EndpointModelSpec };

export class EndpointInferenceClient implements InferenceClientApi {
	readonly spec: EndpointModelSpec;
	readonly client: OpenAIClient;
	readonly #batchSize: number;
	readonly #model: EndpointModel;
	readonly #handlers: Handlers;
	#disposed = new AbortController();

	constructor(options: EndpointInferenceClientOptions) {
		this.spec = options.spec;
		this.client =
			options.client ??
			new OpenAIClient({
				baseUrl: options.spec.baseUrl,
				...(options.apiKey ? { apiKey: options.apiKey } : {}),
				...(options.pageOrigin ? { pageOrigin: options.pageOrigin } : {}),
				...(options.limits ? { limits: options.limits } : {}),
			});
		this.#batchSize = Math.max(1, options.batchSize ?? DEFAULT_ENDPOINT_SCORE_BATCH);
		this.#model = new EndpointModel({ spec: options.spec, client: this.client });
		this.#handlers = {
			loadModel: (params, callOptions) => this.#load(params.spec, callOptions?.signal),
			scoreTexts: (params, callOptions) =>
				this.#score(params.texts, params.convention, callOptions, params.wordBoundaries === true),
			tokenize: async (params, callOptions) => {
				const [scored] = await this.#scoreBatch([params.text], 0, params.convention, callOptions);
				const tokens = (scored?.tokens ?? []).map((t) => ({ ...t, surprisalBits: Number.NaN }));
				return { tokens };
			},
			generate: (params, callOptions) => this.#generate(params, callOptions),
			disposeModel: async () => null,
			listCachedModels: async () => [],
			deleteCachedModel: async () => ({ filesDeleted: 0 }),
		};
	}

	call<K extends CallKind>(
		kind: K,
		params: Calls[K]['params'],
		options?: CallOptions,
	): Promise<Calls[K]['result']> {
		if (this.#disposed.signal.aborted) {
			return Promise.reject(new CancelledError('The endpoint client was disposed.'));
		}
		const handler = this.#handlers[kind] as Handlers[K];
		return handler(params, options);
	}

	/** Pending requests are cancelled. */
	dispose(): void {
		this.#disposed.abort();
	}

	#signal(options: CallOptions | undefined): AbortSignal {
		return options?.signal
			? AbortSignal.any([options.signal, this.#disposed.signal])
			: this.#disposed.signal;
	}

	/**
	 * Checks that the endpoint serves the model (a run's load step): what the worker's ModelInfo
	 * says of a local model, with this client's endpoint spec (no key) as the spec.
	 */
	async open(signal?: AbortSignal): Promise<EndpointModelInfo> {
		if (this.#disposed.signal.aborted) {
			throw new CancelledError('The endpoint client was disposed.');
		}
		return {
			...(await this.#check(this.#signal(signal ? { signal } : undefined))),
			spec: this.spec,
		};
	}

	/** loadModel through `call`: the ModelInfo carries the spec it was given. */
	async #load(spec: ModelInfo['spec'], signal: AbortSignal | undefined): Promise<ModelInfo> {
		return { ...(await this.#check(signal)), spec };
	}

	async #check(signal: AbortSignal | undefined): Promise<Omit<ModelInfo, 'spec'>> {
		const started = performance.now();
		throwIfAborted(signal);
		const models = await this.client.listModels(signal);
		throwIfAborted(signal);
		if (!models.includes(this.spec.model)) {
			throw new EndpointNotFoundError(
				`${this.spec.baseUrl} does not serve '${this.spec.model}'; it lists: ${models.join(', ') || 'no models'}. ` +
					'Pick one of them (Test connection lists them).',
				'not-found',
				404,
			);
		}
		return {
			modelKey: endpointModelKey(this.spec),
			modelType: 'endpoint',
			// NOTE: an endpoint does not tell its vocabulary or context size here: 0 = unknown.
			vocabSize: 0,
			maxPositions: 0,
			tokenizerKind: 'generic',
			batchInvariant: true,
			loadMs: performance.now() - started,
		};
	}

	async #scoreBatch(
		texts: readonly string[],
		first: number,
		convention: Calls['scoreTexts']['params']['convention'],
		options: CallOptions | undefined,
		wordBoundaries = false,
	): Promise<ScoredText[]> {
		const signal = this.#signal(options);
		throwIfAborted(signal);
		try {
			// Asked for word boundaries, the endpoint scorer refuses (an endpoint cannot give them).
			const scored = await scoreTextsViaEndpoint(this.client, texts, {
				model: this.spec.model,
				convention,
				batchSize: texts.length,
				signal,
				...(wordBoundaries ? { wordBoundaries } : {}),
			});
			return scored.map((text) => ({ ...text, index: text.index + first }));
		} catch (error) {
			throwIfAborted(signal);
			throw error;
		}
	}

	async #score(
		texts: readonly string[],
		convention: Calls['scoreTexts']['params']['convention'],
		options: CallOptions | undefined,
		wordBoundaries: boolean,
	): Promise<Calls['scoreTexts']['result']> {
		const started = performance.now();
		const all: ScoredText[] = [];
		let tokenCount = 0;
		const batches: number[] = [];
		for (let first = 0; first < texts.length; first += this.#batchSize) batches.push(first);
		// Every batch is sent at once; the OpenAI client keeps at most `concurrency` in flight.
		await Promise.all(
			batches.map(async (first) => {
				const batch = await this.#scoreBatch(
					texts.slice(first, first + this.#batchSize),
					first,
					convention,
					options,
					wordBoundaries,
				);
				all.push(...batch);
				for (const text of batch) tokenCount += text.tokens.length;
				const seconds = Math.max(performance.now() - started, 1) / 1000;
				if (!options?.signal?.aborted) {
					options?.onScoreProgress?.({
						done: all.length,
						total: texts.length,
						tokensPerSecond: tokenCount / seconds,
						texts: batch,
					});
				}
			}),
		);
		throwIfAborted(options?.signal);
		all.sort((a, b) => a.index - b.index);
		return { texts: all, tokenCount, elapsedMs: performance.now() - started };
	}

	async #generate(
		params: Calls['generate']['params'],
		options: CallOptions | undefined,
	): Promise<GenerateTextResult> {
		const started = performance.now();
		const signal = this.#signal(options);
		const call = { runId: 'endpoint-client', sampleId: 'generate', role: 'policy' } as const;
		for await (const event of this.#model.generate(
			{ prompt: params.prompt, params: params.params },
			call,
			signal,
		)) {
			throwIfAborted(signal);
			if (event.type === 'token') {
				options?.onToken?.({ text: event.text });
			} else {
				if (event.finishReason === 'cancelled') break;
				return {
					completion: event.completion,
					finishReason: event.finishReason,
					usage: event.usage ?? { promptTokens: 0, completionTokens: 0 },
					elapsedMs: performance.now() - started,
				};
			}
		}
		throwIfAborted(signal);
		throw new CancelledError('The generation was cancelled.');
	}
}
