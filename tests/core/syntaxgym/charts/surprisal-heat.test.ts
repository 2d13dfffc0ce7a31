import { describe, expect, it } from 'vitest';
import {
	MIN_HEAT_SCALE_BITS,
	heatIntensity,
	heatLevel,
	heatScaleBits,
} from '../../../../src/core/syntaxgym/charts/surprisal-heat';

describe('heatScaleBits', () => {
	it.each([
		[[], MIN_HEAT_SCALE_BITS],
		[[1, 2.5], MIN_HEAT_SCALE_BITS],
		[[0, 12.2, 7], 13],
		[[Number.NaN, Number.POSITIVE_INFINITY, 9], 9],
	])('%j -> %d', (values, expected) => {
		expect(heatScaleBits(values)).toBe(expected);
	});
});

describe('heatIntensity / heatLevel', () => {
	it.each([
		[0, 10, 0, 0],
		[5, 10, 0.5, 5],
		[10, 10, 1, 9],
		[25, 10, 1, 9],
		[Number.NaN, 10, 0, 0],
		[Number.POSITIVE_INFINITY, 10, 1, 9],
		[-2, 10, 0, 0],
	])('%d bits on a %d-bit scale -> %d (level %d)', (bits, scale, intensity, level) => {
		expect(heatIntensity(bits, scale)).toBe(intensity);
		expect(heatLevel(bits, scale)).toBe(level);
	});
});
