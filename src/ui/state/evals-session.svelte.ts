/**
 * The Evals page's state: a registry (bundled examples, dropped files / a folder / a zip, or
 * pasted JSONL) with its problems located, the eval picked, the models (under test and grader)
 * and the parameters sent, a run with per-sample progress, ETA, tokens, cancel and resume after a
 * reload (finished samples are stored as they finish and answered again from them), the results
 * shown (a run of this browser or an imported oaieval log), exports and the list of past runs.
 */
/* eslint-disable svelte/prefer-svelte-reactivity -- lookups, file maps and timestamps here are not UI state (the $state fields hold them as raw values) */
import { entryText, unzipBounded } from '../../core/formats/zip-archive';
import { describeError } from '../../core/messages/describe-error';
import { formatNameList } from '../../core/text/format-count';
import {
	DEFAULT_EVAL_SEED,
	dedupeProblems,
	evalCards,
	evalChoices,
	type EvalChoice,
	type EvalRunResult,
	type RunEvalOptions,
	inspectLogOfStored,
	isRegistryFileName,
	isRegistryZipEntry,
	listEvalNames,
	newRunId,
	readOaievalLog,
	readRegistry,
	registryFiles,
	resolveEval,
	runEval,
	writeOaievalLog,
	decodeEvalsShare,
	encodeEvalsShare,
	pastedRegistryEntries,
	problemOf,
	registryPathOf,
	reproducedVerdicts,
	rowFromResult,
	buildEvalsRunBundle,
	looksLikeRunBundle,
	readEvalsRunBundle,
	serializeEvalsRunBundle,
	shownRunOfBundle,
	shownRunOfLog,
	shownRunOfStored,
	storedAnswers,
	upstreamParams,
	verdictsBySample,
	withOverride,
	withParamOverrides,
	type EvalsCard,
	type EvalsProblem,
	type EvalsShownRun,
	type Registry,
	type RegistryFiles,
} from '../../core/evals';
import {
	addRegistryFiles,
	addToRegistry,
	registryProblemOf,
} from '../../core/evals/registry-input';
import type {
	EvalEvent,
	FinalReport,
	ResolvedEval,
	SampleResult,
	TemplateKind,
} from '../../core/evals/types';
import { sha256Hex } from '../../core/hash/sha256';
import type { GenerationParams, TextModel } from '../../core/model/generation';
import { describeModelSpec, type TextModelSpec } from '../../core/model/model-spec';
import {
	createMemoryResponseCache,
	withResponseCache,
	type ResponseCacheStore,
} from '../../providers/response-cache';
import { responseCacheKey } from '../../core/model/cache-key';
import {
	createEvalsRun,
	deleteEvalsRun,
	getEvalsRun,
	listEvalsRuns,
	listEvalsSamples,
	saveEvalsSample,
	updateEvalsRun,
	writeEvalsRunUpdate,
	type EvalsRunRecord,
	type EvalsSampleRecord,
} from '../../storage/evals-runs-repository';
import { responseCacheStore } from '../../storage/response-cache-repository';
import type { InferenceClientApi } from '../../worker/protocol';
import { LocalWorkerModel } from '../local-worker-model';
import {
	PARSE_IN_WORKER_BYTES,
	checkInputSize,
	parseInputsClient,
	type ParseProgress,
} from '../parse-inputs-client';
import type { ReadRegistryResult } from '../parse-inputs-protocol';
import { EndpointSettings } from './endpoint-settings.svelte';
import { EvalsModelChoice, modelFromSpec, specOfChoice } from './evals-models.svelte';
import { TaskSession, type TaskStatus } from './task-session.svelte';

export type { EvalsCard, EvalsProblem, EvalsShownRun };

export type RegistrySource = 'bundled' | 'files' | 'paste' | 'share' | 'none';

/** Bundled example registry (suites/evals: evals/, data/, modelgraded/), loaded on demand. */
const BUNDLED_FILES = import.meta.glob<string>(
	['/suites/evals/**/*.yaml', '/suites/evals/**/*.yml', '/suites/evals/**/*.jsonl'],
	{ query: '?raw', import: 'default' },
);

const MAX_REGISTRY_BYTES = 50 * 1024 * 1024;

export interface EvalsSessionOptions {
	readonly client: InferenceClientApi;
	readonly endpoint?: EndpointSettings;
	/** Completions stored across runs and reloads; default: the IndexedDB response cache. */
	readonly cache?: ResponseCacheStore;
	readonly now?: () => number;
}

export class EvalsSession extends TaskSession<EvalsRunRecord> {
	readonly endpoint: EndpointSettings;
	readonly policy = new EvalsModelChoice();
	readonly grader = new EvalsModelChoice();
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
	#files = $state.raw<RegistryFiles>(new Map());
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
	#comparison = $state.raw<{ a: EvalsShownRun; b: EvalsShownRun } | null>(null);

	constructor(options: EvalsSessionOptions) {
		super({ noun: 'samples', resumePoint: 'the last finished sample' });
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
		if (this.running) return 'A run is going on.';
		if (!this.#resolved)
			return this.#selected ? 'This eval has a problem (see above).' : 'Pick an eval.';
		const policy = this.policy.problem(this.endpoint);
		if (policy) return `Model under test: ${policy}`;
		if (this.needsGrader) {
			const grader = this.grader.problem(this.endpoint);
			if (grader) return `Grader: ${grader}`;
		}
		if (this.maxSamples !== null && (!Number.isInteger(this.maxSamples) || this.maxSamples < 1)) {
			return 'Max samples must be a whole number of 1 or more (or empty for all).';
		}
		return null;
	}

	// ---- registry ----

	/** The bundled example evals (cards); selects nothing. */
	async loadBundled(): Promise<void> {
		const entries = await Promise.all(
			Object.entries(BUNDLED_FILES).map(
				async ([path, load]) => [path.replace('/suites/evals/', ''), await load()] as const,
			),
		);
		this.#setRegistry(registryFiles(entries), 'bundled', 'bundled examples');
		const registry = this.#registry;
		if (!registry) return;
		this.#cards = evalCards(registry, this.#evalNames);
	}

	/** Reads dropped or picked files (YAML, JSONL, or a zip of a registry) as a registry. */
	async loadFiles(files: readonly File[]): Promise<void> {
		const entries: [string, string][] = [];
		let bytes = 0;
		try {
			for (const file of files) checkInputSize(file);
			const previous = this.#source === 'files' ? [...this.#files.values()] : [];
			const given = files.reduce((sum, file) => sum + file.size, 0);
			if (given + previous.reduce((sum, text) => sum + text.length, 0) > PARSE_IN_WORKER_BYTES) {
				if (given > MAX_REGISTRY_BYTES) {
					throw new Error('These files are over 50 MB: drop a smaller registry.');
				}
				await this.#loadFilesInWorker(files);
				return;
			}
			for (const file of files) {
				bytes += file.size;
				if (bytes > MAX_REGISTRY_BYTES) {
					throw new Error('These files are over 50 MB: drop a smaller registry.');
				}
				const path = file.webkitRelativePath || file.name;
				if (/\.zip$/iu.test(file.name)) {
					const unzipped = unzipBounded(
						file.name,
						new Uint8Array(await file.arrayBuffer()),
						isRegistryZipEntry,
					);
					for (const [inner, data] of Object.entries(unzipped)) {
						const text = entryText(data);
						entries.push([registryPathOf(inner, text), text]);
					}
				} else if (isRegistryFileName(file.name)) {
					const text = await file.text();
					entries.push([registryPathOf(path, text), text]);
				}
			}
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
			return;
		}
		if (entries.length === 0) {
			this.#problems = [
				{
					message:
						'No registry files found: drop eval YAML files (evals/*.yaml), samples JSONL and modelgraded YAML, a folder holding them, or a zip.',
				},
			];
			return;
		}
		// Files dropped one after another build up one registry (same path: the new file); a file
		// that cannot be read is reported, located, and the evals loaded before stay.
		const loaded = this.#source === 'files' ? this.#files : new Map<string, string>();
		if (this.#source === 'files' && this.#registry) {
			const added = addToRegistry(loaded, entries);
			if (!added.ok) {
				this.#problems = dedupeProblems([...this.#problems, added.problem]);
				return;
			}
		}
		const names = formatNameList(files.map((file) => file.webkitRelativePath || file.name));
		this.#setRegistry(addRegistryFiles(loaded, entries), 'files', names);
		if (this.#evalNames.length === 1 && this.#evalNames[0]) this.select(this.#evalNames[0]);
	}

	/** `loadFiles` for a big registry: read, parsed, checked and hashed in the parse worker. */
	async #loadFilesInWorker(files: readonly File[]): Promise<void> {
		const names = formatNameList(files.map((file) => file.webkitRelativePath || file.name));
		this.#reading = { name: names, progress: null };
		let read: ReadRegistryResult;
		try {
			read = await parseInputsClient().call(
				'readRegistry',
				{
					inputs: files.map((file) => ({ path: file.webkitRelativePath || file.name, file })),
					previous: this.#source === 'files' ? [...this.#files] : [],
				},
				{ onProgress: (progress) => (this.#reading = { name: names, progress }) },
			);
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
			return;
		} finally {
			this.#reading = null;
		}
		if (!read.foundFiles) {
			this.#problems = [
				{
					message:
						'No registry files found: drop eval YAML files (evals/*.yaml), samples JSONL and modelgraded YAML, a folder holding them, or a zip.',
				},
			];
			return;
		}
		this.#setRegistry(new Map(), 'files', names);
		this.#files = registryFiles(read.files);
		this.#workerRead = read;
		this.#evalNames = read.evalNames;
		this.#problems =
			read.evalNames.length === 0
				? [
						...read.problems,
						{ message: 'No eval in these files: an eval is an entry of a YAML file under evals/.' },
					]
				: read.problems;
		if (this.#evalNames.length === 1 && this.#evalNames[0]) this.select(this.#evalNames[0]);
	}

	/** `select` in a registry read in the parse worker: the eval is resolved there. */
	async #selectInWorker(name: string): Promise<void> {
		this.#reading = { name, progress: null };
		try {
			const result = await parseInputsClient().call('resolveEval', {
				files: [...this.#files],
				name,
			});
			if (this.#selected !== name) return;
			if (result.ok) this.#resolved = result.resolved;
			else if (!this.#problems.some((known) => known.message === result.problem.message)) {
				this.#selectProblem = result.problem;
			}
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
		this.#setRegistry(new Map(), 'none', '');
	}

	#setRegistry(files: RegistryFiles, source: RegistrySource, name: string): void {
		this.#files = files;
		this.#source = source;
		this.#sharedVerdicts = null;
		this.#sourceName = name;
		this.#selected = null;
		this.#resolved = null;
		this.#selectProblem = null;
		this.#cards = [];
		this.#evalNames = [];
		this.#registry = null;
		this.#workerRead = null;
		if (files.size === 0) {
			this.#problems = [];
			return;
		}
		try {
			const registry = readRegistry(files);
			this.#registry = registry;
			this.#evalNames = listEvalNames(registry);
			const problems: EvalsProblem[] = [];
			if (this.#evalNames.length === 0) {
				problems.push({
					message: 'No eval in these files: an eval is an entry of a YAML file under evals/.',
				});
			}
			// Every eval checked now, so all problems show at once (small registries only).
			if (source !== 'bundled' && this.#evalNames.length <= 50) {
				for (const evalName of this.#evalNames) {
					try {
						resolveEval(registry, evalName);
					} catch (error) {
						problems.push(registryProblemOf(error));
					}
				}
			}
			this.#problems = dedupeProblems(problems);
		} catch (error) {
			this.#problems = [registryProblemOf(error)];
		}
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
			const problem = registryProblemOf(error);
			if (!this.#problems.some((known) => known.message === problem.message)) {
				this.#selectProblem = problem;
			}
		}
	}

	/** Sets (a number) or clears (null) a parameter over upstream's. */
	setOverride(role: 'policy' | 'grader', key: keyof GenerationParams, value: number | null): void {
		if (role === 'policy') this.policyOverrides = withOverride(this.policyOverrides, key, value);
		else this.graderOverrides = withOverride(this.graderOverrides, key, value);
	}

	// ---- runs ----

	protected listRuns(): Promise<readonly EvalsRunRecord[]> {
		return listEvalsRuns();
	}

	/** A run a reload or a cancel stopped with samples left. */
	protected isResumable(run: EvalsRunRecord): boolean {
		return run.status !== 'done' && run.progress.done < run.progress.total;
	}

	/** Starts a run of the picked eval on the picked models. */
	async run(): Promise<void> {
		const resolved = this.#resolved;
		if (!resolved || this.runProblem !== null) return;
		const policy = specOfChoice(this.policy, this.endpoint);
		const grader = this.needsGrader ? specOfChoice(this.grader, this.endpoint) : null;
		const replayTexts: Record<string, string> = {};
		for (const choice of [policy, grader]) {
			if (choice?.replayText !== undefined && choice.spec.source === 'replay') {
				replayTexts[choice.spec.sha256] = choice.replayText;
			}
		}
		const registryHashes: Record<string, string> = {};
		const known = this.#workerRead?.hashes;
		for (const [path, text] of this.#files) registryHashes[path] = known?.[path] ?? sha256Hex(text);
		const createdAt = this.#now();
		const total =
			this.maxSamples === null
				? resolved.samples.length
				: Math.min(this.maxSamples, resolved.samples.length);
		const record = await this.storeRun(() =>
			createEvalsRun({
				evalName: this.#selected ?? resolved.name,
				spec: { registryFiles: registryHashes, eval: resolved },
				models: { policy: [policy.spec], ...(grader ? { grader: grader.spec } : {}) },
				overrides: {
					policy: $state.snapshot(this.policyOverrides),
					grader: $state.snapshot(this.graderOverrides),
				},
				replayTexts,
				seed: this.seed,
				...(this.maxSamples === null ? {} : { maxSamples: this.maxSamples }),
				runId: newRunId(new Date(createdAt)),
				createdAt,
				total,
			}),
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
		const record = await this.storeRun(() =>
			createEvalsRun({
				evalName: old.evalName,
				spec: old.spec,
				models: old.models,
				overrides: old.overrides,
				replayTexts: old.replayTexts,
				seed: old.seed,
				...(old.maxSamples === undefined ? {} : { maxSamples: old.maxSamples }),
				runId: newRunId(new Date(createdAt)),
				createdAt,
				total: old.progress.total,
			}),
		);
		if (!record) return;
		await this.#execute(record, [], createMemoryResponseCache());
		if (this.#shown?.runRecordId === record.id) await this.compareWith(id);
	}

	/** The share link (fragment) of a stored run: eval, model specs, parameters, verdicts. */
	async shareFragment(id: number): Promise<string | null> {
		const record = await getEvalsRun(id);
		if (!record) return null;
		const samples = await listEvalsSamples(id);
		const verdicts = verdictsBySample(
			samples.map((sample) => rowFromResult(sample.result, sample.position)),
		);
		return `#/evals/share/${encodeEvalsShare({
			v: 1,
			evalName: record.evalName,
			eval: record.spec.eval,
			models: record.models,
			overrides: record.overrides,
			replayTexts: record.replayTexts,
			seed: record.seed,
			...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
			verdicts,
		})}`;
	}

	/** Opens a share link: the eval and the run's settings are set; Run re-runs it. */
	openShare(text: string): void {
		try {
			const payload = decodeEvalsShare(text);
			this.#setRegistry(new Map(), 'share', `shared run of ${payload.evalName}`);
			this.#selected = payload.evalName;
			this.#resolved = payload.eval;
			this.policyOverrides = { ...payload.overrides.policy };
			this.graderOverrides = { ...payload.overrides.grader };
			this.seed = payload.seed;
			this.maxSamples = payload.maxSamples ?? null;
			const choose = (choice: EvalsModelChoice, spec: TextModelSpec | undefined): void => {
				if (!spec) return;
				if (spec.source === 'openai') {
					// A proposal: a link never writes the user's endpoint settings.
					choice.proposeEndpoint(spec, this.endpoint);
				} else if (spec.source === 'replay') {
					choice.kind = 'replay';
					const replayText = payload.replayTexts[spec.sha256];
					choice.replay = replayText === undefined ? null : { name: spec.file, text: replayText };
				} else {
					choice.kind = 'local';
					choice.localId = spec.id;
					// A hub model re-runs at the dtype the link's run used.
					choice.hubDtype = spec.dtype;
				}
			};
			choose(this.policy, payload.models.policy[0]);
			choose(this.grader, payload.models.grader);
			this.#sharedVerdicts = payload.verdicts;
			this.say(
				`Opened a shared run of ${payload.evalName} (${Object.keys(payload.verdicts).length} verdicts). Run it to see whether it reproduces.`,
			);
		} catch (error) {
			this.#problems = [{ message: describeError(error) }];
		}
	}

	/** Runs a stored run to its end, storing each sample as it finishes, then shows it. */
	async #execute(
		record: EvalsRunRecord,
		stored: readonly EvalsSampleRecord[],
		cacheStore: ResponseCacheStore = this.#cache,
	): Promise<void> {
		const total = record.progress.total;
		const started = this.#now() - record.progress.elapsedMs;
		const ended: { report?: FinalReport } = {};
		const end = await this.guardedRun(async (signal) => {
			this.setProgress({ done: 0, total, tokens: 0, elapsedMs: record.progress.elapsedMs });
			await updateEvalsRun(record.id, { status: 'running', errorMessage: undefined });
			const result = await this.#runSamples(record, stored, cacheStore, started, signal);
			if (result.cancelled) {
				this.say(this.cancelledMessage(result.samples.length, total));
				return 'cancelled';
			}
			ended.report = result.finalReport;
			return 'done';
		});
		await updateEvalsRun(record.id, {
			status: end.status,
			progress: { ...this.progress, elapsedMs: this.#now() - started },
			...(ended.report ? { report: ended.report } : {}),
			errorMessage: end.errorMessage,
		}).catch(() => undefined);
		await this.refreshRuns();
		await this.show(record.id);
		this.#sayReproduced(end.status);
	}

	/** After a finished re-run of a shared run: how many of the shared verdicts it reproduced. */
	#sayReproduced(status: TaskStatus): void {
		const shared = this.#sharedVerdicts;
		const rows = this.#shown?.rows;
		if (shared && rows && status === 'done') {
			const { identical, shared: count } = reproducedVerdicts(shared, rows);
			this.say(`Reproduced: ${identical}/${count} verdicts identical to the shared run.`);
		}
	}

	/** The eval run itself: models built, samples stored as they finish (all writes awaited). */
	async #runSamples(
		record: EvalsRunRecord,
		stored: readonly EvalsSampleRecord[],
		cache: ResponseCacheStore,
		started: number,
		signal: AbortSignal,
	): Promise<EvalRunResult> {
		const recorder = this.#sampleRecorder(record, started);
		try {
			const policySpec = record.models.policy[0];
			if (!policySpec) throw new Error('This run names no model under test.');
			const models = { record, stored, cache, signal };
			const policy = await this.#buildModel(models, policySpec, 'policy');
			const grader = record.models.grader
				? await this.#buildModel(models, record.models.grader, 'grader')
				: undefined;
			const result = await runEval(record.spec.eval, {
				policy: [policy],
				...(grader ? { grader } : {}),
				seed: record.seed,
				...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
				runId: record.runId,
				createdBy: 'benchtop',
				concurrency: 1,
				signal,
				onSample: recorder.onSample,
				onEvent: recorder.onEvent,
			});
			await Promise.all(recorder.pending);
			return result;
		} catch (error) {
			await Promise.allSettled(recorder.pending);
			throw error;
		}
	}

	/** A model of the run (policy or grader): loaded, its stored answers put in the cache. */
	async #buildModel(
		run: {
			record: EvalsRunRecord;
			stored: readonly EvalsSampleRecord[];
			cache: ResponseCacheStore;
			signal: AbortSignal;
		},
		spec: TextModelSpec,
		role: 'policy' | 'grader',
	): Promise<TextModel> {
		const { record, cache } = run;
		const context = {
			client: this.#client,
			endpoint: this.endpoint,
			replayTexts: record.replayTexts,
		};
		const overrides = role === 'policy' ? record.overrides.policy : record.overrides.grader;
		const model = modelFromSpec(spec, context);
		if (model instanceof LocalWorkerModel) await model.load(run.signal);
		await this.#prefill(run.stored, cache, spec, overrides, role);
		return withParamOverrides(withResponseCache(model, cache, { spec }), overrides);
	}

	/** Puts the stored samples' answers of `role` in the cache, so a resume answers from them. */
	async #prefill(
		stored: readonly EvalsSampleRecord[],
		cache: ResponseCacheStore,
		spec: TextModelSpec,
		overrides: GenerationParams,
		role: 'policy' | 'grader',
	): Promise<void> {
		for (const sample of stored) {
			for (const answer of storedAnswers(sample, role, overrides)) {
				await cache.put({
					key: responseCacheKey(
						spec,
						answer.request,
						{ sampleId: sample.sampleId, role, callIndex: answer.callIndex },
						answer.seed,
					),
					model: describeModelSpec(spec),
					request: answer.request,
					completion: answer.completion,
					finishReason: 'stop',
					...(answer.usage ? { usage: answer.usage } : {}),
					createdAt: new Date(this.#now()).toISOString(),
				});
			}
		}
	}

	/** Keeps each sample's events and stores the sample (and the progress) when it finishes. */
	#sampleRecorder(
		record: EvalsRunRecord,
		started: number,
	): Required<Pick<RunEvalOptions, 'onSample' | 'onEvent'>> & { pending: Promise<void>[] } {
		const total = record.progress.total;
		const pending: Promise<void>[] = [];
		const sampleEvents = new Map<string, EvalEvent[]>();
		let tokens = 0;
		const store = async (sample: SampleResult, done: number): Promise<void> => {
			// Events of this sample: the recorder's, picked by sample id.
			const events = sampleEvents.get(sample.sampleId) ?? [];
			for (const event of events) {
				const usage = event.data.usage as { total_tokens?: number } | undefined;
				if (typeof usage?.total_tokens === 'number') tokens += usage.total_tokens;
			}
			this.setProgress({ done, total, tokens, elapsedMs: this.#now() - started });
			await saveEvalsSample(record.id, {
				sampleId: sample.sampleId,
				position: done - 1,
				result: sample,
				events,
			});
			await writeEvalsRunUpdate(record.id, { progress: this.progress });
		};
		return {
			pending,
			onSample: (sample, done) => {
				pending.push(store(sample, done));
			},
			onEvent: (event) => {
				const list = sampleEvents.get(event.sample_id) ?? [];
				list.push(event);
				sampleEvents.set(event.sample_id, list);
			},
		};
	}

	// ---- results ----

	/** Shows a stored run (finished or not). */
	async show(id: number): Promise<void> {
		const shown = await this.storedRun(() => this.#loadRun(id));
		if (!shown) return;
		this.#shown = shown;
		this.#comparison = null;
	}

	/** Shows the shown run and another stored run side by side, sample by sample. */
	async compareWith(id: number): Promise<void> {
		const a = this.#shown;
		const b = await this.#loadRun(id);
		if (!a || !b) {
			this.say('Show a run first, then pick the run to compare it with.');
			return;
		}
		this.#comparison = { a, b };
	}

	closeComparison(): void {
		this.#comparison = null;
	}

	async #loadRun(id: number): Promise<EvalsShownRun | undefined> {
		const record = await getEvalsRun(id);
		if (!record) return undefined;
		const samples = await listEvalsSamples(id);
		return shownRunOfStored(record, samples);
	}

	/** Shows a past run from an oaieval log (upstream's or ours) or an Evals run bundle. */
	async importLog(file: File): Promise<void> {
		try {
			const text = await file.text();
			if (looksLikeRunBundle(text)) {
				const read = readEvalsRunBundle(text);
				if (!read.ok) {
					this.say(
						`That run bundle could not be read: ${file.name}, at ${read.pointer || '(top)'}: ${read.message}.`,
					);
					return;
				}
				this.#shown = shownRunOfBundle(read.bundle, file.name);
				this.#comparison = null;
				this.say(null);
				return;
			}
			const log = readOaievalLog(text, file.name);
			this.#shown = shownRunOfLog(log, file.name);
			this.say(null);
		} catch (error) {
			const problem = problemOf(error);
			this.say(`That log could not be read: ${problem.message}`);
		}
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
		if (id === undefined) return null;
		const record = await getEvalsRun(id);
		if (!record) return null;
		return serializeEvalsRunBundle(buildEvalsRunBundle(record, await listEvalsSamples(id)));
	}

	/** The shown stored run as an Inspect JSON log (`inspect view` opens it); null for an imported run. */
	async inspectLogText(): Promise<string | null> {
		const id = this.#shown?.runRecordId;
		if (id === undefined) return null;
		const record = await getEvalsRun(id);
		if (!record) return null;
		const log = inspectLogOfStored(record, await listEvalsSamples(id), new Date(record.updatedAt));
		return `${JSON.stringify(log, null, 2)}\n`;
	}

	/** The shown run as an oaieval JSONL log. */
	logText(): string | null {
		const shown = this.#shown;
		if (!shown) return null;
		return writeOaievalLog({
			spec: shown.spec,
			events: shown.events,
			...(shown.report ? { finalReport: shown.report } : {}),
		});
	}
}
