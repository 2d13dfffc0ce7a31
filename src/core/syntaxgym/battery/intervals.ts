/**
 * The Wilson score interval for a proportion (Wilson 1927): the 95% interval shown beside every
 * accuracy of the battery matrix. Pure.
 */

/** The standard normal quantile for a two-sided 95% interval (Φ⁻¹(0.975)). */
export const Z_95 = 1.959963984540054;

/** A closed interval [low, high] within [0, 1]. */
export interface ProportionInterval {
	readonly low: number;
	readonly high: number;
}

/**
 * The Wilson score interval of `correct` successes out of `total` trials at the normal quantile
 * `z` (default 95%): the same as statsmodels `proportion_confint(method='wilson')` and scipy
 * `binomtest(...).proportion_ci(method='wilson')`. The bounds are exactly 0 for no successes and
 * exactly 1 for all, as those give them. Undefined when `total` is 0 (no interval).
 * @throws RangeError when the counts are not whole numbers with 0 ≤ correct ≤ total.
 */
export function wilsonInterval(
	correct: number,
	total: number,
	z: number = Z_95,
): ProportionInterval | undefined {
	if (!Number.isInteger(correct) || !Number.isInteger(total) || correct < 0 || correct > total) {
		throw new RangeError(`wilsonInterval: need whole counts 0 ≤ ${correct} ≤ ${total}.`);
	}
	if (total === 0) return undefined;
	const p = correct / total;
	const z2 = z * z;
	const denominator = 1 + z2 / total;
	const center = (p + z2 / (2 * total)) / denominator;
	const half = (z * Math.sqrt((p * (1 - p)) / total + z2 / (4 * total * total))) / denominator;
	return {
		low: correct === 0 ? 0 : Math.max(0, center - half),
		high: correct === total ? 1 : Math.min(1, center + half),
	};
}
