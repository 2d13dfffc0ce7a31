// Wilson 95% intervals against scipy 1.17.1, computed once with a one-off python3 script (not kept):
//   from scipy.stats import binomtest
//   ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method='wilson'); print(repr(ci.low), repr(ci.high))
// and cross-checked with the closed formula in plain python3 (statistics.NormalDist().inv_cdf(0.975)).
import { describe, expect, it } from 'vitest';
import { Z_95, wilsonInterval } from '../../../../src/core/syntaxgym/battery/intervals';

const SCIPY_WILSON: readonly (readonly [number, number, number, number])[] = [
	[0, 10, 0.0, 0.27753279986288926],
	[10, 10, 0.7224672001371109, 1.0],
	[5, 10, 0.236593090512564, 0.7634069094874361],
	[17, 24, 0.5083230633550337, 0.8508535180303913],
	[1, 1, 0.20654931437723745, 1.0],
	[0, 1, 0.0, 0.7934506856227626],
	[13, 23, 0.3681137508501645, 0.7436536467432578],
	[11, 19, 0.3627590353425504, 0.7685810871754576],
	[600, 842, 0.681110061011064, 0.7421371045974151],
	[3, 7, 0.1582198552514697, 0.7495416354723428],
	[1, 40, 0.004426831502681396, 0.1288136896347409],
];

describe('wilsonInterval', () => {
	it('uses Φ⁻¹(0.975) as python3 statistics.NormalDist gives it', () => {
		expect(Z_95).toBeCloseTo(1.9599639845400536, 15);
	});

	it.each(SCIPY_WILSON)('%i of %i: scipy [%f, %f]', (correct, total, low, high) => {
		const interval = wilsonInterval(correct, total);
		expect(interval?.low).toBeCloseTo(low, 12);
		expect(interval?.high).toBeCloseTo(high, 12);
	});

	it('gives exact 0 and 1 at the edges, and no interval without trials', () => {
		expect(wilsonInterval(0, 5)?.low).toBe(0);
		expect(wilsonInterval(5, 5)?.high).toBe(1);
		expect(wilsonInterval(0, 0)).toBeUndefined();
	});

	it('refuses counts that are not 0 ≤ correct ≤ total whole numbers', () => {
		expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
		expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
		expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
	});
});
