import { describe, expect, it } from 'vitest';
import {
	computeRegionMetric,
	maxPython,
	meanNumpy,
	medianNumpy,
	METRICS,
	minPython,
	pairwiseSumNumpy,
	rangeNumpy,
	sumSequential,
} from '../../../../src/core/syntaxgym/aggregation/region-metrics';
import { METRIC_NAMES } from '../../../../src/core/syntaxgym/suite/types';

/** The same list in Python: `[((i * 7919) % 1013) / 37.3 for i in range(n)]`. */
function sequence(count: number): number[] {
	return Array.from({ length: count }, (_, i) => ((i * 7919) % 1013) / 37.3);
}

describe('numpy mean (pairwise summation)', () => {
	// Expected values: repr(float(numpy.mean(xs))) with numpy 2.4.6, and repr(sum(xs) / n)
	// (sequential) where it differs, to show the test can tell the two apart.
	it.each([
		[3, '13.14566577301162', null],
		[8, '13.193699731903486', null],
		[9, '13.354185284480192', null],
		[16, '13.72319034852547', '13.723190348525472'],
		[17, '13.040529884876204', '13.040529884876205'],
		[127, '13.645479301682466', '13.645479301682462'],
		[128, '13.70999497319035', '13.709994973190348'],
		[129, '13.735062451940063', '13.735062451940061'],
		[130, '13.721592080841411', '13.72159208084141'],
		[300, '13.690437890974083', null],
		[1000, '13.589436997319037', null],
		[4097, '13.57047365462599', '13.570473654625994'],
	])('n = %i', (count, numpyMean, sequentialMean) => {
		const values = sequence(count);
		expect(meanNumpy(values)).toBe(Number(numpyMean));
		if (sequentialMean !== null) {
			expect(sumSequential(values) / count).toBe(Number(sequentialMean));
			expect(meanNumpy(values)).not.toBe(Number(sequentialMean));
		}
	});

	it('0.1 + 0.2 + 0.3 rounds as numpy does', () => {
		expect(meanNumpy([0.1, 0.2, 0.3])).toBe(0.20000000000000004);
	});

	it('pairwise sum of a sub-range equals the sum of the sliced array', () => {
		const values = sequence(300);
		expect(pairwiseSumNumpy(values, 10, 200)).toBe(pairwiseSumNumpy(values.slice(10, 210)));
	});
});

describe('Python sum, numpy median, numpy ptp, Python max/min', () => {
	// Expected: repr() of Python sum / numpy.median / numpy.ptp with numpy 2.4.6.
	it.each([
		[3, '39.43699731903486', '17.238605898123325', '22.19839142091153'],
		[16, '219.57104557640756', '13.458445040214478', '26.916890080428956'],
		[130, '1783.8069705093833', '13.793565683646115', '27.104557640750674'],
		[4097, '55598.2305630027', '13.565683646112602', '27.131367292225203'],
	])('n = %i', (count, sum, median, range) => {
		const values = sequence(count);
		expect(sumSequential(values)).toBe(Number(sum));
		expect(medianNumpy(values)).toBe(Number(median));
		expect(rangeNumpy(values)).toBe(Number(range));
	});

	it.each([
		[[1.5, 0.25, 0.1, 7.0], 0.875],
		[[0.1, 0.2], 0.15000000000000002],
		[[3, 1, 2], 2],
		[[5], 5],
		[[2, Number.NaN, 1], Number.NaN],
	])('median %j = %d', (values, expected) => {
		expect(medianNumpy(values)).toBe(expected);
	});

	it('median does not reorder its input', () => {
		const values = [3, 1, 2];
		medianNumpy(values);
		expect(values).toEqual([3, 1, 2]);
	});

	it.each([
		// Python max/min keep the first element unless a later one compares greater/smaller, so
		// a NaN only wins when it comes first.
		[[1, Number.NaN, 3], 3, 1],
		[[Number.NaN, 1, 3], Number.NaN, Number.NaN],
		[[-0, 0], -0, -0],
		[[2, 9, -1], 9, -1],
	])('max/min %j', (values, max, min) => {
		expect(maxPython(values)).toBe(max);
		expect(minPython(values)).toBe(min);
	});
});

describe('METRICS registry', () => {
	it('has the six reference metrics in reference order', () => {
		expect(Object.keys(METRICS)).toEqual([...METRIC_NAMES]);
		for (const name of METRIC_NAMES) expect(METRICS[name].name).toBe(name);
	});

	// Reference: sum([]) = 0, np.mean([]) = np.median([]) = nan, np.ptp/max/min raise → null.
	it.each([
		['sum', 0],
		['mean', Number.NaN],
		['median', Number.NaN],
		['range', null],
		['max', null],
		['min', null],
	] as const)('empty region: %s → %s', (metric, expected) => {
		expect(computeRegionMetric(metric, [])).toBe(expected);
		expect(METRICS[metric].emptyValue).toBe(expected);
	});

	// The reference's region 1 of syntaxgym-core data/test (GRNN): tokens I know that.
	it.each([
		['sum', 8.630147000000001],
		['mean', 2.876715666666667],
		['median', 2.352034],
		['range', 6.278113],
		['max', 6.278113],
		['min', 0],
	] as const)('one region, %s', (metric, expected) => {
		expect(computeRegionMetric(metric, [0, 6.278113, 2.352034])).toBe(expected);
	});

	it('one token: range 0, every other metric the token', () => {
		const values = [4.5];
		expect(METRIC_NAMES.map((m) => computeRegionMetric(m, values))).toEqual([
			4.5, 4.5, 4.5, 0, 4.5, 4.5,
		]);
	});
});
