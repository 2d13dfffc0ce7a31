/**
 * Runs a suite with a model in the tab: loads the model, scores every pending sentence through
 * the inference client, stores each item as soon as its last condition is scored, and reports
 * progress (per item, ETA, tokens/s). Resumes stored runs. No scoring maths here.
 */
import { describeError } from '../../core/messages/describe-error';
import { estimateRemainingMs, shareDone } from '../../core/run/run-progress';
import type {
	EndpointModelSpec,
	ModelSpec,
	SurprisalConvention,
} from '../../core/model/model-spec';
import type { ItemResult, RunModelSpec, SuiteRun } from '../../core/run/run-types';
import { ItemAssembly } from '../../core/syntaxgym/run/item-assembly';
import {
	buildSuiteSentences,
	type SuiteSentence,
} from '../../core/syntaxgym/suite/build-sentences';
import type { Suite } from '../../core/syntaxgym/suite/types';
import { listFinishedItemNumbers, saveItemResult } from '../../storage/results-repository';
import { createRun, getRun, listResumableRuns, updateRun } from '../../storage/runs-repository';
import { saveSuite, type SuiteOrigin } from '../../storage/suites-repository';
import { loadRunWithSuite } from '../stored-run';
import { runStoppedMessage } from './task-session.svelte';
import type {
	BackendFallback,
	InferenceClientApi,
	ModelInfo,
	ScoredText,
} from '../../worker/protocol';

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

/** One run's scoring, shared by the steps of `RunSession.#execute`. */
interface Scoring {
	readonly run: SuiteRun;
	readonly abort: AbortController;
	readonly finished: ReadonlySet<number>;
	readonly assembly: ItemAssembly;
	readonly startedAt: number;
	scoringStartedAt: number;
	saveChain: Promise<void>;
	saveError: unknown;
	/** The run's model, with the backend that really ran once known. */
	model: RunModelSpec;
	modelKey: string;
}

export class RunSession {
	readonly #options: RunSessionOptions;
	readonly #now: () => number;

	#status = $state<RunSessionStatus>('idle');
	#run = $state.raw<SuiteRun | null>(null);
	#message = $state<string | null>(null);
	#items = $state.raw<readonly ItemProgress[]>([]);
	#sentencesDone = $state(0);
	#sentencesTotal = $state(0);
	#elapsedMs = $state(0);
	#tokensPerSecond = $state(0);
	#firstResultMs = $state<number | null>(null);
	#interrupted = $state.raw<readonly SuiteRun[]>([]);
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

	get run(): SuiteRun | null {
		return this.#run;
	}

	/** What went wrong, or what happened (cancelled), for the user. */
	get message(): string | null {
		return this.#message;
	}

	/** Every item of the run with its scored conditions (finished items of earlier sessions full). */
	get items(): readonly ItemProgress[] {
		return this.#items;
	}

	get itemsDone(): number {
		return this.#items.filter((item) => item.done === item.total).length;
	}

	get itemsTotal(): number {
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

	/** Runs that were scoring when the tab was closed or reloaded: offered for resume. */
	get interrupted(): readonly SuiteRun[] {
		return this.#interrupted;
	}

	/** Looks for runs left `running` by an earlier page (call once at start, before any run). */
	async findInterrupted(): Promise<void> {
		try {
			const runs = await listResumableRuns();
			this.#interrupted = runs.filter((run) => run.status === 'running');
		} catch {
			this.#interrupted = [];
		}
	}

	/** Marks an interrupted run as cancelled (it stays resumable from the history). */
	async dismissInterrupted(runId: number): Promise<void> {
		this.#interrupted = this.#interrupted.filter((run) => run.id !== runId);
		const run = await updateRun(runId, { status: 'cancelled' }).catch(() => undefined);
		if (run) this.#options.onRunChanged?.(run);
	}

	/** Starts a new run of `input` with `spec`. Resolves when it ends (done, cancelled, failed). */
	async start(
		input: RunInput,
		spec: RunModelSpec,
		convention: SurprisalConvention,
		options: RunStartOptions = {},
	): Promise<SuiteRun | null> {
		if (this.active) return null;
		this.#reset();
		try {
			const saved = await saveSuite({
				text: input.suiteText,
				name: input.suite.meta.name,
				origin: input.origin,
				sourceName: input.sourceName,
			});
			const run = await createRun({
				suiteSha256: saved.sha256,
				suiteName: input.suite.meta.name,
				model: spec,
				convention,
				...(options.wordBoundaries && spec.source !== 'openai' ? { wordBoundaries: true } : {}),
				itemCount: input.suite.items.length,
				appVersion: this.#options.appVersion,
				createdAt: Date.now(),
			});
			this.#setRun(run);
			this.#options.onRunStarted?.(run);
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			return await this.#execute(run, input.suite, new Set<number>());
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The run could not be started: ${describeError(error)}`;
			return null;
		}
	}

	/** Resumes a stored run: scores only the items not stored yet, with the run's model. */
	async resume(runId: number): Promise<SuiteRun | null> {
		if (this.active) return null;
		this.#reset();
		this.#interrupted = this.#interrupted.filter((run) => run.id !== runId);
		try {
			const { run, suite } = await loadRunWithSuite(runId);
			// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
			const finished = new Set(await listFinishedItemNumbers(runId));
			const resumed = await updateRun(runId, { status: 'running', errorMessage: undefined });
			this.#setRun(resumed ?? run);
			this.#options.onRunStarted?.(resumed ?? run);
			return await this.#execute(resumed ?? run, suite, finished);
		} catch (error) {
			this.#status = 'failed';
			this.#message = `The run could not be resumed: ${describeError(error)}`;
			return null;
		}
	}

	/** Stops the run within one batch; finished items stay stored. */
	cancel(): void {
		if (!this.#abort || this.#status === 'cancelling') return;
		this.#status = 'cancelling';
		this.#abort.abort();
	}

	#reset(): void {
		this.#message = null;
		this.#items = [];
		this.#sentencesDone = 0;
		this.#sentencesTotal = 0;
		this.#elapsedMs = 0;
		this.#tokensPerSecond = 0;
		this.#firstResultMs = null;
	}

	#setRun(run: SuiteRun): void {
		this.#run = run;
		this.#options.onRunChanged?.(run);
	}

	/** Scores the run's pending sentences, stores each finished item, and records how it ended. */
	async #execute(run: SuiteRun, suite: Suite, finished: ReadonlySet<number>): Promise<SuiteRun> {
		const abort = new AbortController();
		this.#abort = abort;
		const startedAt = this.#now();
		const sentences = buildSuiteSentences(suite);
		const pending = sentences.filter((sentence) => !finished.has(sentence.itemNumber));
		this.#items = suite.items.map((item) => ({
			itemNumber: item.itemNumber,
			done: finished.has(item.itemNumber) ? item.conditions.length : 0,
			total: item.conditions.length,
		}));
		this.#sentencesTotal = pending.length;
		const scoring: Scoring = {
			run,
			abort,
			finished,
			assembly: new ItemAssembly(pending),
			startedAt,
			scoringStartedAt: startedAt,
			saveChain: Promise.resolve(),
			saveError: null,
			model: run.model,
			modelKey: '',
		};
		let outcome: { status: 'done' | 'cancelled' | 'failed'; message?: string };
		let scoringMs: number;
		try {
			const client = await this.#openModel(scoring);
			this.#status = 'scoring';
			scoring.scoringStartedAt = this.#now();
			await this.#scorePending(scoring, client, pending);
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

	/** Loads the run's model (or opens its endpoint); the client that scores it. */
	async #openModel(scoring: Scoring): Promise<InferenceClientApi> {
		const { run, abort } = scoring;
		this.#status = 'loading-model';
		const requested = run.model;
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
	 * Scores the first item alone, then the rest: its result is stored and shown while the rest
	 * is scored.
	 */
	async #scorePending(
		scoring: Scoring,
		client: InferenceClientApi,
		pending: readonly SuiteSentence[],
	): Promise<void> {
		const { run, abort } = scoring;
		const firstItemEnd = pending.findIndex(
			(sentence) => sentence.itemNumber !== pending[0]?.itemNumber,
		);
		const parts =
			firstItemEnd > 0 ? [pending.slice(0, firstItemEnd), pending.slice(firstItemEnd)] : [pending];
		let offset = 0;
		let scoredTokens = 0;
		let scoredMs = 0;
		for (const part of parts.filter((p) => p.length > 0)) {
			const from = offset;
			offset += part.length;
			const call = client.call(
				'scoreTexts',
				{
					modelKey: scoring.modelKey,
					texts: part.map((sentence) => sentence.text),
					convention: run.convention,
					...(run.wordBoundaries ? { wordBoundaries: true } : {}),
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
		const { assembly, finished } = scoring;
		this.#sentencesDone = assembly.scoredCount;
		this.#elapsedMs = this.#now() - scoring.scoringStartedAt;
		this.#items = this.#items.map((item) =>
			finished.has(item.itemNumber) ? item : { ...item, done: assembly.scoredOf(item.itemNumber) },
		);
	}

	/** Takes a scored sentence; an item whose last condition it was is stored (in order). */
	#accept(scoring: Scoring, scored: ScoredText): void {
		const { run, abort } = scoring;
		if (abort.signal.aborted) return;
		const result = scoring.assembly.accept(scored.index, scored.tokens);
		if (!result) return;
		scoring.saveChain = scoring.saveChain.then(async () => {
			if (scoring.saveError) return;
			try {
				await saveItemResult(run.id, result);
				if (this.#firstResultMs === null) {
					this.#firstResultMs = this.#now() - scoring.startedAt;
					performance.mark?.('benchtop:first-result');
				}
				this.#options.onItemSaved?.(run.id, result);
			} catch (error) {
				scoring.saveError = error;
				abort.abort();
			}
		});
	}

	/** Records the backend that really ran (and why), when it differs from the request. The
	 * spec in memory changes at once; the returned promise is the stored update. */
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
		return updateRun(scoring.run.id, {
			model: changed,
			...(change.reason ? { fallbackReason: change.reason } : {}),
		}).then((updated) => {
			if (updated) this.#setRun(updated);
		});
	}

	/** The engine says the model runs on a fallback backend (e.g. WebGPU lost mid-run → WASM): the
	 * run records it, once. */
	#noteFallback(scoring: Scoring, fallback: BackendFallback | undefined): void {
		const model = scoring.model;
		if (!fallback || model.source === 'openai' || fallback.backend === model.backend) return;
		this.#options.models.noteFallback?.(scoring.modelKey, fallback);
		const stored = this.#recordBackend(scoring, fallback).catch(() => undefined);
		scoring.saveChain = scoring.saveChain.then(() => stored);
	}

	/** Writes how the run ended (time and tokens added to earlier sessions') and says it. */
	async #finish(
		scoring: Scoring,
		outcome: { status: 'done' | 'cancelled' | 'failed'; message?: string },
		scoringMs: number,
	): Promise<SuiteRun> {
		const { run } = scoring;
		const latest = await getRun(run.id).catch(() => undefined);
		const final = await updateRun(run.id, {
			status: outcome.status,
			scoringMs: (latest?.scoringMs ?? run.scoringMs) + scoringMs,
			tokenCount: (latest?.tokenCount ?? run.tokenCount) + scoring.assembly.tokenCount,
			...(outcome.message ? { errorMessage: outcome.message } : {}),
		}).catch(() => undefined);
		const record = final ?? latest ?? run;
		this.#setRun(record);
		this.#status = outcome.status;
		this.#elapsedMs = scoringMs;
		if (outcome.status === 'cancelled') {
			this.#message = `Run cancelled after ${record.itemsDone} of ${record.itemCount} items; they are kept and the run can be resumed.`;
		} else if (outcome.status === 'failed') {
			this.#message = runStoppedMessage(outcome.message ?? 'unknown error', 'items');
		}
		return record;
	}
}
