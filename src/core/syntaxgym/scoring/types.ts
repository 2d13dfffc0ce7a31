/**
 * Types of the scoring pipeline: token surprisals → region values → prediction outcomes.
 * Produced by core functions, stored by storage, shown by ui. Plain data.
 */
import type { MetricValue } from '../aggregation/region-value';
import type { MetricName } from '../suite/types';

export type { ScoredToken } from '../../scoring/scored-token';

export type { MetricValue, RegionValue } from '../aggregation/region-value';

/** The outcome of one prediction on one item under one metric. */
export interface PredictionOutcome {
	readonly itemNumber: number;
	readonly predictionId: number;
	readonly metric: MetricName;
	/** What the formula evaluated to (a boolean for comparisons). */
	readonly value: number | boolean;
	/** Python truthiness of `value`: the `True`/`False` of syntaxgym-core's result TSV. */
	readonly result: boolean;
}

/** One region's values read from a table. */
export interface RegionValueRow {
	/** 1-based line of the (first) row for this region. */
	readonly line: number;
	readonly itemNumber: number;
	readonly conditionName: string;
	readonly regionNumber: number;
	/** The `content` column, when the table has one (used to check the table fits the suite). */
	readonly content?: string;
	readonly values: Readonly<Partial<Record<MetricName, MetricValue>>>;
}
