/**
 * Types of the scoring pipeline: token surprisals → region values → prediction outcomes.
 * Produced by core functions, stored by storage, shown by ui. Plain data.
 */
import type { MetricValue } from '../aggregation/region-value';
import type { MetricName } from '../suite/types';

/**
 * One token of one sentence with its surprisal in bits (-log2 p). `start`/`end` are UTF-16
 * offsets into the sentence ([start, end)); engines always give them, imported lm-zoo files
 * (token strings only) do not. A token with no left context has surprisalBits 0 (reference).
 */
export interface ScoredToken {
	readonly token: string;
	readonly surprisalBits: number;
	readonly start?: number;
	readonly end?: number;
	/** BOS/EOS and other special tokens that are not text of the sentence. */
	readonly special?: boolean;
	/**
	 * −log₂ P(the token after this one starts a word | the text through this token): the
	 * beginning-of-word correction's boundary term (see `core/surprisal/word-surprisal.ts`).
	 * Present only when scoring was asked for word boundaries (`wordBoundaries`).
	 */
	readonly boundarySurprisalBits?: number;
}

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
