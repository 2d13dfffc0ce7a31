/**
 * The same suite across several runs (models) side by side: per-prediction and per-rule
 * accuracies per run, and the accuracy chart. Reads storage through repositories, scores with
 * the core; no maths here.
 */
import { buildAccuracyChartSpec, type ChartSpec } from '../../../core/syntaxgym/charts/chart-spec';
import { describeError } from '../../../core/messages/describe-error';
import {
	groupRunsBySuite,
	labelComparedRun,
	type ComparableSuite,
} from '../../../core/syntaxgym/run/compare-runs';
import {
	addScoredItems,
	assembleStoredRunScore,
	EMPTY_RUN_SCORES,
} from '../../../core/syntaxgym/run/stored-run-scores';
import { formatFormula } from '../../../core/syntaxgym/formula/format-formula';
import type { SuiteRun } from '../../../core/syntaxgym/run/suite-run';
import {
	ITEM_RULES,
	type OutcomeSummary,
} from '../../../core/syntaxgym/scoring/summarize-outcomes';
import { parseSuite } from '../../../core/syntaxgym/suite/parse-suite';
import type { MetricName, Suite } from '../../../core/syntaxgym/suite/types';
import { listItemResults } from '../../../storage/syntaxgym/suite-results-repository';
import { listSuiteRuns, listRunsForSuite } from '../../../storage/syntaxgym/suite-runs-repository';
import { getSuite } from '../../../storage/syntaxgym/suites-repository';

export type SuiteRunComparisonStatus = 'idle' | 'loading' | 'ready' | 'failed';

export type { ComparableSuite };

/** One run in the comparison with its outcome summary. */
export interface ComparedRun {
	readonly run: SuiteRun;
	/** A short column label: model id (and revision, dtype, backend when they differ). */
	readonly label: string;
	readonly summary: OutcomeSummary;
	/** Items that could not be scored. */
	readonly problemCount: number;
}

/** One accuracy row of the comparison table: a prediction or an item rule, one cell per run. */
export interface ComparisonRow {
	readonly key: string;
	readonly kind: 'prediction' | 'rule';
	/** `Prediction 0` or the rule's label. */
	readonly label: string;
	/** For the chart's axis: `P0`, or the rule's label. */
	readonly shortLabel: string;
	/** The pretty-printed formula, or the rule's description. */
	readonly detail: string;
	/** One per compared run, in `runs` order. */
	readonly cells: readonly {
		readonly correct: number;
		readonly total: number;
		readonly accuracy: number;
	}[];
}

export class SuiteRunComparison {
	#status = $state<SuiteRunComparisonStatus>('idle');
	#message = $state<string | null>(null);
	#suites = $state.raw<readonly ComparableSuite[]>([]);
	#suiteSha256 = $state<string | null>(null);
	#suite = $state.raw<Suite | null>(null);
	/** Every run of the suite, newest first. */
	#available = $state.raw<readonly SuiteRun[]>([]);
	#runs = $state.raw<readonly ComparedRun[]>([]);
	#selected = $state.raw<readonly number[]>([]);
	#metric = $state<MetricName | null>(null);
	#generation = 0;

	get status(): SuiteRunComparisonStatus {
		return this.#status;
	}

	get message(): string | null {
		return this.#message;
	}

	/** Suites with stored runs (most runs first), for the suite picker. */
	get suites(): readonly ComparableSuite[] {
		return this.#suites;
	}

	get suiteSha256(): string | null {
		return this.#suiteSha256;
	}

	get suite(): Suite | null {
		return this.#suite;
	}

	/** Every stored run of the suite, newest first. */
	get availableRuns(): readonly SuiteRun[] {
		return this.#available;
	}

	/** The compared runs, in the order of `availableRuns`. */
	get runs(): readonly ComparedRun[] {
		return this.#runs;
	}

	isSelected(runId: number): boolean {
		return this.#selected.includes(runId);
	}

	get metrics(): readonly MetricName[] {
		return this.#suite?.meta.metrics ?? [];
	}

	get metric(): MetricName | null {
		const chosen = this.#metric;
		if (chosen !== null && this.metrics.includes(chosen)) return chosen;
		return this.metrics[0] ?? null;
	}

	set metric(metric: MetricName) {
		this.#metric = metric;
	}

	/** Rows: every prediction, then both item rules; one cell per compared run. */
	get rows(): readonly ComparisonRow[] {
		const suite = this.#suite;
		const metric = this.metric;
		if (!suite || !metric) return [];
		const predictionRows = suite.predictions.map((prediction): ComparisonRow => ({
			key: `prediction-${prediction.predictionId}`,
			kind: 'prediction',
			label: `Prediction ${prediction.predictionId}`,
			shortLabel: `P${prediction.predictionId}`,
			detail: formatFormula(prediction.ast),
			cells: this.#runs.map(({ summary }) => {
				const found = summary.predictions.find(
					(p) => p.metric === metric && p.predictionId === prediction.predictionId,
				);
				return {
					correct: found?.correct ?? 0,
					total: found?.total ?? 0,
					accuracy: found?.accuracy ?? Number.NaN,
				};
			}),
		}));
		const ruleRows = ITEM_RULES.map(({ rule, label, description }): ComparisonRow => ({
			key: `rule-${rule}`,
			kind: 'rule',
			label: `Items: ${label}`,
			shortLabel: `Items: ${label}`,
			detail: description,
			cells: this.#runs.map(({ summary }) => {
				const found = summary.items.find((i) => i.metric === metric && i.rule === rule);
				return {
					correct: found?.correct ?? 0,
					total: found?.total ?? 0,
					accuracy: found?.accuracy ?? Number.NaN,
				};
			}),
		}));
		return [...predictionRows, ...ruleRows];
	}

	/** Accuracy per prediction and item rule (x axis), one series per run; null with no runs. */
	get chart(): ChartSpec | null {
		const suite = this.#suite;
		if (!suite || this.#runs.length === 0) return null;
		const rows = this.rows;
		return buildAccuracyChartSpec(
			rows.map((row) => row.shortLabel),
			this.#runs.map((compared, index) => ({
				label: compared.label,
				accuracies: rows.map((row) => row.cells[index]?.accuracy ?? null),
			})),
			`Accuracy by prediction and item rule (${this.metric ?? ''}), per model`,
		);
	}

	/**
	 * Loads the suites that have runs and, with `suiteSha256`, that suite's runs (all selected
	 * at first). Never throws; a failure becomes `message`.
	 */
	async open(suiteSha256?: string): Promise<void> {
		const generation = ++this.#generation;
		this.#status = 'loading';
		this.#message = null;
		try {
			const all = await listSuiteRuns();
			if (generation !== this.#generation) return;
			this.#suites = groupRunsBySuite(all);
			if (suiteSha256 === undefined) {
				this.#suiteSha256 = null;
				this.#suite = null;
				this.#available = [];
				this.#runs = [];
				this.#status = 'ready';
				return;
			}
			const saved = await getSuite(suiteSha256);
			if (generation !== this.#generation) return;
			if (!saved) throw new Error('This suite is not stored in this browser.');
			const parsed = parseSuite(saved.text);
			if (!parsed.ok) throw new Error('The stored suite no longer parses.');
			const available = await listRunsForSuite(suiteSha256);
			if (generation !== this.#generation) return;
			this.#suiteSha256 = suiteSha256;
			this.#suite = parsed.suite;
			this.#available = available;
			this.#selected = available.map((run) => run.id);
			await this.#load(generation);
		} catch (error) {
			if (generation !== this.#generation) return;
			this.#status = 'failed';
			this.#message = describeError(error);
		}
	}

	/** Adds or removes a run from the comparison. */
	async toggleRun(runId: number): Promise<void> {
		this.#selected = this.#selected.includes(runId)
			? this.#selected.filter((id) => id !== runId)
			: [...this.#selected, runId];
		const generation = ++this.#generation;
		try {
			await this.#load(generation);
		} catch (error) {
			if (generation === this.#generation) this.#message = describeError(error);
		}
	}

	async #load(generation: number): Promise<void> {
		const suite = this.#suite;
		if (!suite) return;
		const chosen = this.#available.filter((run) => this.#selected.includes(run.id));
		const compared: ComparedRun[] = [];
		for (const run of chosen) {
			const items = await listItemResults(run.id);
			if (generation !== this.#generation) return;
			const stored = addScoredItems(suite, EMPTY_RUN_SCORES, items, suite.meta.metrics);
			compared.push({
				run,
				label: labelComparedRun(run, chosen),
				summary: assembleStoredRunScore(suite, stored).summary,
				problemCount: stored.problems.size,
			});
		}
		this.#runs = compared;
		this.#status = 'ready';
	}
}
