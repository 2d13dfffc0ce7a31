/**
 * The model picker's state: bundled model, hub id (+ revision, dtype) or local folder, backend
 * and surprisal convention; what the chosen model needs before it downloads (size, memory against
 * the device, time; a typed hub model's estimated from its config.json) and the refusal of one
 * that will not fit; loading with byte progress; the browser's cached models. Talks to inference
 * only through InferenceClientApi.
 */
import {
	NO_LOAD_BYTES,
	accumulateLoadProgress,
	checkHubModelId,
	checkHubRevision,
	checkLocalModelFiles,
	stripFolderName,
	sumLoadBytes,
	type LoadBytes,
} from '../../../core/model/model-choice';
import {
	BUNDLED_MODEL_IDS,
	DEFAULT_MODEL_ID,
	localModelSpec,
	type InferenceBackend,
	type ModelDtype,
	type ModelSource,
	type EndpointModelSpec,
	type ModelSpec,
	type SurprisalConvention,
} from '../../../core/model/model-spec';
import type { TextModel } from '../../../core/model/generation';
import { EndpointInferenceClient } from '../../io/endpoint-inference-client';
import { LocalWorkerModel } from '../../io/local-worker-model';
import { EndpointSettings } from './endpoint-settings.svelte';
import type {
	BackendFallback,
	CachedModel,
	InferenceClientApi,
	LocalModelFile,
	ModelInfo,
} from '../../../worker/protocol';
import { describeError } from '../../../core/messages/describe-error';
import {
	fitRefusal,
	fitsDevice,
	knownModelFacts,
	type DeviceFacts,
	type DeviceFit,
	type ModelFacts,
	type ModelSuggestion,
} from '../../../core/model/model-suggestions';
import type { ScoringTimeEstimate } from '../../../core/model/scoring-time-estimate';
import { adviseWebGpu, type WebGpuAdvice } from '../../../core/model/webgpu-advice';
import {
	estimateConfigParameters,
	estimatedModelFacts,
	type ConfigParameterEstimate,
} from '../../../core/model/config-parameters';
import { SuggestionPicker } from './model-suggestions.svelte';
import { readCappedBody } from '../../io/capped-body';
import {
	CONVENTION_FILE_MAX_BYTES,
	conventionFactsFromFiles,
	parseConventionFile,
	type ConventionDefault,
	type ConventionFacts,
	type ConventionFiles,
} from '../../../core/model/default-convention';
import {
	conventionDefaultOf,
	conventionFactsOf,
	conventionModelKey,
	settleConvention,
	type ConventionPick,
} from '../../../core/model/convention-choice';

export type BrowserBackend = Extract<InferenceBackend, 'wasm' | 'webgpu'>;
export type ModelLoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** A file as the folder picker gives it (`webkitRelativePath` includes the folder name). */
export interface PickedFile {
	readonly file: Blob;
	readonly relativePath: string;
}

/** A hub model's files for its default convention (never rejects: {} when unread). */
export type ReadHubConventionFacts = (
	id: string,
	revision: string,
	signal?: AbortSignal,
) => Promise<ConventionFiles>;

/** How much of a hub model's small JSON file is read, and how long it may take (ms). */
export interface HubJsonLimits {
	readonly maxBytes: number;
	/** The whole read, headers included: a load of that model waits for it. */
	readonly deadlineMs: number;
	/** The longest wait for the body's next bytes. */
	readonly idleMs: number;
}

export const HUB_JSON_LIMITS: HubJsonLimits = {
	maxBytes: CONVENTION_FILE_MAX_BYTES,
	deadlineMs: 20_000,
	idleMs: 10_000,
};

/**
 * A small JSON file of a hub model, parsed; undefined when absent, over the cap (the body is read
 * only up to it), not JSON, or not there within the deadline (a server that never answers, or
 * never ends its body, holds nothing).
 */
export async function fetchHubJson(
	url: string,
	signal?: AbortSignal,
	limits: HubJsonLimits = HUB_JSON_LIMITS,
): Promise<unknown> {
	const deadline = AbortSignal.timeout(limits.deadlineMs);
	const ends = Date.now() + limits.deadlineMs;
	try {
		const response = await fetch(url, {
			signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
		});
		const length = Number(response.headers.get('content-length') ?? '0');
		if (!response.ok || length > limits.maxBytes) {
			response.body?.cancel().catch(() => undefined);
			return undefined;
		}
		const read = await readCappedBody(response, {
			maxBytes: limits.maxBytes,
			idleMs: limits.idleMs,
			deadline: ends,
		});
		return read.ok ? parseConventionFile(new TextDecoder().decode(read.bytes)) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Reads tokenizer_config.json and config.json from the hub (small files transformers.js fetches
 * anyway), and tokenizer.json (its post-processor is what the tokenizer adds) only when
 * tokenizer_config.json does not say `add_bos_token`: Llama-3's says nothing.
 */
export const readHubConventionFacts: ReadHubConventionFacts = async (id, revision, signal) => {
	if (typeof navigator !== 'undefined' && !navigator.onLine) return {};
	const base = `https://huggingface.co/${id}/resolve/${encodeURIComponent(revision)}/`;
	const [tokenizerConfig, config] = await Promise.all([
		fetchHubJson(`${base}tokenizer_config.json`, signal),
		fetchHubJson(`${base}config.json`, signal),
	]);
	const says =
		typeof tokenizerConfig === 'object' &&
		tokenizerConfig !== null &&
		typeof (tokenizerConfig as { add_bos_token?: unknown }).add_bos_token === 'boolean';
	const tokenizerJson = says ? undefined : await fetchHubJson(`${base}tokenizer.json`, signal);
	return { tokenizerConfig, config, tokenizerJson };
};

/** A picked folder's file as JSON; undefined when absent, too big or not JSON. */
async function readLocalJson(files: readonly LocalModelFile[], path: string): Promise<unknown> {
	const file = files.find((f) => f.path === path)?.file;
	if (file === undefined || file.size > CONVENTION_FILE_MAX_BYTES) return undefined;
	try {
		return parseConventionFile(await file.text());
	} catch {
		return undefined;
	}
}

function sameSpec(a: ModelSpec, b: ModelSpec): boolean {
	return (
		a.source === b.source &&
		a.id === b.id &&
		(a.revision ?? '') === (b.revision ?? '') &&
		a.dtype === b.dtype &&
		a.backend === b.backend
	);
}

export class ModelCatalog {
	readonly bundledIds: readonly string[] = BUNDLED_MODEL_IDS;
	readonly #client: InferenceClientApi;
	/** The "Endpoint" choice (source `openai`): base URL, model id, key. */
	readonly endpoint: EndpointSettings;
	/** Suggested hub models for scoring text (GPT-2 family), with their fit on this device. */
	readonly suggestions: SuggestionPicker;

	source = $state<ModelSource | 'openai'>('bundled');
	bundledId = $state<string>(DEFAULT_MODEL_ID);
	hubId = $state('');
	hubRevision = $state('main');
	dtype = $state<ModelDtype>('fp32');
	backend = $state<BrowserBackend>('wasm');
	/** The user's last pick of a convention, and the model it was made for. */
	#conventionPick = $state.raw<ConventionPick>({ modelKey: null, convention: 'reference' });
	/** The tokenizer facts of the last hub model or folder read (see readConventionFacts). */
	#readFacts = $state.raw<{ modelKey: string; facts: ConventionFacts } | null>(null);
	/** The size in the config.json of the last hub model read, read with its tokenizer files. */
	#readSize = $state.raw<{ modelKey: string; estimate: ConfigParameterEstimate } | null>(null);
	/** The read under way (readConventionFacts), which a load of that model waits for. */
	#reading: { modelKey: string; promise: Promise<void> } | null = null;
	readonly #readHubFacts: ReadHubConventionFacts;
	/** Ask for word-boundary values in the next run (see `SuiteRunStartOptions.wordBoundaries`). */
	wordBoundaries = $state(false);

	#localFolderName = $state('');
	#localFiles = $state.raw<readonly LocalModelFile[]>([]);
	#status = $state<ModelLoadStatus>('idle');
	#error = $state<string | null>(null);
	#errorSpec = $state.raw<ModelSpec | null>(null);
	#bytes = $state.raw<LoadBytes>(NO_LOAD_BYTES);
	#loaded = $state.raw<ModelInfo | null>(null);
	#loading: { spec: ModelSpec; promise: Promise<ModelInfo> } | null = null;
	#warmUp: { spec: ModelSpec; abort: AbortController } | null = null;
	#cached = $state.raw<readonly CachedModel[]>([]);
	#cacheMessage = $state<string | null>(null);

	/**
	 * `endpoint`: the app's one EndpointSettings (by default, one that remembers nothing);
	 * `readDevice`: the device facts for the suggestions' fit (default: the browser's);
	 * `readHubFacts`: a hub model's tokenizer facts (default: read from the hub).
	 */
	constructor(
		client: InferenceClientApi,
		endpoint: EndpointSettings = new EndpointSettings({ storage: null }),
		readDevice?: () => Promise<DeviceFacts>,
		readHubFacts: ReadHubConventionFacts = readHubConventionFacts,
	) {
		this.#client = client;
		this.#readHubFacts = readHubFacts;
		this.endpoint = endpoint;
		this.suggestions = new SuggestionPicker(
			'surprisal',
			(suggestion) => this.#useSuggestion(suggestion),
			readDevice,
		);
	}

	/** Fills the hub choice with a suggested model (nothing loads until a run or Try it). */
	#useSuggestion(suggestion: ModelSuggestion): void {
		this.source = 'hub';
		this.hubId = suggestion.id;
		this.hubRevision = 'main';
		this.dtype = suggestion.dtype;
	}

	/**
	 * What is known of the chosen model's size before it loads: a bundled or suggested model's, or
	 * a typed hub model's or a local folder's estimated from its config.json once read
	 * (`estimatedFrom`); null for an unread or unsized config, an endpoint.
	 */
	get facts(): ModelFacts | null {
		return this.#factsOf(this.spec);
	}

	#factsOf(spec: ModelSpec | null): ModelFacts | null {
		if (!spec) return null;
		const known = knownModelFacts(spec.source, spec.id, spec.dtype);
		if (known || (spec.source !== 'hub' && spec.source !== 'local')) return known;
		const read = this.#readSize;
		return read !== null &&
			read.modelKey === conventionModelKey(spec) &&
			read.estimate.kind === 'estimate'
			? estimatedModelFacts(read.estimate, spec.dtype)
			: null;
	}

	/**
	 * The chosen hub model's or folder's size waits on its config.json (not a suggestion, not read
	 * yet): the picker reads it (readConventionFacts) and a hub load waits for a read under way.
	 */
	get sizePending(): boolean {
		const spec = this.spec;
		return (
			(spec?.source === 'hub' || spec?.source === 'local') &&
			knownModelFacts(spec.source, spec.id, spec.dtype) === null &&
			this.#readSize?.modelKey !== conventionModelKey(spec)
		);
	}

	/** The chosen model's fit on this device, when its size is known. */
	get fit(): DeviceFit | null {
		return this.#fitOf(this.spec);
	}

	#fitOf(spec: ModelSpec | null): DeviceFit | null {
		if (!spec || (spec.backend !== 'wasm' && spec.backend !== 'webgpu')) return null;
		const facts = this.#factsOf(spec);
		return facts ? fitsDevice(facts, this.suggestions.device, spec.backend) : null;
	}

	/** Why the chosen model is not loaded on this device (it will not fit), or null. */
	get fitProblem(): string | null {
		const spec = this.spec;
		return spec ? fitRefusal(`${spec.id} (${spec.dtype})`, this.fit) : null;
	}

	/** fitProblem in one line, without the advice (beside a Run button). */
	get fitProblemShort(): string | null {
		const spec = this.spec;
		return spec ? fitRefusal(`${spec.id} (${spec.dtype})`, this.fit, false) : null;
	}

	/** The estimated time to score `tokens` with the chosen model, or null when its size is unknown. */
	scoringTime(tokens: number): ScoringTimeEstimate | null {
		const facts = this.facts;
		return facts ? this.suggestions.scoringTime(facts, this.dtype, tokens, this.backend) : null;
	}

	/**
	 * Whether to offer WebGPU for scoring `tokens` with the chosen model on WASM (see adviseWebGpu):
	 * null off WASM, or while the model's size is unknown.
	 */
	webGpuAdvice(tokens: number): WebGpuAdvice | null {
		const facts = this.facts;
		if (this.backend !== 'wasm' || !facts) return null;
		const device = this.suggestions.device;
		return adviseWebGpu(
			this.scoringTime(tokens),
			device.webgpu,
			fitsDevice(facts, device, 'webgpu'),
		);
	}

	/** The model a run uses: the local spec, or the endpoint's (never with its key). */
	get runSpec(): ModelSpec | EndpointModelSpec | null {
		return this.source === 'openai' ? this.endpoint.spec : this.spec;
	}

	/** The model the convention belongs to (see conventionModelKey), or null while none is chosen. */
	get conventionModelKey(): string | null {
		return conventionModelKey(this.runSpec);
	}

	/** The chosen model's own default convention, with why; null while a hub model's is unread. */
	get conventionDefault(): ConventionDefault | null {
		const spec = this.runSpec;
		const key = conventionModelKey(spec);
		const read = this.#readFacts;
		return conventionDefaultOf(
			conventionFactsOf(spec) ?? (read !== null && read.modelKey === key ? read.facts : null),
		);
	}

	/**
	 * The convention a run uses: the user's pick for this model, else the model's default, decided
	 * with the model choice itself (a run started at once uses it).
	 */
	get convention(): SurprisalConvention {
		return settleConvention(this.conventionModelKey, this.conventionDefault, this.#conventionPick)
			.convention;
	}

	/** The user's pick: it stands for the chosen model until another model is chosen. */
	set convention(convention: SurprisalConvention) {
		this.#conventionPick = { modelKey: this.conventionModelKey, convention };
	}

	/** The chosen hub model's default is still being read (no pick made for it): runs wait. */
	get conventionPending(): boolean {
		return settleConvention(this.conventionModelKey, this.conventionDefault, this.#conventionPick)
			.pending;
	}

	/** Why a run cannot start yet for the convention's sake, or null. */
	get conventionProblem(): string | null {
		const spec = this.runSpec;
		if (!this.conventionPending) return null;
		return spec?.source === 'hub'
			? `Reading ${spec.id}'s tokenizer config for its default convention…`
			: spec?.source === 'local'
				? `Reading ${spec.id}'s tokenizer files for its default convention…`
				: null;
	}

	/**
	 * Reads the chosen hub model's or folder's tokenizer files for its default convention, and its
	 * config.json for its size. A read that a newer choice superseded is kept under its own model
	 * only. Never rejects.
	 */
	async readConventionFacts(signal?: AbortSignal): Promise<void> {
		const spec = this.runSpec;
		const modelKey = conventionModelKey(spec);
		if ((spec?.source !== 'hub' && spec?.source !== 'local') || modelKey === null) return;
		const promise = this.#readModelFiles(spec, modelKey, signal);
		this.#reading = { modelKey, promise };
		try {
			await promise;
		} finally {
			if (this.#reading?.promise === promise) this.#reading = null;
		}
	}

	async #readModelFiles(
		spec: ModelSpec,
		modelKey: string,
		signal: AbortSignal | undefined,
	): Promise<void> {
		let files: ConventionFiles = {};
		try {
			if (spec.source === 'hub') {
				files = await this.#readHubFacts(spec.id, spec.revision ?? 'main', signal);
			} else {
				const local = this.#localFiles;
				const [tokenizerJson, tokenizerConfig, config] = await Promise.all(
					['tokenizer.json', 'tokenizer_config.json', 'config.json'].map((path) =>
						readLocalJson(local, path),
					),
				);
				files = { tokenizerJson, tokenizerConfig, config };
			}
		} catch {
			// Unread files are no facts: the default is then `reference`, said so.
		}
		if (signal?.aborted) return;
		this.#readFacts = { modelKey, facts: conventionFactsFromFiles(spec.source, spec.id, files) };
		this.#readSize = { modelKey, estimate: estimateConfigParameters(files.config) };
	}

	/**
	 * The client a run of `spec` is scored by when it is an endpoint (undefined: the worker). A
	 * key is sent only to the base URL it was typed for (`EndpointSettings.keyFor`).
	 */
	clientFor(spec: ModelSpec | EndpointModelSpec): EndpointInferenceClient | undefined {
		if (spec.source !== 'openai') return undefined;
		const apiKey = this.endpoint.keyFor(spec);
		const pageOrigin = globalThis.location?.origin;
		return new EndpointInferenceClient({
			spec,
			...(apiKey ? { apiKey } : {}),
			...(pageOrigin ? { pageOrigin } : {}),
		});
	}

	/** The chosen model as a TextModel (loaded on first use), or null while incomplete. */
	get textModel(): (() => Promise<TextModel>) | null {
		if (this.source === 'openai') {
			const model = this.endpoint.textModel();
			return model ? async () => model : null;
		}
		const spec = this.spec;
		if (!spec) return null;
		return async () => {
			const model = new LocalWorkerModel({
				client: this.#client,
				spec,
				load: (s, signal) => this.load(s, signal),
			});
			await model.load();
			return model;
		};
	}

	get webgpuAvailable(): boolean {
		return typeof navigator !== 'undefined' && 'gpu' in navigator;
	}

	get localFolderName(): string {
		return this.#localFolderName;
	}

	get localFileCount(): number {
		return this.#localFiles.length;
	}

	get status(): ModelLoadStatus {
		return this.#status;
	}

	/** Why the last load failed, while the choice is still the one that failed. */
	get error(): string | null {
		const failed = this.#errorSpec;
		const spec = this.spec;
		return failed && spec && sameSpec(failed, spec) ? this.#error : null;
	}

	get loaded(): ModelInfo | null {
		return this.#loaded;
	}

	/** The loaded model now runs on a fallback backend (the worker said so while scoring). */
	noteFallback(modelKey: string, fallback: BackendFallback): void {
		const loaded = this.#loaded;
		if (loaded?.modelKey !== modelKey) return;
		this.#loaded = {
			...loaded,
			spec: { ...loaded.spec, backend: fallback.backend },
			fallbackReason: fallback.reason,
		};
	}

	/** Bytes downloaded/read so far and expected (0 total = size not known yet). */
	get loadBytes(): { loaded: number; total: number } {
		return sumLoadBytes(this.#bytes);
	}

	get cached(): readonly CachedModel[] {
		return this.#cached;
	}

	get cacheMessage(): string | null {
		return this.#cacheMessage;
	}

	/** Why the current choice cannot be loaded, or null. */
	get specProblem(): string | null {
		switch (this.source) {
			case 'bundled':
				return this.bundledIds.includes(this.bundledId) ? null : 'Pick a bundled model.';
			case 'hub':
				return checkHubModelId(this.hubId) ?? checkHubRevision(this.hubRevision);
			case 'local':
				return checkLocalModelFiles(this.#localFiles.map((f) => f.path));
			case 'openai':
				if (this.endpoint.problem !== null) return this.endpoint.problem;
				// Test connection found that the server returns no prompt logprobs: a run would fail.
				return this.endpoint.abilities.score === false
					? 'This endpoint cannot score text (it returns no prompt logprobs): Try it generates, but a suite needs a server that echoes prompt logprobs, such as vLLM or Benchtop serve.'
					: null;
		}
	}

	/** Why the chosen model cannot give word-boundary values, or null when it can. */
	get wordBoundariesProblem(): string | null {
		return this.source === 'openai'
			? 'Endpoints return the probabilities of the text’s own tokens only, not of every possible next word start: use a bundled, hub or local model for this.'
			: null;
	}

	/** The model as chosen, or null while the choice is incomplete (see specProblem). */
	get spec(): ModelSpec | null {
		if (this.specProblem !== null) return null;
		switch (this.source) {
			case 'bundled':
				return localModelSpec('bundled', this.bundledId, this.dtype, this.backend);
			case 'hub':
				return localModelSpec('hub', this.hubId, this.dtype, this.backend, this.hubRevision);
			case 'local':
				return localModelSpec(
					'local',
					this.#localFolderName || 'local-model',
					this.dtype,
					this.backend,
				);
			case 'openai':
				// Not a local model: runs take runSpec (the endpoint's spec).
				return null;
		}
	}

	/** Takes the files of a picked folder (input with `webkitdirectory`). */
	setLocalFolder(files: readonly PickedFile[]): void {
		const first = files[0]?.relativePath ?? '';
		this.#localFolderName = first.includes('/') ? first.slice(0, first.indexOf('/')) : '';
		this.#localFiles = files.map((f) => ({ path: stripFolderName(f.relativePath), file: f.file }));
		this.source = 'local';
		// Another folder of the same name is another model: its files are read again.
		if (this.#readFacts?.modelKey === this.conventionModelKey) this.#readFacts = null;
		if (this.#readSize?.modelKey === this.conventionModelKey) this.#readSize = null;
		void this.readConventionFacts();
	}

	/** Sets every field of the picker from a spec (resume, compare, share links). */
	choose(spec: ModelSpec, convention?: SurprisalConvention): void {
		this.source = spec.source;
		if (spec.source === 'bundled') this.bundledId = spec.id;
		if (spec.source === 'hub') {
			this.hubId = spec.id;
			this.hubRevision = spec.revision ?? 'main';
		}
		this.dtype = spec.dtype;
		if (spec.backend === 'wasm' || spec.backend === 'webgpu') this.backend = spec.backend;
		// Set after the model: a pick belongs to the model chosen.
		if (convention) this.convention = convention;
	}

	/**
	 * Loads the chosen model (or `spec`), reusing the loaded one when the spec is the same.
	 * Rejects with the engine's error; `error` then holds a message for the user. A model whose
	 * known or estimated size will not fit the device is refused before any download (see
	 * fitProblem); a hub model whose config.json is being read waits for it first.
	 */
	async load(spec: ModelSpec | null = this.spec, signal?: AbortSignal): Promise<ModelInfo> {
		if (!spec) throw new Error(this.specProblem ?? 'No model chosen.');
		const reading = this.#reading;
		if (reading && spec.source === 'hub' && reading.modelKey === conventionModelKey(spec)) {
			await reading.promise;
		}
		if (this.#loaded && sameSpec(this.#loaded.spec, spec)) return this.#loaded;
		if (this.#loading && sameSpec(this.#loading.spec, spec)) return this.#loading.promise;
		const refusal = fitRefusal(`${spec.id} (${spec.dtype})`, this.#fitOf(spec));
		if (refusal !== null) {
			this.#status = 'error';
			this.#error = refusal;
			this.#errorSpec = spec;
			throw new Error(refusal);
		}
		if (this.#warmUp && !sameSpec(this.#warmUp.spec, spec)) this.#warmUp.abort.abort();
		this.#warmUp = null;
		const previous = this.#loaded;
		this.#status = 'loading';
		this.#error = null;
		this.#bytes = NO_LOAD_BYTES;
		const promise = this.#client.call(
			'loadModel',
			{ spec, ...(spec.source === 'local' ? { localFiles: this.#localFiles } : {}) },
			{
				...(signal ? { signal } : {}),
				onLoadProgress: (event) => {
					this.#bytes = accumulateLoadProgress(this.#bytes, event);
				},
			},
		);
		this.#loading = { spec, promise };
		try {
			const info = await promise;
			if (this.#loading?.promise === promise) {
				this.#loaded = info;
				this.#status = 'ready';
				// A hub model is now in the browser's cache: show it there.
				if (spec.source === 'hub') void this.refreshCached();
				if (previous && previous.modelKey !== info.modelKey) {
					this.#client.call('disposeModel', { modelKey: previous.modelKey }).catch(() => {});
				}
			} else {
				void this.#disposeIfUnused(info.modelKey, spec);
			}
			return info;
		} catch (error) {
			if (this.#loading?.promise === promise) {
				this.#status = 'error';
				this.#error = `Could not load ${spec.id}: ${describeError(error)}`;
				this.#errorSpec = spec;
			}
			throw error;
		} finally {
			if (this.#loading?.promise === promise) this.#loading = null;
		}
	}

	/**
	 * Starts loading the chosen bundled model in the background unless it is loaded, something
	 * is loading, or this choice already failed, so a run can start scoring at once. Never downloads (hub) or reads a folder
	 * unasked; a failure is kept in `error` like any load. Resolves (never rejects) when the load
	 * (or the one already under way) has settled.
	 */
	warmUp(): Promise<void> {
		const settled = (promise: Promise<unknown>): Promise<void> =>
			promise.then(
				() => undefined,
				() => undefined,
			);
		const spec = this.spec;
		if (this.#loading) return settled(this.#loading.promise);
		if (this.source !== 'bundled' || spec === null || this.fitProblem !== null) {
			return Promise.resolve();
		}
		if (this.#loaded && sameSpec(this.#loaded.spec, spec)) return Promise.resolve();
		// This very choice failed: do not retry unasked.
		if (this.error !== null) return Promise.resolve();
		const abort = new AbortController();
		this.#warmUp = { spec, abort };
		return settled(this.load(spec, abort.signal));
	}

	/** Frees a superseded load in the worker once the later choice has loaded, unless in use. */
	async #disposeIfUnused(modelKey: string, spec: ModelSpec): Promise<void> {
		await this.#loading?.promise.catch(() => undefined);
		if (this.#loaded?.modelKey === modelKey) return;
		if (this.#loading && sameSpec(this.#loading.spec, spec)) return;
		await this.#client.call('disposeModel', { modelKey }).catch(() => {});
	}

	/** Re-reads the models in the browser's cache (hub downloads). */
	async refreshCached(): Promise<void> {
		try {
			this.#cached = await this.#client.call('listCachedModels', {});
			this.#cacheMessage = null;
		} catch (error) {
			this.#cacheMessage = `Cached models could not be listed: ${describeError(error)}`;
		}
	}

	async deleteCached(id: string): Promise<void> {
		try {
			const { filesDeleted } = await this.#client.call('deleteCachedModel', { id });
			this.#cacheMessage = `Deleted ${filesDeleted} cached file${filesDeleted === 1 ? '' : 's'} of ${id}.`;
		} catch (error) {
			this.#cacheMessage = `Could not delete ${id}: ${describeError(error)}`;
		}
		await this.refreshCached();
	}
}
