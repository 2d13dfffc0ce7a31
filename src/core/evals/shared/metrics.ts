/**
 * Upstream Evals metrics (`evals/metrics.py`, numpy's mean and std): `accuracy` of match events,
 * the misnamed `boostrap_std` (std of 1000 half-size samples drawn without replacement; upstream
 * uses the unseeded global `random`, we use a seeded PythonRandom so a run is repeatable) and
 * numpy's pairwise-summed mean. Pure.
 */
import type { PythonRandom } from '../../python/python-random';

/** numpy's pairwise summation (blocks of 128, 8 accumulators), so means agree to the last bit. */
export function numpyPairwiseSum(
	values: readonly number[],
	start = 0,
	count = values.length,
): number {
	if (count < 8) {
		let sum = 0;
		for (let i = start; i < start + count; i++) sum += values[i] ?? 0;
		return sum;
	}
	if (count <= 128) {
		const r = [0, 0, 0, 0, 0, 0, 0, 0];
		for (let k = 0; k < 8; k++) r[k] = values[start + k] ?? 0;
		let i = 8;
		for (; i < count - (count % 8); i += 8) {
			for (let k = 0; k < 8; k++) r[k] = (r[k] ?? 0) + (values[start + i + k] ?? 0);
		}
		const [r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0] = r;
		let res = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
		for (; i < count; i++) res += values[start + i] ?? 0;
		return res;
	}
	let half = Math.floor(count / 2);
	half -= half % 8;
	return (
		numpyPairwiseSum(values, start, half) + numpyPairwiseSum(values, start + half, count - half)
	);
}

/** `np.mean`: NaN for an empty list. */
export function numpyMean(values: readonly number[]): number {
	if (values.length === 0) return NaN;
	return numpyPairwiseSum(values) / values.length;
}

/** `np.std` (population, ddof 0). */
export function numpyStd(values: readonly number[]): number {
	const mean = numpyMean(values);
	return Math.sqrt(numpyMean(values.map((value) => (value - mean) ** 2)));
}

/** `get_accuracy`: correct / total over match events; NaN for none. */
export function accuracy(correct: readonly boolean[]): number {
	if (correct.length === 0) return NaN;
	return correct.filter(Boolean).length / correct.length;
}

/**
 * `get_bootstrap_accuracy_std` ("boostrap_std" in reports): the std of `numSamples` means of
 * `random.sample(vals, len(vals) // 2)`. NaN for fewer than 2 events (the mean of an empty draw).
 */
export function bootstrapAccuracyStd(
	correct: readonly boolean[],
	random: PythonRandom,
	numSamples = 1000,
): number {
	const values = correct.map(Number);
	const means: number[] = [];
	for (let i = 0; i < numSamples; i++) {
		means.push(numpyMean(random.sample(values, Math.floor(values.length / 2))));
	}
	return numpyStd(means);
}
