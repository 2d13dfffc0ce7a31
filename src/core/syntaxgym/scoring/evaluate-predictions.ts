/**
 * Region values of one item → the outcome of every prediction under every metric of the suite
 * (syntaxgym-core `Prediction.__call__`, extended to multi-metric suites). Pure.
 */
import { FormulaEvaluationError } from '../../errors';
import { evaluateFormula, isTruthy } from '../formula/evaluate-formula';
import { sumSequential } from '../aggregation/region-metrics';
import type { Item, MetricName, Suite } from '../suite/types';
import type { PredictionOutcome, RegionValue } from './types';

/**
 * Evaluates each prediction of `suite` on `item` under each metric in `metrics` (default the
 * suite's), outcomes metric by metric, predictions in order. A region reference `(N;%c%)` reads
 * that region's value; `(*;%c%)` is the Python `sum` over all regions of condition c in region
 * order. An undefined value (`null`: range/max/min of an empty region) reads as NaN, so
 * comparisons with it are False, as with the reference's NaN means.
 * @throws FormulaEvaluationError naming the item, prediction and metric when a referenced
 * region has no value in `regionValues`.
 */
export function evaluateItemPredictions(
	suite: Suite,
	item: Item,
	regionValues: readonly RegionValue[],
	metrics: readonly MetricName[] = suite.meta.metrics,
): PredictionOutcome[] {
	const byRegion = new Map<string, RegionValue>();
	for (const value of regionValues) {
		if (value.itemNumber === item.itemNumber) {
			byRegion.set(`${value.conditionName}\u0000${value.regionNumber}`, value);
		}
	}
	const outcomes: PredictionOutcome[] = [];
	for (const metric of metrics) {
		const read = (conditionName: string, regionNumber: number): number => {
			const value = byRegion.get(`${conditionName}\u0000${regionNumber}`)?.values[metric];
			if (value === undefined) {
				throw new Error(`not among the region values given`);
			}
			return value === null ? Number.NaN : value;
		};
		const lookup = (conditionName: string, regionNumber: number | '*'): number => {
			if (regionNumber !== '*') return read(conditionName, regionNumber);
			const condition = item.conditions.find((c) => c.conditionName === conditionName);
			if (!condition) throw new Error(`item ${item.itemNumber} has no such condition`);
			return sumSequential(
				condition.regions.map((region) => read(conditionName, region.regionNumber)),
			);
		};
		for (const prediction of suite.predictions) {
			let value: number | boolean;
			try {
				value = evaluateFormula(prediction.ast, lookup);
			} catch (error) {
				if (!(error instanceof FormulaEvaluationError)) throw error;
				throw new FormulaEvaluationError(
					`item ${item.itemNumber}, prediction ${prediction.predictionId} (${prediction.formula}) ` +
						`under metric ${metric}: ${error.message}`,
					error.column,
				);
			}
			outcomes.push({
				itemNumber: item.itemNumber,
				predictionId: prediction.predictionId,
				metric,
				value,
				result: isTruthy(value),
			});
		}
	}
	return outcomes;
}
