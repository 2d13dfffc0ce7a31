// Exact McNemar p-values against scipy 1.17.1, computed once with a one-off python3 script (not kept):
//   from scipy.stats import binomtest; print(repr(binomtest(min(b, c), b + c, 0.5).pvalue))
// (the same as statsmodels mcnemar(exact=True)), and cross-checked exactly in plain python3:
//   min(1, 2 * Fraction(sum(math.comb(n, i) for i in range(min(b, c) + 1)), 2 ** n)).
// Holm-adjusted p-values against statsmodels 0.15.0, computed once with python3 3.11:
//   from statsmodels.stats.multitest import multipletests
//   print(repr([float(x) for x in multipletests(ps, method='holm')[1]]))
import { describe, expect, it } from 'vitest';
import {
	compareBatteryRuns,
	holmAdjust,
	mcnemarExactPValue,
	mcnemarTest,
} from '../../../../src/core/syntaxgym/battery/mcnemar';
import type { BatterySuiteCell } from '../../../../src/core/syntaxgym/battery/sg-score';

const SCIPY_MCNEMAR: readonly (readonly [number, number, number])[] = [
	[0, 0, 1.0],
	[5, 0, 0.0625],
	[3, 3, 1.0],
	[1, 9, 0.021484375],
	[10, 2, 0.03857421875],
	[25, 40, 0.08168153394154003],
	[0, 30, 1.862645149230957e-9],
	[100, 130, 0.05561357778139238],
	[7, 8, 1.0],
	[2, 1, 1.0],
	[1, 0, 1.0],
	[300, 360, 0.02157234823197109],
];

describe('mcnemarExactPValue', () => {
	it.each(SCIPY_MCNEMAR)('b=%i, c=%i: scipy p=%f', (b, c, p) => {
		expect(mcnemarExactPValue(b, c)).toBeCloseTo(p, 12);
		expect(Math.abs(mcnemarExactPValue(b, c) - p) / p).toBeLessThan(1e-12);
	});

	it('is symmetric in b and c, and exact for thousands of pairs (scipy: 0.0021323556719912455)', () => {
		expect(mcnemarExactPValue(40, 25)).toBe(mcnemarExactPValue(25, 40));
		const p = mcnemarExactPValue(2000, 2200);
		expect(Math.abs(p - 0.0021323556719912455) / p).toBeLessThan(1e-12);
	});

	it('refuses negative or fractional counts', () => {
		expect(() => mcnemarExactPValue(-1, 2)).toThrow(RangeError);
		expect(() => mcnemarExactPValue(1.5, 2)).toThrow(RangeError);
	});
});

const STATSMODELS_HOLM: readonly (readonly [readonly number[], readonly number[]])[] = [
	[
		[0.00390625, 0.03857421875, 0.125],
		[0.01171875, 0.0771484375, 0.125],
	],
	[
		[0.01, 0.04, 0.03, 0.005, 0.5, 0.04, 0.2],
		[0.06, 0.16, 0.15, 0.035, 0.5, 0.16, 0.4],
	],
	[
		[0.3, 0.3, 0.9],
		[0.8999999999999999, 0.8999999999999999, 0.9],
	],
	[
		[0.5, 0.6, 0.7, 0.02],
		[1.0, 1.0, 1.0, 0.08],
	],
	[
		[0.0, 1.0, 0.01],
		[0.0, 1.0, 0.02],
	],
	[[0.001], [0.001]],
];

describe('holmAdjust', () => {
	it.each(STATSMODELS_HOLM)('%j → statsmodels holm %j', (raw, expected) => {
		const adjusted = holmAdjust(raw);
		expect(adjusted).toHaveLength(expected.length);
		adjusted.forEach((p, i) => expect(p).toBeCloseTo(expected[i] ?? Number.NaN, 15));
	});

	it('is empty for no tests and refuses what is not a p-value', () => {
		expect(holmAdjust([])).toEqual([]);
		expect(() => holmAdjust([0.1, Number.NaN])).toThrow(RangeError);
		expect(() => holmAdjust([1.5])).toThrow(RangeError);
	});
});

describe('mcnemarTest', () => {
	it('pairs the items both runs scored and counts the four cells', () => {
		const a = new Map([
			[1, true],
			[2, true],
			[3, false],
			[4, false],
			[5, true],
		]);
		const b = new Map([
			[1, true],
			[2, false],
			[3, true],
			[4, false],
			[6, false],
		]);
		expect(mcnemarTest(a, b)).toEqual({
			pairs: 4,
			aOnly: 1,
			bOnly: 1,
			both: 1,
			neither: 1,
			pValue: 1,
		});
	});
});

function cell(suiteName: string, results: readonly boolean[], inSgScore = true): BatterySuiteCell {
	const first = new Map(results.map((result, i) => [i + 1, result]));
	const empty = { prediction: 0, items: 0, correct: 0, accuracy: Number.NaN, interval: undefined };
	return {
		suiteName,
		circuit: 'ungrouped',
		circuitSource: 'none',
		metric: 'sum',
		inSgScore,
		predictions: [empty],
		allPredictions: { ...empty, prediction: 'all' },
		itemResults: { 'first-prediction': first, 'all-predictions': first },
	};
}

describe('compareBatteryRuns', () => {
	it('tests each shared suite and pools the SG suites over the battery', () => {
		const a = [
			cell('s1', [true, true, true, true, true, false]),
			cell('s2', [true, true, true, true]),
			cell('left-out', [true, true, true], false),
		];
		const b = [
			cell('s2', [false, false, false, false]),
			cell('s1', [false, false, false, false, false, false]),
			cell('left-out', [false, false, false], false),
			cell('only-b', [true]),
		];
		const comparison = compareBatteryRuns(a, b);
		expect(comparison.suites.map((s) => [s.suiteName, s.test.aOnly, s.test.bOnly])).toEqual([
			['s1', 5, 0],
			['s2', 4, 0],
			['left-out', 3, 0],
		]);
		expect(comparison.suites[0]?.test.pValue).toBe(0.0625);
		// p = 0.0625, 0.125, 0.25; statsmodels multipletests(…, method='holm'): 0.1875, 0.25, 0.25
		expect(comparison.suites.map((s) => s.adjustedPValue)).toEqual([0.1875, 0.25, 0.25]);
		expect(comparison.battery).toMatchObject({ pairs: 10, aOnly: 9, bOnly: 0, neither: 1 });
		// 2 · (1/2)^9, scipy binomtest(0, 9, 0.5).pvalue
		expect(comparison.battery.pValue).toBeCloseTo(0.00390625, 15);
	});
});
