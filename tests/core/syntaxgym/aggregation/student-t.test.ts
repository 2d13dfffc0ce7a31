import { describe, expect, it } from 'vitest';
import {
	logGamma,
	regularizedIncompleteBeta,
	studentTCdf,
	studentTQuantile,
} from '../../../../src/core/syntaxgym/aggregation/student-t';

describe('studentTQuantile', () => {
	// Expected: scipy.stats.t.ppf(0.975, df).
	it.each([
		[1, 12.706204736174694],
		[2, 4.302652729749462],
		[3, 3.1824463052837078],
		[4, 2.7764451051977934],
		[5, 2.5705818356363146],
		[9, 2.262157162798205],
		[10, 2.228138851986274],
		[20, 2.085963447265864],
		[23, 2.0686576104190486],
		[30, 2.0422724563012378],
		[100, 1.9839715185235518],
		[1000, 1.9623390808264083],
	])('0.975 quantile, df = %i', (df, expected) => {
		expect(studentTQuantile(0.975, df)).toBeCloseTo(expected, 10);
		expect(studentTQuantile(0.025, df)).toBeCloseTo(-expected, 10);
	});

	it('fractional degrees of freedom (scipy: t.ppf(0.995, 2.5))', () => {
		expect(studentTQuantile(0.995, 2.5)).toBeCloseTo(7.163728138948783, 9);
	});

	it.each([
		[0.5, 4, 0],
		[0, 4, Number.NaN],
		[1, 4, Number.NaN],
		[0.975, 0, Number.NaN],
		[Number.NaN, 3, Number.NaN],
	])('quantile(%d, %d) = %d', (p, df, expected) => {
		expect(studentTQuantile(p, df)).toBe(expected);
	});
});

describe('studentTCdf and its parts', () => {
	// Expected: scipy.stats.t.cdf.
	it.each([
		[1.5, 4, 0.896],
		[-2, 7, 0.042809664281488025],
		[0, 3, 0.5],
	])('cdf(%d, df %d)', (t, df, expected) => {
		expect(studentTCdf(t, df)).toBeCloseTo(expected, 12);
	});

	it.each([
		[1, 0],
		[2, 0],
		[5, Math.log(24)],
		[0.5, Math.log(Math.sqrt(Math.PI))],
		[10.5, Math.log(1133278.3889487856)],
	])('logGamma(%d)', (x, expected) => {
		expect(logGamma(x)).toBeCloseTo(expected, 12);
	});

	it.each([
		[0, 2, 3, 0],
		[1, 2, 3, 1],
		[0.5, 1, 1, 0.5],
		// I_x(a, 1) = x^a
		[0.3, 2.5, 1, 0.3 ** 2.5],
	])('I_%d(%d, %d)', (x, a, b, expected) => {
		expect(regularizedIncompleteBeta(x, a, b)).toBeCloseTo(expected, 12);
	});
});
