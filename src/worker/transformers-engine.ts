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
}

export class TransformersEngine implements InferenceEngine {
	readonly #options: TransformersEngineOptions;
	readonly #loader: ModelLoader;
	readonly #pass: ForwardPass;
	readonly #generator: TextGenerator;

	constructor(options: TransformersEngineOptions) {
		this.#options = options;
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

	loadModel(params: LoadModelParams, options: LoadModelOptions = {}): Promise<ModelInfo> {
		return this.#loader.load(params, options);
	}

	async scoreTexts(
		params: ScoreTextsParams,
		options: ScoreTextsOptions = {},
	): Promise<ScoreTextsResult> {
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
		const loaded = await this.#loader.require(params.modelKey);
		return this.#generator.generate(loaded, params, options);
	}

	/** Drops one load of `modelKey`; the model is released when no load of it is left. */
	async disposeModel(modelKey: string): Promise<void> {
		if (await this.#loader.dispose(modelKey)) await this.#generator.dispose(modelKey);
	}

	listCachedModels(): Promise<readonly CachedModel[]> {
		return listCachedModels(this.#options.bundledModelsPath);
	}

	deleteCachedModel(id: string): Promise<{ readonly filesDeleted: number }> {
		return deleteCachedModel(this.#options.bundledModelsPath, id);
	}
}
