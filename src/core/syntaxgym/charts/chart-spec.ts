/**
 * Chart data as plain values, built from core results: the region-by-condition means with 95% CI
 * and the accuracy comparison. The UI's one Chart.js component draws a ChartSpec; no drawing here.
 */
import type { ConditionRegionMean } from '../aggregation/condition-means';

export interface ChartSeries {
	readonly label: string;
	/** One value per category label; null = no value (drawn as a gap). */
	readonly values: readonly (number | null)[];
	/** Confidence interval bounds per category (same length as `values`), if any. */
	readonly low?: readonly (number | null)[];
	readonly high?: readonly (number | null)[];
}

export interface ChartSpec {
	readonly title: string;
	readonly xLabel: string;
	readonly yLabel: string;
	/** Category axis labels. */
	readonly labels: readonly string[];
	readonly series: readonly ChartSeries[];
	/** Fixed value-axis range, e.g. [0, 1] for accuracies. */
	readonly yMin?: number;
	readonly yMax?: number;
}

function finiteOrNull(value: number | null | undefined): number | null {
	return value !== null && value !== undefined && Number.isFinite(value) ? value : null;
}

/**
 * Regions on the x axis (named `k: region name`), one series per condition (in `conditionNames`
 * order), mean surprisal over items with its CI bounds.
 */
export function buildRegionChartSpec(
	means: readonly ConditionRegionMean[],
	regionNames: readonly string[],
	conditionNames: readonly string[],
	metricLabel: string,
): ChartSpec {
	const regionNumbers = regionNames.map((_, index) => index + 1);
	const find = (condition: string, region: number) =>
		means.find((m) => m.conditionName === condition && m.regionNumber === region);
	return {
		title: `Mean region surprisal (${metricLabel}) by condition, with 95% CI`,
		xLabel: 'Region',
		yLabel: `Surprisal, ${metricLabel} (bits)`,
		labels: regionNumbers.map((number, index) => `${number}: ${regionNames[index] ?? ''}`),
		series: conditionNames.map((condition) => ({
			label: condition,
			values: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.mean)),
			low: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.ciLow)),
			high: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.ciHigh)),
		})),
	};
}

/** One accuracy per prediction (category) for one model (series). */
export interface AccuracySeries {
	readonly label: string;
	/** Accuracy in [0, 1] per prediction, null where the run has no outcome for it. */
	readonly accuracies: readonly (number | null)[];
}

/** Predictions on the x axis, one series per model/run, accuracy in [0, 1]. */
export function buildAccuracyChartSpec(
	predictionLabels: readonly string[],
	series: readonly AccuracySeries[],
	title: string,
): ChartSpec {
	return {
		title,
		xLabel: 'Prediction',
		yLabel: 'Accuracy',
		labels: predictionLabels,
		series: series.map((s) => ({ label: s.label, values: s.accuracies.map(finiteOrNull) })),
		yMin: 0,
		yMax: 1,
	};
}
