/**
 * The Stimuli page's state: the picked stimulus file (its header, for the column pickers), the
 * choices (layout, columns, punctuation, window, models), the run (scored a request of windows at
 * a time, each request's words stored before the next, so a reload or a cancel loses at most one
 * request and Resume goes on), and the shown run's long table. The reading, the plan and the table
 * are core/stimuli; storage is the one run store, through the kind registry.
 */
import { describeError } from '../../../core/messages/describe-error';
import { sha256Hex } from '../../../core/hash/sha256';
import { runFileSizeProblem } from '../../../core/run/task-run-json';
import { shareHashOf } from '../../../core/run/run-kind';
import { formatCount } from '../../../core/text/format-count';
import { defaultConvention } from '../../../core/model/default-convention';
import {
	BUNDLED_MODEL_IDS,
	DEFAULT_MODEL_ID,
	describeModelSpec,
	type ModelSpec,
	type SurprisalConvention,
	type TextModelSpec,
} from '../../../core/model/model-spec';
import { withTopNext, type StimulusToken } from '../../../core/stimuli/stimulus-word-surprisals';
import type { StimulusWindow } from '../../../core/stimuli/stimulus-windows';
import {
	checkStimulusFileSize,
	decodeStimulusBytes,
	delimiterName,
	readStimulusTable,
	type StimulusTable,
} from '../../../core/stimuli/read-stimulus-table';
import type { PunctuationRule } from '../../../core/stimuli/stimulus-passages';
import {
	collectStimulusWords,
	describeStimulusProvenance,
	stimulusTokenTableRows,
	writeStimulusTable,
	type StimulusOutputFormat,
} from '../../../core/stimuli/stimulus-table';
import {
	STIMULI_RESUME,
	STIMULI_RUN_KIND,
	type StimuliChoices,
	type StimuliLayoutName,
	type StimuliRunRecord,
	stimuliWordsFingerprint,
	type StimuliWordRow,
} from '../../../core/stimuli/stimuli-run-kind';
import type { ChartSpec } from '../../../core/syntaxgym/charts/chart-spec';
import { heatScaleBits } from '../../../core/syntaxgym/charts/surprisal-heat';
import {
	stimuliCriticalFigureSpec,
	stimuliCriticalMeans,
	stimuliFigureSpec,
	stimuliHeatStrips,
	stimuliPositionMeans,
	type StimuliHeatStrip,
	type StimuliPositionMean,
} from '../../../core/stimuli/stimuli-figure';
import {
	firstUnscoredWindow,
	planStimuliRun,
	stimuliTableRows,
	stimuliWordsItemOf,
	stimulusLayoutOf,
	STIMULI_INPUT_KEY,
	stimuliRequests,
	type StimuliPlan,
} from '../../../core/stimuli/stimuli-run';
import {
	createRunOfAnyKind,
	deleteRunOfAnyKind,
	getRunOfAnyKind,
	importRunBundleOfAnyKind,
	listRunItemsOfAnyKind,
	listRunsOfEveryKind,
	putRunItemsOfAnyKind,
	updateRunOfAnyKind,
} from '../../../storage/shared/run-store';
import type { InferenceClientApi, ModelInfo } from '../../../worker/protocol';
import { TaskSession } from '../shared/task-session.svelte';

/** The rows the page shows of a run's table; the download has them all. */
export const STIMULI_SHOWN_ROWS = 200;

export interface StimuliSessionOptions {
	readonly client: Pick<InferenceClientApi, 'call'>;
	/** Loads a model (the app passes the model catalog's load, which reuses a loaded model). */
	readonly load: (spec: ModelSpec, signal?: AbortSignal) => Promise<ModelInfo>;
	readonly now?: () => number;
}

/** A stored run as the page shows it: the record, its table and how it was made. */
export interface StimuliShownRun {
	readonly run: StimuliRunRecord;
	/** The table's header and its first STIMULI_SHOWN_ROWS rows (the downloads have them all). */
	readonly rows: readonly (readonly string[])[];
	/** Rows in the whole table (one per word and model). */
	readonly rowCount: number;
	readonly provenance: readonly string[];
	/** Null when the run's input is not stored (a bundle without it): words only. */
	readonly table: StimulusTable | null;
	/** The stimulus file's text, when stored. */
	readonly input: string | null;
	readonly words: readonly StimuliWordRow[];
}

/** The first texts of one model's words as heat strips, on one colour scale. */
export interface StimuliHeatStrips {
	readonly strips: readonly StimuliHeatStrip[];
	/** Bits at which every strip's colour saturates. */
	readonly scaleBits: number;
	/** The model's name. */
	readonly model: string;
}

/** The Stimuli figure: its chart, its numbers and, around a critical word, what was found. */
export interface StimuliFigure {
	readonly spec: ChartSpec;
	/** With `critical`, `position` is the offset from the critical word. */
	readonly means: readonly StimuliPositionMean[];
	readonly critical?: {
		readonly column: string;
		/** Critical words found (one per row at most). */
		readonly words: number;
		/** File lines whose critical cell matched none of their words. */
		readonly unmatchedLines: readonly number[];
	};
}

/** What a shared run's link says its words were: a re-run of it is compared with this. */
export interface StimuliSharedRun {
	readonly modelName: string;
	readonly wordsSha256: string;
	readonly wordCount: number;
}

/** The name a shared run's stimulus file is given (a link carries its text, not its name). */
export const SHARED_STIMULI_FILE_NAME = 'shared-stimuli.csv';

/** The picked file, read. */
interface PickedFile {
	readonly name: string;
	readonly text: string;
	readonly table: StimulusTable;
}

/** A model as the table's `model` column names it (as the CLI: the id, `openai/<model>`). */
function modelName(spec: TextModelSpec): string {
	if (spec.source === 'openai') return `openai/${spec.model}`;
	return spec.source === 'replay' ? describeModelSpec(spec) : spec.id;
}

function bundledSpec(id: string): ModelSpec {
	return { source: 'bundled', id, dtype: 'fp32', backend: 'wasm' };
}

/** A likely column for a role, by its name; else the first. */
function guessColumn(header: readonly string[], names: RegExp): string {
	return header.find((name) => names.test(name)) ?? header[0] ?? '';
}

/** A stored run of this kind (storage checked it against the kind's entries). */
function isStimuliRun(run: { readonly kind: string }): run is StimuliRunRecord {
	return run.kind === 'stimuli';
}

export class StimuliSession extends TaskSession<StimuliRunRecord> {
	readonly modelIds: readonly string[] = BUNDLED_MODEL_IDS;
	layout = $state<StimuliLayoutName>('text-per-row');
	textColumn = $state('');
	/** '' for none. */
	groupColumn = $state('');
	contextColumn = $state('');
	/** '' for row order. */
	orderColumn = $state('');
	punctuation = $state<PunctuationRule>('keep');
	/** Sliding windows: words of context, or null for whole texts. */
	contextWords = $state<number | null>(null);
	/** Words a window scores after the first; null: half the context. */
	strideWords = $state<number | null>(null);
	models = $state<string[]>([DEFAULT_MODEL_ID]);
	/** The most likely next tokens each word gets (1–20), or null: none. */
	topNext = $state<number | null>(null);

	#file = $state.raw<PickedFile | null>(null);
	#fileProblem = $state<string | null>(null);
	#shown = $state.raw<StimuliShownRun | null>(null);
	#shared = $state.raw<StimuliSharedRun | null>(null);
	/** The figure's condition column ('' for none: one series) and model (index in the run). */
	figureCondition = $state('');
	figureModel = $state(0);
	/** The column naming each row's critical word ('' for none: the figure is by word position). */
	figureCritical = $state('');

	/** The shown run's figure: mean surprisal by word position (or around the critical word) and
	 * condition; null without a table. */
	#figure = $derived.by((): StimuliFigure | null => {
		const shown = this.#shown;
		// Drawn once the run ends, not after each request of it.
		if (!shown?.table || this.running) return null;
		const model = shown.run.models[this.figureModel] ?? shown.run.models[0];
		if (!model) return null;
		const condition = shown.table.header.includes(this.figureCondition)
			? this.figureCondition
			: null;
		const modelIndex = shown.run.models.indexOf(model);
		if (shown.table.header.includes(this.figureCritical)) {
			const critical = stimuliCriticalMeans(
				shown.table,
				shown.words,
				modelIndex,
				condition,
				this.figureCritical,
				shown.run.choices.layout === 'word-per-row',
			);
			const table = shown.table;
			return {
				spec: stimuliCriticalFigureSpec(critical.means, modelName(model), this.figureCritical),
				means: critical.means,
				critical: {
					column: this.figureCritical,
					words: critical.criticalWords,
					unmatchedLines: critical.unmatchedRows.map((row) => table.rows[row]?.line ?? row + 2),
				},
			};
		}
		const means = stimuliPositionMeans(shown.table, shown.words, modelIndex, condition);
		return means.length === 0 ? null : { spec: stimuliFigureSpec(means, modelName(model)), means };
	});
	/** The first texts of the figure's model as heat strips, on one scale; null without a table. */
	#heatStrips = $derived.by((): StimuliHeatStrips | null => {
		const shown = this.#shown;
		if (!shown?.table || this.running) return null;
		const model = Math.min(this.figureModel, shown.run.models.length - 1);
		const condition = shown.table.header.includes(this.figureCondition)
			? this.figureCondition
			: null;
		const strips = stimuliHeatStrips(shown.table, shown.words, model, condition);
		if (strips.length === 0) return null;
		const scaleBits = heatScaleBits(
			strips.flatMap((strip) => strip.words.map((word) => word.surprisalBits)),
		);
		const spec = shown.run.models[model];
		return { strips, scaleBits, model: spec ? modelName(spec) : '' };
	});
	readonly #options: StimuliSessionOptions;
	readonly #now: () => number;

	constructor(options: StimuliSessionOptions) {
		super(STIMULI_RESUME);
		this.#options = options;
		this.#now = options.now ?? Date.now;
	}

	get fileName(): string | null {
		return this.#file?.name ?? null;
	}
	get header(): readonly string[] {
		return this.#file?.table.header ?? [];
	}
	get rowCount(): number {
		return this.#file?.table.rows.length ?? 0;
	}
	get delimiterWord(): string | null {
		return this.#file ? delimiterName(this.#file.table.delimiter) : null;
	}
	/** What is wrong with the picked file (located), or null. */
	get fileProblem(): string | null {
		return this.#fileProblem;
	}
	get shown(): StimuliShownRun | null {
		return this.#shown;
	}
	get heatStrips(): StimuliHeatStrips | null {
		return this.#heatStrips;
	}

	get figure(): StimuliFigure | null {
		return this.#figure;
	}

	/** The shared run a link opened (its next run is compared with it), or null. */
	get shared(): StimuliSharedRun | null {
		return this.#shared;
	}

	/** The choices as a run stores them; null before a file is read. */
	get choices(): StimuliChoices | null {
		const file = this.#file;
		if (!file) return null;
		const size = this.contextWords;
		return {
			layout: this.layout,
			textColumn: this.textColumn,
			groupColumn: this.groupColumn === '' ? null : this.groupColumn,
			contextColumn: this.layout === 'context-target' ? this.contextColumn : null,
			punctuation: this.layout === 'word-per-row' ? 'keep' : this.punctuation,
			delimiter: file.table.delimiter,
			orderColumn:
				this.layout === 'word-per-row' && this.orderColumn !== '' ? this.orderColumn : null,
			window:
				size === null || this.layout === 'context-target'
					? null
					: {
							contextWords: size,
							strideWords: this.strideWords ?? Math.max(1, Math.floor(size / 2)),
						},
			...(this.topNext !== null ? { topNext: this.topNext } : {}),
		};
	}

	/** The plan of the picked file with the choices, or why there is none (located). */
	#plan = $derived.by((): { plan: StimuliPlan } | { problem: string } | null => {
		const file = this.#file;
		const choices = this.choices;
		if (!file || !choices) return null;
		if (choices.layout === 'word-per-row' && choices.groupColumn === null) {
			return { problem: 'One word per row needs the column that groups words into sentences.' };
		}
		try {
			return { plan: planStimuliRun(file.text, choices, file.name) };
		} catch (error) {
			return { problem: describeError(error) };
		}
	});

	/** Words to score per model with the current choices, or null. */
	get wordCount(): number | null {
		const plan = this.#plan;
		return plan && 'plan' in plan ? plan.plan.wordCount : null;
	}

	/** Why Run is off; null when it can start. */
	get runProblem(): string | null {
		if (this.running) return 'A run is going on.';
		if (!this.#file) return this.#fileProblem ?? 'Pick a stimulus file first (CSV or TSV).';
		const plan = this.#plan;
		if (plan && 'problem' in plan) return plan.problem;
		if (this.models.length === 0) return 'Pick at least one model.';
		if (this.wordCount === 0) return 'The file has no words to score with these choices.';
		return null;
	}

	/** Reads a picked or dropped stimulus file (size checked before reading). Never throws. */
	async openFile(file: File): Promise<void> {
		this.#fileProblem = null;
		this.#shared = null;
		try {
			checkStimulusFileSize(file.size, file.name);
			const text = decodeStimulusBytes(new Uint8Array(await file.arrayBuffer()), file.name);
			const table = readStimulusTable(text, { source: file.name });
			this.#file = { name: file.name, text, table };
			this.#guessColumns(table.header);
			// The first model loads while the columns are picked: the first rows come sooner.
			const first = this.models[0];
			if (first !== undefined) void this.#options.load(bundledSpec(first)).catch(() => undefined);
		} catch (error) {
			this.#file = null;
			this.#fileProblem = describeError(error);
		}
	}

	#guessColumns(header: readonly string[]): void {
		const has = (name: string) => header.includes(name);
		if (!has(this.textColumn)) {
			this.textColumn = guessColumn(header, /^(sentence|text|stimulus|item_text|word|target)$/i);
		}
		if (this.groupColumn !== '' && !has(this.groupColumn)) this.groupColumn = '';
		if (!has(this.contextColumn)) this.contextColumn = guessColumn(header, /^context$/i);
		if (this.orderColumn !== '' && !has(this.orderColumn)) this.orderColumn = '';
	}

	/**
	 * Opens a share link's data (after `#/stimuli/share/`): its stimulus file, choices and model are
	 * set; Score words re-runs it and says whether every word's surprisal reproduces. A bad link,
	 * or one whose model does not run on this page, is said why. Never throws.
	 */
	openShare(data: string): void {
		try {
			const payload = STIMULI_RUN_KIND.share.decode(data);
			const { model, choices } = payload;
			if (model.source !== 'bundled' || !this.modelIds.includes(model.id)) {
				throw new Error(
					`The link's model (${describeModelSpec(model)}) is not one this page runs: ${this.modelIds.join(', ')}.`,
				);
			}
			const table = readStimulusTable(payload.text, {
				source: SHARED_STIMULI_FILE_NAME,
				delimiter: choices.delimiter as StimulusTable['delimiter'],
			});
			this.#file = { name: SHARED_STIMULI_FILE_NAME, text: payload.text, table };
			this.#fileProblem = null;
			this.layout = choices.layout;
			this.textColumn = choices.textColumn;
			this.groupColumn = choices.groupColumn ?? '';
			this.contextColumn = choices.contextColumn ?? '';
			this.orderColumn = choices.orderColumn ?? '';
			this.punctuation = choices.punctuation;
			this.contextWords = choices.window?.contextWords ?? null;
			this.strideWords = choices.window?.strideWords ?? null;
			this.topNext = choices.topNext ?? null;
			this.models = [model.id];
			this.#shared = {
				modelName: modelName(model),
				wordsSha256: payload.wordsSha256,
				wordCount: payload.wordCount,
			};
			this.say(
				`Opened a shared run: ${formatWords(payload.wordCount)} on ${modelName(model)}. Score words re-runs it and says whether every word's surprisal reproduces.`,
			);
		} catch (error) {
			this.#shared = null;
			this.say(`This link cannot be opened: ${describeError(error)}`);
		}
	}

	/**
	 * The shown run's link (#/stimuli/share/...): its stimulus file, choices, first model and a
	 * fingerprint of that model's words. Null while it is not done or its file is not stored.
	 * @throws ShareLinkError (too-large) when the file is over what a link carries
	 */
	shareHash(): string | null {
		const shown = this.#shown;
		const model = shown?.run.models[0];
		if (!shown || shown.run.status !== 'done' || shown.input === null || !model) return null;
		const words = shown.words.filter((word) => word.model === 0);
		return shareHashOf(STIMULI_RUN_KIND.share, {
			text: shown.input,
			choices: shown.run.choices,
			model,
			wordsSha256: stimuliWordsFingerprint(words),
			wordCount: words.length,
		});
	}

	/** After a finished re-run of a shared run: whether its first model's words match the link's. */
	#sayReproduced(shown: StimuliShownRun): void {
		const shared = this.#shared;
		if (!shared || shown.run.status !== 'done') return;
		const words = shown.words.filter((word) => word.model === 0);
		const same =
			words.length === shared.wordCount && stimuliWordsFingerprint(words) === shared.wordsSha256;
		this.say(
			same
				? `Reproduced ${words.length}/${shared.wordCount} words: every word's surprisal equals the shared run's (to 1e-6 bits).`
				: `Not reproduced: the ${formatWords(words.length)} scored here differ from the shared run's ${formatWords(shared.wordCount)} (a word's surprisal differs by more than 1e-6 bits, or the words differ).`,
		);
	}

	toggleModel(id: string, on: boolean): void {
		const others = this.models.filter((model) => model !== id);
		this.models = on ? this.modelIds.filter((m) => m === id || others.includes(m)) : others;
	}

	// ---- runs ----

	protected async listRuns(): Promise<readonly StimuliRunRecord[]> {
		const { runs } = await listRunsOfEveryKind();
		return runs.flatMap((run) => (isStimuliRun(run) ? [run] : []));
	}

	/** Scores the picked file with the choices on each model, storing words as they come. */
	async run(): Promise<void> {
		const file = this.#file;
		const choices = this.choices;
		const plan = this.#plan;
		if (this.runProblem !== null || !file || !choices || !plan || !('plan' in plan)) return;
		const models = this.models.map((id) => bundledSpec(id) as TextModelSpec);
		const now = this.#now();
		const record = await this.storeRun(async () => {
			const created = await createRunOfAnyKind({
				kind: 'stimuli',
				title: file.name,
				status: 'running',
				createdAt: now,
				updatedAt: now,
				fileName: file.name,
				fileSha256: sha256Hex(file.text),
				choices: $state.snapshot(choices) as StimuliChoices,
				models,
				wordsTotal: plan.plan.wordCount * models.length,
				wordsDone: 0,
			});
			await putRunItemsOfAnyKind(created.id, [
				{ kind: 'stimuli-input', key: STIMULI_INPUT_KEY, text: file.text },
			]);
			return created as unknown as StimuliRunRecord;
		});
		if (!record) return;
		await this.#execute(record, plan.plan, file.text, []);
	}

	/** Goes on with a stored run from the words it has. */
	async resume(id: number): Promise<void> {
		if (this.running) return;
		const run = await this.storedRun(() => this.#stimuliRun(id));
		if (!run) return;
		const { input, words } = STIMULI_RUN_KIND.fromStored?.(
			run,
			await listRunItemsOfAnyKind(id),
		) ?? {
			words: [],
		};
		if (input === undefined) {
			this.say('This run cannot resume: its stimulus file is not stored with it.');
			return;
		}
		let plan: StimuliPlan;
		try {
			plan = planStimuliRun(input, run.choices, run.fileName);
		} catch (error) {
			this.say(`This run cannot resume: ${describeError(error)}`);
			return;
		}
		await this.#execute(run, plan, input, words);
	}

	async #stimuliRun(id: number): Promise<StimuliRunRecord | undefined> {
		const run = await getRunOfAnyKind(id);
		return run && isStimuliRun(run) ? run : undefined;
	}

	/**
	 * Scores what is left of a stored run, request by request: each request's words are stored,
	 * then shown (the table grows as the run goes); at the end the stored run is shown.
	 */
	async #execute(
		record: StimuliRunRecord,
		plan: StimuliPlan,
		input: string,
		stored: readonly StimuliWordRow[],
	): Promise<void> {
		const total = record.wordsTotal;
		const live: StimuliWordRow[] = [...stored];
		const storedWords = record.models.map(
			(_, model) => stored.filter((word) => word.model === model).length,
		);
		let done = stored.length;
		let tokens = 0;
		const started = this.#now();
		this.workOn(record.id);
		await this.guardedRun(
			async (signal) => {
				this.setProgress({ done, total, tokens, elapsedMs: 0 });
				await updateRunOfAnyKind(record.id, { status: 'running', errorMessage: undefined });
				for (const [model, spec] of record.models.entries()) {
					if (spec.source === 'openai' || spec.source === 'replay') {
						throw new Error(
							`${describeModelSpec(spec)}: only models that run in this tab score stimuli here.`,
						);
					}
					const from = firstUnscoredWindow(plan, storedWords[model] ?? 0);
					if (from >= plan.windows.length) continue;
					const info = await this.#options.load(spec, signal);
					const convention = defaultConvention({ source: spec.source, id: spec.id }).convention;
					for (const [w, end] of stimuliRequests(plan, from)) {
						if (signal.aborted) {
							this.say(this.cancelledMessage(done, total));
							return 'cancelled';
						}
						const windows = plan.windows.slice(w, end);
						const result = await this.#scoreWindows(info, convention, windows, {
							signal,
							topNext: record.choices.topNext ?? null,
						});
						const words = collectStimulusWords(plan.passages, windows, result.windowTokens);
						const item = stimuliWordsItemOf(plan, w, words, model);
						await putRunItemsOfAnyKind(record.id, [item]);
						done += item.words.length;
						tokens += result.tokenCount;
						await updateRunOfAnyKind(record.id, { wordsDone: done });
						this.setProgress({ done, total, tokens, elapsedMs: this.#now() - started });
						live.push(...item.words);
						this.#showLive({ ...record, wordsDone: done }, plan, input, live);
					}
				}
				return 'done';
			},
			undefined,
			// The end is stored before the page reads as idle, so a list read then sees it.
			async (end) => {
				await updateRunOfAnyKind(record.id, {
					status: end.status,
					wordsDone: done,
					errorMessage: end.errorMessage,
				}).catch(() => undefined);
			},
		);
		await this.refreshRuns();
		// The words scored here are shown as they are (reading 10,000 stored words back would
		// pause the page); the record is read again for its end.
		const ended = await this.#stimuliRun(record.id);
		if (ended) this.#showLive(ended, plan, input, live);
		if (this.#shown?.run.id === record.id) this.#sayReproduced(this.#shown);
	}

	/** Shows the run going on as far as it got (the words scored so far, in the table's order). */
	#showLive(
		run: StimuliRunRecord,
		plan: StimuliPlan,
		input: string,
		words: readonly StimuliWordRow[],
	): void {
		if (this.#shown?.run.id !== run.id) this.#resetFigure(plan);
		this.#shown = shownRunOf(run, plan, input, [...words]);
	}

	#resetFigure(plan: StimuliPlan | null): void {
		this.figureModel = 0;
		this.figureCondition =
			plan?.table.header.find((name) => /^(condition|cond)$/iu.test(name)) ?? '';
		this.figureCritical =
			plan?.table.header.find((name) => /^critical([ _]?(word|position|index))?$/iu.test(name)) ??
			'';
	}

	/** Shows a stored run: its table (rebuilt from the stored input) and how it was made. */
	async show(id: number): Promise<void> {
		try {
			const run = await this.storedRun(() => this.#stimuliRun(id));
			if (!run) return;
			const bundle = STIMULI_RUN_KIND.fromStored?.(run, await listRunItemsOfAnyKind(id));
			const words = bundle?.words ?? [];
			const plan =
				bundle?.input === undefined
					? null
					: planStimuliRun(bundle.input, run.choices, run.fileName);
			if (this.#shown?.run.id !== id) this.#resetFigure(plan);
			this.#shown = shownRunOf(run, plan, bundle?.input ?? null, words);
		} catch (error) {
			this.say(`The run could not be shown: ${describeError(error)}`);
		}
	}

	/** Each window's scored tokens (in window order) for a loaded model, and the tokens counted. */
	async #scoreWindows(
		info: ModelInfo,
		convention: SurprisalConvention,
		windows: readonly StimulusWindow[],
		options: { readonly signal?: AbortSignal; readonly topNext?: number | null } = {},
	): Promise<{ windowTokens: StimulusToken[][]; tokenCount: number }> {
		const { signal, topNext } = options;
		const result = await this.#options.client.call(
			'scoreTexts',
			{
				modelKey: info.modelKey,
				texts: windows.map((window) => window.text),
				convention,
				wordBoundaries: true,
				...(topNext ? { topLogprobs: topNext } : {}),
			},
			signal ? { signal } : undefined,
		);
		// Results come in input order; a search only if one is not where it should be.
		const tokensOf = (index: number): StimulusToken[] => {
			const text = result.texts[index];
			const found = text?.index === index ? text : result.texts.find((t) => t.index === index);
			const tokens = found?.tokens ?? [];
			return topNext ? withTopNext(tokens, found?.topLogprobs ?? [], topNext) : [...tokens];
		};
		return {
			windowTokens: windows.map((_, index) => tokensOf(index)),
			tokenCount: result.tokenCount,
		};
	}

	/**
	 * The shown run's token table (one row per model token, as the CLI's `stimuli --tokens`), as
	 * CSV or TSV text: the run's words store no token values, so its windows are scored again with
	 * each of its models (progress in `message`). Null when nothing is shown, its stimulus file is
	 * not stored, or a model cannot run in this tab (said in `message`).
	 */
	async tokenTableText(format: StimulusOutputFormat): Promise<string | null> {
		const shown = this.#shown;
		if (!shown || shown.input === null) {
			this.say("The token table needs the run's stimulus file, which this run does not store.");
			return null;
		}
		try {
			const plan = planStimuliRun(shown.input, shown.run.choices, shown.run.fileName);
			const rows: string[][] = [];
			for (const [model, spec] of shown.run.models.entries()) {
				if (spec.source === 'openai' || spec.source === 'replay') {
					this.say(
						`${describeModelSpec(spec)}: only models that run in this tab give token tables here.`,
					);
					return null;
				}
				this.say(
					`Scoring every token again for the token table: ${modelName(spec)} (model ${model + 1} of ${shown.run.models.length})…`,
				);
				const info = await this.#options.load(spec);
				const { convention } = defaultConvention({ source: spec.source, id: spec.id });
				const windowTokens: StimulusToken[][] = [];
				for (const [w, end] of stimuliRequests(plan, 0)) {
					const scored = await this.#scoreWindows(info, convention, plan.windows.slice(w, end));
					windowTokens.push(...scored.windowTokens);
				}
				const [header, ...body] = stimulusTokenTableRows(
					plan.table,
					plan.passages,
					plan.windows,
					windowTokens,
					modelName(spec),
				);
				if (rows.length === 0 && header !== undefined) rows.push(header);
				rows.push(...body);
			}
			this.say(`Token table: ${formatCount(rows.length - 1, 'token row')}.`);
			return writeStimulusTable(rows, format);
		} catch (error) {
			this.say(`The token table could not be made: ${describeError(error)}`);
			return null;
		}
	}

	/** The shown run's whole table as CSV or TSV text. */
	tableText(format: StimulusOutputFormat): string | null {
		const shown = this.#shown;
		return shown
			? writeStimulusTable(tableRowsOf(shown.run, shown.table, shown.words), format)
			: null;
	}

	/** A stored run's sealed bundle (with its input, so the table can be rebuilt). */
	async bundleText(id: number): Promise<string | null> {
		const run = await this.#stimuliRun(id);
		if (!run || !STIMULI_RUN_KIND.fromStored) return null;
		return STIMULI_RUN_KIND.bundle.write(
			STIMULI_RUN_KIND.fromStored(run, await listRunItemsOfAnyKind(id)),
		);
	}

	/** Opens a stimuli run bundle: stored as a new run of this browser, then shown. */
	async importBundle(file: File): Promise<void> {
		const tooLarge = runFileSizeProblem(file.name, file.size);
		if (tooLarge !== null) {
			this.say(tooLarge);
			return;
		}
		try {
			const text = await file.text();
			const read = STIMULI_RUN_KIND.bundle.read(text);
			if (!read.ok) throw new Error(`${file.name}: ${read.pointer || '/'}: ${read.message}`);
			const run = await importRunBundleOfAnyKind(text);
			await this.refreshRuns();
			await this.show(run.id);
			this.say(`Opened ${file.name} as run ${run.id}.`);
		} catch (error) {
			this.say(`The bundle could not be opened: ${describeError(error)}`);
		}
	}

	async deleteRun(id: number): Promise<void> {
		if (this.running) return;
		await deleteRunOfAnyKind(id);
		if (this.#shown?.run.id === id) this.#shown = null;
		await this.refreshRuns();
	}
}

function formatWords(count: number): string {
	return formatCount(count, 'word');
}

/** The table of a run: its file's columns and the words' values (words only without its file). */
function tableRowsOf(
	run: StimuliRunRecord,
	table: StimulusTable | null,
	words: readonly StimuliWordRow[],
): string[][] {
	return table
		? stimuliTableRows(table, words, run.models.map(modelName), Boolean(run.choices.topNext))
		: wordsOnly(run, words);
}

/** A run as the page shows it; `words` in the table's order (by model, then place). */
function shownRunOf(
	run: StimuliRunRecord,
	plan: StimuliPlan | null,
	input: string | null,
	words: readonly StimuliWordRow[],
): StimuliShownRun {
	const table = plan?.table ?? null;
	return {
		run,
		table,
		// The first rows only: rebuilding every row after each request of a long run is work the
		// page would redo for nothing.
		rows: tableRowsOf(run, table, words.slice(0, STIMULI_SHOWN_ROWS)),
		rowCount: words.length,
		provenance: provenanceOf(run, plan, words),
		input,
		words,
	};
}

/** A run whose input is not stored: the words with their values, no input columns. */
function wordsOnly(run: StimuliRunRecord, words: readonly StimuliWordRow[]): string[][] {
	const names = run.models.map(modelName);
	return [
		['row', 'word_index', 'word', 'surprisal_bits', 'surprisal_bow_bits', 'model'],
		...words.map((word) => [
			String(word.row + 1),
			String(word.wordIndex + 1),
			word.word,
			String(word.surprisalBits),
			String(word.bowSurprisalBits ?? 'NA'),
			names[word.model] ?? '',
		]),
	];
}

/** The provenance lines of a run, as the CLI's `stimuli` writes them to stderr. */
function provenanceOf(
	run: StimuliRunRecord,
	plan: StimuliPlan | null,
	words: readonly StimuliWordRow[],
): string[] {
	return describeStimulusProvenance({
		source: run.fileName,
		delimiter: delimiterName(run.choices.delimiter as StimulusTable['delimiter']),
		layout: stimulusLayoutOf(run.choices),
		punctuation: run.choices.punctuation,
		models: run.models.map((spec) => {
			const chosen = defaultConvention(
				spec.source === 'openai' || spec.source === 'replay'
					? { source: 'openai', id: modelName(spec) }
					: { source: spec.source, id: spec.id },
			);
			return {
				model: modelName(spec),
				convention: chosen.convention,
				conventionReason: `the model's default: ${chosen.reason}`,
			};
		}),
		...(run.choices.window ? { window: run.choices.window } : {}),
		bow: run.models.every((spec) => spec.source !== 'openai'),
		entropy: words.some((word) => word.entropyBits !== null),
		...(run.choices.topNext ? { topNext: run.choices.topNext } : {}),
		passages: plan?.passages.length ?? 0,
		words: plan?.wordCount ?? words.filter((word) => word.model === 0).length,
	});
}
