/**
 * Region means by condition over items, with t-based confidence intervals: the data behind the
 * region charts. Pure; takes region values, knows nothing of models or storage.
 */
import type { MetricName } from '../suite/types';
import type { RegionValue } from './region-value';
import { studentTQuantile } from './student-t';

/** The mean of one region of one condition over items, under one metric (bits). */
export interface ConditionRegionMean {
	readonly conditionName: string;
	readonly regionNumber: number;
	readonly metric: MetricName;
	/** Items with a finite value here (NaN, infinite and undefined values are left out). */
	readonly itemCount: number;
	/** NaN when no item has a finite value. */
	readonly mean: number;
	/** Sample standard deviation (n − 1); NaN below two items. */
	readonly standardDeviation: number;
	/** Bounds of the `confidence` interval, mean ± t(n − 1) · sd / √n; null below two items. */
	readonly ciLow: number | null;
	readonly ciHigh: number | null;
}

/**
 * Groups `regionValues` by condition and region (conditions in order of first appearance,
 * regions ascending) and summarises `metric` over items with a Student-t interval at
 * `confidence` (default 0.95): with few items (n is often 20–40) the normal 1.96 is too narrow.
 */
export function summarizeConditionMeans(
	regionValues: readonly RegionValue[],
	metric: MetricName,
	confidence = 0.95,
): ConditionRegionMean[] {
	const groups = new Map<
		string,
		{ conditionName: string; regionNumber: number; values: number[] }
	>();
	const conditionOrder = new Map<string, number>();
	for (const value of regionValues) {
		if (!conditionOrder.has(value.conditionName)) {
			conditionOrder.set(value.conditionName, conditionOrder.size);
		}
		const key = `${value.conditionName}\u0000${value.regionNumber}`;
		let group = groups.get(key);
		if (!group) {
			group = { conditionName: value.conditionName, regionNumber: value.regionNumber, values: [] };
			groups.set(key, group);
		}
		const metricValue = value.values[metric];
		if (typeof metricValue === 'number' && Number.isFinite(metricValue)) {
			group.values.push(metricValue);
		}
	}
	return [...groups.values()]
		.sort(
			(a, b) =>
				(conditionOrder.get(a.conditionName) ?? 0) - (conditionOrder.get(b.conditionName) ?? 0) ||
				a.regionNumber - b.regionNumber,
		)
		.map(({ conditionName, regionNumber, values }) => {
			const n = values.length;
			const mean = n === 0 ? Number.NaN : values.reduce((sum, x) => sum + x, 0) / n;
			const standardDeviation =
				n < 2
					? Number.NaN
					: Math.sqrt(values.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1));
			const halfWidth =
				n < 2
					? null
					: (studentTQuantile(1 - (1 - confidence) / 2, n - 1) * standardDeviation) / Math.sqrt(n);
			return {
				conditionName,
				regionNumber,
				metric,
				itemCount: n,
				mean,
				standardDeviation,
				ciLow: halfWidth === null ? null : mean - halfWidth,
				ciHigh: halfWidth === null ? null : mean + halfWidth,
			};
		});
}
