/**
 * One stored run's results as the results view shows them: accuracies, item grid, region chart,
 * drill-down and the export files. Reads storage through repositories, scores with the core;
 * picks up items as the run session stores them (push, or polling until the run is done), and
 * reads them all again before an export (`readStored`).
 */
import { buildRegionChartSpec, type ChartSpec } from '../../../core/syntaxgym/charts/chart-spec';
import { describeError } from '../../../core/messages/describe-error';
import { writeRegionTableCsv } from '../../../core/syntaxgym/formats/region-table-csv';
import {
	buildItemGrid,
	groupTokensByRegion,
	type ItemGridRow,
	type RegionTokens,
} from '../../../core/syntaxgym/results/results-tables';
import { heatScaleBits } from '../../../core/syntaxgym/charts/surprisal-heat';
import { summarizeConditionMeans } from '../../../core/syntaxgym/aggregation/condition-means';
import { writeLmZooSurprisals } from '../../../core/syntaxgym/formats/lm-zoo-surprisals';
import { writeSuitesResultsTsv } from '../../../core/syntaxgym/formats/results-tsv';
import { writeWordSurprisalsTsv } from '../../../core/syntaxgym/formats/word-surprisals-tsv';
import {
	mergeRegionTokensIntoWords,
	sumSurprisalsToWords,
	type WordSurprisal,
} from '../../../core/scoring/word-surprisal';
import {
	correctRegionWords,
	hasWordBoundaries,
	sumCorrectedSurprisalsToWords,
} from '../../../core/scoring/word-boundary-correction';
import { formatFormula } from '../../../core/syntaxgym/formula/format-formula';
import {
	addScoredItems,
	assembleStoredRunScore,
	collectLmZooSentences,
	EMPTY_RUN_SCORES,
	orderStoredItems,
	type StoredRunScores,
} from '../../../core/syntaxgym/run/stored-run-scores';
import { SUITE_RUN_KIND } from '../../../core/syntaxgym/suite-run-kind';
import type { ItemResult, SuiteRun, ScoredSentence } from '../../../core/syntaxgym/run/suite-run';
import {
	ITEM_RULES,
	type ItemRule,
	type OutcomeSummary,
} from '../../../core/syntaxgym/scoring/summarize-outcomes';
import { buildSentence } from '../../../core/syntaxgym/suite/build-sentences';
import { METRIC_NAMES, type MetricName, type Suite } from '../../../core/syntaxgym/suite/types';
import {
	getItemResult,
	listItemResults,
} from '../../../storage/syntaxgym/suite-results-repository';
import { getSuiteRun } from '../../../storage/syntaxgym/suite-runs-repository';
import { loadRunWithSuite } from '../../io/stored-run';

export type SuiteRunResultsStatus = 'idle' | 'loading' | 'ready' | 'failed';

/** One prediction's accuracy under one metric, with its formula pretty-printed. */
export interface PredictionRow {
	readonly predictionId: number;
	readonly formula: string;
	readonly correct: number;
	readonly total: number;
	/** correct / total; NaN when no item has an outcome yet. */
	readonly accuracy: number;
}

/** Item accuracy under one of the two item rules, named as in ITEM_RULES. */
export interface ItemRuleRow {
	readonly rule: ItemRule;
	readonly label: string;
	readonly description: string;
	readonly correct: number;
	readonly total: number;
	readonly accuracy: number;
}

/** One condition's sentence of the drilled-down item, tokens grouped by region. */
export interface DrillDownSentence {
	readonly conditionName: string;
	readonly text: string;
	readonly regions: readonly RegionTokens[];
	/** Why the tokens could not be placed in regions, if they could not. */
	readonly problem?: string;
	/**
	 * The regions' tokens merged into words with the beginning-of-word correction (see
	 * `correctRegionWords`); absent when the item has no word-boundary values or they could not
	 * be placed (then `correctionProblem` says why).
	 */
	readonly correctedWordRegions?: readonly RegionTokens[];
	readonly correctionProblem?: string;
}

export interface DrillDown {
	readonly itemNumber: number;
	readonly sentences: readonly DrillDownSentence[];
	/** Bits at which the heat strip saturates; shared by the item's sentences. */
	readonly scaleBits: number;
	/** Every token of the item has its word-boundary value: words can be shown corrected. */
	readonly wordBoundaries: boolean;
}

/** A file to download: name, MIME type and text. */
export interface ExportFile {
	readonly fileName: string;
	readonly mimeType: string;
	readonly text: string;
}

/** A sentence's region words with the beginning-of-word correction, or why they cannot be. */
function correctedWords(
	scored: ScoredSentence,
	regions: readonly RegionTokens[],
): Pick<DrillDownSentence, 'correctedWordRegions' | 'correctionProblem'> {
	const words = sumCorrectedSurprisalsToWords(scored.text, scored.tokens);
	if (words === null) return {};
	try {
		return { correctedWordRegions: correctRegionWords(mergeRegionTokensIntoWords(regions), words) };
	} catch (error) {
		return { correctionProblem: describeError(error) };
	}
}

/** A file-name-safe stem from a suite name (`Subject-verb agreement` → `subject-verb-agreement`). */
function fileStem(name: string): string {
	const stem = name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return stem === '' ? 'suite' : stem.slice(0, 60);
}

export class SuiteRunResults {
	#run = $state.raw<SuiteRun | null>(null);
	#suite = $state.raw<Suite | null>(null);
	#suiteText = '';
	#stored = $state.raw<StoredRunScores>(EMPTY_RUN_SCORES);
	#status = $state<SuiteRunResultsStatus>('idle');
	#message = $state<string | null>(null);
	#metric = $state<MetricName | null>(null);
	#chartMetric = $state<MetricName | null>(null);
	#selectedItem = $state<number | null>(null);
	/** Increases with every open/close, so a slow load of an older run is dropped. */
	#generation = 0;
	#timer: ReturnType<typeof setTimeout> | null = null;

	/** How often a running run is re-read from storage (milliseconds). */
	pollIntervalMs = 1000;
	/** How often a cancelled or failed run is re-read (it may be resumed elsewhere). */
	idlePollIntervalMs = 3000;

	#score = $derived.by(() => {
		const suite = this.#suite;
		return suite ? assembleStoredRunScore(suite, this.#stored) : null;
	});

	#summary = $derived.by((): OutcomeSummary | null => this.#score?.summary ?? null);

	#grid = $derived.by((): readonly ItemGridRow[] => {
		const suite = this.#suite;
		const metric = this.metric;
		if (!suite || !metric) return [];
		return buildItemGrid(suite, this.#stored.scores, metric, this.#stored.problems);
	});

	#chart = $derived.by((): ChartSpec | null => {
		const suite = this.#suite;
		const metric = this.chartMetric;
		if (!suite || !metric) return null;
		const regionValues = this.#score?.regionValues ?? [];
		if (regionValues.length === 0) return null;
		return buildRegionChartSpec(
			summarizeConditionMeans(regionValues, metric),
			suite.regionNames,
			suite.conditionNames,
			metric,
		);
	});

	#wordBoundaries = $derived(
		hasWordBoundaries([...this.#stored.items.values()].flatMap((item) => item.sentences)),
	);

	#drillDown = $derived.by((): DrillDown | null => {
		const suite = this.#suite;
		const itemNumber = this.#selectedItem;
		if (!suite || itemNumber === null) return null;
		const item = suite.items.find((candidate) => candidate.itemNumber === itemNumber);
		const stored = this.#stored.items.get(itemNumber);
		if (!item || !stored) return null;
		const wordBoundaries = hasWordBoundaries(stored.sentences);
		const sentences = item.conditions.map((condition): DrillDownSentence => {
			const sentence = buildSentence(item.itemNumber, condition);
			const scored = stored.sentences.find((s) => s.conditionName === condition.conditionName);
			if (!scored) {
				return {
					conditionName: condition.conditionName,
					text: sentence.text,
					regions: [],
					problem: 'This sentence has no stored tokens.',
				};
			}
			try {
				const regions = groupTokensByRegion(sentence, scored.tokens, suite.regionNames);
				return {
					conditionName: condition.conditionName,
					text: sentence.text,
					regions,
					...(wordBoundaries ? correctedWords(scored, regions) : {}),
				};
			} catch (error) {
				return {
					conditionName: condition.conditionName,
					text: sentence.text,
					regions: [],
					problem: describeError(error),
				};
			}
		});
		const bits = stored.sentences.flatMap((s) =>
			s.tokens.filter((t) => !t.special).map((t) => t.surprisalBits),
		);
		return { itemNumber, sentences, scaleBits: heatScaleBits(bits), wordBoundaries };
	});

	get status(): SuiteRunResultsStatus {
		return this.#status;
	}

	/** What went wrong while loading, or null. */
	get message(): string | null {
		return this.#message;
	}

	get run(): SuiteRun | null {
		return this.#run;
	}

	get suite(): Suite | null {
		return this.#suite;
	}

	/**
	 * Every stored token of the run has its word-boundary value (the run was scored with word
	 * boundaries): word surprisals can be corrected and exported corrected.
	 */
	get wordBoundaries(): boolean {
		return this.#wordBoundaries;
	}

	/** Items stored so far (finished items). */
	get itemsDone(): number {
		return this.#stored.items.size;
	}

	/** The metric the tables and the chart show: the chosen one, else the suite's first. */
	get metric(): MetricName | null {
		const suite = this.#suite;
		if (!suite) return null;
		const chosen = this.#metric;
		return chosen !== null && this.metrics.includes(chosen)
			? chosen
			: (suite.meta.metrics[0] ?? null);
	}

	set metric(metric: MetricName) {
		this.#metric = metric;
	}

	/** Metrics with prediction outcomes: the suite's own. */
	get metrics(): readonly MetricName[] {
		return this.#suite?.meta.metrics ?? [];
	}

	/** The metric of the region chart: the chosen one, else the tables' metric. */
	get chartMetric(): MetricName | null {
		return this.#chartMetric ?? this.metric;
	}

	set chartMetric(metric: MetricName) {
		this.#chartMetric = metric;
	}

	/** Metrics the region chart can show (all six are computed). */
	get chartMetrics(): readonly MetricName[] {
		return METRIC_NAMES;
	}

	get summary(): OutcomeSummary | null {
		return this.#summary;
	}

	/** Accuracy of each prediction under the current metric, formulas pretty-printed. */
	get predictionRows(): readonly PredictionRow[] {
		const suite = this.#suite;
		const summary = this.#summary;
		const metric = this.metric;
		if (!suite || !metric) return [];
		return suite.predictions.map((prediction) => {
			const accuracy = summary?.predictions.find(
				(p) => p.metric === metric && p.predictionId === prediction.predictionId,
			);
			return {
				predictionId: prediction.predictionId,
				formula: formatFormula(prediction.ast),
				correct: accuracy?.correct ?? 0,
				total: accuracy?.total ?? 0,
				accuracy: accuracy?.accuracy ?? Number.NaN,
			};
		});
	}

	/** Item accuracy under both item rules (current metric), in ITEM_RULES order. */
	get itemRuleRows(): readonly ItemRuleRow[] {
		const summary = this.#summary;
		const metric = this.metric;
		return ITEM_RULES.map(({ rule, label, description }) => {
			const accuracy = summary?.items.find((i) => i.metric === metric && i.rule === rule);
			return {
				rule,
				label,
				description,
				correct: accuracy?.correct ?? 0,
				total: accuracy?.total ?? 0,
				accuracy: accuracy?.accuracy ?? Number.NaN,
			};
		});
	}

	/** One row per suite item: pass/fail by prediction and each condition's sentence. */
	get itemGrid(): readonly ItemGridRow[] {
		return this.#grid;
	}

	/** Items that could not be scored, with the reason. */
	get problems(): ReadonlyMap<number, string> {
		return this.#stored.problems;
	}

	/** Region-by-condition mean surprisal with 95% CI under `chartMetric`; null before data. */
	get chart(): ChartSpec | null {
		return this.#chart;
	}

	get selectedItem(): number | null {
		return this.#selectedItem;
	}

	/** The selected item's sentences with tokens by region, or null (none selected or not stored). */
	get drillDown(): DrillDown | null {
		return this.#drillDown;
	}

	/** Chooses the item to drill into (null closes the drill-down). */
	selectItem(itemNumber: number | null): void {
		this.#selectedItem = itemNumber;
	}

	/**
	 * Shows run `runId`: reads its record, suite and stored items, then keeps reading new items
	 * until the run is `done` (a cancelled or failed run may be resumed). Opening the run
	 * already shown only refreshes it. Never throws.
	 */
	async open(runId: number): Promise<void> {
		if (this.#run?.id === runId && this.#status !== 'failed') {
			await this.refresh();
			return;
		}
		this.#stopPolling();
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#message = null;
		this.#run = null;
		this.#suite = null;
		this.#stored = EMPTY_RUN_SCORES;
		this.#metric = null;
		this.#chartMetric = null;
		try {
			const { run, suiteText, suite } = await loadRunWithSuite(runId);
			if (generation !== this.#generation) return;
			const items = await listItemResults(runId);
			if (generation !== this.#generation) return;
			this.#suiteText = suiteText;
			this.#suite = suite;
			this.#run = run;
			this.#addItems(items);
			this.#status = 'ready';
			this.#schedulePoll();
		} catch (error) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#message = describeError(error);
		}
	}

	/** Re-reads the open run's record and any items stored since. Never throws. */
	async refresh(): Promise<void> {
		const current = this.#run;
		if (!current) return;
		const generation = this.#generation;
		try {
			const run = await getSuiteRun(current.id);
			if (generation !== this.#generation) return;
			if (!run) {
				this.#stopPolling();
				this.#status = 'failed';
				this.#message = `Run ${current.id} was deleted.`;
				return;
			}
			this.#run = run;
			if (run.itemsDone !== this.#stored.items.size) {
				const items = await listItemResults(run.id);
				if (generation !== this.#generation) return;
				this.#addItems(items.filter((item) => !this.#stored.items.has(item.itemNumber)));
			}
		} catch (error) {
			if (generation === this.#generation) this.#message = describeError(error);
		}
		if (generation === this.#generation) this.#schedulePoll();
	}

	/**
	 * Re-reads the open run's record and every item stored for it, so that what is shown, and an
	 * export made next, holds each stored item: right after a run ends, its last items may not
	 * have come by push or poll yet. False (and `message` says why) when storage could not be
	 * read or the run is gone. Never throws.
	 */
	async readStored(): Promise<boolean> {
		const current = this.#run;
		if (!current) return false;
		const generation = this.#generation;
		try {
			// The record first: every item it counts is stored by then.
			const run = await getSuiteRun(current.id);
			const items = run ? await listItemResults(run.id) : [];
			if (generation !== this.#generation) return false;
			if (!run) {
				this.#message = `Run ${current.id} was deleted.`;
				return false;
			}
			this.#run = run;
			this.#addItems(items.filter((item) => !this.#stored.items.has(item.itemNumber)));
			return true;
		} catch (error) {
			if (generation === this.#generation) this.#message = describeError(error);
			return false;
		}
	}

	/**
	 * Takes an item the run session has just stored (results appear at once, without waiting
	 * for the next poll). Items of other runs are ignored.
	 */
	async notifyItemSaved(runId: number, itemNumber: number): Promise<void> {
		if (this.#run?.id !== runId) return;
		const generation = this.#generation;
		const item = await getItemResult(runId, itemNumber);
		if (item && generation === this.#generation) this.#addItems([item]);
	}

	/** Stops showing the run and polling. */
	close(): void {
		this.#generation++;
		this.#stopPolling();
		this.#run = null;
		this.#suite = null;
		this.#stored = EMPTY_RUN_SCORES;
		this.#status = 'idle';
		this.#message = null;
		this.#selectedItem = null;
	}

	/** syntaxgym-core's result TSV (the CLI's `run` output for the same tokens): a run not under
	 * `reference` has a last column `convention`, as there. */
	exportResultsTsv(): ExportFile | null {
		const suite = this.#suite;
		const run = this.#run;
		if (!suite || !run) return null;
		const score = assembleStoredRunScore(suite, this.#stored);
		return {
			fileName: `${fileStem(suite.meta.name)}-run${run.id}-results.tsv`,
			mimeType: 'text/tab-separated-values',
			text: writeSuitesResultsTsv(
				[{ suiteName: suite.meta.name, outcomes: score.outcomes, metrics: suite.meta.metrics }],
				{ convention: run.convention },
			),
		};
	}

	/** Every region value (all six metrics) as CSV, items in suite order. */
	exportRegionTableCsv(): ExportFile | null {
		const suite = this.#suite;
		const run = this.#run;
		if (!suite || !run) return null;
		const { regionValues } = assembleStoredRunScore(suite, this.#stored);
		return {
			fileName: `${fileStem(suite.meta.name)}-run${run.id}-regions.csv`,
			mimeType: 'text/csv',
			text: writeRegionTableCsv(regionValues, METRIC_NAMES),
		};
	}

	/**
	 * Token surprisals in lm-zoo's TSV, one sentence per stored item and condition in suite
	 * order (items in file order, conditions in file order), special tokens included.
	 */
	exportSurprisalsTsv(): ExportFile | null {
		const suite = this.#suite;
		const run = this.#run;
		if (!suite || !run) return null;
		return {
			fileName: `${fileStem(suite.meta.name)}-run${run.id}-surprisals.tsv`,
			mimeType: 'text/tab-separated-values',
			text: writeLmZooSurprisals(collectLmZooSentences(suite, this.#stored)),
		};
	}

	/**
	 * Word-level surprisals next to the token TSV: one row per whitespace-separated word of every
	 * stored sentence (its tokens' surprisals summed, special tokens in no word), same order.
	 * With `bowCorrected` the words carry the beginning-of-word correction (column
	 * `surprisal_bow`); null then unless the run has word-boundary values (`wordBoundaries`).
	 */
	exportWordSurprisalsTsv(options: { readonly bowCorrected?: boolean } = {}): ExportFile | null {
		const suite = this.#suite;
		const run = this.#run;
		if (!suite || !run) return null;
		const bowCorrected = options.bowCorrected === true;
		if (bowCorrected && !this.#wordBoundaries) return null;
		const wordsOf = (text: string, tokens: ScoredSentence['tokens']): WordSurprisal[] =>
			// Every sentence has boundary values here (checked above): never plain sums as corrected.
			bowCorrected
				? (sumCorrectedSurprisalsToWords(text, tokens) ?? [])
				: sumSurprisalsToWords(text, tokens);
		const sentences = orderStoredItems(suite, this.#stored).flatMap((result) => {
			const item = suite.items.find((candidate) => candidate.itemNumber === result.itemNumber);
			return (item?.conditions ?? []).map((condition) => {
				const sentence = result.sentences.find((s) => s.conditionName === condition.conditionName);
				return {
					itemNumber: result.itemNumber,
					conditionName: condition.conditionName,
					words: sentence ? wordsOf(sentence.text, sentence.tokens) : [],
				};
			});
		});
		return {
			fileName: `${fileStem(suite.meta.name)}-run${run.id}-word-surprisals${bowCorrected ? '-bow' : ''}.tsv`,
			mimeType: 'text/tab-separated-values',
			text: writeWordSurprisalsTsv(sentences, bowCorrected ? { bowCorrected: true } : {}),
		};
	}

	/** The whole run (record, suite text, every token) as a JSON bundle that imports back. */
	exportBundle(): ExportFile | null {
		const suite = this.#suite;
		const run = this.#run;
		if (!suite || !run) return null;
		const { id: _id, itemsDone: _itemsDone, ...portable } = run;
		const items = orderStoredItems(suite, this.#stored);
		return {
			fileName: `${fileStem(suite.meta.name)}-run${run.id}.benchtop-run.json`,
			mimeType: 'application/json',
			text: SUITE_RUN_KIND.bundle.write({ run: portable, suiteText: this.#suiteText, items }),
		};
	}

	#addItems(items: readonly ItemResult[]): void {
		const suite = this.#suite;
		if (suite) this.#stored = addScoredItems(suite, this.#stored, items);
	}

	#schedulePoll(): void {
		this.#stopPolling();
		const status = this.#run?.status;
		if (status === undefined || status === 'done' || typeof setTimeout === 'undefined') return;
		this.#timer = setTimeout(
			() => {
				this.#timer = null;
				void this.refresh();
			},
			status === 'running' ? this.pollIntervalMs : this.idlePollIntervalMs,
		);
	}

	#stopPolling(): void {
		if (this.#timer !== null) clearTimeout(this.#timer);
		this.#timer = null;
	}
}
