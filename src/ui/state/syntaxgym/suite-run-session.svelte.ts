/**
 * Runs a suite, or a battery of suites, with a model in the tab: loads the model, scores every
 * pending sentence through the inference client (a battery's suites in one pooled request, so
 * shared prefixes are computed once), stores each item into its own run as soon as its last
 * condition is scored, and reports progress (per item, per suite, ETA, tokens/s). Resumes stored
 * runs and batteries. Built on `TaskSession` (running, cancel, the stop wording, the runs a reload
 * left to resume); the scoring itself is `SuiteScoring`. No scoring maths here.
 */
import { SUITE_RESUME } from '../../../core/syntaxgym/run/suite-run';
import { describeError } from '../../../core/messages/describe-error';
import type { SurprisalConvention } from '../../../core/model/model-spec';
import { estimateRemainingMs, shareDone } from '../../../core/run/run-progress';
import type { RunModelSpec } from '../../../core/run/run-types';
import type {
	BatteryMembership,
	ItemResult,
	RunDraft,
	SuiteRun,
} from '../../../core/syntaxgym/run/suite-run';
import {
	itemsFinished,
	suiteProgress,
	suiteRunCancelledMessage,
	sum,
	type BatterySuiteProgress,
	type ItemProgress,
} from '../../../core/syntaxgym/run/suite-run-progress';
import {
	findInterruptedBatteries,
	type InterruptedBattery,
} from '../../../core/syntaxgym/run/battery-runs';
import type { Suite } from '../../../core/syntaxgym/suite/types';
import { listFinishedItemNumbers } from '../../../storage/syntaxgym/suite-results-repository';
import {
	createSuiteRuns,
	getSuiteRun,
	listBatteryRuns,
	listResumableSuiteRuns,
	listSuiteRuns,
	updateSuiteRun,
} from '../../../storage/syntaxgym/suite-runs-repository';
import type { SuiteOrigin } from '../../../storage/syntaxgym/suites-repository';
import type { InferenceClientApi } from '../../../worker/protocol';
import { loadRunWithSuite } from '../../io/stored-run';
import { SuiteScoring, type ModelLoader, type PartInput } from './suite-scoring';
import { NO_PROGRESS, TaskSession, type TaskEnd } from '../shared/task-session.svelte';

export type { BatterySuiteProgress, InterruptedBattery, ItemProgress };
export type { EndpointRunClient, ModelLoader } from './suite-scoring';

export type SuiteRunSessionStatus =
	'idle' | 'loading-model' | 'scoring' | 'cancelling' | 'done' | 'cancelled' | 'failed';

export interface SuiteRunSessionOptions {
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
export interface SuiteRunInput {
	readonly suiteText: string;
	readonly suite: Suite;
	readonly origin: SuiteOrigin;
	readonly sourceName: string;
}

/** Options of a new run besides its model and convention. */
export interface SuiteRunStartOptions {
	/**
	 * Ask the engine for word-boundary values (one more position per sentence), for the
	 * beginning-of-word correction of word surprisals. Recorded with the run (a resume keeps it);
	 * ignored for endpoint models, which cannot give them. Default false.
	 */
	readonly wordBoundaries?: boolean;
}

/** The most often the progress of a run is redrawn (ms). */
const PROGRESS_INTERVAL_MS = 200;

export class SuiteRunSession extends TaskSession<SuiteRun> {
	readonly #options: SuiteRunSessionOptions;
	readonly #now: () => number;

	/** The step while running ('loading-model', 'scoring'), else how the last session ended. */
	#status = $state<SuiteRunSessionStatus>('idle');
	#runs = $state.raw<readonly SuiteRun[]>([]);
	#batteryId = $state<string | null>(null);
	#batterySuites = $state.raw<readonly BatterySuiteProgress[]>([]);
	/** A progress update waiting for PROGRESS_INTERVAL_MS to pass since the last one shown. */
	#progressTimer: ReturnType<typeof setTimeout> | null = null;
	#progressShownAt = Number.NEGATIVE_INFINITY;
	#items = $state.raw<readonly ItemProgress[]>([]);
	#tokensPerSecond = $state(0);
	#firstResultMs = $state<number | null>(null);
	#interruptedBatteries = $state.raw<readonly InterruptedBattery[]>([]);

	constructor(options: SuiteRunSessionOptions) {
		super(SUITE_RESUME);
		this.#options = options;
		this.#now = options.now ?? (() => performance.now());
	}

	get status(): SuiteRunSessionStatus {
		return this.running && this.cancelling ? 'cancelling' : this.#status;
	}

	get active(): boolean {
		return this.running;
	}

	/** The session's run; a battery's first suite run. */
	get run(): SuiteRun | null {
		return this.#runs[0] ?? null;
	}

	/**
	 * Every run of the session (one, or a battery's runs in suite order). Not the stored runs of
	 * `TaskSession`: of those, the session offers only the interrupted ones.
	 */
	override get runs(): readonly SuiteRun[] {
		return this.#runs;
	}

	/** A suite session works on every run of its battery at once. */
	protected override workingOnIds(): readonly number[] {
		return this.#runs.map((run) => run.id);
	}

	/** The current (or last) session's battery id; null for a run of one suite. */
	get batteryId(): string | null {
		return this.#batteryId;
	}

	/** Per-suite progress of the current battery (empty for a run of one suite). */
	get batterySuites(): readonly BatterySuiteProgress[] {
		return this.#batterySuites;
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
		return itemsFinished(this.#items);
	}

	/** Items, over every suite of the session. */
	get itemsTotal(): number {
		if (this.#batteryId !== null) return sum(this.#batterySuites.map((s) => s.itemsTotal));
		return this.#items.length;
	}

	/** Share of this session's sentences scored, in [0, 1]. */
	get share(): number {
		return shareDone(this.progress.done, this.progress.total);
	}

	/** Time left in ms at this session's pace; null until the first sentences are scored. */
	get remainingMs(): number | null {
		const { done, total, elapsedMs } = this.progress;
		return estimateRemainingMs(done, total, elapsedMs);
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
	override get interrupted(): readonly SuiteRun[] {
		return super.interrupted.filter((run) => !run.battery);
	}

	/** Batteries that were scoring when the tab was closed or reloaded, one entry each. */
	get interruptedBatteries(): readonly InterruptedBattery[] {
		return this.#interruptedBatteries;
	}

	/** The stored runs that may be left `running` by an earlier page; none when unreadable. */
	protected listRuns(): Promise<readonly SuiteRun[]> {
		return listResumableSuiteRuns().catch(() => []);
	}

	/** Looks for runs left `running` by an earlier page (call once at start, before any run). */
	async findInterrupted(): Promise<void> {
		await this.refreshRuns();
		try {
			this.#interruptedBatteries = super.interrupted.some((run) => run.battery)
				? findInterruptedBatteries(await listSuiteRuns())
				: [];
		} catch {
			this.dropRuns(() => true);
			this.#interruptedBatteries = [];
		}
	}

	/** Marks an interrupted run as cancelled (it stays resumable from the history). */
	async dismissInterrupted(runId: number): Promise<void> {
		this.dropRuns((run) => run.id === runId);
		const run = await updateSuiteRun(runId, { status: 'cancelled' }).catch(() => undefined);
		if (run) this.#options.onRunChanged?.(run);
	}

	/** Marks an interrupted battery's unfinished runs as cancelled (it stays resumable). */
	async dismissInterruptedBattery(batteryId: string): Promise<void> {
		const battery = this.#interruptedBatteries.find((b) => b.id === batteryId);
		this.#interruptedBatteries = this.#interruptedBatteries.filter((b) => b.id !== batteryId);
		for (const stored of battery?.runs ?? []) {
			if (stored.status !== 'running') continue;
			const run = await updateSuiteRun(stored.id, { status: 'cancelled' }).catch(() => undefined);
			if (run) this.#options.onRunChanged?.(run);
		}
	}

	/** Starts a new run of `input` with `spec`. Resolves when it ends (done, cancelled, failed). */
	async start(
		input: SuiteRunInput,
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: SuiteRunStartOptions = {},
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
		inputs: readonly SuiteRunInput[],
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: SuiteRunStartOptions = {},
	): Promise<readonly SuiteRun[] | null> {
		return this.#startRuns(inputs, spec, convention, options, crypto.randomUUID());
	}

	/** Resumes a stored run: scores only the items not stored yet, with the run's model. A
	 * battery's run resumes the whole battery (the run's record is returned). */
	async resume(runId: number): Promise<SuiteRun | null> {
		if (this.active) return null;
		const batteryId = (await getSuiteRun(runId).catch(() => undefined))?.battery?.id;
		if (batteryId !== undefined) {
			const runs = await this.resumeBattery(batteryId);
			return runs?.find((run) => run.id === runId) ?? null;
		}
		// Another run may have started while the record was read.
		if (this.active) return null;
		this.#reset(null);
		this.dropRuns((run) => run.id === runId);
		try {
			const { run, suite } = await loadRunWithSuite(runId);
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			const finished = new Set(await listFinishedItemNumbers(runId));
			const resumed = await updateSuiteRun(runId, { status: 'running', errorMessage: undefined });
			this.#showRuns([resumed ?? run]);
			this.#options.onRunStarted?.(resumed ?? run);
			const [record] = await this.#execute([{ run: resumed ?? run, suite, finished }]);
			return record ?? null;
		} catch (error) {
			this.#status = 'failed';
			this.say(`The run could not be resumed: ${describeError(error)}`);
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
			this.say(`The battery could not be resumed: ${describeError(error)}`);
			return null;
		}
	}

	#reset(batteryId: string | null): void {
		// The last run's end (its "done" and matrix link) is not shown for the new one.
		this.#status = 'idle';
		this.say(null);
		this.#items = [];
		this.#batteryId = batteryId;
		this.#batterySuites = [];
		this.setProgress(NO_PROGRESS);
		this.#tokensPerSecond = 0;
		this.#firstResultMs = null;
	}

	/** Saves the suites, stores a run per suite (battery members when `batteryId`), scores. */
	async #startRuns(
		inputs: readonly SuiteRunInput[],
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: SuiteRunStartOptions,
		batteryId: string | null,
	): Promise<readonly SuiteRun[] | null> {
		if (this.active) return null;
		this.#reset(batteryId);
		const created: SuiteRun[] = [];
		const parts: PartInput[] = [];
		try {
			if (inputs.length === 0) throw new Error('a battery needs at least one suite.');
			const runs = await createSuiteRuns(
				inputs.map((input, index) => ({
					suite: {
						text: input.suiteText,
						name: input.suite.meta.name,
						origin: input.origin,
						sourceName: input.sourceName,
					},
					draft: (suiteSha256) =>
						this.#draft(
							suiteSha256,
							input,
							spec,
							convention,
							options,
							batteryId ? { id: batteryId, index, size: inputs.length } : undefined,
						),
				})),
			);
			for (const [index, run] of runs.entries()) {
				const input = inputs[index];
				if (!input) continue;
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
			const message = `The ${noun} could not be started: ${describeError(error)}`;
			this.say(message);
			// Runs stored before the failure are not left `running` (offered as interrupted).
			for (const run of created) {
				await updateSuiteRun(run.id, { status: 'failed', errorMessage: message }).catch(() => {});
			}
			return null;
		}
	}

	#draft(
		suiteSha256: string,
		input: SuiteRunInput,
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: SuiteRunStartOptions,
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
		const resumed = await updateSuiteRun(run.id, { status: 'running', errorMessage: undefined });
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

	/** Scores the runs' pending sentences, stores each finished item, and records how it ended. */
	async #execute(inputs: readonly PartInput[]): Promise<SuiteRun[]> {
		const scoring = this.#scoring(inputs);
		await this.guardedRun(
			async (signal) => {
				scoring.follow(signal);
				await this.#score(scoring);
				return 'done';
			},
			undefined,
			(end) => this.#finish(scoring, end),
		);
		return scoring.parts.map((part) => part.run);
	}

	/** The scoring of `inputs`, its steps shown by the session. */
	#scoring(inputs: readonly PartInput[]): SuiteScoring {
		const scoring: SuiteScoring = new SuiteScoring(inputs, {
			client: this.#options.client,
			models: this.#options.models,
			now: this.#now,
			onProgress: () => this.#progressSoon(scoring),
			onTokensPerSecond: (tokensPerSecond) => {
				this.#tokensPerSecond = tokensPerSecond;
			},
			onItemSaved: (runId, item) => {
				if (this.#firstResultMs === null) {
					this.#firstResultMs = this.#now() - scoring.startedAt;
					performance.mark?.('benchtop:first-result');
				}
				this.#options.onItemSaved?.(runId, item);
			},
			onRunChanged: (run) => this.#noteRun(run),
		});
		this.#showProgress(scoring, 0);
		return scoring;
	}

	/** Loads the model and scores, noting the time spent scoring. A failed store is thrown before
	 * any other error (it ended the scoring). */
	async #score(scoring: SuiteScoring): Promise<void> {
		try {
			this.#status = 'loading-model';
			const client = await scoring.openModel();
			this.#status = 'scoring';
			scoring.scoringStartedAt = this.#now();
			await scoring.scorePending(client);
			scoring.scoringMs = this.#now() - scoring.scoringStartedAt;
		} catch (error) {
			// A cancel while the model loads counts its time too, as it always has.
			const scored = this.#status === 'scoring' || this.cancelling;
			scoring.scoringMs = scored ? this.#now() - scoring.scoringStartedAt : 0;
			await scoring.stored();
			throw error;
		}
		await scoring.stored();
	}

	/**
	 * Shows the progress after a batch, at most every PROGRESS_INTERVAL_MS: a battery's batches
	 * come many times a second, and redrawing the page for each takes CPU from the model.
	 */
	#progressSoon(scoring: SuiteScoring): void {
		if (this.#progressTimer !== null) return;
		const wait = this.#progressShownAt + PROGRESS_INTERVAL_MS - this.#now();
		const show = (): void => {
			this.#progressTimer = null;
			this.#progressShownAt = this.#now();
			this.#showProgress(scoring, this.#now() - scoring.scoringStartedAt);
		};
		if (wait <= 0) show();
		else this.#progressTimer = setTimeout(show, wait);
	}

	/** Per-item progress of the first run, per-suite progress of a battery, sentence counts. */
	#showProgress(scoring: SuiteScoring, elapsedMs: number): void {
		const { parts } = scoring;
		this.#items = parts[0]?.items ?? [];
		this.#batterySuites =
			this.#batteryId === null ? [] : parts.map((part) => suiteProgress(part.run, part.items));
		this.setProgress({
			done: scoring.sentencesDone,
			total: scoring.plan.pending.length,
			tokens: scoring.tokenCount,
			elapsedMs,
		});
	}

	/** Writes how each run ended; the session then says it (`cancelledMessage`, or the failure). */
	async #finish(scoring: SuiteScoring, end: TaskEnd): Promise<void> {
		this.#runs = await scoring.finish(end.status, end.errorMessage);
		if (this.#progressTimer !== null) clearTimeout(this.#progressTimer);
		this.#progressTimer = null;
		this.#showProgress(scoring, scoring.scoringMs);
		this.#status = end.status;
	}

	/** How far a cancelled run (or battery) got, as stored. */
	protected override cancelledMessage(): string {
		return suiteRunCancelledMessage(this.#batteryId, this.#runs);
	}
}
