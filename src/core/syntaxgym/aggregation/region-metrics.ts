/**
 * The six region metrics of syntaxgym-core (`syntaxgym/utils.py` METRICS), bit-for-bit: Python
 * `sum`/`max`/`min` and numpy `mean`/`median`/`ptp` over a region's token surprisals. Pure math.
 */
import type { MetricName } from '../suite/types';
import type { MetricValue } from './region-value';

/** A region metric: the function plus the facts about it (lm-eval's `@register_metric` idea). */
export interface MetricDefinition {
	readonly name: MetricName;
	/** What the reference calls (`sum`, `np.mean`, ...), for docs and tooltips. */
	readonly reference: string;
	/** One line for people: what the value means. */
	readonly description: string;
	/**
	 * The value of a region with no tokens: `0` (sum), `NaN` (mean, median: numpy warns and
	 * returns nan) or `null` = undefined (range, max, min: the reference raises).
	 */
	readonly emptyValue: MetricValue;
	/** Computes the metric over token surprisals in bits, in token order. Never throws. */
	readonly compute: (surprisalsBits: readonly number[]) => MetricValue;
}

/** numpy's pairwise-summation block size (`PW_BLOCKSIZE` in numpy's loops_utils.h). */
const PAIRWISE_BLOCK_SIZE = 128;
/** numpy unrolls the inner loop into 8 partial sums. */
const PAIRWISE_UNROLL = 8;

/**
 * Python `sum(values)`: plain left-to-right float addition starting from 0 (Python 3.11 and
 * older; 3.12 switched to compensated summation). Empty → 0.
 */
export function sumSequential(values: readonly number[]): number {
	let total = 0;
	for (const value of values) total += value;
	return total;
}

/**
 * numpy's `pairwise_sum_DOUBLE` over `values[start, start + count)`: fewer than 8 values are
 * added in order; up to 128 use 8 interleaved accumulators combined as a tree; longer runs are
 * split in two at a multiple of 8 and summed recursively.
 */
export function pairwiseSumNumpy(
	values: readonly number[],
	start = 0,
	count = values.length - start,
): number {
	const at = (index: number): number => values[index] as number;
	if (count < PAIRWISE_UNROLL) {
		let total = 0;
		for (let i = 0; i < count; i++) total += at(start + i);
		return total;
	}
	if (count <= PAIRWISE_BLOCK_SIZE) {
		const partial = [0, 1, 2, 3, 4, 5, 6, 7].map((j) => at(start + j));
		let i = PAIRWISE_UNROLL;
		for (; i < count - (count % PAIRWISE_UNROLL); i += PAIRWISE_UNROLL) {
			for (let j = 0; j < PAIRWISE_UNROLL; j++) {
				partial[j] = (partial[j] as number) + at(start + i + j);
			}
		}
		const [r0, r1, r2, r3, r4, r5, r6, r7] = partial as [
			number,
			number,
			number,
			number,
			number,
			number,
			number,
			number,
		];
		let total = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
		for (; i < count; i++) total += at(start + i);
		return total;
	}
	let half = Math.floor(count / 2);
	half -= half % PAIRWISE_UNROLL;
	return (
		pairwiseSumNumpy(values, start, half) + pairwiseSumNumpy(values, start + half, count - half)
	);
}

/** `numpy.mean`: `(0.0 + pairwise_sum(values)) / n` in float64. Empty → NaN. */
export function meanNumpy(values: readonly number[]): number {
	if (values.length === 0) return Number.NaN;
	return (0 + pairwiseSumNumpy(values)) / values.length;
}

/**
 * `numpy.median`: the middle value, or for an even count the numpy mean of the two middle
 * values. Any NaN → NaN; empty → NaN.
 */
export function medianNumpy(values: readonly number[]): number {
	if (values.length === 0 || values.some(Number.isNaN)) return Number.NaN;
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	const upper = sorted[middle] as number;
	if (sorted.length % 2 === 1) return (0 + upper) / 1;
	return meanNumpy([sorted[middle - 1] as number, upper]);
}

/** Python `max(values)`: keeps the first value unless a later one is greater. Empty → null. */
export function maxPython(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	let best = values[0] as number;
	for (const value of values) if (value > best) best = value;
	return best;
}

/** Python `min(values)`: keeps the first value unless a later one is smaller. Empty → null. */
export function minPython(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	let best = values[0] as number;
	for (const value of values) if (value < best) best = value;
	return best;
}

/** `numpy.ptp`: max − min, NaN if any value is NaN. One value → 0; empty → null. */
export function rangeNumpy(values: readonly number[]): number | null {
	if (values.length === 0) return null;
	let highest = values[0] as number;
	let lowest = highest;
	for (const value of values) {
		if (Number.isNaN(value)) return Number.NaN;
		if (value > highest) highest = value;
		if (value < lowest) lowest = value;
	}
	return highest - lowest;
}

/** The metric registry, in METRIC_NAMES order (as syntaxgym-core's METRICS). */
export const METRICS: Readonly<Record<MetricName, MetricDefinition>> = {
	sum: {
		name: 'sum',
		reference: 'sum',
		description: 'Total surprisal of the region in bits.',
		emptyValue: 0,
		compute: sumSequential,
	},
	mean: {
		name: 'mean',
		reference: 'np.mean',
		description: 'Mean token surprisal of the region in bits.',
		emptyValue: Number.NaN,
		compute: meanNumpy,
	},
	median: {
		name: 'median',
		reference: 'np.median',
		description: 'Median token surprisal of the region in bits.',
		emptyValue: Number.NaN,
		compute: medianNumpy,
	},
	range: {
		name: 'range',
		reference: 'np.ptp',
		description: 'Highest minus lowest token surprisal of the region in bits.',
		emptyValue: null,
		compute: rangeNumpy,
	},
	max: {
		name: 'max',
		reference: 'max',
		description: 'Highest token surprisal of the region in bits.',
		emptyValue: null,
		compute: maxPython,
	},
	min: {
		name: 'min',
		reference: 'min',
		description: 'Lowest token surprisal of the region in bits.',
		emptyValue: null,
		compute: minPython,
	},
};

/** The value of `metric` over a region's token surprisals (bits, token order). */
export function computeRegionMetric(
	metric: MetricName,
	surprisalsBits: readonly number[],
): MetricValue {
	return METRICS[metric].compute(surprisalsBits);
}
