/**
 * The text-model choices of the Evals and Memory pages (model under test and grader, agent and
 * judge: a bundled or hub model in the worker, the endpoint, or a replay file). Builds TextModels
 * from providers; runs nothing. The generation parameters Evals sets over upstream's are in core
 * (`src/core/evals/generation-overrides.ts`).
 */
import type { TextModel } from '../../../core/model/generation';
import {
	BUNDLED_MODEL_IDS,
	localModelSpec,
	type EndpointModelSpec,
	type ModelDtype,
	type TextModelSpec,
} from '../../../core/model/model-spec';
import {
	fitRefusal,
	type DeviceFacts,
	type DeviceFit,
	type ModelSuggestion,
} from '../../../core/model/model-suggestions';
import { describeError } from '../../../core/messages/describe-error';
import type { ReplayFile } from '../../../core/model/replay-file';
import { createReplayModel } from '../../../providers/replay';
import type { CachedModel, InferenceClientApi } from '../../../worker/protocol';
import { LocalWorkerModel } from '../../io/local-worker-model';
import {
	readReplayFile,
	type ParseProgress,
	type ParsedReplay,
} from '../../io/parse-inputs-client';
import { EndpointProposal, type EndpointSettings } from './endpoint-settings.svelte';
import {
	SuggestionPicker,
	rememberAnswerModel,
	rememberedAnswerModel,
} from './model-suggestions.svelte';

/**
 * The bundled model a choice starts with: the larger bundled GPT-2, which writes English (the
 * random-weight tiny one writes noise). Online, the picker offers the most capable hub model that
 * fits in one click; it downloads only once chosen and used.
 */
export const DEFAULT_LOCAL_ID = 'gpt2-en-small';
const BUNDLED_IDS: readonly string[] = BUNDLED_MODEL_IDS;

export type TextModelKind = 'local' | 'endpoint' | 'replay';

/** A replay file the user picked (name and text). */
export interface ReplayFileChoice {
	readonly name: string;
	readonly text: string;
	/** Set once the file is parsed (`pickReplay`): it is valid, and this is `sha256Hex(text)`. */
	readonly sha256?: string;
	/** Answer lines, once parsed. */
	readonly answerLines?: number;
}

/** A replay file being read: its name and how far (null before the first progress event). */
export interface ReplayReading {
	readonly name: string;
	readonly progress: ParseProgress | null;
}

/** Parsed replay files by SHA-256 (the last few), so a run does not parse a big file again. */
// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a cache, not UI state
const parsedReplays = new Map<string, ReplayFile>();
const PARSED_REPLAYS_KEPT = 4;

function rememberParsedReplay(parsed: ParsedReplay): void {
	parsedReplays.delete(parsed.sha256);
	parsedReplays.set(parsed.sha256, parsed.answers);
	for (const oldest of parsedReplays.keys()) {
		if (parsedReplays.size <= PARSED_REPLAYS_KEPT) break;
		parsedReplays.delete(oldest);
	}
}

/** The parse and hash of a replay text already parsed, if it is among the last few. */
function knownReplay(
	sha256: string | undefined,
): { answers: ReplayFile; sha256: string } | undefined {
	const answers = sha256 === undefined ? undefined : parsedReplays.get(sha256);
	return answers && sha256 !== undefined ? { answers, sha256 } : undefined;
}

/** One model choice (policy or grader of an Evals run, agent or judge of a Memory run). */
export class TextModelChoice {
	kind = $state<TextModelKind>('local');
	/** A bundled model's name, or a hub id (a suggested or remembered instruction-tuned model). */
	localId = $state<string>(DEFAULT_LOCAL_ID);
	/** The weights a hub `localId` loads with (bundled models always run fp32). */
	hubDtype = $state<ModelDtype>('fp32');
	replay = $state.raw<ReplayFileChoice | null>(null);
	/** The replay file being read (big ones in the parse worker, with progress), or null. */
	replayReading = $state.raw<ReplayReading | null>(null);
	/** Why the last picked replay file could not be read (shown while no file is picked). */
	replayError = $state<string | null>(null);
	#replayAbort: AbortController | null = null;
	/** A share link's endpoint for this role: used only once the user runs it once or saves it. */
	proposal = $state.raw<EndpointProposal | null>(null);
	/** Suggested small instruction-tuned hub models, with their fit on this device. */
	readonly suggestions: SuggestionPicker;
	readonly #storage: Pick<Storage, 'getItem' | 'setItem'> | null | undefined;
	#defaultApplied = false;

	/**
	 * `readDevice`: device facts for the suggestions (default: the browser's); `storage`: where
	 * the last answer model is remembered (default localStorage; null remembers nothing).
	 */
	constructor(
		options: {
			readonly readDevice?: () => Promise<DeviceFacts>;
			readonly storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
		} = {},
	) {
		this.#storage = options.storage;
		this.suggestions = new SuggestionPicker(
			'answer',
			(suggestion) => this.#useSuggestion(suggestion),
			options.readDevice,
		);
	}

	/** The bundled models, plus the chosen hub model when there is one. */
	get localIds(): readonly string[] {
		return BUNDLED_IDS.includes(this.localId) ? BUNDLED_IDS : [...BUNDLED_IDS, this.localId];
	}

	#useSuggestion(suggestion: ModelSuggestion): void {
		this.kind = 'local';
		this.localId = suggestion.id;
		this.hubDtype = suggestion.dtype;
		this.#defaultApplied = true;
		rememberAnswerModel(suggestion, this.#storage);
	}

	/**
	 * Once, while the choice is still the default: switches to the last answer model chosen when
	 * the browser's cache holds it (`cached`: the catalog's list), so it loads without a download.
	 */
	applyRememberedDefault(cached: readonly CachedModel[]): void {
		if (this.#defaultApplied || cached.length === 0) return;
		this.#defaultApplied = true;
		if (this.kind !== 'local' || this.localId !== DEFAULT_LOCAL_ID) return;
		const remembered = rememberedAnswerModel(this.#storage);
		if (!remembered || !cached.some((m) => m.source === 'hub' && m.id === remembered.id)) return;
		this.localId = remembered.id;
		this.hubDtype = remembered.dtype;
	}

	/** Takes a share link's endpoint as a proposal (the settings are not touched). */
	proposeEndpoint(spec: EndpointModelSpec, endpoint: EndpointSettings): void {
		this.kind = 'endpoint';
		this.proposal = new EndpointProposal(spec, endpoint);
	}

	/**
	 * Reads and parses a picked replay file once (over 1 MiB in the parse worker, with progress in
	 * `replayReading`; over 64 MiB refused); a new pick cancels the one being read.
	 */
	async pickReplay(file: File): Promise<void> {
		this.#replayAbort?.abort();
		const abort = new AbortController();
		this.#replayAbort = abort;
		this.replayError = null;
		this.replayReading = { name: file.name, progress: null };
		try {
			const parsed = await readReplayFile(file, {
				signal: abort.signal,
				onProgress: (progress) => {
					if (this.#replayAbort === abort) this.replayReading = { name: file.name, progress };
				},
			});
			rememberParsedReplay(parsed);
			const { name, text, sha256, answerLines } = parsed;
			this.replay = { name, text, sha256, answerLines };
		} catch (error) {
			if (abort.signal.aborted) return;
			this.replay = null;
			this.replayError = describeError(error);
		} finally {
			if (this.#replayAbort === abort) {
				this.#replayAbort = null;
				this.replayReading = null;
			}
		}
	}

	/** Why this choice cannot make a model yet, or null. */
	problem(endpoint: EndpointSettings): string | null {
		if (this.kind === 'replay' && this.replayReading) return 'Reading the replay file…';
		if (this.kind === 'replay' && !this.replay && this.replayError) return this.replayError;
		if (this.kind === 'replay' && !this.replay) return 'Pick a replay file (JSONL).';
		if (this.kind === 'endpoint' && this.proposal) {
			if (this.proposal.inUse) return null;
			return `The link's run used ${this.proposal.spec.model} at ${this.proposal.spec.baseUrl}: run once with it, save it as your endpoint, or use yours.`;
		}
		if (this.kind === 'endpoint') {
			if (endpoint.problem) return endpoint.problem;
			if (!endpoint.spec) return 'Give the endpoint a base URL and a model id.';
		}
		if (this.kind === 'replay' && this.replay && this.replay.sha256 === undefined) {
			try {
				createReplayModel(this.replay.text, this.replay.name);
			} catch (error) {
				return error instanceof Error ? error.message : String(error);
			}
		}
		if (this.kind === 'local')
			return fitRefusal(`${this.localId} (${this.#localDtype()})`, this.fit);
		return null;
	}

	/** The weights a local choice loads with (see localSpec). */
	#localDtype(): ModelDtype {
		return BUNDLED_IDS.includes(this.localId) ? 'fp32' : this.hubDtype;
	}

	/**
	 * The local model's fit on this device (WASM, where generation runs), when its size is known
	 * (bundled or suggested); a model that will not fit is refused by `problem`.
	 */
	get fit(): DeviceFit | null {
		const bundled = BUNDLED_IDS.includes(this.localId);
		return this.suggestions.fitOf(
			bundled ? 'bundled' : 'hub',
			this.localId,
			this.#localDtype(),
			'wasm',
		);
	}
}

/**
 * The spec of a local model (bundled, else a hub id at `hubDtype`) as the worker loads it for
 * generation: on WASM (the worker's generation path runs there).
 */
export function localSpec(id: string, hubDtype: ModelDtype = 'fp32'): TextModelSpec {
	return BUNDLED_IDS.includes(id)
		? localModelSpec('bundled', id, 'fp32', 'wasm')
		: localModelSpec('hub', id, hubDtype, 'wasm');
}

/**
 * Makes the TextModel a spec names. Replay specs need their text (`replayTexts` by SHA-256);
 * endpoint specs use the endpoint as set when it is the same server and model, or one the user
 * ran once from a link, with the key typed for it (never stored).
 */
export function modelFromSpec(
	spec: TextModelSpec,
	context: {
		readonly client: InferenceClientApi;
		readonly endpoint: EndpointSettings;
		readonly replayTexts: Readonly<Record<string, string>>;
	},
): TextModel {
	if (spec.source === 'replay') {
		const text = context.replayTexts[spec.sha256];
		if (text === undefined) {
			throw new Error(`The replay file ${spec.file} is not stored with this run: pick it again.`);
		}
		return createReplayModel(text, spec.file, knownReplay(spec.sha256));
	}
	if (spec.source === 'openai') {
		const model = context.endpoint.textModelFor(spec);
		if (!model) {
			throw new Error(
				`This run used the endpoint model ${spec.model} at ${spec.baseUrl}; the Endpoint is set to another server or model, and a run never mixes answers of two servers. Set Endpoint to ${spec.baseUrl} and ${spec.model} to go on, or start a new run.`,
			);
		}
		return model;
	}
	return new LocalWorkerModel({ client: context.client, spec });
}

/** The spec of a choice (after its problem is null). */
export function specOfChoice(
	choice: TextModelChoice,
	endpoint: EndpointSettings,
): { spec: TextModelSpec; replayText?: string } {
	if (choice.kind === 'replay' && choice.replay?.sha256 !== undefined) {
		const { name, text, sha256 } = choice.replay;
		return { spec: { source: 'replay', file: name, sha256 }, replayText: text };
	}
	if (choice.kind === 'replay' && choice.replay) {
		const model = createReplayModel(choice.replay.text, choice.replay.name);
		return { spec: model.spec, replayText: choice.replay.text };
	}
	if (choice.kind === 'endpoint' && choice.proposal?.inUse) return { spec: choice.proposal.spec };
	if (choice.kind === 'endpoint' && endpoint.spec) return { spec: endpoint.spec };
	return { spec: localSpec(choice.localId, choice.hubDtype) };
}
