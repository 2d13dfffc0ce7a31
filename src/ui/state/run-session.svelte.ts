/**
 * Runs a suite, or a battery of suites, with a model in the tab: loads the model, scores every
 * pending sentence through the inference client (a battery's suites in one pooled request, so
 * shared prefixes are computed once), stores each item into its own run as soon as its last
 * condition is scored, and reports progress (per item, per suite, ETA, tokens/s). Resumes stored
 * runs and batteries. No scoring maths here.
 */
import { describeError } from '../../core/messages/describe-error';
import { estimateRemainingMs, shareDone } from '../../core/run/run-progress';
import type {
	EndpointModelSpec,
	ModelSpec,
	SurprisalConvention,
} from '../../core/model/model-spec';
import type {
	BatteryMembership,
	ItemResult,
	RunDraft,
	RunModelSpec,
	SuiteRun,
} from '../../core/run/run-types';
import {
	locateInBattery,
	planBattery,
	splitByWeight,
	type BatteryPlan,
} from '../../core/syntaxgym/run/battery-plan';
import {
	findInterruptedBatteries,
	type InterruptedBattery,
} from '../../core/syntaxgym/run/battery-runs';
import { ItemAssembly } from '../../core/syntaxgym/run/item-assembly';
import {
	buildSuiteSentences,
	type SuiteSentence,
} from '../../core/syntaxgym/suite/build-sentences';
import type { Suite } from '../../core/syntaxgym/suite/types';
import { listFinishedItemNumbers, saveItemResult } from '../../storage/results-repository';
import {
	createRun,
	getRun,
	listBatteryRuns,
	listResumableRuns,
	listRuns,
	updateRun,
} from '../../storage/runs-repository';
import { saveSuite, type SuiteOrigin } from '../../storage/suites-repository';
import { loadRunWithSuite } from '../stored-run';
import { runStoppedMessage } from './task-session.svelte';
import type {
	BackendFallback,
	InferenceClientApi,
	ModelInfo,
	ScoredText,
} from '../../worker/protocol';

export type { InterruptedBattery };

export type RunSessionStatus =
	'idle' | 'loading-model' | 'scoring' | 'cancelling' | 'done' | 'cancelled' | 'failed';

/** The client of an endpoint run: it scores like the worker, and `open` checks the model. */
export interface EndpointRunClient extends InferenceClientApi {
	open(signal?: AbortSignal): Promise<{ readonly modelKey: string }>;
}

/** What the session needs from the model picker: load a spec (reusing a loaded model), and hear
 * that a loaded model moved to a fallback backend. */
export interface ModelLoader {
	load(spec: ModelSpec, signal?: AbortSignal): Promise<ModelInfo>;
	noteFallback?(modelKey: string, fallback: BackendFallback): void;
	/** The client that loads and scores an endpoint's model (an EndpointInferenceClient). */
	clientFor?(spec: EndpointModelSpec): EndpointRunClient | undefined;
}

export interface RunSessionOptions {
	readonly client: InferenceClientApi;
	readonly models: ModelLoader;
	/** package.json `version`, recorded with every run. */
	readonly appVersion: string;
	/** Called after each item is stored (results appear as items finish). */
	readonly onItemSaved?: (runId: number, item: ItemResult) => void;
	/** Called when a run's record changes (status, counts). */
	readonly onRunChanged?: (run: SuiteRun) => void;
	/** Called once a run is stored and about to be scored (new or resumed): e.g. show its results. */
	readonly onRunStarted?: (run: SuiteRun) => void;
	/** Called instead of `onRunStarted` once a battery's runs are stored and about to be scored
	 * (new or resumed): e.g. show the battery's progress. */
	readonly onBatteryStarted?: (batteryId: string, runs: readonly SuiteRun[]) => void;
	readonly now?: () => number;
}

/** The suite a run starts from: exact text, parsed suite, where it came from. */
export interface RunInput {
	readonly suiteText: string;
	readonly suite: Suite;
	readonly origin: SuiteOrigin;
	readonly sourceName: string;
}

/** Options of a new run besides its model and convention. */
export interface RunStartOptions {
	/**
	 * Ask the engine for word-boundary values (one more position per sentence), for the
	 * beginning-of-word correction of word surprisals. Recorded with the run (a resume keeps it);
	 * ignored for endpoint models, which cannot give them. Default false.
	 */
	readonly wordBoundaries?: boolean;
}

/** Per-item progress: conditions scored out of the item's conditions. */
export interface ItemProgress {
	readonly itemNumber: number;
	readonly done: number;
	readonly total: number;
}

/**
 * `promise`, or a rejection (AbortError) as soon as `signal` aborts: a cancelled run ends at
 * once even while the worker is still finishing a batch (its late answer is ignored).
 */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(new DOMException('cancelled', 'AbortError'));
	return new Promise<T>((resolve, reject) => {
		const onAbort = (): void => reject(new DOMException('cancelled', 'AbortError'));
		signal.addEventListener('abort', onAbort, { once: true });
		promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
	});
}

/** A suite's progress in the current battery. */
export interface BatterySuiteProgress {
	readonly runId: number;
	readonly suiteName: string;
	/** Items whose every condition is scored (earlier sessions' stored items included). */
	readonly itemsDone: number;
	readonly itemsTotal: number;
}

/** A suite run to score in this session, with its suite and the items already stored. */
interface PartInput {
	readonly run: SuiteRun;
	readonly suite: Suite;
	readonly finished: ReadonlySet<number>;
	/** Done before this session: nothing is scored and its record is left as it is. */
	readonly settled?: boolean;
}

/** One suite run of a session's scoring (a run of one suite has one part). */
interface ScoringPart {
	/** The run's record, as last stored. */
	run: SuiteRun;
	readonly finished: ReadonlySet<number>;
	readonly assembly: ItemAssembly;
	readonly settled: boolean;
	items: readonly ItemProgress[];
}

/** One session's scoring (a run or a battery), shared by the steps of `RunSession.#execute`. */
interface Scoring {
	readonly parts: readonly ScoringPart[];
	readonly plan: BatteryPlan<SuiteSentence>;
	readonly batteryId: string | null;
	readonly abort: AbortController;
	readonly startedAt: number;
	readonly convention: SurprisalConvention;
	readonly wordBoundaries: boolean;
	scoringStartedAt: number;
	saveChain: Promise<void>;
	saveError: unknown;
	/** The runs' model, with the backend that really ran once known. */
	model: RunModelSpec;
	modelKey: string;
}

type Outcome = { status: 'done' | 'cancelled' | 'failed'; message?: string };

export class RunSession {
	readonly #options: RunSessionOptions;
	readonly #now: () => number;

	#status = $state<RunSessionStatus>('idle');
	#runs = $state.raw<readonly SuiteRun[]>([]);
	#batteryId = $state<string | null>(null);
	#batterySuites = $state.raw<readonly BatterySuiteProgress[]>([]);
	#message = $state<string | null>(null);
	#items = $state.raw<readonly ItemProgress[]>([]);
	#sentencesDone = $state(0);
	#sentencesTotal = $state(0);
	#elapsedMs = $state(0);
	#tokensPerSecond = $state(0);
	#firstResultMs = $state<number | null>(null);
	#interrupted = $state.raw<readonly SuiteRun[]>([]);
	#interruptedBatteries = $state.raw<readonly InterruptedBattery[]>([]);
	#abort: AbortController | null = null;

	constructor(options: RunSessionOptions) {
		this.#options = options;
		this.#now = options.now ?? (() => performance.now());
	}

	get status(): RunSessionStatus {
		return this.#status;
	}

	get active(): boolean {
		return (
			this.#status === 'loading-model' ||
			this.#status === 'scoring' ||
			this.#status === 'cancelling'
		);
	}

	/** The session's run; a battery's first suite run. */
	get run(): SuiteRun | null {
		return this.#runs[0] ?? null;
	}

	/** Every run of the session (one, or a battery's runs in suite order). */
	get runs(): readonly SuiteRun[] {
		return this.#runs;
	}

	/** The current (or last) session's battery id; null for a run of one suite. */
	get batteryId(): string | null {
		return this.#batteryId;
	}

	/** Per-suite progress of the current battery (empty for a run of one suite). */
	get batterySuites(): readonly BatterySuiteProgress[] {
		return this.#batterySuites;
	}

	/** What went wrong, or what happened (cancelled), for the user. */
	get message(): string | null {
		return this.#message;
	}

	/**
	 * Every item of `run` with its scored conditions (finished items of earlier sessions full);
	 * of a battery, its first suite's items (`batterySuites` has every suite).
	 */
	get items(): readonly ItemProgress[] {
		return this.#items;
	}

	/** Items scored, over every suite of the session. */
	get itemsDone(): number {
		if (this.#batteryId !== null) return sum(this.#batterySuites.map((s) => s.itemsDone));
		return this.#items.filter((item) => item.done === item.total).length;
	}

	/** Items, over every suite of the session. */
	get itemsTotal(): number {
		if (this.#batteryId !== null) return sum(this.#batterySuites.map((s) => s.itemsTotal));
		return this.#items.length;
	}

	/** Share of this session's sentences scored, in [0, 1]. */
	get share(): number {
		return shareDone(this.#sentencesDone, this.#sentencesTotal);
	}

	/** Time left in ms at this session's pace; null until the first sentences are scored. */
	get remainingMs(): number | null {
		return estimateRemainingMs(this.#sentencesDone, this.#sentencesTotal, this.#elapsedMs);
	}

	get tokensPerSecond(): number {
		return this.#tokensPerSecond;
	}

	/** Milliseconds from start() to the first stored item, for this session. */
	get firstResultMs(): number | null {
		return this.#firstResultMs;
	}

	/**
	 * Runs of one suite that were scoring when the tab was closed or reloaded: offered for
	 * resume. A battery's runs are in `interruptedBatteries` instead.
	 */
	get interrupted(): readonly SuiteRun[] {
		return this.#interrupted;
	}

	/** Batteries that were scoring when the tab was closed or reloaded, one entry each. */
	get interruptedBatteries(): readonly InterruptedBattery[] {
		return this.#interruptedBatteries;
	}

	/** Looks for runs left `running` by an earlier page (call once at start, before any run). */
	async findInterrupted(): Promise<void> {
		try {
			const runs = await listResumableRuns();
			const running = runs.filter((run) => run.status === 'running');
			this.#interrupted = running.filter((run) => !run.battery);
			this.#interruptedBatteries = running.some((run) => run.battery)
				? findInterruptedBatteries(await listRuns())
				: [];
		} catch {
			this.#interrupted = [];
			this.#interruptedBatteries = [];
		}
	}

	/** Marks an interrupted run as cancelled (it stays resumable from the history). */
	async dismissInterrupted(runId: number): Promise<void> {
		this.#interrupted = this.#interrupted.filter((run) => run.id !== runId);
		const run = await updateRun(runId, { status: 'cancelled' }).catch(() => undefined);
		if (run) this.#options.onRunChanged?.(run);
	}

	/** Marks an interrupted battery's unfinished runs as cancelled (it stays resumable). */
	async dismissInterruptedBattery(batteryId: string): Promise<void> {
		const battery = this.#interruptedBatteries.find((b) => b.id === batteryId);
		this.#interruptedBatteries = this.#interruptedBatteries.filter((b) => b.id !== batteryId);
		for (const stored of battery?.runs ?? []) {
			if (stored.status !== 'running') continue;
			const run = await updateRun(stored.id, { status: 'cancelled' }).catch(() => undefined);
			if (run) this.#options.onRunChanged?.(run);
		}
	}

	/** Starts a new run of `input` with `spec`. Resolves when it ends (done, cancelled, failed). */
	async start(
		input: RunInput,
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: RunStartOptions = {},
	): Promise<SuiteRun | null> {
		const runs = await this.#startRuns([input], spec, convention, options, null);
		return runs?.[0] ?? null;
	}

	/**
	 * Starts a battery: one suite run per input (battery membership {id, index, size}), the
	 * suites saved, every sentence scored in one pooled request (after the first item, scored
	 * alone so its result shows early). Resolves when it ends; null when it could not start.
	 */
	startBattery(
		inputs: readonly RunInput[],
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: RunStartOptions = {},
	): Promise<readonly SuiteRun[] | null> {
		return this.#startRuns(inputs, spec, convention, options, crypto.randomUUID());
	}

	/** Resumes a stored run: scores only the items not stored yet, with the run's model. A
	 * battery's run resumes the whole battery (the run's record is returned). */
	async resume(runId: number): Promise<SuiteRun | null> {
		if (this.active) return null;
		const batteryId = (await getRun(runId).catch(() => undefined))?.battery?.id;
		if (batteryId !== undefined) {
			const runs = await this.resumeBattery(batteryId);
			return runs?.find((run) => run.id === runId) ?? null;
		}
		// Another run may have started while the record was read.
		if (this.active) return null;
		this.#reset(null);
		this.#interrupted = this.#interrupted.filter((run) => run.id !== runId);
		try {
			const { run, suite } = await loadRunWithSuite(runId);
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			const finished = new Set(await listFinishedItemNumbers(runId));
			const resumed = await updateRun(runId, { status: 'running', errorMessage: undefined });
			this.#showRuns([resumed ?? run]);
			this.#options.onRunStarted?.(resumed ?? run);
			const [record] = await this.#execute([{ run: resumed ?? run, suite, finished }]);
			return record ?? null;
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The run could not be resumed: ${describeError(error)}`;
			return null;
		}
	}

	/**
	 * Resumes every unfinished suite run of the battery in one pooled request; finished items
	 * are not scored again and finished runs are left as they are. Resolves with every run of
	 * the battery when it ends; null when it could not resume.
	 */
	async resumeBattery(batteryId: string): Promise<readonly SuiteRun[] | null> {
		if (this.active) return null;
		this.#reset(batteryId);
		this.#interruptedBatteries = this.#interruptedBatteries.filter((b) => b.id !== batteryId);
		try {
			const stored = await listBatteryRuns(batteryId);
			if (stored.length === 0) {
				throw new Error(`There is no battery ${batteryId} in this browser (deleted?).`);
			}
			const parts: PartInput[] = [];
			for (const run of stored) parts.push(await this.#resumePart(run));
			const runs = parts.map((part) => part.run);
			this.#showRuns(runs);
			this.#options.onBatteryStarted?.(batteryId, runs);
			return await this.#execute(parts);
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The battery could not be resumed: ${describeError(error)}`;
			return null;
		}
	}

	/** Stops the run (every run of a battery) within one batch; finished items stay stored. */
	cancel(): void {
		if (!this.#abort || this.#status === 'cancelling') return;
		this.#status = 'cancelling';
		this.#abort.abort();
	}

	#reset(batteryId: string | null): void {
		this.#message = null;
		this.#items = [];
		this.#batteryId = batteryId;
		this.#batterySuites = [];
		this.#sentencesDone = 0;
		this.#sentencesTotal = 0;
		this.#elapsedMs = 0;
		this.#tokensPerSecond = 0;
		this.#firstResultMs = null;
	}

	/** Saves the suites, stores a run per suite (battery members when `batteryId`), scores. */
	async #startRuns(
		inputs: readonly RunInput[],
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: RunStartOptions,
		batteryId: string | null,
	): Promise<readonly SuiteRun[] | null> {
		if (this.active) return null;
		this.#reset(batteryId);
		const created: SuiteRun[] = [];
		const parts: PartInput[] = [];
		try {
			if (inputs.length === 0) throw new Error('a battery needs at least one suite.');
			for (const [index, input] of inputs.entries()) {
				const saved = await saveSuite({
					text: input.suiteText,
					name: input.suite.meta.name,
					origin: input.origin,
					sourceName: input.sourceName,
				});
				const battery = batteryId ? { id: batteryId, index, size: inputs.length } : undefined;
				const run = await createRun(
					this.#draft(saved.sha256, input, spec, convention, options, battery),
				);
				created.push(run);
				// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
				parts.push({ run, suite: input.suite, finished: new Set() });
			}
			this.#showRuns(created);
			if (batteryId) this.#options.onBatteryStarted?.(batteryId, created);
			else if (created[0]) this.#options.onRunStarted?.(created[0]);
			return await this.#execute(parts);
		} catch (error) {
			const noun = batteryId ? 'battery' : 'run';
			this.#status = 'failed';
			this.#message = `The ${noun} could not be started: ${describeError(error)}`;
			// Runs stored before the failure are not left `running` (offered as interrupted).
			for (const run of created) {
				await updateRun(run.id, { status: 'failed', errorMessage: this.#message }).catch(() => {});
			}
			return null;
		}
	}

	#draft(
		suiteSha256: string,
		input: RunInput,
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: RunStartOptions,
		battery: BatteryMembership | undefined,
	): RunDraft {
		return {
			suiteSha256,
			suiteName: input.suite.meta.name,
			model: spec,
			convention,
			...(options.wordBoundaries && spec.source !== 'openai' ? { wordBoundaries: true } : {}),
			itemCount: input.suite.items.length,
			...(battery ? { battery } : {}),
			appVersion: this.#options.appVersion,
			createdAt: Date.now(),
		};
	}

	/** A stored battery run to resume: its suite and stored items; unfinished ones `running`. */
	async #resumePart(run: SuiteRun): Promise<PartInput> {
		const { suite } = await loadRunWithSuite(run.id);
		if (run.status === 'done') {
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			const every = new Set(suite.items.map((item) => item.itemNumber));
			return { run, suite, finished: every, settled: true };
		}
		// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
		const finished = new Set(await listFinishedItemNumbers(run.id));
		const resumed = await updateRun(run.id, { status: 'running', errorMessage: undefined });
		return { run: resumed ?? run, suite, finished };
	}

	/** Shows the session's runs (and says each changed). */
	#showRuns(runs: readonly SuiteRun[]): void {
		this.#runs = runs;
		for (const run of runs) this.#options.onRunChanged?.(run);
	}

	/** Shows one run's new record. */
	#noteRun(run: SuiteRun): void {
		this.#runs = this.#runs.map((shown) => (shown.id === run.id ? run : shown));
		this.#options.onRunChanged?.(run);
	}

	/** The scoring of `inputs`: their pending sentences in one plan, each run's assembly. */
	#prepare(inputs: readonly PartInput[], abort: AbortController): Scoring {
		const startedAt = this.#now();
		const plan = planBattery(
			inputs.map((input) => ({
				sentences: buildSuiteSentences(input.suite),
				finished: input.finished,
			})),
		);
		const parts = inputs.map((input, index): ScoringPart => {
			const { finished } = input;
			return {
				run: input.run,
				finished,
				settled: input.settled === true,
				assembly: new ItemAssembly(plan.suites[index]?.pending ?? []),
				items: input.suite.items.map((item) => ({
					itemNumber: item.itemNumber,
					done: finished.has(item.itemNumber) ? item.conditions.length : 0,
					total: item.conditions.length,
				})),
			};
		});
		// The model and convention of the runs to score (a battery's runs share them).
		const lead = parts.find((part) => !part.settled) ?? parts[0];
		if (!lead) throw new Error('nothing to run');
		return {
			parts,
			plan,
			batteryId: this.#batteryId,
			abort,
			startedAt,
			convention: lead.run.convention,
			wordBoundaries: lead.run.wordBoundaries === true,
			scoringStartedAt: startedAt,
			saveChain: Promise.resolve(),
			saveError: null,
			model: lead.run.model,
			modelKey: '',
		};
	}

	/** Scores the runs' pending sentences, stores each finished item, and records how it ended. */
	async #execute(inputs: readonly PartInput[]): Promise<SuiteRun[]> {
		const abort = new AbortController();
		this.#abort = abort;
		const scoring = this.#prepare(inputs, abort);
		this.#sentencesTotal = scoring.plan.pending.length;
		this.#showProgress(scoring);
		let outcome: Outcome;
		let scoringMs: number;
		try {
			const client = await this.#openModel(scoring);
			this.#status = 'scoring';
			scoring.scoringStartedAt = this.#now();
			await this.#scorePending(scoring, client);
			scoringMs = this.#now() - scoring.scoringStartedAt;
			await scoring.saveChain;
			outcome = scoring.saveError
				? { status: 'failed', message: describeError(scoring.saveError) }
				: { status: 'done' };
		} catch (error) {
			scoringMs =
				this.#status === 'scoring' || this.#status === 'cancelling'
					? this.#now() - scoring.scoringStartedAt
					: 0;
			await scoring.saveChain;
			if (scoring.saveError)
				outcome = { status: 'failed', message: describeError(scoring.saveError) };
			else if (abort.signal.aborted) outcome = { status: 'cancelled' };
			else outcome = { status: 'failed', message: describeError(error) };
		} finally {
			this.#abort = null;
		}
		return this.#finish(scoring, outcome, scoringMs);
	}

	/** Loads the runs' model (or opens its endpoint); the client that scores it. */
	async #openModel(scoring: Scoring): Promise<InferenceClientApi> {
		const { abort } = scoring;
		this.#status = 'loading-model';
		const requested = scoring.model;
		let client = this.#options.client;
		if (requested.source === 'openai') {
			// An endpoint run is scored by its own client (EndpointInferenceClient): the key typed
			// for this base URL goes only there.
			const endpointClient = this.#options.models.clientFor?.(requested);
			if (!endpointClient) {
				throw new Error(
					`This page cannot score through endpoints: run it with the CLI (npm run cli -- run suite.json --model openai/${requested.model} --base-url ${requested.baseUrl}).`,
				);
			}
			client = endpointClient;
			const info = await untilAborted(endpointClient.open(abort.signal), abort.signal);
			scoring.modelKey = info.modelKey;
		} else {
			const info = await untilAborted(
				this.#options.models.load(requested, abort.signal),
				abort.signal,
			);
			scoring.modelKey = info.modelKey;
			if (info.spec.backend !== requested.backend || info.fallbackReason) {
				await this.#recordBackend(scoring, {
					backend: info.spec.backend,
					revision: info.spec.revision,
					reason: info.fallbackReason,
				});
			}
		}
		if (abort.signal.aborted) throw new DOMException('cancelled', 'AbortError');
		return client;
	}

	/**
	 * Scores the first item alone, then the rest (every suite's pending sentences in one pooled
	 * request): the first result is stored and shown while the rest is scored.
	 */
	async #scorePending(scoring: Scoring, client: InferenceClientApi): Promise<void> {
		const { abort, plan } = scoring;
		let scoredTokens = 0;
		let scoredMs = 0;
		for (const [from, to] of plan.requests) {
			const call = client.call(
				'scoreTexts',
				{
					modelKey: scoring.modelKey,
					texts: plan.pending.slice(from, to).map((sentence) => sentence.text),
					convention: scoring.convention,
					...(scoring.wordBoundaries ? { wordBoundaries: true } : {}),
				},
				{
					signal: abort.signal,
					onScoreProgress: (progress) => {
						if (abort.signal.aborted) return;
						this.#tokensPerSecond = progress.tokensPerSecond;
						this.#noteFallback(scoring, progress.fallback);
						for (const scored of progress.texts)
							this.#accept(scoring, { ...scored, index: scored.index + from });
						this.#publish(scoring);
					},
				},
			);
			// The worker stops within a batch when it can; the run does not wait for it.
			call.catch(() => {});
			const result = await untilAborted(call, abort.signal);
			this.#noteFallback(scoring, result.fallback);
			for (const scored of result.texts)
				this.#accept(scoring, { ...scored, index: scored.index + from });
			this.#publish(scoring);
			scoredTokens += result.tokenCount;
			scoredMs += result.elapsedMs;
			if (scoredMs > 0) this.#tokensPerSecond = (scoredTokens * 1000) / scoredMs;
		}
	}

	/** Shows the counts after a batch of sentences (one update per batch, not per sentence). */
	#publish(scoring: Scoring): void {
		this.#sentencesDone = sum(scoring.parts.map((part) => part.assembly.scoredCount));
		this.#elapsedMs = this.#now() - scoring.scoringStartedAt;
		for (const part of scoring.parts) {
			const { assembly, finished } = part;
			part.items = part.items.map((item) =>
				finished.has(item.itemNumber)
					? item
					: { ...item, done: assembly.scoredOf(item.itemNumber) },
			);
		}
		this.#showProgress(scoring);
	}

	/** Per-item progress of the first run, per-suite progress of a battery. */
	#showProgress(scoring: Scoring): void {
		this.#items = scoring.parts[0]?.items ?? [];
		this.#batterySuites =
			scoring.batteryId === null
				? []
				: scoring.parts.map((part) => ({
						runId: part.run.id,
						suiteName: part.run.suiteName,
						itemsDone: part.items.filter((item) => item.done === item.total).length,
						itemsTotal: part.items.length,
					}));
	}

	/** Takes a scored sentence; an item whose last condition it was is stored (in order), into
	 * its own run. */
	#accept(scoring: Scoring, scored: ScoredText): void {
		const { abort } = scoring;
		if (abort.signal.aborted) return;
		const at = locateInBattery(scoring.plan, scored.index);
		const part = at ? scoring.parts[at.suiteIndex] : undefined;
		if (!at || !part) return;
		const result = part.assembly.accept(at.index, scored.tokens);
		if (!result) return;
		const runId = part.run.id;
		scoring.saveChain = scoring.saveChain.then(async () => {
			if (scoring.saveError) return;
			try {
				await saveItemResult(runId, result);
				if (this.#firstResultMs === null) {
					this.#firstResultMs = this.#now() - scoring.startedAt;
					performance.mark?.('benchtop:first-result');
				}
				this.#options.onItemSaved?.(runId, result);
			} catch (error) {
				scoring.saveError = error;
				abort.abort();
			}
		});
	}

	/** Records the backend that really ran (and why), when it differs from the request, in every
	 * run being scored. The spec in memory changes at once; the returned promise is the stored
	 * update. */
	#recordBackend(
		scoring: Scoring,
		change: {
			backend: ModelSpec['backend'];
			revision?: string | undefined;
			reason?: string | undefined;
		},
	): Promise<void> {
		const model = scoring.model;
		// An endpoint has no backend of ours: nothing to record.
		if (model.source === 'openai') return Promise.resolve();
		const changed = {
			...model,
			backend: change.backend,
			...(change.revision ? { revision: change.revision } : {}),
		};
		scoring.model = changed;
		const updates = scoring.parts
			.filter((part) => !part.settled)
			.map((part) =>
				updateRun(part.run.id, {
					model: changed,
					...(change.reason ? { fallbackReason: change.reason } : {}),
				}).then((updated) => {
					if (!updated) return;
					part.run = updated;
					this.#noteRun(updated);
				}),
			);
		return Promise.all(updates).then(() => undefined);
	}

	/** The engine says the model runs on a fallback backend (e.g. WebGPU lost mid-run → WASM): the
	 * runs record it, once. */
	#noteFallback(scoring: Scoring, fallback: BackendFallback | undefined): void {
		const model = scoring.model;
		if (!fallback || model.source === 'openai' || fallback.backend === model.backend) return;
		this.#options.models.noteFallback?.(scoring.modelKey, fallback);
		const stored = this.#recordBackend(scoring, fallback).catch(() => undefined);
		scoring.saveChain = scoring.saveChain.then(() => stored);
	}

	/** Writes how each run ended (time and tokens added to earlier sessions') and says it. */
	async #finish(scoring: Scoring, outcome: Outcome, scoringMs: number): Promise<SuiteRun[]> {
		const scored = scoring.parts.filter((part) => !part.settled);
		// The battery's time is shared by its runs in proportion to their tokens.
		const shares = splitByWeight(
			scoringMs,
			scored.map((part) => part.assembly.tokenCount),
		);
		for (const [index, part] of scored.entries()) {
			await this.#finishRun(part, outcome, shares[index] ?? 0);
		}
		const records = scoring.parts.map((part) => part.run);
		this.#showProgress(scoring);
		this.#status = outcome.status;
		this.#elapsedMs = scoringMs;
		this.#message = endMessage(scoring.batteryId, records, outcome);
		return records;
	}

	/** Writes one run's end: `done` once its every item is stored, else the session's outcome. */
	async #finishRun(part: ScoringPart, outcome: Outcome, scoringMs: number): Promise<void> {
		const { run } = part;
		const latest = await getRun(run.id).catch(() => undefined);
		const complete = (latest?.itemsDone ?? run.itemsDone) >= run.itemCount;
		const status = complete ? 'done' : outcome.status;
		const final = await updateRun(run.id, {
			status,
			scoringMs: (latest?.scoringMs ?? run.scoringMs) + scoringMs,
			tokenCount: (latest?.tokenCount ?? run.tokenCount) + part.assembly.tokenCount,
			...(status === 'failed' && outcome.message ? { errorMessage: outcome.message } : {}),
		}).catch(() => undefined);
		part.run = final ?? latest ?? run;
		this.#noteRun(part.run);
	}
}

/** What the session says when it ends cancelled or failed (null when done). */
function endMessage(
	batteryId: string | null,
	records: readonly SuiteRun[],
	outcome: Outcome,
): string | null {
	if (outcome.status === 'failed') {
		return runStoppedMessage(outcome.message ?? 'unknown error', 'items');
	}
	if (outcome.status !== 'cancelled') return null;
	const done = sum(records.map((run) => run.itemsDone));
	const total = sum(records.map((run) => run.itemCount));
	return batteryId === null
		? `Run cancelled after ${done} of ${total} items; they are kept and the run can be resumed.`
		: `Battery cancelled after ${done} of ${total} items in ${records.length} suites; they are kept and the battery can be resumed.`;
}

function sum(values: readonly number[]): number {
	return values.reduce((a, b) => a + b, 0);
}
