/**
 * The real InferenceEngine: transformers.js 4 loads tokenizers and model files (bundled, hub,
 * local folder; progress; browser cache), onnxruntime runs a graph whose log-softmax tail is fused
 * in at load time, so only one log-prob per token leaves the runtime. A composition of the
 * loader (model-loader.ts), the forward pass, the scorers, the generator and the model file cache;
 * transformers.js itself is imported by transformers-library.ts only.
 */
import type {
	GenerateTextOptions,
	InferenceEngine,
	LoadModelOptions,
	ScoreTextsOptions,
} from './engine';
import { ForwardPass } from './forward-pass';
import { ModelLoader } from './model-loader';
import { ModelWarmUp } from './model-warm-up';
import { deleteCachedModel, listCachedModels } from './model-file-cache';
import type { OrtRuntime } from './ort-runtime';
import type {
	CachedModel,
	GenerateTextParams,
	GenerateTextResult,
	LoadModelParams,
	ModelInfo,
	ScoreTextsParams,
	ScoreTextsResult,
	TokenizeParams,
	TokenizeResult,
} from './protocol';
import { probeModel, scoreTexts, tokenizeText, type ScoringBudgets } from './surprisal-scorer';
import { TextGenerator } from './text-generator';

export { modelKeyOf } from './loaded-model';
export { MODEL_CACHE_NAME } from './model-file-cache';

export interface TransformersEngineOptions extends ScoringBudgets {
	readonly runtime: OrtRuntime;
	/** Where bundled models live: a URL path (`/models/`) in the browser, a folder in Node. */
	readonly bundledModelsPath: string;
	readonly onLog?: (level: 'info' | 'warn', message: string) => void;
	/**
	 * After a model first loads on WASM, run it for up to this long on texts of our own, in the
	 * background, so the first request meets a warm engine (model-warm-up.ts); stopped by any
	 * request that runs a model. Default 0 (never): the browser worker sets it.
	 */
	readonly warmUpMs?: number;
}

export class TransformersEngine implements InferenceEngine {
	readonly #options: TransformersEngineOptions;
	readonly #loader: ModelLoader;
	readonly #pass: ForwardPass;
	readonly #generator: TextGenerator;
	readonly #warmUp: ModelWarmUp;
	/** Models warmed up since they were loaded (a second load of one is already warm). */
	readonly #warmed = new Set<string>();

	constructor(options: TransformersEngineOptions) {
		this.#options = options;
		this.#warmUp = new ModelWarmUp(options.warmUpMs ?? 0);
		this.#loader = new ModelLoader({
			runtime: options.runtime,
			bundledModelsPath: options.bundledModelsPath,
			log: (level, message) => options.onLog?.(level, message),
			probe: (model) => probeModel(this.#pass, model),
		});
		this.#pass = new ForwardPass(options.runtime, (model, reason) =>
			this.#loader.fallBack(model, reason),
		);
		this.#generator = new TextGenerator(this.#loader);
	}

	async loadModel(params: LoadModelParams, options: LoadModelOptions = {}): Promise<ModelInfo> {
		await this.#warmUp.stop();
		const info = await this.#loader.load(params, options);
		if (info.spec.backend === 'wasm' && !this.#warmed.has(info.modelKey)) {
			this.#warmed.add(info.modelKey);
			const model = await this.#loader.require(info.modelKey);
			const { modelKey } = info;
			this.#warmUp.start((texts, signal) =>
				scoreTexts(
					this.#pass,
					model,
					{ modelKey, texts, convention: 'reference' },
					{ signal },
					this.#options,
				),
			);
		}
		return info;
	}

	async scoreTexts(
		params: ScoreTextsParams,
		options: ScoreTextsOptions = {},
	): Promise<ScoreTextsResult> {
		await this.#warmUp.stop();
		const model = await this.#loader.require(params.modelKey);
		return scoreTexts(this.#pass, model, params, options, this.#options);
	}

	async tokenize(params: TokenizeParams): Promise<TokenizeResult> {
		return tokenizeText(await this.#loader.require(params.modelKey), params);
	}

	async generate(
		params: GenerateTextParams,
		options: GenerateTextOptions = {},
	): Promise<GenerateTextResult> {
		await this.#warmUp.stop();
		const loaded = await this.#loader.require(params.modelKey);
		return this.#generator.generate(loaded, params, options);
	}

	/** Drops one load of `modelKey`; the model is released when no load of it is left. */
	async disposeModel(modelKey: string): Promise<void> {
		await this.#warmUp.stop();
		if (await this.#loader.dispose(modelKey)) {
			this.#warmed.delete(modelKey);
			await this.#generator.dispose(modelKey);
		}
	}

	listCachedModels(): Promise<readonly CachedModel[]> {
		return listCachedModels(this.#options.bundledModelsPath);
	}

	deleteCachedModel(id: string): Promise<{ readonly filesDeleted: number }> {
		return deleteCachedModel(this.#options.bundledModelsPath, id);
	}
}
