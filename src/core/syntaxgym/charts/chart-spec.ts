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
	/**
	 * Values the value axis must reach when its range is free (the whiskers' ends), so that no
	 * confidence interval is cut at the top or bottom of the axis.
	 */
	readonly ySuggestedMin?: number;
	readonly ySuggestedMax?: number;
}

/** The lowest and highest of the series' values and interval bounds; undefined when none. */
export function seriesExtent(
	series: readonly ChartSeries[],
): { readonly min: number; readonly max: number } | undefined {
	let min = Number.POSITIVE_INFINITY;
	let max = Number.NEGATIVE_INFINITY;
	for (const { values, low = [], high = [] } of series) {
		for (const value of [...values, ...low, ...high]) {
			if (value === null || !Number.isFinite(value)) continue;
			min = Math.min(min, value);
			max = Math.max(max, value);
		}
	}
	return min <= max ? { min, max } : undefined;
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
	const series = conditionNames.map((condition) => ({
		label: condition,
		values: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.mean)),
		low: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.ciLow)),
		high: regionNumbers.map((region) => finiteOrNull(find(condition, region)?.ciHigh)),
	}));
	const extent = seriesExtent(series);
	return {
		title: `Mean region surprisal (${metricLabel}) by condition, with 95% CI`,
		xLabel: 'Region',
		yLabel: `Surprisal, ${metricLabel} (bits)`,
		labels: regionNumbers.map((number, index) => `${number}: ${regionNames[index] ?? ''}`),
		series,
		...(extent === undefined ? {} : { ySuggestedMin: extent.min, ySuggestedMax: extent.max }),
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
