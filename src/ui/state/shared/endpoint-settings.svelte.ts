/**
 * The "Endpoint" model choice: base URL, model id and API key of an OpenAI-compatible server,
 * "Test connection" (lists `/v1/models`), and what the page remembers. The key lives in memory
 * unless the user ticks "remember the key" (then localStorage); it is never part of a spec. A share
 * link's endpoint is an EndpointProposal: it never writes these settings unless the user saves it.
 */
import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import * as v from 'valibot';
import { describeError } from '../../../core/messages/describe-error';
import { BenchtopError } from '../../../core/errors';
import {
	checkEndpointBaseUrl,
	checkEndpointModelId,
	normalizeEndpointBaseUrl,
} from '../../../core/model/endpoint-choice';
import type { ModelAbilities } from '../../../core/model/generation';
import type { EndpointModelSpec } from '../../../core/model/model-spec';
import { EndpointModel } from '../../../providers/endpoint-model';
import { scoreTextsViaEndpoint } from '../../../providers/endpoint-scoring';
import { EndpointCannotScoreError, OpenAIClient } from '../../../providers/openai-client';

/** Lists the model ids an endpoint serves (`GET <baseUrl>/models`). */
export type ListEndpointModels = (
	endpoint: { readonly baseUrl: string; readonly apiKey?: string },
	signal?: AbortSignal,
) => Promise<readonly string[]>;

export type ConnectionStatus = 'idle' | 'testing' | 'ok' | 'failed';

/** localStorage keys: the endpoint (no secret) and, only when the user asks, the key. */
export const ENDPOINT_STORAGE_KEY = 'benchtop:endpoint';
export const ENDPOINT_KEY_STORAGE_KEY = 'benchtop:endpoint-api-key';

/** What `serve` and vLLM print by default. */
export const DEFAULT_ENDPOINT_BASE_URL = 'http://127.0.0.1:8000/v1';

const StoredEndpoint = v.object({ baseUrl: v.string(), modelId: v.string() });

/** The part of `Storage` used (localStorage in the app; absent in some tests). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function defaultStorage(): KeyValueStorage | null {
	try {
		return typeof localStorage === 'undefined' ? null : localStorage;
	} catch {
		// Storage disabled (privacy settings): remember nothing.
		return null;
	}
}

/** `GET /v1/models` from this page (errors say what to do: CORS flags per server, 401...). */
export const listEndpointModels: ListEndpointModels = (endpoint, signal) =>
	new OpenAIClient({
		baseUrl: endpoint.baseUrl,
		...(endpoint.apiKey ? { apiKey: endpoint.apiKey } : {}),
		...pageOriginOption(),
		maxRetries: 0,
	}).listModels(signal);

/**
 * Whether the endpoint can score given text (echoes prompt logprobs, as vLLM and `serve` do):
 * one tiny echo request. False for "cannot score"; other failures throw.
 */
export type ProbeEndpointScoring = (
	spec: EndpointModelSpec,
	apiKey: string | undefined,
	signal?: AbortSignal,
) => Promise<boolean>;

function pageOriginOption(): { pageOrigin?: string } {
	const origin = globalThis.location?.origin;
	return origin ? { pageOrigin: origin } : {};
}

export const probeEndpointScoring: ProbeEndpointScoring = async (spec, apiKey, signal) => {
	const client = new OpenAIClient({
		baseUrl: spec.baseUrl,
		...(apiKey ? { apiKey } : {}),
		...pageOriginOption(),
		maxRetries: 0,
	});
	try {
		await scoreTextsViaEndpoint(client, ['Hello there.'], {
			model: spec.model,
			convention: 'reference',
			...(signal ? { signal } : {}),
		});
		return true;
	} catch (error) {
		if (error instanceof EndpointCannotScoreError) return false;
		throw error;
	}
};

export interface EndpointSettingsOptions {
	/** Default: {@link listEndpointModels}. */
	readonly listModels?: ListEndpointModels;
	/** Default: {@link probeEndpointScoring}. */
	readonly probeScoring?: ProbeEndpointScoring;
	readonly storage?: KeyValueStorage | null;
	/** `location.protocol` of the page (mixed-content check); default: the current page's. */
	readonly pageProtocol?: string;
}

export class EndpointSettings {
	readonly #listModels: ListEndpointModels;
	readonly #probeScoring: ProbeEndpointScoring;
	readonly #storage: KeyValueStorage | null;
	readonly #pageProtocol: string;

	#baseUrl = $state(DEFAULT_ENDPOINT_BASE_URL);
	#modelId = $state('');
	#apiKey = $state('');
	#rememberKey = $state(false);
	#status = $state<ConnectionStatus>('idle');
	#models = $state.raw<readonly string[]>([]);
	#message = $state<string | null>(null);
	#canScore = $state<boolean | null>(null);
	#testedUrl = '';
	#testedModel = '';
	#abort: AbortController | null = null;
	/** Endpoints a share link proposed and the user ran once, by base URL. Never stored. */
	readonly #once = new SvelteMap<string, { readonly models: SvelteSet<string>; key: string }>();

	constructor(options: EndpointSettingsOptions = {}) {
		this.#listModels = options.listModels ?? listEndpointModels;
		this.#probeScoring = options.probeScoring ?? probeEndpointScoring;
		this.#storage = options.storage === undefined ? defaultStorage() : options.storage;
		this.#pageProtocol = options.pageProtocol ?? globalThis.location?.protocol ?? 'http:';
		this.#restore();
	}

	get baseUrl(): string {
		return this.#baseUrl;
	}

	set baseUrl(value: string) {
		this.#baseUrl = value;
		this.#save();
	}

	get modelId(): string {
		return this.#modelId;
	}

	set modelId(value: string) {
		this.#modelId = value;
		this.#save();
	}

	/** The API key (empty: none sent). Kept in memory; in localStorage only with rememberKey. */
	get apiKey(): string {
		return this.#apiKey;
	}

	set apiKey(value: string) {
		this.#apiKey = value;
		if (this.#rememberKey) this.#saveKey();
	}

	get rememberKey(): boolean {
		return this.#rememberKey;
	}

	/** Ticking it stores the key in this browser; unticking removes it from there at once. */
	set rememberKey(value: boolean) {
		this.#rememberKey = value;
		if (value) this.#saveKey();
		else this.#forgetKey();
	}

	get status(): ConnectionStatus {
		return this.#status;
	}

	/** Model ids the endpoint listed at the last successful test. */
	get models(): readonly string[] {
		return this.#models;
	}

	/** The outcome of the last test, in words (what to do when it failed). */
	get message(): string | null {
		return this.#message;
	}

	/** Why the base URL cannot be used, or null. */
	get baseUrlProblem(): string | null {
		return checkEndpointBaseUrl(this.#baseUrl, this.#pageProtocol);
	}

	/** Why the choice is incomplete, or null. */
	get problem(): string | null {
		return this.baseUrlProblem ?? checkEndpointModelId(this.#modelId);
	}

	/** The model as chosen (never with the key), or null while the choice is incomplete. */
	get spec(): EndpointModelSpec | null {
		if (this.problem !== null) return null;
		return {
			source: 'openai',
			model: this.#modelId.trim(),
			baseUrl: normalizeEndpointBaseUrl(this.#baseUrl),
		};
	}

	/** The key to send, or undefined for none. */
	get keyForRequests(): string | undefined {
		const key = this.#apiKey.trim();
		return key === '' ? undefined : key;
	}

	/**
	 * What the chosen model can do: generate and chat (completions and chat APIs); `score` once
	 * Test connection checked that the endpoint echoes prompt logprobs for this model (null: not
	 * checked yet, e.g. before a test or after the model id changed).
	 */
	get abilities(): Omit<ModelAbilities, 'score'> & { readonly score: boolean | null } {
		const checked = this.testedCurrentUrl && this.#testedModel === this.#modelId.trim();
		return { score: checked ? this.#canScore : null, generate: true, chat: true };
	}

	/** The chosen model as a TextModel (streamed completions), with the key in memory. */
	textModel(): EndpointModel | null {
		const spec = this.spec;
		if (!spec) return null;
		const apiKey = this.keyForRequests;
		return new EndpointModel({
			spec,
			...(apiKey ? { apiKey } : {}),
			clientOptions: pageOriginOption(),
		});
	}

	/** The listed models are from this base URL (not an earlier one). */
	get testedCurrentUrl(): boolean {
		return this.#status === 'ok' && this.#testedUrl === normalizeEndpointBaseUrl(this.#baseUrl);
	}

	/** Asks the endpoint for its models; with one model and no id typed, picks it. */
	async testConnection(): Promise<void> {
		const problem = this.baseUrlProblem;
		if (problem) {
			this.#status = 'failed';
			this.#message = problem;
			return;
		}
		this.#abort?.abort();
		const abort = new AbortController();
		this.#abort = abort;
		const baseUrl = normalizeEndpointBaseUrl(this.#baseUrl);
		const apiKey = this.keyForRequests;
		this.#status = 'testing';
		this.#message = null;
		try {
			const models = await this.#listModels(
				{ baseUrl, ...(apiKey ? { apiKey } : {}) },
				abort.signal,
			);
			if (abort.signal.aborted) return;
			this.#models = models;
			this.#testedUrl = baseUrl;
			this.#status = 'ok';
			if (this.#modelId.trim() === '' && models.length === 1) this.modelId = models[0] ?? '';
			const listed = models.length === 1 ? '1 model' : `${models.length} models`;
			const known =
				this.#modelId.trim() === '' || models.includes(this.#modelId.trim())
					? ''
					: ` It does not list "${this.#modelId.trim()}": pick one of its models.`;
			this.#message = `Connected to ${baseUrl}: ${listed}.${known}`;
			this.#canScore = null;
			const spec = this.spec;
			if (spec && models.includes(spec.model)) {
				this.#testedModel = spec.model;
				try {
					this.#canScore = await this.#probeScoring(spec, apiKey, abort.signal);
				} catch {
					// Listing worked; a failed probe leaves `score` unknown (a run will say why).
				}
			}
		} catch (error) {
			if (abort.signal.aborted) return;
			this.#models = [];
			this.#status = 'failed';
			this.#message = describeOwnError(error);
		} finally {
			if (this.#abort === abort) this.#abort = null;
		}
	}

	/**
	 * Lets this page's runs use `spec` (a share link's endpoint, "Run once with it") with `apiKey`
	 * (empty: none) until the page is closed. Nothing is stored and the fields do not change.
	 */
	useOnce(spec: EndpointModelSpec, apiKey: string): void {
		const baseUrl = normalizeEndpointBaseUrl(spec.baseUrl);
		const entry = this.#once.get(baseUrl) ?? { models: new SvelteSet<string>(), key: '' };
		entry.models.add(spec.model.trim());
		if (apiKey.trim() !== '' || entry.key === '') entry.key = apiKey.trim();
		this.#once.set(baseUrl, entry);
	}

	/** Whether `spec` is the endpoint set here (same base URL and model id). */
	isChosen(spec: EndpointModelSpec): boolean {
		const chosen = this.spec;
		return (
			chosen !== null &&
			chosen.baseUrl === normalizeEndpointBaseUrl(spec.baseUrl) &&
			chosen.model === spec.model.trim()
		);
	}

	/**
	 * The key to send to `spec`'s server: one given with {@link useOnce} for it, else the key
	 * typed here when the base URL is the one set here. Never a key typed for another server.
	 */
	keyFor(spec: EndpointModelSpec): string | undefined {
		const baseUrl = normalizeEndpointBaseUrl(spec.baseUrl);
		const onceKey = this.#once.get(baseUrl)?.key;
		if (onceKey) return onceKey;
		return normalizeEndpointBaseUrl(this.#baseUrl) === baseUrl ? this.keyForRequests : undefined;
	}

	/**
	 * The TextModel a recorded run of `spec` uses: an endpoint accepted with {@link useOnce}, or
	 * the endpoint set here when it is the same server and model id. Null when neither: a run never
	 * goes on against another server (its answers would mix with the first server's).
	 */
	textModelFor(spec: EndpointModelSpec): EndpointModel | null {
		const baseUrl = normalizeEndpointBaseUrl(spec.baseUrl);
		const accepted = this.#once.get(baseUrl)?.models.has(spec.model.trim()) === true;
		const chosen = this.spec;
		if (!accepted && !(chosen?.model === spec.model && chosen.baseUrl === baseUrl)) return null;
		const modelSpec = accepted ? { ...spec, baseUrl } : chosen;
		if (!modelSpec) return null;
		const apiKey = this.keyFor(modelSpec);
		return new EndpointModel({
			spec: modelSpec,
			...(apiKey ? { apiKey } : {}),
			clientOptions: pageOriginOption(),
		});
	}

	/** Sets the fields from a recorded spec (resume, history); the key is not part of it. */
	choose(spec: EndpointModelSpec): void {
		this.baseUrl = spec.baseUrl;
		this.modelId = spec.model;
	}

	#restore(): void {
		const storage = this.#storage;
		if (!storage) return;
		try {
			const raw = storage.getItem(ENDPOINT_STORAGE_KEY);
			if (raw) {
				const parsed = v.safeParse(StoredEndpoint, JSON.parse(raw));
				if (parsed.success) {
					this.#baseUrl = parsed.output.baseUrl;
					this.#modelId = parsed.output.modelId;
				}
			}
			const key = storage.getItem(ENDPOINT_KEY_STORAGE_KEY);
			if (key) {
				this.#apiKey = key;
				this.#rememberKey = true;
			}
		} catch {
			// Unreadable or malformed: start from the defaults.
		}
	}

	#save(): void {
		try {
			this.#storage?.setItem(
				ENDPOINT_STORAGE_KEY,
				JSON.stringify({ baseUrl: this.#baseUrl, modelId: this.#modelId }),
			);
		} catch {
			// Quota or disabled storage: the choice still works for this page.
		}
	}

	#saveKey(): void {
		try {
			if (this.#apiKey === '') this.#storage?.removeItem(ENDPOINT_KEY_STORAGE_KEY);
			else this.#storage?.setItem(ENDPOINT_KEY_STORAGE_KEY, this.#apiKey);
		} catch {
			// As above.
		}
	}

	#forgetKey(): void {
		try {
			this.#storage?.removeItem(ENDPOINT_KEY_STORAGE_KEY);
		} catch {
			// As above.
		}
	}
}

/**
 * A share link's endpoint, shown to the user as a proposal: links never write the settings. It
 * is used only when the user says so: once ({@link useOnce}, in memory, with the key typed
 * here) or saved as their endpoint ({@link save}).
 */
export class EndpointProposal {
	readonly spec: EndpointModelSpec;
	/** A key typed for the link's server: kept in memory, sent only there. */
	apiKey = $state('');
	readonly #settings: EndpointSettings;
	#accepted = $state(false);

	constructor(spec: EndpointModelSpec, settings: EndpointSettings) {
		this.spec = { ...spec, baseUrl: normalizeEndpointBaseUrl(spec.baseUrl) };
		this.#settings = settings;
	}

	/** The link's endpoint is the user's saved one: runs use it as it is, with the user's key. */
	get isSaved(): boolean {
		return this.#settings.isChosen(this.spec);
	}

	/** Runs may use it: it is the saved endpoint, or the user ran it once. */
	get inUse(): boolean {
		return this.#accepted || this.isSaved;
	}

	/** The endpoint the user has set (what saving would replace), in words; null if none. */
	get savedDescription(): string | null {
		const saved = this.#settings.spec;
		return saved ? `${saved.model} at ${saved.baseUrl}` : null;
	}

	/** Lets this page's runs use it, with the key typed here; nothing is stored. */
	useOnce(): void {
		this.#settings.useOnce(this.spec, this.apiKey);
		this.#accepted = true;
	}

	/**
	 * Makes it the user's endpoint (remembered as the form remembers). The key typed here
	 * replaces the one held, unless none was typed for the same server: a key typed for another
	 * server is never sent to this one.
	 */
	save(): void {
		const sameServer = normalizeEndpointBaseUrl(this.#settings.baseUrl) === this.spec.baseUrl;
		this.#settings.choose(this.spec);
		if (this.apiKey.trim() !== '' || !sameServer) this.#settings.apiKey = this.apiKey.trim();
	}
}

/** The distinct endpoints among a link's model specs, each as a proposal (others are skipped). */
export function proposeLinkEndpoints(
	specs: readonly ({ readonly source: string } | null | undefined)[],
	settings: EndpointSettings,
): EndpointProposal[] {
	const proposals: EndpointProposal[] = [];
	for (const spec of specs) {
		if (!isEndpointSpec(spec)) continue;
		const proposal = new EndpointProposal(spec, settings);
		const same = (other: EndpointProposal): boolean =>
			other.spec.baseUrl === proposal.spec.baseUrl && other.spec.model === proposal.spec.model;
		if (!proposals.some(same)) proposals.push(proposal);
	}
	return proposals;
}

function isEndpointSpec(
	spec: { readonly source: string } | null | undefined,
): spec is EndpointModelSpec {
	return spec?.source === 'openai';
}

/** Our own errors (endpoint failures included) already say what to do: shown as they are. */
function describeOwnError(error: unknown): string {
	return error instanceof BenchtopError ? error.message : describeError(error);
}
