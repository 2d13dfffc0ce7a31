import { describe, expect, it } from 'vitest';
import { formatPythonFloat, parsePythonFloat } from '../../../src/core/python/python-float';

describe('formatPythonFloat', () => {
	// Expected: Python 3.11 repr(float).
	it.each([
		[0, '0.0'],
		[-0, '-0.0'],
		[1, '1.0'],
		[100, '100.0'],
		[1e16, '1e+16'],
		[1.5e-5, '1.5e-05'],
		[0.0001, '0.0001'],
		[1.5e-4, '0.00015'],
		[0.00015000000000000001, '0.00015000000000000001'],
		[123456789012345.6, '123456789012345.6'],
		[1234567890123456.8, '1234567890123456.8'],
		[1e15, '1000000000000000.0'],
		[9999999999999998, '9999999999999998.0'],
		[1e22, '1e+22'],
		[5e-324, '5e-324'],
		[0.1, '0.1'],
		[8.630147000000001, '8.630147000000001'],
		[-26.949431, '-26.949431'],
		[2.5e-5, '2.5e-05'],
		[1.7976931348623157e308, '1.7976931348623157e+308'],
		[Number.NaN, 'nan'],
		[Number.POSITIVE_INFINITY, 'inf'],
		[Number.NEGATIVE_INFINITY, '-inf'],
	])('%d → %s', (value, text) => {
		expect(formatPythonFloat(value)).toBe(text);
	});

	it('round-trips through parsePythonFloat', () => {
		for (const value of [0.1, 1 / 3, 1e-300, 6.02e23, -7.25, 8.630147000000001]) {
			expect(parsePythonFloat(formatPythonFloat(value))).toBe(value);
		}
	});
});

describe('parsePythonFloat', () => {
	it.each([
		['1.5', 1.5],
		[' 2 ', 2],
		['-0.000000', -0],
		['.5', 0.5],
		['5.', 5],
		['1e-05', 1e-5],
		['+3E2', 300],
		['nan', Number.NaN],
		['NaN', Number.NaN],
		['inf', Number.POSITIVE_INFINITY],
		['-inf', Number.NEGATIVE_INFINITY],
		['Infinity', Number.POSITIVE_INFINITY],
		['', undefined],
		['abc', undefined],
		['0x10', undefined],
		['1,5', undefined],
		['1.2.3', undefined],
		['e5', undefined],
		['.', undefined],
		['-', undefined],
		['1e', undefined],
	])('%j → %d', (text, value) => {
		expect(parsePythonFloat(text)).toBe(value);
	});
});
