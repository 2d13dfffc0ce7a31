/**
 * A battery's numbers from the core's prediction outcomes: per suite, item accuracy per
 * prediction (with its Wilson interval) and per item rule; circuit means; the SG score of
 * Hu et al. (2020): the unweighted mean over suites of item accuracy. Pure.
 */
import type { ItemRule } from '../scoring/summarize-outcomes';
import type { PredictionOutcome } from '../scoring/types';
import type { MetricName, Suite } from '../suite/types';
import {
	HU2020_CIRCUITS,
	UNGROUPED,
	isHu2020Excluded,
	suiteCircuit,
	type CircuitSource,
} from './circuits';
import { wilsonInterval, type ProportionInterval } from './intervals';

/** One suite of a battery run: the suite and its outcomes (any items scored so far). */
export interface BatterySuiteInput {
	readonly suite: Suite;
	readonly outcomes: readonly PredictionOutcome[];
}

/** Items counted, items correct, their share and its 95% Wilson interval. */
export interface CellAccuracy {
	/** A prediction id, or `all` for items on which every prediction holds. */
	readonly prediction: number | 'all';
	readonly items: number;
	readonly correct: number;
	/** correct / items; NaN when no item counts. */
	readonly accuracy: number;
	/** Undefined when no item counts. */
	readonly interval: ProportionInterval | undefined;
}

/** One suite's cell of the model × suite matrix. */
export interface BatterySuiteCell {
	readonly suiteName: string;
	readonly circuit: string;
	readonly circuitSource: CircuitSource;
	/** The metric the outcomes are read under: the suite's first (`meta.metric`). */
	readonly metric: MetricName;
	/** False for the suites Hu et al.'s master notebook leaves out of the SG score. */
	readonly inSgScore: boolean;
	/** One per prediction of the suite, in order. */
	readonly predictions: readonly CellAccuracy[];
	/** Items with an outcome for every prediction, correct when all hold. */
	readonly allPredictions: CellAccuracy;
	/** Each counted item's result (item number → correct) under each item rule. */
	readonly itemResults: Readonly<Record<ItemRule, ReadonlyMap<number, boolean>>>;
}

/**
 * The item rule of the SG score unless another is asked for: Hu et al.'s evaluator kept each
 * suite's first prediction only, and their published per-item results are prediction 0.
 */
export const DEFAULT_SG_RULE: ItemRule = 'first-prediction';

function cellOf(prediction: number | 'all', results: ReadonlyMap<number, boolean>): CellAccuracy {
	const items = results.size;
	const correct = [...results.values()].filter(Boolean).length;
	return {
		prediction,
		items,
		correct,
		accuracy: items === 0 ? Number.NaN : correct / items,
		interval: wilsonInterval(correct, items),
	};
}

/**
 * One suite's cell: its outcomes under the suite's first metric, grouped by prediction and by
 * item. An item counts for a prediction when it has that prediction's outcome, and for "all
 * predictions" when it has every prediction's outcome.
 */
export function batterySuiteCell({ suite, outcomes }: BatterySuiteInput): BatterySuiteCell {
	const metric = suite.meta.metrics[0] ?? 'sum';
	const byPrediction = suite.predictions.map(() => new Map<number, boolean>());
	for (const outcome of outcomes) {
		if (outcome.metric !== metric) continue;
		byPrediction[outcome.predictionId]?.set(outcome.itemNumber, outcome.result);
	}
	const first = byPrediction[0] ?? new Map<number, boolean>();
	const all = new Map<number, boolean>();
	for (const itemNumber of first.keys()) {
		const results = byPrediction.map((results) => results.get(itemNumber));
		if (results.every((result) => result !== undefined)) {
			all.set(
				itemNumber,
				results.every((result) => result === true),
			);
		}
	}
	const { circuit, source } = suiteCircuit(suite);
	return {
		suiteName: suite.meta.name,
		circuit,
		circuitSource: source,
		metric,
		inSgScore: !isHu2020Excluded(suite.meta.name),
		predictions: byPrediction.map((results, id) => cellOf(id, results)),
		allPredictions: cellOf('all', all),
		itemResults: { 'first-prediction': first, 'all-predictions': all },
	};
}

/** A suite's item accuracy under `rule`: prediction 0's cell, or the all-predictions cell. */
export function itemAccuracy(cell: BatterySuiteCell, rule: ItemRule): CellAccuracy {
	return rule === 'first-prediction'
		? (cell.predictions[0] ?? cellOf(0, new Map()))
		: cell.allPredictions;
}

/** The mean item accuracy of one circuit's suites. */
export interface CircuitMean {
	readonly circuit: string;
	/** Suites averaged (those in the SG score with at least one item counted). */
	readonly suites: number;
	readonly mean: number;
}

/** Why a suite of the battery does not enter the SG score. */
export interface LeftOutSuite {
	readonly suiteName: string;
	/** `hu2020-excluded`: the master notebook leaves it out; `no-items`: nothing counted. */
	readonly reason: 'hu2020-excluded' | 'no-items';
}

/** The SG score of a battery under one item rule, with its circuit means. */
export interface SgScore {
	readonly rule: ItemRule;
	/** Mean over the counted suites of item accuracy; NaN when no suite counts. */
	readonly score: number;
	/** Suites averaged. */
	readonly suites: number;
	/** Hu et al.'s circuits first (their order), then others as they appear, `ungrouped` last. */
	readonly circuits: readonly CircuitMean[];
	readonly leftOut: readonly LeftOutSuite[];
}

function mean(values: readonly number[]): number {
	return values.length === 0
		? Number.NaN
		: values.reduce((total, value) => total + value, 0) / values.length;
}

function circuitRank(circuit: string, firstSeen: readonly string[]): number {
	const hu = HU2020_CIRCUITS.findIndex((entry) => entry.circuit === circuit);
	if (hu >= 0) return hu;
	if (circuit === UNGROUPED) return Number.MAX_SAFE_INTEGER;
	return HU2020_CIRCUITS.length + firstSeen.indexOf(circuit);
}

/**
 * The SG score as the master notebook computes it: each suite's item accuracy (under `rule`),
 * then the unweighted mean over suites, leaving out the suites the notebook excludes and suites
 * with no item counted; circuit means likewise over each circuit's suites.
 */
export function sgScore(
	cells: readonly BatterySuiteCell[],
	rule: ItemRule = DEFAULT_SG_RULE,
): SgScore {
	const leftOut: LeftOutSuite[] = [];
	const counted: { circuit: string; accuracy: number }[] = [];
	for (const cell of cells) {
		const { items, accuracy } = itemAccuracy(cell, rule);
		if (!cell.inSgScore) leftOut.push({ suiteName: cell.suiteName, reason: 'hu2020-excluded' });
		else if (items === 0) leftOut.push({ suiteName: cell.suiteName, reason: 'no-items' });
		else counted.push({ circuit: cell.circuit, accuracy });
	}
	const firstSeen = [...new Set(counted.map((entry) => entry.circuit))];
	const circuits = [...firstSeen]
		.sort((a, b) => circuitRank(a, firstSeen) - circuitRank(b, firstSeen))
		.map((circuit) => {
			const accuracies = counted.filter((e) => e.circuit === circuit).map((e) => e.accuracy);
			return { circuit, suites: accuracies.length, mean: mean(accuracies) };
		});
	return {
		rule,
		score: mean(counted.map((entry) => entry.accuracy)),
		suites: counted.length,
		circuits,
		leftOut,
	};
}

/** A battery run scored: a cell per suite (input order) and the SG score under each item rule. */
export interface BatteryScore {
	readonly cells: readonly BatterySuiteCell[];
	readonly sg: Readonly<Record<ItemRule, SgScore>>;
}

/** Scores a battery run: {@link batterySuiteCell} for each suite, {@link sgScore} under both rules. */
export function scoreBattery(inputs: readonly BatterySuiteInput[]): BatteryScore {
	const cells = inputs.map(batterySuiteCell);
	return {
		cells,
		sg: {
			'first-prediction': sgScore(cells, 'first-prediction'),
			'all-predictions': sgScore(cells, 'all-predictions'),
		},
	};
}
