/**
 * The response cache: completions stored under a key of model, prompt and parameters
 * (src/core/model/cache-key.ts), so a re-run costs nothing and an interrupted run resumes. One
 * store interface (IndexedDB in the app, a folder in the CLI, memory in tests) and a TextModel
 * wrapper that answers from it and fills it.
 */
import * as v from 'valibot';
import { isSampled, responseCacheKey } from '../core/model/cache-key';
import type {
	CancelSignal,
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
	TokenUsage,
} from '../core/model/generation';
import type { TextModelSpec } from '../core/model/model-spec';

/** One stored completion. */
export interface CachedResponse {
	readonly key: string;
	/** `describeModelSpec` of the model that answered. */
	readonly model: string;
	readonly request: GenerateRequest;
	readonly completion: string;
	readonly finishReason: 'stop' | 'length';
	/** The usage as the server reported it, details included. */
	readonly usage?: TokenUsage;
	/** The model name the server answered with (OpenAI's `model`), when it gave one. */
	readonly servedModel?: string;
	/** ISO time it was stored. */
	readonly createdAt: string;
}

const TokenCountSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A `*_tokens_details` object: counts by kind, null where the server did not count. */
const TokenDetailsSchema = v.nullable(
	v.pipe(
		v.record(v.pipe(v.string(), v.maxLength(200)), v.nullable(TokenCountSchema)),
		v.check((details) => Object.keys(details).length <= 100, 'too many kinds of tokens'),
	),
);

/**
 * What a stored entry must hold to answer a call: a complete answer (`stop` or `length`) under
 * the key asked for, with the usage and model name it came with. Anything else (a file edited by
 * hand, an older format) is a miss.
 */
const StoredAnswerSchema = v.object({
	key: v.string(),
	completion: v.string(),
	finishReason: v.picklist(['stop', 'length']),
	usage: v.optional(
		v.object({
			promptTokens: TokenCountSchema,
			completionTokens: TokenCountSchema,
			completionTokensDetails: v.exactOptional(TokenDetailsSchema),
			promptTokensDetails: v.exactOptional(TokenDetailsSchema),
		}),
	),
	servedModel: v.optional(v.pipe(v.string(), v.maxLength(1000))),
});

/** The entry when it is a complete answer stored under `key`, else undefined (a miss). */
export function validCachedAnswer(
	entry: unknown,
	key: string,
): v.InferOutput<typeof StoredAnswerSchema> | undefined {
	const parsed = v.safeParse(StoredAnswerSchema, entry);
	return parsed.success && parsed.output.key === key ? parsed.output : undefined;
}

export interface ResponseCacheStore {
	get(key: string): Promise<CachedResponse | undefined>;
	put(entry: CachedResponse): Promise<void>;
	list(): Promise<readonly CachedResponse[]>;
	/** Entries and bytes (of their JSON) stored. */
	size(): Promise<{ readonly entries: number; readonly bytes: number }>;
	clear(): Promise<void>;
}

/** A store in memory (tests, one-off CLI runs without a cache folder). */
export function createMemoryResponseCache(): ResponseCacheStore {
	const entries = new Map<string, CachedResponse>();
	return {
		get: async (key) => entries.get(key),
		put: async (entry) => {
			entries.set(entry.key, entry);
		},
		list: async () => [...entries.values()],
		size: async () => ({
			entries: entries.size,
			bytes: [...entries.values()].reduce((sum, e) => sum + JSON.stringify(e).length, 0),
		}),
		clear: async () => entries.clear(),
	};
}

export interface ResponseCacheOptions {
	/** The wrapped model's spec (its identity in the key). */
	readonly spec: TextModelSpec;
	/** The seed of a sampled call: default `<sampleId>:<runSeed>` style, from the call. */
	readonly sampleSeed?: (call: ModelCall) => string | number;
}

/**
 * `model` with a cache in front: a hit (a valid, complete entry) answers at once (`cached: true`,
 * one token event with the whole completion, the usage and the server's model name it was
 * stored with, so a log written from the cache equals the live one); a miss asks the model and
 * stores only a complete answer (finish reason `stop` or `length`; never a cancelled or failed
 * one).
 * Sampled calls are keyed per sample seed (default: the call's sample id and call index).
 */
export function withResponseCache(
	model: TextModel,
	store: ResponseCacheStore,
	options: ResponseCacheOptions,
): TextModel {
	const seedOf =
		options.sampleSeed ?? ((call: ModelCall) => `${call.sampleId}#${call.callIndex ?? 0}`);
	return {
		label: model.label,
		abilities: model.abilities,
		countTokens: (text) => model.countTokens(text),
		async *generate(
			request: GenerateRequest,
			call: ModelCall,
			signal?: CancelSignal,
		): AsyncGenerator<GenerationEvent> {
			const seed = isSampled(request.params) ? seedOf(call) : undefined;
			const key = responseCacheKey(options.spec, request, call, seed);
			const hit = validCachedAnswer(await store.get(key), key);
			if (hit) {
				if (hit.completion !== '') yield { type: 'token', text: hit.completion };
				yield {
					type: 'done',
					completion: hit.completion,
					finishReason: hit.finishReason,
					...(hit.usage ? { usage: hit.usage } : {}),
					...(hit.servedModel !== undefined ? { model: hit.servedModel } : {}),
					cached: true,
				};
				return;
			}
			for await (const event of model.generate(request, call, signal)) {
				if (event.type === 'done' && event.finishReason !== 'cancelled') {
					await store.put({
						key,
						model: model.label,
						request,
						completion: event.completion,
						finishReason: event.finishReason,
						...(event.usage ? { usage: event.usage } : {}),
						...(event.model !== undefined ? { servedModel: event.model } : {}),
						createdAt: new Date().toISOString(),
					});
				}
				yield event;
			}
		},
	};
}
