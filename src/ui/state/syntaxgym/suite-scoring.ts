/**
 * One session's scoring of suite runs (a run of one suite, or a battery's runs): loads the runs'
 * model (or opens its endpoint), scores every pending sentence (the first item alone, then the
 * rest in one pooled request), stores each finished item into its own run (the first at once,
 * then at most every SAVE_INTERVAL_MS), and writes how each run ended. Not UI state: the run session hears of each step
 * through `ScoringHooks` and shows it.
 */
import type {
	EndpointModelSpec,
	ModelSpec,
	SurprisalConvention,
} from '../../../core/model/model-spec';
import type { RunModelSpec } from '../../../core/run/run-types';
import type { ItemResult, SuiteRun } from '../../../core/syntaxgym/run/suite-run';
import { sum, type ItemProgress } from '../../../core/syntaxgym/run/suite-run-progress';
import {
	locateInBattery,
	planBattery,
	splitByWeight,
	type BatteryPlan,
} from '../../../core/syntaxgym/run/battery-plan';
import { ItemAssembly } from '../../../core/syntaxgym/run/item-assembly';
import {
	buildSuiteSentences,
	type SuiteSentence,
} from '../../../core/syntaxgym/suite/build-sentences';
import type { Suite } from '../../../core/syntaxgym/suite/types';
import {
	saveItemResults,
	type SuiteItemToSave,
} from '../../../storage/syntaxgym/suite-results-repository';
import { updateSuiteRun, updateSuiteRuns } from '../../../storage/syntaxgym/suite-runs-repository';
import type {
	BackendFallback,
	InferenceClientApi,
	ModelInfo,
	ScoredText,
} from '../../../worker/protocol';

/** Finished items are stored at most this often (so a reload loses at most this much scoring). */
export const SAVE_INTERVAL_MS = 500;

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

/** A suite run to score in this session, with its suite and the items already stored. */
export interface PartInput {
	readonly run: SuiteRun;
	readonly suite: Suite;
	readonly finished: ReadonlySet<number>;
	/** Done before this session: nothing is scored and its record is left as it is. */
	readonly settled?: boolean;
}

/** One suite run of a session's scoring (a run of one suite has one part). */
export interface ScoringPart {
	/** The run's record, as last stored. */
	run: SuiteRun;
	readonly finished: ReadonlySet<number>;
	readonly assembly: ItemAssembly;
	readonly settled: boolean;
	items: readonly ItemProgress[];
}

/** What the scoring tells the session that shows it. */
export interface ScoringHooks {
	readonly client: InferenceClientApi;
	readonly models: ModelLoader;
	readonly now: () => number;
	/** Sentences were scored: the parts' item counts changed. */
	readonly onProgress: () => void;
	readonly onTokensPerSecond: (tokensPerSecond: number) => void;
	/** An item is stored in run `runId`. */
	readonly onItemSaved: (runId: number, item: ItemResult) => void;
	/** A run's record changed in storage. */
	readonly onRunChanged: (run: SuiteRun) => void;
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

/** Every item of `input`'s suite, the stored ones full. */
function itemsOf(input: PartInput): ItemProgress[] {
	return input.suite.items.map((item) => ({
		itemNumber: item.itemNumber,
		done: input.finished.has(item.itemNumber) ? item.conditions.length : 0,
		total: item.conditions.length,
	}));
}

export class SuiteScoring {
	readonly parts: readonly ScoringPart[];
	readonly plan: BatteryPlan<SuiteSentence>;
	readonly #hooks: ScoringHooks;
	/** Aborted by the session's cancel, or by a failed store (which then ends the run). */
	readonly #abort = new AbortController();
	readonly #convention: SurprisalConvention;
	readonly #wordBoundaries: boolean;
	readonly startedAt: number;
	scoringStartedAt: number;
	/** Time this session spent scoring, set by the session when scoring ends. */
	scoringMs = 0;
	#saveChain: Promise<void> = Promise.resolve();
	/** Finished items not stored yet (waiting for the next save). */
	#unsaved: SuiteItemToSave[] = [];
	/** The next save, while it waits for SAVE_INTERVAL_MS to pass since the last began. */
	#saveTimer: ReturnType<typeof setTimeout> | null = null;
	/** When the last save began (`hooks.now`); the first item is stored at once. */
	#savedAt = -Infinity;
	#saveError: unknown = null;
	/** The runs' model, with the backend that really ran once known. */
	#model: RunModelSpec;
	#modelKey = '';

	/** The scoring of `inputs`: their pending sentences in one plan, each run's assembly. */
	constructor(inputs: readonly PartInput[], hooks: ScoringHooks) {
		this.#hooks = hooks;
		this.startedAt = hooks.now();
		this.scoringStartedAt = this.startedAt;
		this.plan = planBattery(
			inputs.map((input) => ({
				sentences: buildSuiteSentences(input.suite),
				finished: input.finished,
			})),
		);
		this.parts = inputs.map((input, index) => ({
			run: input.run,
			finished: input.finished,
			settled: input.settled === true,
			assembly: new ItemAssembly(this.plan.suites[index]?.pending ?? []),
			items: itemsOf(input),
		}));
		// The model and convention of the runs to score (a battery's runs share them).
		const lead = this.parts.find((part) => !part.settled) ?? this.parts[0];
		if (!lead) throw new Error('nothing to run');
		this.#convention = lead.run.convention;
		this.#wordBoundaries = lead.run.wordBoundaries === true;
		this.#model = lead.run.model;
	}

	/** Stops the scoring when `signal` (the session's cancel) aborts. */
	follow(signal: AbortSignal): void {
		if (signal.aborted) this.#abort.abort();
		else signal.addEventListener('abort', () => this.#abort.abort(), { once: true });
	}

	/** Sentences scored so far in this session. */
	get sentencesDone(): number {
		return sum(this.parts.map((part) => part.assembly.scoredCount));
	}

	/** Tokens scored so far in this session. */
	get tokenCount(): number {
		return sum(this.parts.map((part) => part.assembly.tokenCount));
	}

	/** Loads the runs' model (or opens its endpoint); the client that scores it. */
	async openModel(): Promise<InferenceClientApi> {
		const signal = this.#abort.signal;
		const requested = this.#model;
		if (requested.source === 'openai') {
			// An endpoint run is scored by its own client (EndpointInferenceClient): the key typed
			// for this base URL goes only there.
			const endpointClient = this.#hooks.models.clientFor?.(requested);
			if (!endpointClient) {
				throw new Error(
					`This page cannot score through endpoints: run it with the CLI (npm run cli -- run suite.json --model openai/${requested.model} --base-url ${requested.baseUrl}).`,
				);
			}
			const info = await untilAborted(endpointClient.open(signal), signal);
			this.#modelKey = info.modelKey;
			if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
			return endpointClient;
		}
		const info = await untilAborted(this.#hooks.models.load(requested, signal), signal);
		this.#modelKey = info.modelKey;
		if (info.spec.backend !== requested.backend || info.fallbackReason) {
			await this.#recordBackend({
				backend: info.spec.backend,
				revision: info.spec.revision,
				reason: info.fallbackReason,
			});
		}
		if (signal.aborted) throw new DOMException('cancelled', 'AbortError');
		return this.#hooks.client;
	}

	/**
	 * Scores the first item alone, then the rest (every suite's pending sentences in one pooled
	 * request): the first result is stored and shown while the rest is scored. `stored` says when
	 * every item is stored.
	 */
	async scorePending(client: InferenceClientApi): Promise<void> {
		const { signal } = this.#abort;
		let scoredTokens = 0;
		let scoredMs = 0;
		for (const [from, to] of this.plan.requests) {
			const call = client.call(
				'scoreTexts',
				{
					modelKey: this.#modelKey,
					texts: this.plan.pending.slice(from, to).map((sentence) => sentence.text),
					convention: this.#convention,
					...(this.#wordBoundaries ? { wordBoundaries: true } : {}),
				},
				{
					signal,
					onScoreProgress: (progress) => {
						if (signal.aborted) return;
						this.#hooks.onTokensPerSecond(progress.tokensPerSecond);
						this.#noteFallback(progress.fallback);
						this.#acceptAll(progress.texts, from);
					},
				},
			);
			// The worker stops within a batch when it can; the run does not wait for it.
			call.catch(() => {});
			const result = await untilAborted(call, signal);
			this.#noteFallback(result.fallback);
			this.#acceptAll(result.texts, from);
			scoredTokens += result.tokenCount;
			scoredMs += result.elapsedMs;
			if (scoredMs > 0) this.#hooks.onTokensPerSecond((scoredTokens * 1000) / scoredMs);
		}
	}

	/** Resolves once every scored item is stored; throws the first failed store (which ended the
	 * scoring). */
	async stored(): Promise<void> {
		this.#saveNow();
		await this.#saveChain;
		if (this.#saveError) throw this.#saveError;
	}

	/** Takes a batch of scored sentences (request indices from `from`) and updates the counts
	 * once (one update per batch, not per sentence). */
	#acceptAll(texts: readonly ScoredText[], from: number): void {
		for (const scored of texts) this.#accept({ ...scored, index: scored.index + from });
		for (const part of this.parts) {
			const { assembly, finished } = part;
			part.items = part.items.map((item) =>
				finished.has(item.itemNumber)
					? item
					: { ...item, done: assembly.scoredOf(item.itemNumber) },
			);
		}
		this.#hooks.onProgress();
	}

	/** Takes a scored sentence; an item whose last condition it was is stored (in order), into
	 * its own run. */
	#accept(scored: ScoredText): void {
		if (this.#abort.signal.aborted) return;
		const at = locateInBattery(this.plan, scored.index);
		const part = at ? this.parts[at.suiteIndex] : undefined;
		if (!at || !part) return;
		const result = part.assembly.accept(at.index, scored.tokens);
		if (!result) return;
		this.#unsaved.push({ runId: part.run.id, result });
		this.#saveSoon();
	}

	/**
	 * Stores the finished items, at most every SAVE_INTERVAL_MS: items finished meanwhile go
	 * together in the next save. Each save is a transaction whose work (in the page and in the
	 * browser's storage process) takes CPU from the model; a battery's batches finish items many
	 * times a second.
	 */
	#saveSoon(): void {
		if (this.#saveTimer !== null) return;
		const wait = this.#savedAt + SAVE_INTERVAL_MS - this.#hooks.now();
		if (wait <= 0) this.#saveNow();
		else this.#saveTimer = setTimeout(() => this.#saveNow(), wait);
	}

	/** Queues a save of the items not stored yet (one save at a time, in order). */
	#saveNow(): void {
		if (this.#saveTimer !== null) clearTimeout(this.#saveTimer);
		this.#saveTimer = null;
		if (this.#unsaved.length === 0) return;
		this.#savedAt = this.#hooks.now();
		const items = this.#unsaved;
		this.#unsaved = [];
		this.#saveChain = this.#saveChain.then(() => this.#save(items));
	}

	/** Stores `items` in one transaction, and tells the session. */
	async #save(items: readonly SuiteItemToSave[]): Promise<void> {
		if (this.#saveError) return;
		try {
			await saveItemResults(items);
			for (const { runId, result } of items) this.#hooks.onItemSaved(runId, result);
		} catch (error) {
			this.#saveError = error;
			this.#abort.abort();
		}
	}

	/** Records the backend that really ran (and why), when it differs from the request, in every
	 * run being scored. The spec in memory changes at once; the returned promise is the stored
	 * update. */
	#recordBackend(change: {
		backend: ModelSpec['backend'];
		revision?: string | undefined;
		reason?: string | undefined;
	}): Promise<void> {
		const model = this.#model;
		// An endpoint has no backend of ours: nothing to record.
		if (model.source === 'openai') return Promise.resolve();
		const changed = {
			...model,
			backend: change.backend,
			...(change.revision ? { revision: change.revision } : {}),
		};
		this.#model = changed;
		const updates = this.parts
			.filter((part) => !part.settled)
			.map((part) =>
				updateSuiteRun(part.run.id, {
					model: changed,
					...(change.reason ? { fallbackReason: change.reason } : {}),
				}).then((updated) => {
					if (!updated) return;
					part.run = updated;
					this.#hooks.onRunChanged(updated);
				}),
			);
		return Promise.all(updates).then(() => undefined);
	}

	/** The engine says the model runs on a fallback backend (e.g. WebGPU lost mid-run → WASM): the
	 * runs record it, once. */
	#noteFallback(fallback: BackendFallback | undefined): void {
		const model = this.#model;
		if (!fallback || model.source === 'openai' || fallback.backend === model.backend) return;
		this.#hooks.models.noteFallback?.(this.#modelKey, fallback);
		const stored = this.#recordBackend(fallback).catch(() => undefined);
		this.#saveChain = this.#saveChain.then(() => stored);
	}

	/** Writes how each scored run ended (time and tokens added to earlier sessions'), in one
	 * transaction; every run's record. `status`: the session's end, `errorMessage` its failure.
	 * A run is `done` once its every item is stored, else it ends as the session did. */
	async finish(
		status: 'done' | 'cancelled' | 'failed',
		errorMessage: string | undefined,
	): Promise<SuiteRun[]> {
		const scored = this.parts.filter((part) => !part.settled);
		// The battery's time is shared by its runs in proportion to their tokens.
		const shares = splitByWeight(
			this.scoringMs,
			scored.map((part) => part.assembly.tokenCount),
		);
		const ended = await updateSuiteRuns(
			scored.map((part) => part.run.id),
			(stored, index) => {
				const part = scored[index];
				const run = stored ?? part?.run;
				if (!part || !run) return {};
				const end = run.itemsDone >= run.itemCount ? 'done' : status;
				return {
					status: end,
					scoringMs: run.scoringMs + (shares[index] ?? 0),
					tokenCount: run.tokenCount + part.assembly.tokenCount,
					...(end === 'failed' && errorMessage ? { errorMessage } : {}),
				};
			},
		).catch(() => []);
		for (const [index, part] of scored.entries()) {
			part.run = ended[index] ?? part.run;
			this.#hooks.onRunChanged(part.run);
		}
		return this.parts.map((part) => part.run);
	}
}
