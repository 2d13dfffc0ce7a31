/**
 * Loads scoring models (bundled, hub, local folder; progress; WebGPU with its WASM fallback) and
 * holds them by modelKey. Loads run one at a time, because they set transformers.js's global
 * `env`; a device loss or a failed WebGPU pass reloads a model on the fallback backend.
 */
import type { InferenceBackend, ModelSpec } from '../core/model/model-spec';
import { now, throwIfCancelled, type LoadModelOptions } from './engine';
import { classifyLoadError, messageOf, ModelNotLoadedError } from './engine-errors';
import { createFusedModel, type FusedModel } from './fused-model';
import { bundledByteProgress, pickProgress, type ByteProgress } from './load-progress';
import { describeModel, modelKeyOf, readGraphInputs, type LoadedModel } from './loaded-model';
import type { OrtRuntime } from './ort-runtime';
import type { LoadModelParams, LoadProgress, ModelInfo } from './protocol';
import {
	endModelSourceLoad,
	loadCausalLM,
	loadModelConfig,
	loadTokenizer,
	localModelId,
	setUpLibrary,
	useModelSource,
	type ModelSourceSettings,
	type PreTrainedModel,
	type PretrainedOptions,
} from './transformers-library';

export interface ModelLoaderOptions {
	readonly runtime: OrtRuntime;
	/** Where bundled models live: a URL path (`/models/`) in the browser, a folder in Node. */
	readonly bundledModelsPath: string;
	readonly log: (level: 'info' | 'warn', message: string) => void;
	/** Runs a freshly loaded model once (compiles kernels, proves the graph) before it is ready. */
	readonly probe: (model: LoadedModel) => Promise<void>;
}

/** The backend a load runs on, and why it is not the requested one (if it is not). */
interface LoadTarget {
	backend: InferenceBackend;
	fallbackReason: string | undefined;
}

export class ModelLoader {
	readonly #options: ModelLoaderOptions;
	readonly #runtime: OrtRuntime;
	readonly #models = new Map<string, Promise<LoadedModel>>();
	/**
	 * How many loads of each key are not yet disposed. Two callers (the Run page's model picker
	 * and an Evals run) load the same spec under one key; the model is released only when every
	 * load has been disposed, so one caller's dispose never pulls a model from under the other.
	 */
	readonly #holders = new Map<string, number>();
	#loadChain: Promise<unknown> = Promise.resolve();
	readonly #source: ModelSourceSettings;
	#deviceLostListening = false;
	/** The last fetch that failed without a response during the current load. */
	#networkFailure: string | undefined;
	/** Set while a bundled model's files download: byte progress read from the responses. */
	#byteProgress: ByteProgress | undefined;

	constructor(options: ModelLoaderOptions) {
		this.#options = options;
		this.#runtime = options.runtime;
		const browserCacheDefault = setUpLibrary(options.runtime.kind === 'web', {
			onNetworkFailure: (message) => {
				this.#networkFailure = message;
			},
			byteProgress: () => this.#byteProgress,
		});
		this.#source = {
			bundledModelsPath: options.bundledModelsPath,
			browserCacheDefault,
			localFiles: new Map(),
		};
	}

	/** Loads (or returns the already loaded) model. */
	async load(params: LoadModelParams, options: LoadModelOptions = {}): Promise<ModelInfo> {
		throwIfCancelled(options.signal);
		const key = modelKeyOf(params.spec);
		let pending = this.#models.get(key);
		if (!pending) {
			pending = this.#inLoadChain(() => this.#load(params, key, options.onProgress));
			this.#models.set(key, pending);
			pending.catch(() => {
				this.#models.delete(key);
				this.#holders.delete(key);
			});
		}
		const loaded = await pending;
		throwIfCancelled(options.signal);
		this.#holders.set(key, (this.#holders.get(key) ?? 0) + 1);
		return loaded.info;
	}

	/** The loaded model named `modelKey`, or ModelNotLoadedError. */
	async require(modelKey: string): Promise<LoadedModel> {
		const pending = this.#models.get(modelKey);
		if (!pending)
			throw new ModelNotLoadedError(`No model is loaded as '${modelKey}': load it first.`);
		return pending;
	}

	/**
	 * Drops one load of `modelKey`; once no load of it is left, forgets it and releases its model.
	 * True when the model was released (or was not loaded).
	 */
	async dispose(modelKey: string): Promise<boolean> {
		const holders = (this.#holders.get(modelKey) ?? 0) - 1;
		if (holders > 0) {
			this.#holders.set(modelKey, holders);
			return false;
		}
		this.#holders.delete(modelKey);
		const pending = this.#models.get(modelKey);
		if (!pending) return true;
		this.#models.delete(modelKey);
		const loaded = await pending.catch(() => undefined);
		await loaded?.model.dispose();
		return true;
	}

	/**
	 * Reloads `model` on the runtime's fallback backend (WebGPU → WASM) and says so: from the
	 * files it was loaded from (a picked local folder too), in the load chain.
	 */
	async fallBack(model: LoadedModel, reason: string): Promise<void> {
		const backend = this.#runtime.fallbackBackend;
		this.#options.log('warn', `${model.info.spec.id}: ${reason}; reloading on ${backend}.`);
		const created = await this.#inLoadChain(async () => {
			await model.model.dispose().catch(() => undefined);
			const { spec } = model.info;
			const modelId = useModelSource({ ...model.params, spec }, this.#source);
			try {
				return await createFusedModel(this.#runtime, modelId, spec, backend, {
					revision: revisionOf(spec),
				});
			} finally {
				endModelSourceLoad();
			}
		});
		const io = readGraphInputs(created.session, model.config, model.info.spec);
		Object.assign(model, { model: created.model, session: created.session }, io, {
			backend,
			lostReason: undefined,
		});
		model.info = { ...model.info, spec: { ...model.info.spec, backend }, fallbackReason: reason };
	}

	/** `loaded`'s model without the log-prob tail (for generation), loaded in the load chain. */
	loadPlainModel(loaded: LoadedModel): Promise<PreTrainedModel> {
		return this.#inLoadChain(async () => {
			const { spec } = loaded.info;
			// A browser-picked local folder: its files are still held under its local id.
			const localPrefix = `${localModelId(spec)}/`;
			const localFiles = [...this.#source.localFiles]
				.filter(([key]) => spec.source === 'local' && key.startsWith(localPrefix))
				.map(([key, file]) => ({ path: key.slice(localPrefix.length), file }));
			const modelId = useModelSource(
				{ spec, ...(localFiles.length > 0 ? { localFiles } : {}) },
				this.#source,
			);
			try {
				return await loadCausalLM(
					modelId,
					{ revision: revisionOf(spec) },
					{
						dtype: spec.dtype,
						device: this.#runtime.deviceName(loaded.backend),
						sessionOptions: this.#runtime.sessionOptions(loaded.backend),
					},
				);
			} catch (error) {
				throw classifyLoadError(error, spec, this.#networkFailure);
			} finally {
				endModelSourceLoad();
			}
		});
	}

	/** Runs `task` after every load before it (loads set transformers.js's global `env`). */
	#inLoadChain<T>(task: () => Promise<T>): Promise<T> {
		const pending = this.#loadChain.then(task);
		this.#loadChain = pending.catch(() => undefined);
		return pending;
	}

	async #load(
		params: LoadModelParams,
		modelKey: string,
		onProgress?: (p: LoadProgress) => void,
	): Promise<LoadedModel> {
		const started = now();
		const { spec } = params;
		this.#networkFailure = undefined;
		const target = await this.#targetOf(spec);
		const modelId = useModelSource(params, this.#source);
		const progress_callback = onProgress
			? (info: Record<string, unknown>) => onProgress(pickProgress(info))
			: undefined;
		const common = {
			revision: revisionOf(spec),
			...(progress_callback ? { progress_callback } : {}),
		};
		try {
			const config = await loadModelConfig(modelId, common);
			const [tokenizer, fused] = await this.#loadTokenizerAndModel(modelId, spec, target, common);
			const loaded = describeModel({
				params,
				modelKey,
				config,
				tokenizer,
				model: fused.model,
				session: fused.session,
				logitsWidth: fused.logitsWidth,
				backend: target.backend,
				fallbackReason: target.fallbackReason,
				started,
			});
			if (target.backend === 'webgpu') this.#watchDeviceLoss(loaded);
			await this.#options.probe(loaded);
			loaded.info = { ...loaded.info, loadMs: now() - started };
			return loaded;
		} catch (error) {
			throw classifyLoadError(error, spec, this.#networkFailure);
		} finally {
			endModelSourceLoad();
		}
	}

	/** The requested backend, or the fallback when the runtime says it cannot run here. */
	async #targetOf(spec: ModelSpec): Promise<LoadTarget> {
		const fallbackReason = await this.#runtime.unavailableReason(spec.backend);
		if (fallbackReason === undefined) return { backend: spec.backend, fallbackReason };
		const backend = this.#runtime.fallbackBackend;
		this.#options.log('warn', `${spec.id}: ${fallbackReason}; running on ${backend}.`);
		return { backend, fallbackReason };
	}

	/**
	 * The tokenizer and the fused model, loading together: the model downloads while the
	 * tokenizer loads; then the runtime starts (in the browser: onnxruntime's wasm downloads and
	 * compiles) while the model is still downloading. A model WebGPU cannot run moves `target`
	 * to the fallback backend.
	 */
	async #loadTokenizerAndModel(
		modelId: string,
		spec: ModelSpec,
		target: LoadTarget,
		common: PretrainedOptions,
	) {
		const modelOptions = this.#modelLoadOptions(spec, modelId, common);
		const create = async (): Promise<FusedModel> => {
			try {
				return await createFusedModel(this.#runtime, modelId, spec, target.backend, modelOptions);
			} catch (error) {
				if (target.backend !== 'webgpu') throw error;
				target.fallbackReason = `WebGPU could not run this model (${messageOf(error)})`;
				target.backend = this.#runtime.fallbackBackend;
				this.#options.log(
					'warn',
					`${spec.id}: ${target.fallbackReason}; running on ${target.backend}.`,
				);
				return await createFusedModel(this.#runtime, modelId, spec, target.backend, modelOptions);
			}
		};
		const modelLoad = create().finally(() => {
			this.#byteProgress = undefined;
		});
		const tokenizerLoad = loadTokenizer(modelId, common);
		void tokenizerLoad.then(
			() => this.#runtime.warmUp?.(),
			() => undefined,
		);
		// Both settle before the load goes on (or fails): a load left running would still
		// hold transformers.js's global `env` when the next load sets it.
		const [tokenizer, model] = await Promise.allSettled([tokenizerLoad, modelLoad]);
		if (tokenizer.status === 'rejected') throw tokenizer.reason;
		if (model.status === 'rejected') throw model.reason;
		return [tokenizer.value, model.value] as const;
	}

	/**
	 * The model's `from_pretrained` options. A bundled model gets no progress callback: with one,
	 * transformers.js first asks every file's size with a GET that, for a same-origin path,
	 * downloads the whole file (a second copy of the weights); the bytes are counted from the
	 * responses instead.
	 */
	#modelLoadOptions(
		spec: ModelSpec,
		modelId: string,
		common: PretrainedOptions,
	): Record<string, unknown> {
		const { progress_callback, ...rest } = common;
		if (spec.source !== 'bundled' || !progress_callback) return { ...common };
		this.#byteProgress = bundledByteProgress(
			this.#options.bundledModelsPath,
			modelId,
			progress_callback,
		);
		return rest;
	}

	#watchDeviceLoss(loaded: LoadedModel): void {
		if (this.#deviceLostListening) return;
		this.#deviceLostListening = true;
		this.#runtime.onDeviceLost((reason) => {
			this.#options.log('warn', reason);
			void Promise.all([...this.#models.values()].map((p) => p.catch(() => undefined))).then(
				(models) => {
					for (const m of models) if (m?.backend === 'webgpu') m.lostReason = reason;
				},
			);
			loaded.lostReason = reason;
		});
	}
}

/** The revision to load: the spec's (hub, default `main`), `main` for the other sources. */
function revisionOf(spec: ModelSpec): string {
	return spec.source === 'hub' ? (spec.revision ?? 'main') : 'main';
}
