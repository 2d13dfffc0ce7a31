/**
 * The Memory page's state (long-term-memory tests, GoodAI LTM benchmark): definitions (bundled
 * examples as cards, dropped upstream definitions as files / a folder / a zip, or an
 * ltm-suite.json) with located errors; the agent and an optional judge (a bundled model in the
 * worker, the endpoint, or a replay file); memory span and isolation; a run with the live
 * conversation (the agent's tokens as they stream), cancel, and resume after a reload (the
 * scheduler state is stored after every step); the report of the shown run and its exports.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- file maps here are not UI state (the $state fields hold them as raw values) */
import { zipTexts } from '../../core/formats/zip-archive';
import { goodaiTestResultText } from '../../core/ltm/goodai-files';
import { formatAppRoute } from '../../core/routing/app-route';
import { describeError } from '../../core/messages/describe-error';
import { sha256Hex, sha256HexOfBytes } from '../../core/hash/sha256';
import {
	LtmCancelledError,
	buildLtmReport,
	buildLtmSummary,
	buildLtmRunBundle,
	readLtmRunBundle,
	serializeLtmRunBundle,
	compareLtmScores,
	decodeLtmShare,
	encodeLtmShare,
	ltmScoresFingerprint,
	ltmScoresOf,
	loadLtmSuite,
	runLtm,
	testsNeedingJudge,
	type LoadResult,
	type LtmBenchmark,
	type LtmDiagnostic,
	type LtmReport,
	type LtmSummaryJson,
	type LtmReproduction,
	type LtmSharePayload,
	type LtmRunState,
} from '../../core/ltm';
import type {
	CancelSignal,
	GenerateRequest,
	GenerationEvent,
	GenerationParams,
	ModelCall,
	TextModel,
} from '../../core/model/generation';
import { describeModelSpec, type TextModelSpec } from '../../core/model/model-spec';
import { BUNDLED_MAX_POSITIONS, bundledModelMisfit } from '../../core/ltm/prompt-fit';
import { withResponseCache, type ResponseCacheStore } from '../../providers/response-cache';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	listLtmRuns,
	saveLtmState,
	updateLtmRun,
	type LtmRunRecord,
} from '../../storage/ltm-runs-repository';
import { responseCacheStore } from '../../storage/response-cache-repository';
import type { InferenceClientApi } from '../../worker/protocol';
import { LocalWorkerModel } from '../local-worker-model';
import {
	definitionsSize,
	loadGivenDefinitions,
	loadMemoryDefinitions,
	type MemoryDefinitions,
} from '../memory-definitions';
import {
	PARSE_IN_WORKER_BYTES,
	checkInputSize,
	parseInputsClient,
	type ParseProgress,
} from '../parse-inputs-client';
import { EndpointSettings } from './endpoint-settings.svelte';
import { EvalsModelChoice, modelFromSpec, specOfChoice } from './evals-models.svelte';
import { formatNameList } from '../../core/text/format-count';
import { TaskSession } from './task-session.svelte';

/** The id of a shown run imported from a bundle (stored ids start at 1). */
const IMPORTED_RUN_ID = -1;

/** How often a running run's progress is written to its record (also when a test finishes). */
const PROGRESS_EVERY_MS = 1000;

/** A bundled example suite, shown as a card. */
export interface MemoryCard {
	readonly path: string;
	readonly name: string;
	readonly testCount: number;
	readonly datasets: readonly string[];
	readonly memorySpan: number;
	/** Present when its prompts cannot fit the bundled models: why (see bundledModelMisfit). */
	readonly largerModel?: string;
}

export type DefinitionsSource = 'bundled' | 'files' | 'none';

export { loadGivenDefinitions, loadMemoryDefinitions, type MemoryDefinitions };

/** The agent's reply being generated now. */
export interface LiveReply {
	readonly testId: string;
	readonly text: string;
}

/** Limits a bundled model's small context needs (the CLI README's settings for 512 positions). */
export const LOCAL_AGENT_LIMITS = {
	maxNewTokens: 32,
	maxContextTokens: 380,
	maxMessageTokens: 150,
} as const;

/**
 * What a bundled model with `maxPositions` positions can take: new tokens (at most an eighth of
 * them, or the user's number if smaller), the history kept (what is left less 16 for the chat
 * rendering) and the largest filler message (half of the history).
 */
export function localAgentLimits(
	maxPositions: number,
	maxNewTokens: number | null,
): { maxNewTokens: number; maxContextTokens: number; maxMessageTokens: number } {
	const newTokens = Math.max(
		1,
		Math.min(maxNewTokens ?? LOCAL_AGENT_LIMITS.maxNewTokens, Math.floor(maxPositions / 8)),
	);
	const context = Math.min(
		LOCAL_AGENT_LIMITS.maxContextTokens,
		Math.max(16, maxPositions - newTokens - 16),
	);
	return {
		maxNewTokens: newTokens,
		maxContextTokens: context,
		maxMessageTokens: Math.min(LOCAL_AGENT_LIMITS.maxMessageTokens, Math.floor(context / 2)),
	};
}

/** A bundled example's mark when the bundled models cannot run it (issue 21 item 10). */
async function misfitNote(
	benchmark: LtmBenchmark,
	countTokens: (text: string) => number,
): Promise<{ largerModel?: string }> {
	const limits = localAgentLimits(BUNDLED_MAX_POSITIONS, null);
	const note = await bundledModelMisfit(benchmark, countTokens, limits);
	return note === null ? {} : { largerModel: note };
}

const BUNDLED_SUITES = import.meta.glob<string>('/suites/memory/*.ltm-suite.json', {
	query: '?raw',
	import: 'default',
});

const MAX_DEFINITIONS_BYTES = 50 * 1024 * 1024;

/** Token counter for scheduling and gaps: cl100k_base, as upstream reports them (loaded on demand). */
async function loadCounter(): Promise<(text: string) => number> {
	const module = await import('../../providers/token-count');
	return module.countCl100kTokens;
}

/** Whether a file belongs to definitions (upstream layout or our suite format). */
function isDefinitionsPath(path: string): boolean {
	return /\.(def\.json|json|ya?ml)$/iu.test(path);
}

/** A dropped file's path inside the definitions: from its dataset folder's parent on. */
export function definitionsPathOf(path: string): string {
	const parts = path.replace(/\\/gu, '/').replace(/^\.\//u, '').split('/');
	if (/\.def\.json$/iu.test(path) && parts.length >= 2) return parts.slice(-2).join('/');
	return parts[parts.length - 1] ?? path;
}

/** `model` whose streamed tokens are reported to `onToken` (the live conversation). */
export function streamingModel(
	model: TextModel,
	onStart: (call: ModelCall) => void,
	onToken: (text: string) => void,
): TextModel {
	return {
		label: model.label,
		get abilities() {
			return model.abilities;
		},
		countTokens: (text) => model.countTokens(text),
		async *generate(
			request: GenerateRequest,
			call: ModelCall,
			signal?: CancelSignal,
		): AsyncGenerator<GenerationEvent> {
			onStart(call);
			for await (const event of model.generate(request, call, signal)) {
				if (event.type === 'token') onToken(event.text);
				yield event;
			}
		},
	};
}

export interface MemorySessionOptions {
	readonly client: InferenceClientApi;
	readonly endpoint?: EndpointSettings;
	/** The judge's completions, kept across reloads; default: IndexedDB. */
	readonly cache?: ResponseCacheStore;
	readonly now?: () => number;
	/** cl100k counter by default. */
	readonly countTokens?: () => Promise<(text: string) => number>;
}

export class MemorySession extends TaskSession<LtmRunRecord> {
	readonly endpoint: EndpointSettings;
	readonly agent = new EvalsModelChoice();
	readonly judge = new EvalsModelChoice();
	useJudge = $state(false);
	/** Memory span in tokens (null: the definitions' own). */
	memorySpan = $state<number | null>(null);
	isolated = $state(false);
	/** Max new tokens per agent reply (null: the provider's default; 32 for a bundled model). */
	maxNewTokens = $state<number | null>(null);
	/** History kept for an endpoint or replay agent, in its tokens (null: all of it). */
	contextTokens = $state<number | null>(null);

	readonly #client: InferenceClientApi;
	readonly #cache: ResponseCacheStore;
	readonly #now: () => number;
	readonly #counter: () => Promise<(text: string) => number>;

	#source = $state<DefinitionsSource>('none');
	#sourceName = $state('');
	#definitions = $state.raw<MemoryDefinitions>({ kind: 'texts', files: new Map() });
	#cards = $state.raw<readonly MemoryCard[]>([]);
	#selectedCard = $state<string | null>(null);
	#diagnostics = $state.raw<readonly LtmDiagnostic[]>([]);
	#reading = $state.raw<{ name: string; progress: ParseProgress | null } | null>(null);
	#benchmark = $state.raw<LtmBenchmark | null>(null);

	#live = $state.raw<LiveReply | null>(null);
	#shownRun = $state.raw<LtmRunRecord | null>(null);
	#state = $state.raw<LtmRunState | null>(null);
	#comparison = $state.raw<{ a: LtmRunRecord; b: LtmRunRecord } | null>(null);
	/** Built only when read (exports): it formats every test's log, too slow for every step. */
	#report = $derived(this.#state ? buildLtmReport(this.#state) : null);
	#summary = $derived(this.#state ? buildLtmSummary(this.#state) : null);
	#shared = $state.raw<LtmSharePayload | null>(null);
	#sharedRunId = $state<number | null>(null);

	constructor(options: MemorySessionOptions) {
		super({ noun: 'tests', resumePoint: 'the last reply' });
		this.#client = options.client;
		// The app passes its one EndpointSettings; without it, one that remembers nothing.
		this.endpoint = options.endpoint ?? new EndpointSettings({ storage: null });
		this.#cache = options.cache ?? responseCacheStore;
		this.#now = options.now ?? (() => Date.now());
		this.#counter = options.countTokens ?? loadCounter;
		this.judge.kind = 'replay';
	}

	get source(): DefinitionsSource {
		return this.#source;
	}
	get sourceName(): string {
		return this.#sourceName;
	}
	get cards(): readonly MemoryCard[] {
		return this.#cards;
	}
	get selectedCard(): string | null {
		return this.#selectedCard;
	}
	/** Big definitions being loaded in the parse worker, or null. */
	get reading(): { name: string; progress: ParseProgress | null } | null {
		return this.#reading;
	}
	get diagnostics(): readonly LtmDiagnostic[] {
		return this.#diagnostics;
	}
	get benchmark(): LtmBenchmark | null {
		return this.#benchmark;
	}
	get live(): LiveReply | null {
		return this.#live;
	}
	/** The run shown (running, stopped or finished) and its state. */
	get shownRun(): LtmRunRecord | null {
		return this.#shownRun;
	}
	get state(): LtmRunState | null {
		return this.#state;
	}
	get report(): LtmReport | null {
		return this.#report;
	}
	/** The summary of the shown run so far (cheap: shown while the run goes on). */
	get summary(): LtmSummaryJson | null {
		return this.#summary;
	}
	/** Two finished runs side by side (per-dataset scores). */
	get comparison(): { a: LtmRunRecord; b: LtmRunRecord } | null {
		return this.#comparison;
	}
	/** A run opened from a share link (its definitions, models and the sharer's scores). */
	get shared(): LtmSharePayload | null {
		return this.#shared;
	}
	/** Whether the shown run was imported from a run bundle (not stored in this browser). */
	get shownIsImported(): boolean {
		return this.#shownRun?.id === IMPORTED_RUN_ID;
	}
	/** Whether the shown run, a finished re-run of the shared one, reproduced the sharer's scores. */
	get reproduction(): LtmReproduction | null {
		const shared = this.#shared;
		const state = this.#state;
		if (!shared || !state || this.#sharedRunId === null) return null;
		if (this.#shownRun?.id !== this.#sharedRunId || this.#shownRun.status !== 'done') return null;
		return compareLtmScores(shared.scores, ltmScoresOf(state));
	}

	/**
	 * Tests only a judge can score (static judge evaluators, dynamic tests with judge steps, the
	 * Restaurant built-in), when no judge is set: they are skipped, not scored 0.
	 */
	get judgeNeededBy(): readonly string[] {
		const benchmark = this.#benchmark;
		if (!benchmark || this.useJudge) return [];
		return testsNeedingJudge(benchmark.tests);
	}

	/** Why Run cannot start, or null. */
	get runProblem(): string | null {
		if (this.running) return 'A run is going on.';
		if (!this.#benchmark) {
			return this.#diagnostics.length > 0
				? 'These definitions have errors (see above).'
				: 'Pick an example or drop definitions.';
		}
		const agent = this.agent.problem(this.endpoint);
		if (agent) return `Agent: ${agent}`;
		if (this.useJudge) {
			const judge = this.judge.problem(this.endpoint);
			if (judge) return `Judge: ${judge}`;
		}
		if (this.memorySpan !== null && (!Number.isInteger(this.memorySpan) || this.memorySpan < 1)) {
			return 'The memory span must be a whole number of tokens, 1 or more (or empty for the definitions’ own).';
		}
		if (
			this.contextTokens !== null &&
			(!Number.isInteger(this.contextTokens) || this.contextTokens < 16)
		) {
			return 'The agent context must be a whole number of 16 tokens or more (or empty for all).';
		}
		if (
			this.maxNewTokens !== null &&
			(!Number.isInteger(this.maxNewTokens) || this.maxNewTokens < 1)
		) {
			return 'Max new tokens must be a whole number of 1 or more (or empty).';
		}
		return null;
	}

	// ---- definitions ----

	/** The bundled example suites as cards; picks none. */
	async loadBundled(): Promise<void> {
		const counter = await this.#counter();
		const cards: MemoryCard[] = [];
		for (const [path, load] of Object.entries(BUNDLED_SUITES)) {
			const name = path.replace('/suites/memory/', '');
			const result = loadLtmSuite(name, await load(), { countTokens: counter });
			if (!result.ok) continue;
			cards.push({
				path: name,
				name: result.benchmark.config.runName,
				testCount: result.benchmark.tests.length,
				datasets: [...new Set(result.benchmark.tests.map((test) => test.datasetName))],
				memorySpan: result.benchmark.config.memorySpan,
				...(await misfitNote(result.benchmark, counter)),
			});
		}
		this.#cards = cards;
		// NOTE: definitions picked while the bundled examples were read keep their name.
		if (this.#source !== 'none') return;
		this.#source = 'bundled';
		this.#sourceName = 'bundled examples';
	}

	/** Picks a bundled example by its file name. */
	async selectCard(path: string): Promise<void> {
		const load = BUNDLED_SUITES[`/suites/memory/${path}`];
		if (!load) return;
		this.#selectedCard = path;
		await this.#setDefinitions(
			{ kind: 'texts', files: new Map([[path, await load()]]) },
			'bundled',
			path,
		);
	}

	/**
	 * Reads dropped or picked files: `.def.json` + config.yml (a folder, or a zip read by the
	 * core's `loadLtmZip`), or an ltm-suite.json.
	 */
	async loadFiles(files: readonly File[]): Promise<void> {
		const entries = new Map<string, string>();
		let bytes = 0;
		const zips = files.filter((file) => /\.zip$/iu.test(file.name));
		try {
			if (zips.length > 0 && files.length > 1) {
				throw new Error(
					`${zips.map((file) => file.name).join(', ')}: drop a zip on its own (one zip, no other files).`,
				);
			}
			for (const file of files) {
				checkInputSize(file);
				bytes += file.size;
				if (bytes > MAX_DEFINITIONS_BYTES) {
					throw new Error('These files are over 50 MB: drop fewer definitions.');
				}
			}
			const zip = zips[0];
			if (zip) {
				this.#selectedCard = null;
				await this.#setDefinitions(
					{ kind: 'zip', name: zip.name, bytes: new Uint8Array(await zip.arrayBuffer()) },
					'files',
					zip.name,
				);
				return;
			}
			for (const file of files) {
				const path = file.webkitRelativePath || file.name;
				if (isDefinitionsPath(path)) entries.set(definitionsPathOf(path), await file.text());
			}
		} catch (error) {
			this.#diagnostics = [
				{ severity: 'error', path: '(files)', pointer: '', message: describeError(error) },
			];
			this.#benchmark = null;
			return;
		}
		if (entries.size === 0) {
			this.#diagnostics = [
				{
					severity: 'error',
					path: files.map((file) => file.name).join(', '),
					pointer: '',
					message:
						'no definitions found: drop <Dataset Name>/<id>.def.json files with config.yml (a folder or a zip), or an ltm-suite.json',
				},
			];
			this.#benchmark = null;
			return;
		}
		this.#selectedCard = null;
		await this.#setDefinitions(
			{ kind: 'texts', files: entries },
			'files',
			formatNameList(files.map((file) => file.webkitRelativePath || file.name)),
		);
	}

	/** Loads definitions in this thread, or in the parse worker (with progress) over 1 MiB. */
	async #loadDefinitions(
		definitions: MemoryDefinitions,
		options: { readonly isolated?: boolean; readonly memorySpan?: number },
		name: string,
	): Promise<LoadResult> {
		if (definitionsSize(definitions) <= PARSE_IN_WORKER_BYTES) {
			return loadGivenDefinitions(definitions, { ...options, countTokens: await this.#counter() });
		}
		this.#reading = { name, progress: null };
		try {
			const input =
				definitions.kind === 'zip'
					? definitions
					: { kind: 'texts' as const, files: [...definitions.files] };
			return await parseInputsClient().call(
				'ltmDefinitions',
				{ definitions: input, ...options },
				{ onProgress: (progress) => (this.#reading = { name, progress }) },
			);
		} catch (error) {
			const message = describeError(error);
			return { ok: false, diagnostics: [{ severity: 'error', path: name, pointer: '', message }] };
		} finally {
			this.#reading = null;
		}
	}

	async #setDefinitions(
		definitions: MemoryDefinitions,
		source: DefinitionsSource,
		name: string,
	): Promise<void> {
		this.#definitions = definitions;
		this.#source = source;
		this.#sourceName = name;
		const result = await this.#loadDefinitions(definitions, {}, name);
		this.#diagnostics = result.diagnostics;
		this.#benchmark = result.ok ? result.benchmark : null;
	}

	// ---- runs ----

	protected listRuns(): Promise<readonly LtmRunRecord[]> {
		return listLtmRuns();
	}

	/** A run a reload or a cancel stopped. */
	protected isResumable(run: LtmRunRecord): boolean {
		return run.status !== 'done';
	}

	/** Starts a run of the loaded definitions on the picked agent (and judge). */
	async run(): Promise<void> {
		if (this.runProblem !== null) return;
		const options = {
			isolated: this.isolated,
			...(this.memorySpan !== null ? { memorySpan: this.memorySpan } : {}),
		};
		const loaded = await this.#loadDefinitions(this.#definitions, options, this.#sourceName);
		if (!loaded.ok) {
			this.#diagnostics = loaded.diagnostics;
			return;
		}
		const agent = specOfChoice(this.agent, this.endpoint);
		const judge = this.useJudge ? specOfChoice(this.judge, this.endpoint) : null;
		const replayTexts: Record<string, string> = {};
		for (const choice of [agent, judge]) {
			if (choice?.replayText !== undefined && choice.spec.source === 'replay') {
				replayTexts[choice.spec.sha256] = choice.replayText;
			}
		}
		const agentSpec = agent.spec;
		const local = agentSpec.source === 'bundled';
		let limits: ReturnType<typeof localAgentLimits> | null = null;
		if (agentSpec.source === 'bundled') {
			try {
				const info = await new LocalWorkerModel({ client: this.#client, spec: agentSpec }).load();
				limits = localAgentLimits(info.maxPositions, this.maxNewTokens);
			} catch (error) {
				this.say(`The agent model could not be loaded: ${describeError(error)}`);
				return;
			}
		}
		const maxNewTokens = limits ? limits.maxNewTokens : this.maxNewTokens;
		const agentParams: GenerationParams = {
			...(local ? { temperature: 0 } : {}),
			...(maxNewTokens !== null ? { max_tokens: maxNewTokens } : {}),
		};
		const files: Record<string, string> = {};
		const given = this.#definitions;
		if (given.kind === 'zip') files[given.name] = sha256HexOfBytes(given.bytes);
		else for (const [path, text] of given.files) files[path] = sha256Hex(text);
		const record = await this.storeRun(() =>
			createLtmRun({
				runName: loaded.benchmark.config.runName,
				definitions: { files, benchmark: loaded.benchmark },
				models: { agent: agent.spec, ...(judge ? { judge: judge.spec } : {}) },
				agentParams,
				...(limits
					? {
							maxContextTokens: limits.maxContextTokens,
							maxMessageTokens: limits.maxMessageTokens,
						}
					: this.contextTokens !== null
						? {
								maxContextTokens: this.contextTokens,
								maxMessageTokens: Math.floor(this.contextTokens / 2),
							}
						: {}),
				replayTexts,
				memorySpan: loaded.benchmark.config.memorySpan,
				isolated: loaded.benchmark.config.isolated,
				createdAt: this.#now(),
			}),
		);
		if (!record) return;
		await this.#execute(record, undefined);
	}

	/** Resumes a stored run from its last saved state. */
	async resume(id: number): Promise<void> {
		if (this.running) return;
		const record = await this.storedRun(() => getLtmRun(id));
		if (!record) return;
		await this.#execute(record, await getLtmState(id));
	}

	/** Runs a stored run to its end (from `resumeFrom` if given), its state stored every step. */
	async #execute(record: LtmRunRecord, resumeFrom: LtmRunState | undefined): Promise<void> {
		this.#shownRun = record;
		this.#state = resumeFrom ?? null;
		this.#live = null;
		const started = this.#now() - record.progress.elapsedMs;
		/** The progress of the last saved step, and the final state. */
		const ended: { latest: LtmRunRecord['progress']; state: LtmRunState | undefined } = {
			latest: record.progress,
			state: resumeFrom,
		};
		const end = await this.guardedRun(
			async (signal) => {
				try {
					await updateLtmRun(record.id, { status: 'running', errorMessage: undefined });
					const state = await this.#runTests(record, resumeFrom, { started, ended, signal });
					ended.state = state;
					this.#state = state;
					return 'done';
				} finally {
					this.#live = null;
				}
			},
			(error) => error instanceof LtmCancelledError,
		);
		const summary = end.status === 'done' && ended.state ? buildLtmSummary(ended.state) : undefined;
		const updated = await updateLtmRun(record.id, {
			status: end.status,
			progress: ended.latest,
			...(summary ? { summary } : {}),
			errorMessage: end.errorMessage,
		}).catch(() => undefined);
		if (updated) this.#shownRun = updated;
		await this.refreshRuns();
	}

	/** The run's agent (its tokens streamed to `live`, not cached) and judge (cached), loaded. */
	async #buildModels(
		record: LtmRunRecord,
		signal: AbortSignal,
	): Promise<{ agent: TextModel; judge?: TextModel }> {
		const context = {
			client: this.#client,
			endpoint: this.endpoint,
			replayTexts: record.replayTexts,
		};
		const build = async (spec: TextModelSpec): Promise<TextModel> => {
			const model = modelFromSpec(spec, context);
			if (model instanceof LocalWorkerModel) await model.load(signal);
			return model;
		};
		// The agent is not cached (its state is stored after every reply, and a cached reply
		// would make the speed figure meaningless); the judge's calls are, by test and call
		// index, so a judge interrupted mid-test is not asked again after a reload.
		const agent = streamingModel(
			await build(record.models.agent),
			(call) => (this.#live = { testId: call.sampleId, text: '' }),
			(text) => {
				const live = this.#live;
				if (live) this.#live = { testId: live.testId, text: live.text + text };
			},
		);
		const judgeSpec = record.models.judge;
		if (!judgeSpec) return { agent };
		return {
			agent,
			judge: withResponseCache(await build(judgeSpec), this.#cache, { spec: judgeSpec }),
		};
	}

	/** The LTM run itself; every step's state is stored and kept in `ended`. */
	async #runTests(
		record: LtmRunRecord,
		resumeFrom: LtmRunState | undefined,
		step: {
			started: number;
			ended: { latest: LtmRunRecord['progress']; state: LtmRunState | undefined };
			signal: AbortSignal;
		},
	): Promise<LtmRunState> {
		const { started, ended, signal } = step;
		const counter = await this.#counter();
		const { agent, judge } = await this.#buildModels(record, signal);
		/** The progress last written to the run record. */
		let recorded = record.progress;
		return runLtm(record.definitions.benchmark, {
			agent,
			...(judge ? { judge } : {}),
			countTokens: counter,
			environment: { countTokens: counter },
			agentParams: record.agentParams,
			...(record.maxContextTokens !== undefined
				? { maxContextTokens: record.maxContextTokens }
				: {}),
			...(record.maxMessageTokens !== undefined
				? { maxMessageTokens: record.maxMessageTokens }
				: {}),
			startTime: new Date(record.createdAt).toISOString(),
			runId: record.runName,
			signal,
			...(resumeFrom ? { resumeFrom } : {}),
			onEvent: async ({ state: current, logFrom }) => {
				this.#live = null;
				this.#state = current;
				ended.state = current;
				const progress = {
					testsDone: Object.keys(current.outcomes).length,
					testsTotal: current.tests.length,
					tokens: current.totalTokens,
					elapsedMs: this.#now() - started,
				};
				// The run record (definitions inside) is rewritten when a test finishes or a
				// second has passed; the state and the new log entries are saved every step.
				const due =
					progress.testsDone !== recorded.testsDone ||
					progress.elapsedMs - recorded.elapsedMs >= PROGRESS_EVERY_MS;
				await saveLtmState(record.id, current, logFrom, due ? progress : undefined);
				if (due) recorded = progress;
				ended.latest = progress;
			},
		});
	}

	// ---- share links ----

	/**
	 * The share link's hash (`#/memory/share/…`) of the shown finished run: its definitions, agent
	 * and judge specs (never a key), parameters, replay texts, span, isolation and scores.
	 */
	shareHash(): string | null {
		const run = this.#shownRun;
		const state = this.#state;
		if (!run || !state || run.status !== 'done') return null;
		const scores = ltmScoresOf(state);
		const payload: LtmSharePayload = {
			v: 1,
			runName: run.runName,
			benchmark: run.definitions.benchmark,
			models: {
				agent: run.models.agent,
				...(run.models.judge ? { judge: run.models.judge } : {}),
			},
			agentParams: run.agentParams,
			...(run.maxContextTokens !== undefined ? { maxContextTokens: run.maxContextTokens } : {}),
			...(run.maxMessageTokens !== undefined ? { maxMessageTokens: run.maxMessageTokens } : {}),
			replayTexts: run.replayTexts,
			memorySpan: run.memorySpan,
			isolated: run.isolated,
			scores,
			fingerprint: ltmScoresFingerprint(scores),
		};
		return formatAppRoute({ view: 'memory', share: encodeLtmShare(payload) });
	}

	/** Opens a share link's payload (the part after `#/memory/share/`); a bad link is said why. */
	openShare(text: string): void {
		try {
			this.#shared = decodeLtmShare(text);
			this.#sharedRunId = null;
			this.say(null);
		} catch (error) {
			this.#shared = null;
			this.say(describeError(error));
		}
	}

	closeShare(): void {
		this.#shared = null;
		this.#sharedRunId = null;
	}

	/** Re-runs the shared definitions on the shared agent (and judge); then `reproduction` says how it went. */
	async runShared(): Promise<void> {
		const shared = this.#shared;
		if (!shared || this.running) return;
		const record = await this.storeRun(() =>
			createLtmRun({
				runName: shared.runName,
				definitions: { files: {}, benchmark: shared.benchmark },
				models: shared.models,
				agentParams: shared.agentParams,
				...(shared.maxContextTokens !== undefined
					? { maxContextTokens: shared.maxContextTokens }
					: {}),
				...(shared.maxMessageTokens !== undefined
					? { maxMessageTokens: shared.maxMessageTokens }
					: {}),
				replayTexts: shared.replayTexts,
				memorySpan: shared.memorySpan,
				isolated: shared.isolated,
				createdAt: this.#now(),
			}),
		);
		if (!record) return;
		this.#sharedRunId = record.id;
		await this.#execute(record, undefined);
	}

	// ---- shown run ----

	/** Shows a stored run (its conversation and report so far). */
	async show(id: number): Promise<void> {
		if (this.running) return;
		const record = await this.storedRun(() => getLtmRun(id));
		if (!record) return;
		this.#shownRun = record;
		this.#state = (await getLtmState(id)) ?? null;
		this.#comparison = null;
	}

	/** Compares the shown finished run with another finished run (agents side by side). */
	async compareWith(id: number): Promise<void> {
		const a = this.#shownRun;
		const b = await getLtmRun(id);
		if (!a?.summary || !b?.summary) {
			this.say('Show a finished run first, then pick another finished run to compare.');
			return;
		}
		this.#comparison = { a, b };
	}

	closeComparison(): void {
		this.#comparison = null;
	}

	async deleteRun(id: number): Promise<void> {
		if (this.running) return;
		await deleteLtmRun(id);
		if (this.#shownRun?.id === id) {
			this.#shownRun = null;
			this.#state = null;
		}
		await this.refreshRuns();
	}

	/** Label of a stored run's agent (and judge). */
	static modelsOf(run: LtmRunRecord): string {
		return (
			describeModelSpec(run.models.agent) +
			(run.models.judge ? ` · judge ${describeModelSpec(run.models.judge)}` : '')
		);
	}

	/** Upstream's result files (`<Dataset Name>/<example_id>_0.json`) and summary.json, zipped. */
	resultsZip(): Uint8Array | null {
		const report = this.#report;
		if (!report) return null;
		const entries: Record<string, string> = {};
		for (const test of report.tests) entries[test.path] = goodaiTestResultText(test.result);
		entries['summary.json'] = JSON.stringify(report.summary, null, 2);
		return zipTexts(entries);
	}

	/** The run bundle (benchtop-ltm-run/1) of the shown run: record, state, results, summary. */
	bundleText(): string | null {
		const run = this.#shownRun;
		return run ? serializeLtmRunBundle(buildLtmRunBundle(run, this.#state)) : null;
	}

	/** Shows a past run from a run bundle (not stored: it cannot be resumed or shared). */
	async importBundle(file: File): Promise<void> {
		if (this.running) return;
		const read = readLtmRunBundle(await file.text());
		if (!read.ok) {
			this.say(
				`That run bundle could not be read: ${file.name}, at ${read.pointer || '(top)'}: ${read.message}.`,
			);
			return;
		}
		const { run, state } = read.bundle;
		this.#shownRun = {
			...run,
			kind: 'ltm',
			title: run.runName,
			id: IMPORTED_RUN_ID,
			replayTexts: {},
		};
		this.#state = state;
		this.#comparison = null;
		this.say(null);
	}

	/** The summary JSON of the shown run. */
	summaryText(): string | null {
		const report = this.#report;
		return report ? JSON.stringify(report.summary, null, 2) : null;
	}
}
