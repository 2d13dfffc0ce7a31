/**
 * Prediction outcomes → accuracies: per prediction, and per item under the two rules found in
 * the literature, both reported and named. Pure; works on any subset of items (partial runs).
 */
import type { MetricName, Suite } from '../suite/types';
import type { PredictionOutcome } from './types';

/** How an item counts as correct when a suite has several predictions. */
export type ItemRule = 'all-predictions' | 'first-prediction';

export const ITEM_RULES: readonly {
	readonly rule: ItemRule;
	readonly label: string;
	readonly description: string;
}[] = [
	{
		rule: 'all-predictions',
		label: 'all predictions hold',
		description:
			'An item is correct when every prediction holds (HF evaluate metric cpllab/syntaxgym, brain-score).',
	},
	{
		rule: 'first-prediction',
		label: 'first prediction only',
		description:
			'An item is correct when prediction 0 holds (Hu et al. 2020 result files, sg-eval score.py).',
	},
];

export interface Accuracy {
	readonly correct: number;
	readonly total: number;
	/** correct / total; NaN when total is 0. */
	readonly accuracy: number;
}

export interface PredictionAccuracy extends Accuracy {
	readonly predictionId: number;
	readonly metric: MetricName;
}

export interface ItemAccuracy extends Accuracy {
	readonly rule: ItemRule;
	readonly metric: MetricName;
}

export interface OutcomeSummary {
	/** Metrics with outcomes, in suite order. */
	readonly metrics: readonly MetricName[];
	/** Item numbers with outcomes, in order of first appearance. */
	readonly itemNumbers: readonly number[];
	/** Metric by metric, predictions in order. */
	readonly predictions: readonly PredictionAccuracy[];
	/** Metric by metric, rules in ITEM_RULES order. */
	readonly items: readonly ItemAccuracy[];
}

function accuracyOf(correct: number, total: number): Accuracy {
	return { correct, total, accuracy: total === 0 ? Number.NaN : correct / total };
}

/**
 * Summarises `outcomes` (any items of `suite`, e.g. those finished so far). A prediction's
 * accuracy counts the items that have an outcome for it. "all predictions hold" counts an item
 * correct when all its outcomes under the metric are true; "first prediction only" looks at
 * prediction 0 alone (items without a prediction-0 outcome are not counted).
 */
export function summarizeOutcomes(
	suite: Suite,
	outcomes: readonly PredictionOutcome[],
): OutcomeSummary {
	const metrics = suite.meta.metrics.filter((metric) => outcomes.some((o) => o.metric === metric));
	const itemNumbers = [...new Set(outcomes.map((o) => o.itemNumber))];
	const predictions: PredictionAccuracy[] = [];
	const items: ItemAccuracy[] = [];
	for (const metric of metrics) {
		const ofMetric = outcomes.filter((o) => o.metric === metric);
		for (const { predictionId } of suite.predictions) {
			const ofPrediction = ofMetric.filter((o) => o.predictionId === predictionId);
			const correct = ofPrediction.filter((o) => o.result).length;
			predictions.push({ predictionId, metric, ...accuracyOf(correct, ofPrediction.length) });
		}
		const byItem = new Map<number, PredictionOutcome[]>();
		for (const outcome of ofMetric) {
			const list = byItem.get(outcome.itemNumber) ?? [];
			list.push(outcome);
			byItem.set(outcome.itemNumber, list);
		}
		const all = [...byItem.values()];
		items.push({
			rule: 'all-predictions',
			metric,
			...accuracyOf(all.filter((list) => list.every((o) => o.result)).length, all.length),
		});
		const firsts = all
			.map((list) => list.find((o) => o.predictionId === 0))
			.filter((o): o is PredictionOutcome => o !== undefined);
		items.push({
			rule: 'first-prediction',
			metric,
			...accuracyOf(firsts.filter((o) => o.result).length, firsts.length),
		});
	}
	return { metrics, itemNumbers, predictions, items };
}
