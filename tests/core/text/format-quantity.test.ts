import { describe, expect, it } from 'vitest';
import {
	formatBits,
	formatBytes,
	formatDurationMs,
	formatPercent,
	formatRate,
} from '../../../src/core/text/format-quantity';

describe('formatBytes', () => {
	it.each([
		[0, '0 B'],
		[999, '999 B'],
		[1536, '1.54 kB'],
		[12_345_678, '12.3 MB'],
		[652_000_000, '652 MB'],
		[3.2e12, '3.20 TB'],
		[-1, '–'],
		[Number.NaN, '–'],
	])('%d -> %s', (bytes, expected) => {
		expect(formatBytes(bytes)).toBe(expected);
	});
});

describe('formatDurationMs', () => {
	it.each([
		[0, '0 ms'],
		[450, '450 ms'],
		[2500, '2.5 s'],
		[42_000, '42 s'],
		[65_000, '1 min 5 s'],
		[3_725_000, '1 h 2 min'],
		[Number.POSITIVE_INFINITY, '–'],
	])('%d -> %s', (ms, expected) => {
		expect(formatDurationMs(ms)).toBe(expected);
	});
});

describe('formatPercent / formatBits / formatRate', () => {
	it.each([
		[0.625, 1, '62.5%'],
		[1, 0, '100%'],
		[2 / 3, 2, '66.67%'],
		[Number.NaN, 1, '–'],
	])('formatPercent(%d, %d) -> %s', (share, digits, expected) => {
		expect(formatPercent(share, digits)).toBe(expected);
	});

	it.each([
		[3.14159, '3.14'],
		[0, '0.00'],
		[null, '–'],
		[Number.NaN, '–'],
		[Number.POSITIVE_INFINITY, '∞'],
	])('formatBits(%s) -> %s', (bits, expected) => {
		expect(formatBits(bits)).toBe(expected);
	});

	it.each([
		[1234.5, '1235'],
		[45.67, '45.7'],
		[4.567, '4.57'],
		[-1, '–'],
	])('formatRate(%d) -> %s', (rate, expected) => {
		expect(formatRate(rate)).toBe(expected);
	});
});
