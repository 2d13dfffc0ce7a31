// Row E21 of ../shared/docs/reference-evals-ltm.md §4.4; the bootstrap figure was computed by
// CPython with random.Random(20220722) drawing as upstream's get_bootstrap_accuracy_std does.
import { describe, expect, it } from 'vitest';
import {
	accuracy,
	bootstrapAccuracyStd,
	numpyMean,
	numpyPairwiseSum,
} from '../../../../src/core/evals/shared/metrics';
import { PythonRandom } from '../../../../src/core/python/python-random';

describe('E21: accuracy and boostrap_std', () => {
	it('3 samples, correct = [1, 0, 1]', () => {
		expect(accuracy([true, false, true])).toBe(2 / 3);
		const std = bootstrapAccuracyStd([true, false, true], new PythonRandom(20220722));
		expect(std).toBeCloseTo(0.46040742826327424, 12);
	});

	it('1 sample gives NaN (the mean of an empty draw); 0 samples NaN accuracy', () => {
		expect(bootstrapAccuracyStd([true], new PythonRandom(1))).toBeNaN();
		expect(accuracy([])).toBeNaN();
	});
});

describe('numpy mean', () => {
	it('pairwise sum equals a plain sum on exact values and handles block splits', () => {
		const values = Array.from({ length: 1000 }, (_, i) => i % 3);
		expect(numpyPairwiseSum(values)).toBe(values.reduce((a, b) => a + b, 0));
		expect(numpyMean([])).toBeNaN();
		expect(numpyMean([0.5, 0.25])).toBe(0.375);
	});

	it('differs from a left-to-right sum where numpy does (0.1 × 10)', () => {
		const tenths = Array.from({ length: 10 }, () => 0.1);
		// numpy: np.sum([0.1]*10) == 1.0 (8-way unrolled), Python sum() == 0.9999999999999999
		expect(numpyPairwiseSum(tenths)).toBe(1.0);
	});
});
