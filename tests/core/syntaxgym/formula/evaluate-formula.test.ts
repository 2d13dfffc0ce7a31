import { describe, expect, it } from 'vitest';
import { FormulaEvaluationError } from '../../../../src/core/errors';
import {
	EQUALITY_ATOL,
	EQUALITY_RTOL,
	evaluateFormula,
	isTruthy,
	type RegionLookup,
} from '../../../../src/core/syntaxgym/formula/evaluate-formula';
import { parseFormula } from '../../../../src/core/syntaxgym/formula/parse-formula';
import type { FormulaValue } from '../../../../src/core/syntaxgym/formula/ast';

/** Region values of a small item: condition → values of regions 1..N. */
const VALUES: Readonly<Record<string, readonly number[]>> = {
	a: [1, 2, 3],
	b: [1.5, 2, 10],
	n: [Number.NaN, 0, 5],
	inf: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1],
};

const lookup: RegionLookup = (conditionName, regionNumber) => {
	const regions = Object.hasOwn(VALUES, conditionName) ? VALUES[conditionName] : undefined;
	if (regions === undefined) throw new Error(`unknown condition ${conditionName}`);
	if (regionNumber === '*') return regions.reduce((sum, value) => sum + value, 0);
	const value = regions[regionNumber - 1];
	if (value === undefined) throw new Error(`unknown region ${regionNumber}`);
	return value;
};

function evaluate(formula: string): FormulaValue {
	return evaluateFormula(parseFormula(formula).ast, lookup);
}

describe('evaluateFormula', () => {
	it.each<[string, FormulaValue]>([
		// atoms and arithmetic: a bare atom or sum is a number, not a boolean
		['(1;%a%)', 1],
		['(01;%a%)', 1],
		['(*;%a%)', 6],
		['(*;%b%)', 13.5],
		['(1;%a%)+(2;%a%)', 3],
		['5 - 4 - 3', -2],
		['(3;%a%) -1', 2],
		['1.5e1 + .5', 15.5],
		// strict comparisons
		['(1;%a%) < (2;%a%)', true],
		['(2;%a%) < (2;%b%)', false],
		['(2;%a%) > (2;%b%)', false],
		['-1 < 0', true],
		// NaN compares false everywhere
		['(1;%n%) < 1', false],
		['(1;%n%) > 1', false],
		['(1;%n%) = (1;%n%)', false],
		// = is numpy.isclose(l, r, rtol=1e-5, atol=1e-3)
		['1 = 1.001', true],
		['1 = 1.0011', false],
		['1000 = 1000.011', true],
		['1000 = 1000.0115', false],
		// asymmetric: the relative term uses the right operand
		['100000 = 100001.001005', true],
		['100001.001005 = 100000', false],
		// infinities are equal only to themselves
		['(1;%inf%) = (1;%inf%)', true],
		['(1;%inf%) = (2;%inf%)', false],
		['5 = (1;%inf%)', false],
		['(1;%inf%) = 5', false],
		// & and | are Python and/or: the operand value is returned
		['((1;%a%) < (2;%a%)) & 1', 1],
		['((1;%a%) > (2;%a%)) & 1', false],
		['0 & ((1;%a%) < (2;%a%))', 0],
		['0 | 7', 7],
		['3 | 0', 3],
		['((1;%a%) > (2;%a%)) | ((1;%a%) < (2;%a%))', true],
		['(1;%n%) & 2', 2],
		// one level for & |, left to right: (1 | 0) & 0 = 0, not 1 | (0 & 0) = 1
		['1 | 0 & 0', 0],
		// booleans are 0/1 in arithmetic and comparison, as in Python
		['((1;%a%) < 2) + ((1;%a%) < 2)', 2],
		['((1;%a%) < 2) = 1', true],
		['((1;%a%) < 2) > 0.5', true],
	])('%j → %s', (formula, expected) => {
		expect(evaluate(formula)).toBe(expected);
	});

	it('uses the exported tolerances', () => {
		expect([EQUALITY_ATOL, EQUALITY_RTOL]).toEqual([1e-3, 1e-5]);
	});

	it('passes * to the lookup and leaves summing to it', () => {
		const calls: [string, number | '*'][] = [];
		evaluateFormula(parseFormula('(*;%a%) > (2;%b%)').ast, (name, region) => {
			calls.push([name, region]);
			return 0;
		});
		expect(calls).toEqual([
			['a', '*'],
			['b', 2],
		]);
	});

	it.each([
		['(1;%zz%) > 0', 1, /region 1 of condition 'zz'.*column 1/],
		['(1;%a%) > (7;%a%)', 11, /region 7 of condition 'a'.*column 11/],
		['(*;%zz%) > 0', 1, /all regions \(\*\) of condition 'zz'/],
		// no short-circuit: a missing operand on the right still fails
		['0 & (4;%b%)', 5, /region 4 of condition 'b'/],
		['1 | (4;%b%)', 5, /region 4 of condition 'b'/],
	])('missing value in %j is an error at column %i, never false', (formula, column, message) => {
		try {
			evaluate(formula);
			expect.unreachable('should have thrown');
		} catch (error) {
			expect(error).toBeInstanceOf(FormulaEvaluationError);
			expect((error as FormulaEvaluationError).column).toBe(column);
			expect((error as FormulaEvaluationError).message).toMatch(message);
		}
	});

	it('treats a lookup that returns a non-number as missing', () => {
		const { ast } = parseFormula('(1;%a%) > 0');
		const badLookup = (() => undefined) as unknown as RegionLookup;
		expect(() => evaluateFormula(ast, badLookup)).toThrow(FormulaEvaluationError);
	});

	it('does not change the tree', () => {
		const { ast } = parseFormula('(1;%a%) - (2;%b%) > 0 & (*;%a%) = 6');
		const before = structuredClone(ast);
		evaluateFormula(ast, lookup);
		expect(ast).toEqual(before);
	});
});

describe('isTruthy', () => {
	it.each<[FormulaValue, boolean]>([
		[true, true],
		[false, false],
		[0, false],
		[-0, false],
		[1, true],
		[-2.5, true],
		[Number.NaN, true],
		[Number.POSITIVE_INFINITY, true],
	])('%s → %s', (value, expected) => {
		expect(isTruthy(value)).toBe(expected);
	});
});
