/**
 * The Evals page's state: a registry (bundled examples, dropped files / a folder / a zip, or
 * pasted JSONL) with its problems located, the eval picked, the models (under test and grader)
 * and the parameters sent, a run with per-sample progress, ETA, tokens, cancel and resume after a
 * reload (finished samples are stored as they finish and answered again from them), the results
 * shown (a run of this browser or an imported oaieval log), exports and the list of past runs.
 */
import { listUnreadableRuns, type UnreadableRun } from '../../../storage/shared/runs-repository';
import { EVALS_RESUME } from '../../../core/evals/evals-run-record';
import { EVALS_RUN_KIND } from '../../../core/evals/evals-run-kind';
import { runFileSizeProblem } from '../../../core/run/task-run-json';
import { describeError } from '../../../core/messages/describe-error';
import {
	DEFAULT_EVAL_SEED,
	dedupeProblems,
	evalCards,
	evalChoices,
	type EvalChoice,
	registryFiles,
	resolveEval,
	pastedRegistryEntries,
	upstreamParams,
	withOverride,
	type EvalsCard,
	type EvalsProblem,
	type EvalsShownRun,
	type Registry,
	type RegistryFiles,
} from '../../../core/evals';
import {
	evalsRunProblem,
	newEvalsRun,
	registryHashes,
	reproducedMessage,
	rerunOf,
	sharedRunOpenedMessage,
} from '../../../core/evals/evals-runs';
import {
	NO_REGISTRY_FILES_MESSAGE,
	REGISTRY_TOO_BIG_MESSAGE,
	loadRegistry,
	registryReadPlace,
	unlistedProblem,
	workerRegistryProblems,
} from '../../../core/evals/registry-load';
import {
	addRegistryFiles,
	addToRegistry,
	registryProblemOf,
} from '../../../core/evals/registry-input';
import {
	importedRunOf,
	oaievalLogTextOf,
	unreadableLog,
	type ImportedRun,
} from '../../../core/evals/shown-run-files';
import {
	summarizeSharedEvalsRun,
	type SharedEvalsRun,
} from '../../../core/evals/shared-run-summary';
import type { FinalReport, ResolvedEval, TemplateKind } from '../../../core/evals/shared/types';
import type { GenerationParams } from '../../../core/model/generation';
import {
	createMemoryResponseCache,
	type ResponseCacheStore,
} from '../../../providers/response-cache';
import {
	createEvalsRun,
	deleteEvalsRun,
	getEvalsRun,
	listEvalsRunSummaries,
	listEvalsSamples,
	writeEvalsRunUpdate,
	type EvalsRunRecord,
	type EvalsRunSummary,
	type EvalsSampleRecord,
} from '../../../storage/evals/evals-runs-repository';
import { responseCacheStore } from '../../../storage/shared/response-cache-repository';
import type { InferenceClientApi } from '../../../worker/protocol';
import {
	bundledRegistryEntries,
	droppedNames,
	readDroppedEntries,
	readRegistryInWorker,
	resolveEvalInWorker,
} from '../../io/evals-registry-files';
import { runEvalsSamples } from './evals-run-samples';
import { chooseSharedModel } from './evals-share-models';
import {
	loadShownRun,
	storedRunBundleText,
	storedRunInspectLogText,
	storedRunShareFragment,
} from '../../io/evals-stored-runs';
import {
	PARSE_IN_WORKER_BYTES,
	checkInputSize,
	type ParseProgress,
} from '../../io/parse-inputs-client';
import type { ReadRegistryResult } from '../../io/parse-inputs-protocol';
import { EndpointSettings } from '../shared/endpoint-settings.svelte';
import { TextModelChoice, specOfChoice } from '../shared/text-models.svelte';
import { TaskSession, type TaskProgress, type TaskStatus } from '../shared/task-session.svelte';

export type { EvalsCard, EvalsProblem, EvalsShownRun };

export type RegistrySource = 'bundled' | 'files' | 'paste' | 'share' | 'none';

export interface EvalsSessionOptions {
	readonly client: InferenceClientApi;
	readonly endpoint?: EndpointSettings;
	/** Completions stored across runs and reloads; default: the IndexedDB response cache. */
	readonly cache?: ResponseCacheStore;
	readonly now?: () => number;
}

export class EvalsSession extends TaskSession<EvalsRunSummary> {
	readonly endpoint: EndpointSettings;
	readonly policy = new TextModelChoice();
	readonly grader = new TextModelChoice();
	/** Parameters the user sets over upstream's, per role (only the ones set). */
	policyOverrides = $state<GenerationParams>({});
	graderOverrides = $state<GenerationParams>({});
	/** `--max_samples` (empty: all). */
	maxSamples = $state<number | null>(null);
	seed = $state(DEFAULT_EVAL_SEED);
	pasteText = $state('');
	pasteTemplate = $state<Exclude<TemplateKind, 'modelgraded'>>('match');

	readonly #client: InferenceClientApi;
	readonly #cache: ResponseCacheStore;
	readonly #now: () => number;

	#source = $state<RegistrySource>('none');
	#sourceName = $state('');
	#files = $state.raw<RegistryFiles>(registryFiles([]));
	#registry = $state.raw<Registry | null>(null);
	#problems = $state.raw<readonly EvalsProblem[]>([]);
	#evalNames = $state.raw<readonly string[]>([]);
	#cards = $state.raw<readonly EvalsCard[]>([]);
	#selected = $state<string | null>(null);
	#resolved = $state.raw<ResolvedEval | null>(null);
	#selectProblem = $state.raw<EvalsProblem | null>(null);
	/** A registry read in the parse worker: its files' hashes and eval list (no Registry here). */
	#workerRead = $state.raw<ReadRegistryResult | null>(null);
	#reading = $state.raw<{ name: string; progress: ParseProgress | null } | null>(null);

	#shown = $state.raw<EvalsShownRun | null>(null);
	/** Verdicts of a shared run, to say how many a re-run reproduced. */
	#sharedVerdicts: Readonly<Record<string, string>> | null = null;
	/** The sharer's run as its link carries it (models, verdicts, samples), shown before a re-run. */
	#sharedRun = $state.raw<SharedEvalsRun | null>(null);
	#comparison = $state.raw<{ a: EvalsShownRun; b: EvalsShownRun } | null>(null);

	constructor(options: EvalsSessionOptions) {
		super(EVALS_RESUME);
		this.#client = options.client;
		// The app passes its one EndpointSettings; without it, one that remembers nothing.
		this.endpoint = options.endpoint ?? new EndpointSettings({ storage: null });
		this.#cache = options.cache ?? responseCacheStore;
		this.#now = options.now ?? (() => Date.now());
		this.grader.kind = 'replay';
	}

	get source(): RegistrySource {
		return this.#source;
	}
	get sourceName(): string {
		return this.#sourceName;
	}
	get files(): RegistryFiles {
		return this.#files;
	}
	get problems(): readonly EvalsProblem[] {
		return this.#selectProblem ? [...this.#problems, this.#selectProblem] : this.#problems;
	}
	get evalNames(): readonly string[] {
		return this.#evalNames;
	}
	get cards(): readonly EvalsCard[] {
		return this.#cards;
	}
	/** Each eval once (an alias with its id as detail), for the eval list of a dropped registry. */
	get evalChoices(): readonly EvalChoice[] {
		if (this.#workerRead) return this.#workerRead.evalChoices;
		return this.#registry ? evalChoices(this.#registry, this.#evalNames) : [];
	}
	/** A big registry being read or an eval of it resolved in the parse worker, or null. */
	get reading(): { name: string; progress: ParseProgress | null } | null {
		return this.#reading;
	}
	get selected(): string | null {
		return this.#selected;
	}
	/** The sharer's run when a share link is open (shown before it is re-run), else null. */
	get sharedRun(): SharedEvalsRun | null {
		return this.#sharedRun;
	}

	get resolved(): ResolvedEval | null {
		return this.#resolved;
	}
	get shown(): EvalsShownRun | null {
		return this.#shown;
	}
	/** Two runs shown side by side. */
	get comparison(): { a: EvalsShownRun; b: EvalsShownRun } | null {
		return this.#comparison;
	}

	/** Whether the picked eval needs a grader model. */
	get needsGrader(): boolean {
		return this.#resolved?.kind === 'modelgraded';
	}

	/** Upstream's parameters for the picked eval. */
	get upstream(): { policy: GenerationParams; grader: GenerationParams | null } | null {
		const resolved = this.#resolved;
		if (!resolved) return null;
		try {
			return upstreamParams(resolved);
		} catch {
			return null;
		}
	}

	/** Why Run cannot start, or null. */
	get runProblem(): string | null {
		return evalsRunProblem({
			running: this.running,
			selected: this.#selected,
			resolved: this.#resolved,
			policyProblem: () => this.policy.problem(this.endpoint),
			graderProblem: this.needsGrader ? () => this.grader.problem(this.endpoint) : null,
			maxSamples: this.maxSamples,
		});
	}

	// ---- registry ----

	/** The bundled example evals (cards); selects nothing. */
	async loadBundled(): Promise<void> {
		this.#setRegistry(registryFiles(await bundledRegistryEntries()), 'bundled', 'bundled examples');
		const registry = this.#registry;
		if (!registry) return;
		this.#cards = evalCards(registry, this.#evalNames);
	}

	/** Reads dropped or picked files (YAML, JSONL, or a zip of a registry) as a registry. */
	async loadFiles(files: readonly File[]): Promise<void> {
		let entries: [string, string][];
		try {
			for (const file of files) checkInputSize(file);
			const loaded = this.#source === 'files' ? [...this.#files.values()] : [];
			const place = registryReadPlace(
				files.reduce((sum, file) => sum + file.size, 0),
				loaded.reduce((sum, text) => sum + text.length, 0),
				PARSE_IN_WORKER_BYTES,
			);
			if (place === 'too-big') throw new Error(REGISTRY_TOO_BIG_MESSAGE);
			if (place === 'worker') {
				await this.#loadFilesInWorker(files);
				return;
			}
			entries = await readDroppedEntries(files);
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
			return;
		}
		if (entries.length === 0) {
			this.#problems = [{ message: NO_REGISTRY_FILES_MESSAGE }];
			return;
		}
		// Files dropped one after another build up one registry (same path: the new file); a file
		// that cannot be read is reported, located, and the evals loaded before stay.
		const loaded = this.#source === 'files' ? this.#files : registryFiles([]);
		if (this.#source === 'files' && this.#registry) {
			const added = addToRegistry(loaded, entries);
			if (!added.ok) {
				this.#problems = dedupeProblems([...this.#problems, added.problem]);
				return;
			}
		}
		this.#setRegistry(addRegistryFiles(loaded, entries), 'files', droppedNames(files));
		this.#selectOnlyEval();
	}

	/** `loadFiles` for a big registry: read, parsed, checked and hashed in the parse worker. */
	async #loadFilesInWorker(files: readonly File[]): Promise<void> {
		const names = droppedNames(files);
		this.#reading = { name: names, progress: null };
		let read: ReadRegistryResult;
		try {
			const loaded = this.#source === 'files' ? this.#files : registryFiles([]);
			read = await readRegistryInWorker(files, loaded, (progress) => {
				this.#reading = { name: names, progress };
			});
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
			return;
		} finally {
			this.#reading = null;
		}
		if (!read.foundFiles) {
			this.#problems = [{ message: NO_REGISTRY_FILES_MESSAGE }];
			return;
		}
		this.#setRegistry(registryFiles([]), 'files', names);
		this.#files = registryFiles(read.files);
		this.#workerRead = read;
		this.#evalNames = read.evalNames;
		this.#problems = workerRegistryProblems(read.evalNames, read.problems);
		this.#selectOnlyEval();
	}

	/** A registry of one eval: that eval is picked. */
	#selectOnlyEval(): void {
		if (this.#evalNames.length === 1 && this.#evalNames[0]) this.select(this.#evalNames[0]);
	}

	/** `select` in a registry read in the parse worker: the eval is resolved there. */
	async #selectInWorker(name: string): Promise<void> {
		this.#reading = { name, progress: null };
		try {
			const result = await resolveEvalInWorker(this.#files, name);
			if (this.#selected !== name) return;
			if (result.ok) {
				this.#resolved = result.resolved;
				return;
			}
			const problem = unlistedProblem(this.#problems, result.problem);
			if (problem) this.#selectProblem = problem;
		} catch (error) {
			if (this.#selected === name) this.#selectProblem = { message: describeError(error) };
		} finally {
			this.#reading = null;
		}
	}

	/** Runs pasted JSONL samples with one basic template, as the eval `pasted`. */
	loadPasted(): void {
		this.#setRegistry(
			registryFiles(pastedRegistryEntries(this.pasteTemplate, this.pasteText)),
			'paste',
			'pasted samples',
		);
		this.select('pasted');
	}

	clearRegistry(): void {
		this.#setRegistry(registryFiles([]), 'none', '');
	}

	#setRegistry(files: RegistryFiles, source: RegistrySource, name: string): void {
		this.#files = files;
		this.#source = source;
		this.#sharedVerdicts = null;
		this.#sharedRun = null;
		this.#sourceName = name;
		this.#selected = null;
		this.#resolved = null;
		this.#selectProblem = null;
		this.#cards = [];
		this.#workerRead = null;
		// Bundled examples are not all checked now: each one's problem shows on selection.
		const loaded = loadRegistry(files, source !== 'bundled');
		this.#registry = loaded.registry;
		this.#evalNames = loaded.evalNames;
		this.#problems = loaded.problems;
	}

	/** Picks an eval by name (alias or spec); a problem is shown located. */
	select(name: string): void {
		this.#selected = name;
		this.#resolved = null;
		this.#selectProblem = null;
		this.policyOverrides = {};
		this.graderOverrides = {};
		const registry = this.#registry;
		if (!registry) {
			if (this.#workerRead) void this.#selectInWorker(name);
			return;
		}
		try {
			this.#resolved = resolveEval(registry, name);
		} catch (error) {
			this.#selectProblem = unlistedProblem(this.#problems, registryProblemOf(error));
		}
	}

	/** Sets (a number) or clears (null) a parameter over upstream's. */
	setOverride(role: 'policy' | 'grader', key: keyof GenerationParams, value: number | null): void {
		if (role === 'policy') this.policyOverrides = withOverride(this.policyOverrides, key, value);
		else this.graderOverrides = withOverride(this.graderOverrides, key, value);
	}

	// ---- runs ----

	protected listRuns(): Promise<readonly EvalsRunSummary[]> {
		return listEvalsRunSummaries();
	}

	protected override listUnreadable(): Promise<readonly UnreadableRun[]> {
		return listUnreadableRuns('evals');
	}

	/** Starts a run of the picked eval on the picked models. */
	async run(): Promise<void> {
		const resolved = this.#resolved;
		if (!resolved || this.runProblem !== null) return;
		const policy = specOfChoice(this.policy, this.endpoint);
		const grader = this.needsGrader ? specOfChoice(this.grader, this.endpoint) : null;
		const hashes = registryHashes(this.#files, this.#workerRead?.hashes);
		const createdAt = this.#now();
		const overrides = {
			policy: $state.snapshot(this.policyOverrides),
			grader: $state.snapshot(this.graderOverrides),
		};
		const record = await this.storeRun(() =>
			createEvalsRun(
				newEvalsRun({
					evalName: this.#selected ?? resolved.name,
					resolved,
					registryHashes: hashes,
					policy,
					grader,
					overrides,
					seed: this.seed,
					maxSamples: this.maxSamples,
					createdAt,
				}),
			),
		);
		if (!record) return;
		// A shared run is reproduced by asking the models, not by answering from the cache.
		await this.#execute(
			record,
			[],
			this.#sharedVerdicts ? createMemoryResponseCache() : this.#cache,
		);
	}

	/** Resumes a stored run: finished samples are answered from what was stored. */
	async resume(id: number): Promise<void> {
		if (this.running) return;
		const record = await this.storedRun(() => getEvalsRun(id));
		if (!record) return;
		const stored = await listEvalsSamples(id);
		await this.#execute(record, stored);
	}

	/**
	 * Runs a stored run again (same eval, models, parameters, seed) with no stored answers, then
	 * compares the two: "reproduced: N of M verdicts identical".
	 */
	async rerun(id: number): Promise<void> {
		if (this.running) return;
		const old = await this.storedRun(() => getEvalsRun(id));
		if (!old) return;
		const createdAt = this.#now();
		const record = await this.storeRun(() => createEvalsRun(rerunOf(old, createdAt)));
		if (!record) return;
		await this.#execute(record, [], createMemoryResponseCache());
		if (this.#shown?.runRecordId === record.id) await this.compareWith(id);
	}

	/** The share link (fragment) of a stored run: eval, model specs, parameters, verdicts. */
	shareFragment(id: number): Promise<string | null> {
		return storedRunShareFragment(id);
	}

	/** Opens a share link: the eval and the run's settings are set; Run re-runs it. */
	openShare(text: string): void {
		try {
			const payload = EVALS_RUN_KIND.share.decode(text);
			this.#setRegistry(registryFiles([]), 'share', `shared run of ${payload.evalName}`);
			this.#selected = payload.evalName;
			this.#resolved = payload.eval;
			this.policyOverrides = { ...payload.overrides.policy };
			this.graderOverrides = { ...payload.overrides.grader };
			this.seed = payload.seed;
			this.maxSamples = payload.maxSamples ?? null;
			const { models, replayTexts } = payload;
			chooseSharedModel(this.policy, models.policy[0], replayTexts, this.endpoint);
			chooseSharedModel(this.grader, models.grader, replayTexts, this.endpoint);
			this.#sharedVerdicts = payload.verdicts;
			this.#sharedRun = summarizeSharedEvalsRun(payload);
			this.say(sharedRunOpenedMessage(payload));
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
		}
	}

	/** Runs a stored run to its end, storing each sample as it finishes, then shows it. */
	async #execute(
		record: EvalsRunRecord,
		stored: readonly EvalsSampleRecord[],
		cache: ResponseCacheStore = this.#cache,
	): Promise<void> {
		const total = record.progress.total;
		const started = this.#now() - record.progress.elapsedMs;
		const hooks = {
			client: this.#client,
			endpoint: this.endpoint,
			now: this.#now,
			setProgress: (progress: TaskProgress) => this.setProgress(progress),
			progress: () => this.progress,
		};
		const ended: { report?: FinalReport } = {};
		this.workOn(record.id);
		const end = await this.guardedRun(
			async (signal) => {
				this.setProgress({ done: 0, total, tokens: 0, elapsedMs: record.progress.elapsedMs });
				await writeEvalsRunUpdate(record.id, { status: 'running', errorMessage: undefined });
				const result = await runEvalsSamples({ record, stored, cache, signal }, started, hooks);
				if (result.cancelled) {
					this.say(this.cancelledMessage(result.samples.length, total));
					return 'cancelled';
				}
				ended.report = result.finalReport;
				return 'done';
			},
			undefined,
			// The end is stored before the page reads as idle, so a list read then sees it.
			async (end) => {
				await writeEvalsRunUpdate(record.id, {
					status: end.status,
					progress: { ...this.progress, elapsedMs: this.#now() - started },
					...(ended.report ? { report: ended.report } : {}),
					errorMessage: end.errorMessage,
				}).catch(() => undefined);
			},
		);
		await this.refreshRuns();
		await this.show(record.id);
		this.#sayReproduced(end.status);
	}

	/** After a finished re-run of a shared run: how many of the shared verdicts it reproduced. */
	#sayReproduced(status: TaskStatus): void {
		const shared = this.#sharedVerdicts;
		const rows = this.#shown?.rows;
		if (shared && rows && status === 'done') this.say(reproducedMessage(shared, rows));
	}

	// ---- results ----

	/** Shows a stored run (finished or not). */
	async show(id: number): Promise<void> {
		const shown = await this.storedRun(() => loadShownRun(id));
		if (!shown) return;
		this.#shown = shown;
		this.#comparison = null;
	}

	/** Shows the shown run and another stored run side by side, sample by sample. */
	async compareWith(id: number): Promise<void> {
		const a = this.#shown;
		const b = await loadShownRun(id);
		if (!a || !b) {
			this.say('Show a run first, then pick the run to compare it with.');
			return;
		}
		this.#comparison = { a, b };
	}

	closeComparison(): void {
		this.#comparison = null;
	}

	/** Shows a past run from an oaieval log (upstream's or ours) or an Evals run bundle. */
	async importLog(file: File): Promise<void> {
		const tooLarge = runFileSizeProblem(file.name, file.size);
		if (tooLarge !== null) {
			this.say(tooLarge);
			return;
		}
		let imported: ImportedRun;
		try {
			imported = importedRunOf(await file.text(), file.name);
		} catch (error) {
			imported = unreadableLog(error);
		}
		if (!imported.ok) {
			this.say(imported.message);
			return;
		}
		this.#shown = imported.shown;
		// A bundle closes the comparison; a log leaves it open, as the page always did.
		if (imported.fromBundle) this.#comparison = null;
		this.say(null);
	}

	closeShown(): void {
		this.#shown = null;
		this.#comparison = null;
	}

	async deleteRun(id: number): Promise<void> {
		await deleteEvalsRun(id);
		if (this.#shown?.runRecordId === id) this.#shown = null;
		await this.refreshRuns();
	}

	/** The run bundle (benchtop-evals-run/1) of the shown stored run; null for an imported run. */
	async bundleText(): Promise<string | null> {
		const id = this.#shown?.runRecordId;
		return id === undefined ? null : storedRunBundleText(id);
	}

	/** The shown stored run as an Inspect JSON log (`inspect view` opens it); null for an imported run. */
	async inspectLogText(): Promise<string | null> {
		const id = this.#shown?.runRecordId;
		return id === undefined ? null : storedRunInspectLogText(id);
	}

	/** The shown run as an oaieval JSONL log. */
	logText(): string | null {
		return this.#shown ? oaievalLogTextOf(this.#shown) : null;
	}
}
