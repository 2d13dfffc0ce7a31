/**
 * A region's metric values (sum, mean, ... of its tokens' surprisals): the shape the aggregation
 * computes and the scoring, tables and charts read. Types only.
 */
import type { MetricName } from '../suite/types';

/** The value of one region under one metric; `null` = undefined (range/max/min of an empty region). */
export type MetricValue = number | null;

export interface RegionValue {
	readonly itemNumber: number;
	readonly conditionName: string;
	readonly regionNumber: number;
	readonly content: string;
	/** The model tokens assigned to this region, in order. */
	readonly tokens: readonly string[];
	readonly surprisalsBits: readonly number[];
	/** Tokens skipped as out-of-vocabulary (`<unk>` look-ahead of the heuristic alignment). */
	readonly oovs: readonly string[];
	readonly values: Readonly<Partial<Record<MetricName, MetricValue>>>;
}
