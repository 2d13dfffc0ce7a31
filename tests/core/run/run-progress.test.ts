import { describe, expect, it } from 'vitest';
import { estimateRemainingMs, ratePerSecond, shareDone } from '../../../src/core/run/run-progress';

describe('estimateRemainingMs', () => {
	it.each([
		[0, 10, 5000, null],
		[5, 10, 0, null],
		[2, 10, 1000, 4000],
		[9, 12, 9000, 3000],
		[10, 10, 7000, 0],
		[0, 0, 0, 0],
	])('done %d of %d after %d ms -> %s', (done, total, elapsed, expected) => {
		expect(estimateRemainingMs(done, total, elapsed)).toBe(expected);
	});
});

describe('ratePerSecond / shareDone', () => {
	it.each([
		[500, 2000, 250],
		[10, 0, 0],
	])('%d in %d ms -> %d/s', (count, elapsed, expected) => {
		expect(ratePerSecond(count, elapsed)).toBe(expected);
	});

	it.each([
		[3, 12, 0.25],
		[0, 0, 1],
		[13, 12, 1],
	])('%d of %d -> %d', (done, total, expected) => {
		expect(shareDone(done, total)).toBe(expected);
	});
});
