/**
 * The Memory page's state (long-term-memory tests, GoodAI LTM benchmark): definitions (bundled
 * examples as cards, dropped upstream definitions as files / a folder / a zip, or an
 * ltm-suite.json) with located errors; the agent and an optional judge (a bundled model in the
 * worker, the endpoint, or a replay file); memory span and isolation; a run with the live
 * conversation (the agent's tokens as they stream), cancel, and resume after a reload (the
 * scheduler state is stored after every step); the report of the shown run and its exports.
 * State only: the logic is in core/ltm, the reading of sources and models in ui/memory-*.ts.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- file maps here are not UI state (the $state fields hold them as raw values) */
import { listUnreadableRuns, type UnreadableRun } from '../../../storage/shared/runs-repository';
import { LTM_RESUME } from '../../../core/ltm/ltm-run-record';
import { LTM_RUN_KIND } from '../../../core/ltm/ltm-run-kind';
import { shareHashOf } from '../../../core/run/run-kind';
import { runFileSizeProblem } from '../../../core/run/task-run-json';
import { describeError } from '../../../core/messages/describe-error';
import {
	LtmCancelledError,
	buildLtmReport,
	buildLtmSummary,
	buildLtmRunBundle,
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
} from '../../../core/ltm';
import { appendLiveReply, startLiveReply, type LiveReply } from '../../../core/ltm/live-reply';
import { localAgentLimits, type LocalAgentLimits } from '../../../core/ltm/local-agent-limits';
import {
	buildLtmRunDraft,
	definitionsFileHashes,
	ltmRunDraftOfShare,
} from '../../../core/ltm/ltm-run-draft';
import {
	isProgressDue,
	ltmRunOptionsOf,
	ltmStepProgress,
	type LtmRunProgress,
} from '../../../core/ltm/ltm-run-execution';
import {
	IMPORTED_LTM_RUN_ID,
	describeLtmRunModels,
	importedLtmRun,
	ltmReproductionOf,
	ltmResultsZip,
	ltmSharePayloadOf,
	ltmSummaryText,
} from '../../../core/ltm/ltm-shown-run';
import type { MemoryCard } from '../../../core/ltm/memory-cards';
import { ltmRunProblem } from '../../../core/ltm/run-problem';
import type { TextModelSpec } from '../../../core/model/model-spec';
import { replayTextsOf } from '../../../core/run/replay-texts';
import type { ResponseCacheStore } from '../../../providers/response-cache';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	listLtmRuns,
	saveLtmState,
	updateLtmRun,
	type LtmRunRecord,
} from '../../../storage/ltm/ltm-runs-repository';
import { responseCacheStore } from '../../../storage/shared/response-cache-repository';
import type { InferenceClientApi } from '../../../worker/protocol';
import { LocalWorkerModel } from '../../io/local-worker-model';
import type { MemoryDefinitions } from '../../io/memory-definitions';
import { buildLtmModels } from './memory-run-models';
import {
	bundledMemoryCards,
	bundledMemorySuite,
	loadCl100kCounter,
	loadDefinitionsInThreadOrWorker,
	readDefinitionsDrop,
	type DefinitionsReading,
} from '../../io/memory-sources';
import { EndpointSettings } from '../shared/endpoint-settings.svelte';
import { TextModelChoice, specOfChoice } from '../shared/text-models.svelte';
import { TaskSession } from '../shared/task-session.svelte';

export type DefinitionsSource = 'bundled' | 'files' | 'none';

/** Types of the session's API, defined in core and ui/io/memory-definitions.ts. */
export type { LiveReply, MemoryCard, MemoryDefinitions };

export interface MemorySessionOptions {
	readonly client: InferenceClientApi;
	readonly endpoint?: EndpointSettings;
	/** The judge's completions, kept across reloads; default: IndexedDB. */
	readonly cache?: ResponseCacheStore;
	readonly now?: () => number;
	/** cl100k counter by default. */
	readonly countTokens?: () => Promise<(text: string) => number>;
}

/** The progress of the last saved step of a run, and its final state. */
interface RunEnd {
	latest: LtmRunProgress;
	state: LtmRunState | undefined;
}

export class MemorySession extends TaskSession<LtmRunRecord> {
	readonly endpoint: EndpointSettings;
	readonly agent = new TextModelChoice();
	readonly judge = new TextModelChoice();
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
	#reading = $state.raw<DefinitionsReading | null>(null);
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
		super(LTM_RESUME);
		this.#client = options.client;
		// The app passes its one EndpointSettings; without it, one that remembers nothing.
		this.endpoint = options.endpoint ?? new EndpointSettings({ storage: null });
		this.#cache = options.cache ?? responseCacheStore;
		this.#now = options.now ?? (() => Date.now());
		this.#counter = options.countTokens ?? loadCl100kCounter;
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
	get reading(): DefinitionsReading | null {
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
		return this.#shownRun?.id === IMPORTED_LTM_RUN_ID;
	}
	/** Whether the shown run, a finished re-run of the shared one, reproduced the sharer's scores. */
	get reproduction(): LtmReproduction | null {
		return ltmReproductionOf({
			shared: this.#shared,
			rerunId: this.#sharedRunId,
			run: this.#shownRun,
			state: this.#state,
		});
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
		return ltmRunProblem({
			running: this.running,
			loaded: this.#benchmark !== null,
			hasDiagnostics: this.#diagnostics.length > 0,
			agentProblem: () => this.agent.problem(this.endpoint),
			judgeProblem: this.useJudge ? () => this.judge.problem(this.endpoint) : null,
			settings: {
				memorySpan: this.memorySpan,
				contextTokens: this.contextTokens,
				maxNewTokens: this.maxNewTokens,
			},
		});
	}

	// ---- definitions ----

	/** The bundled example suites as cards; picks none. */
	async loadBundled(): Promise<void> {
		this.#cards = await bundledMemoryCards(await this.#counter());
		// NOTE: definitions picked while the bundled examples were read keep their name.
		if (this.#source !== 'none') return;
		this.#source = 'bundled';
		this.#sourceName = 'bundled examples';
	}

	/** Picks a bundled example by its file name. */
	async selectCard(path: string): Promise<void> {
		const load = bundledMemorySuite(path);
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
		const drop = await readDefinitionsDrop(files);
		if (!drop.ok) {
			this.#diagnostics = drop.diagnostics;
			this.#benchmark = null;
			return;
		}
		this.#selectedCard = null;
		await this.#setDefinitions(drop.definitions, 'files', drop.name);
	}

	/** Loads definitions in this thread, or in the parse worker (with progress) over 1 MiB. */
	#loadDefinitions(
		definitions: MemoryDefinitions,
		options: { readonly isolated?: boolean; readonly memorySpan?: number },
		name: string,
	): Promise<LoadResult> {
		return loadDefinitionsInThreadOrWorker(definitions, options, name, {
			countTokens: this.#counter,
			onReading: (reading) => (this.#reading = reading),
		});
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

	protected override listUnreadable(): Promise<readonly UnreadableRun[]> {
		return listUnreadableRuns('ltm');
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
		const localLimits = await this.#localLimits(agent.spec);
		if (localLimits === undefined) return;
		const record = await this.storeRun(() =>
			createLtmRun(
				buildLtmRunDraft({
					benchmark: loaded.benchmark,
					files: definitionsFileHashes(this.#definitions),
					agent: agent.spec,
					judge: judge?.spec ?? null,
					replayTexts: replayTextsOf([agent, judge]),
					localLimits,
					maxNewTokens: this.maxNewTokens,
					contextTokens: this.contextTokens,
					createdAt: this.#now(),
				}),
			),
		);
		if (!record) return;
		await this.#execute(record, undefined);
	}

	/**
	 * A bundled agent's limits (its model loaded to learn its positions); null for another agent;
	 * undefined when the model could not be loaded (said in the message).
	 */
	async #localLimits(spec: TextModelSpec): Promise<LocalAgentLimits | null | undefined> {
		if (spec.source !== 'bundled') return null;
		try {
			const info = await new LocalWorkerModel({ client: this.#client, spec }).load();
			return localAgentLimits(info.maxPositions, this.maxNewTokens);
		} catch (error) {
			this.say(`The agent model could not be loaded: ${describeError(error)}`);
			return undefined;
		}
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
		const ended: RunEnd = { latest: record.progress, state: resumeFrom };
		this.workOn(record.id);
		await this.guardedRun(
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
			// The end is stored before the page reads as idle, so a list read then sees it.
			async (end) => {
				const summary =
					end.status === 'done' && ended.state ? buildLtmSummary(ended.state) : undefined;
				const updated = await updateLtmRun(record.id, {
					status: end.status,
					progress: ended.latest,
					...(summary ? { summary } : {}),
					errorMessage: end.errorMessage,
				}).catch(() => undefined);
				if (updated) this.#shownRun = updated;
			},
		);
		await this.refreshRuns();
	}

	/** The LTM run itself; every step's state is stored and kept in `ended`. */
	async #runTests(
		record: LtmRunRecord,
		resumeFrom: LtmRunState | undefined,
		step: { started: number; ended: RunEnd; signal: AbortSignal },
	): Promise<LtmRunState> {
		const { started, ended, signal } = step;
		const counter = await this.#counter();
		const { agent, judge } = await buildLtmModels(record, {
			client: this.#client,
			endpoint: this.endpoint,
			cache: this.#cache,
			signal,
			onStart: (call) => (this.#live = startLiveReply(call)),
			onToken: (text) => (this.#live = appendLiveReply(this.#live, text)),
		});
		/** The progress last written to the run record. */
		let recorded = record.progress;
		return runLtm(record.definitions.benchmark, {
			agent,
			...(judge ? { judge } : {}),
			countTokens: counter,
			environment: { countTokens: counter },
			...ltmRunOptionsOf(record),
			signal,
			...(resumeFrom ? { resumeFrom } : {}),
			onEvent: async ({ state: current, logFrom }) => {
				this.#live = null;
				this.#state = current;
				ended.state = current;
				const progress = ltmStepProgress(current, this.#now() - started);
				const due = isProgressDue(progress, recorded);
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
		const payload = run ? ltmSharePayloadOf(run, this.#state) : null;
		return payload ? shareHashOf(LTM_RUN_KIND.share, payload) : null;
	}

	/** Opens a share link's payload (the part after `#/memory/share/`); a bad link is said why. */
	openShare(text: string): void {
		try {
			this.#shared = LTM_RUN_KIND.share.decode(text);
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
		const record = await this.storeRun(() => createLtmRun(ltmRunDraftOfShare(shared, this.#now())));
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
		return describeLtmRunModels(run);
	}

	/** Upstream's result files (`<Dataset Name>/<example_id>_0.json`) and summary.json, zipped. */
	resultsZip(): Uint8Array | null {
		const report = this.#report;
		return report ? ltmResultsZip(report) : null;
	}

	/** The run bundle (benchtop-ltm-run/1) of the shown run: record, state, results, summary. */
	bundleText(): string | null {
		const run = this.#shownRun;
		return run ? LTM_RUN_KIND.bundle.write(buildLtmRunBundle(run, this.#state)) : null;
	}

	/** Shows a past run from a run bundle (not stored: it cannot be resumed or shared). */
	async importBundle(file: File): Promise<void> {
		if (this.running) return;
		const tooLarge = runFileSizeProblem(file.name, file.size);
		if (tooLarge !== null) {
			this.say(tooLarge);
			return;
		}
		const read = LTM_RUN_KIND.bundle.read(await file.text());
		if (!read.ok) {
			this.say(
				`That run bundle could not be read: ${file.name}, at ${read.pointer || '(top)'}: ${read.message}.`,
			);
			return;
		}
		this.#shownRun = importedLtmRun(read.bundle.run);
		this.#state = read.bundle.state;
		this.#comparison = null;
		this.say(null);
	}

	/** The summary JSON of the shown run. */
	summaryText(): string | null {
		const report = this.#report;
		return report ? ltmSummaryText(report) : null;
	}
}
