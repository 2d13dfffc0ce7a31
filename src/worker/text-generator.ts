/**
 * Text generation for the engine: a loaded model's plain (unfused) twin, loaded once per modelKey
 * (the scoring graph returns no logits), driven by generate-text.ts through transformers.js's
 * own `generate`. Generations run one at a time (one decoding loop per ORT session).
 */
import { BenchtopError } from '../core/errors';
import { throwIfCancelled, type GenerateTextOptions } from './engine';
import { BackendError, CancelledError, messageOf } from './engine-errors';
import {
	generateText,
	nextMacrotask,
	type GenerationHooks,
	type GenerationRuntime,
	type GenerationTokenizer,
} from './generate-text';
import type { LoadedModel } from './loaded-model';
import type { ModelLoader } from './model-loader';
import type { GenerateTextParams, GenerateTextResult } from './protocol';
import { int64Tensor, type PreTrainedModel } from './transformers-library';

export class TextGenerator {
	readonly #loader: ModelLoader;
	/** Plain (unfused) models for generation by modelKey. */
	readonly #models = new Map<string, Promise<PreTrainedModel>>();
	#chain: Promise<unknown> = Promise.resolve();

	constructor(loader: ModelLoader) {
		this.#loader = loader;
	}

	/** Generates a completion with `loaded`'s plain twin (see `InferenceEngine.generate`). */
	async generate(
		loaded: LoadedModel,
		params: GenerateTextParams,
		options: GenerateTextOptions,
	): Promise<GenerateTextResult> {
		const run = this.#chain.then(async () => {
			throwIfCancelled(options.signal);
			const model = await this.#modelOf(loaded);
			throwIfCancelled(options.signal);
			return generateText(generationRuntime(loaded, model), params, options);
		});
		this.#chain = run.catch(() => undefined);
		try {
			return await run;
		} catch (error) {
			if (error instanceof CancelledError || error instanceof RangeError) throw error;
			if (error instanceof BenchtopError) throw error;
			throw new BackendError(`The model failed while generating: ${messageOf(error)}`);
		}
	}

	/** Forgets and releases `modelKey`'s plain twin, if loaded. */
	async dispose(modelKey: string): Promise<void> {
		const model = this.#models.get(modelKey);
		this.#models.delete(modelKey);
		await model?.then((m) => m.dispose()).catch(() => undefined);
	}

	#modelOf(loaded: LoadedModel): Promise<PreTrainedModel> {
		const key = loaded.info.modelKey;
		let pending = this.#models.get(key);
		if (!pending) {
			pending = this.#loader.loadPlainModel(loaded);
			this.#models.set(key, pending);
			pending.catch(() => this.#models.delete(key));
		}
		return pending;
	}
}

/** What generate-text.ts needs of `loaded` and its plain twin `model`. */
function generationRuntime(loaded: LoadedModel, model: PreTrainedModel): GenerationRuntime {
	const configEos = loaded.config.eos_token_id;
	const eosTokenIds = [
		...(loaded.behaviour.eosTokenId !== undefined ? [loaded.behaviour.eosTokenId] : []),
		...(Array.isArray(configEos) ? configEos : typeof configEos === 'number' ? [configEos] : []),
	];
	return {
		tokenizer: loaded.tokenizer as unknown as GenerationTokenizer,
		eosTokenIds,
		startTokenId: loaded.behaviour.bosTokenId ?? loaded.behaviour.eosTokenId,
		maxPositions: loaded.maxPositions,
		runGenerate: (ids, maxNewTokens, hooks) => runGenerate(model, ids, maxNewTokens, hooks),
	};
}

/** Greedy `generate` of transformers.js whose token choice, stops and streaming are `hooks`'. */
async function runGenerate(
	model: PreTrainedModel,
	ids: readonly number[],
	maxNewTokens: number,
	hooks: GenerationHooks,
): Promise<void> {
	const n = ids.length;
	const generator = model as unknown as {
		forward(inputs: unknown): Promise<unknown>;
		generate(options: Record<string, unknown>): Promise<unknown>;
	};
	const forward = generator.forward;
	// A macrotask before every step lets a cancel message arrive (worker event loop).
	generator.forward = async (inputs: unknown) => {
		await nextMacrotask();
		return forward.call(model, inputs);
	};
	try {
		await generator.generate({
			inputs: int64Tensor(BigInt64Array.from(ids, BigInt), [1, n]),
			attention_mask: int64Tensor(new BigInt64Array(n).fill(1n), [1, n]),
			max_new_tokens: maxNewTokens,
			do_sample: false,
			num_beams: 1,
			logits_processor: [hooks.logitsProcessor],
			stopping_criteria: [hooks.stoppingCriteria],
			streamer: hooks.streamer,
		});
	} finally {
		generator.forward = forward;
	}
}
