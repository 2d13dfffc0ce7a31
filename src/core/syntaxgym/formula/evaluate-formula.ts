/**
 * Evaluates a parsed formula against region values, with syntaxgym-core's (Python) semantics.
 * Pure: the caller supplies the values through a lookup; nothing here reads a suite or a model.
 */
import { FormulaEvaluationError } from '../../errors';
import type { FormulaNode, FormulaValue } from './ast';

/** numpy.isclose tolerances used by syntaxgym-core for `=` (`EQUALITY_ATOL`, `EQUALITY_RTOL`). */
export const EQUALITY_ATOL = 1e-3;
export const EQUALITY_RTOL = 1e-5;

/**
 * The value of region `regionNumber` of condition `conditionName` under the suite's metric; for
 * `'*'`, the sum over all regions of that condition (the caller sums). Throws when missing.
 */
export type RegionLookup = (conditionName: string, regionNumber: number | '*') => number;

/**
 * Evaluates `ast`. Both operands of every operator are evaluated first (no short-circuit).
 * `+ -` are float arithmetic (booleans count as 0/1, as in Python); `<`/`>` are strict and false
 * with NaN; `=` is `|l - r| <= EQUALITY_ATOL + EQUALITY_RTOL * |r|` (infinities equal only
 * themselves, NaN never equal); `&`/`|` are Python `and`/`or`, returning an operand value.
 * @throws FormulaEvaluationError naming the condition, region and column of a missing value.
 */
export function evaluateFormula(ast: FormulaNode, lookup: RegionLookup): FormulaValue {
	switch (ast.kind) {
		case 'number':
			return ast.value;
		case 'region':
			return lookupRegion(ast.conditionName, ast.regionNumber, ast.column, lookup);
		case 'binary': {
			const left = evaluateFormula(ast.left, lookup);
			const right = evaluateFormula(ast.right, lookup);
			switch (ast.operator) {
				case '+':
					return Number(left) + Number(right);
				case '-':
					return Number(left) - Number(right);
				case '<':
					return Number(left) < Number(right);
				case '>':
					return Number(left) > Number(right);
				case '=':
					return isClose(Number(left), Number(right));
				case '&':
					return isTruthy(left) ? right : left;
				case '|':
					return isTruthy(left) ? left : right;
			}
		}
	}
}

/** Python truthiness: `false`, `0` and `-0` are false; every other number (NaN too) is true. */
export function isTruthy(value: FormulaValue): boolean {
	return typeof value === 'boolean' ? value : value !== 0;
}

/** `numpy.isclose(left, right, rtol=EQUALITY_RTOL, atol=EQUALITY_ATOL)` (asymmetric in `right`). */
function isClose(left: number, right: number): boolean {
	if (!Number.isFinite(left) || !Number.isFinite(right)) return left === right;
	return Math.abs(left - right) <= EQUALITY_ATOL + EQUALITY_RTOL * Math.abs(right);
}

function lookupRegion(
	conditionName: string,
	regionNumber: number | '*',
	column: number,
	lookup: RegionLookup,
): number {
	const what =
		regionNumber === '*'
			? `all regions (*) of condition '${conditionName}'`
			: `region ${regionNumber} of condition '${conditionName}'`;
	let value: unknown;
	try {
		value = lookup(conditionName, regionNumber);
	} catch (error) {
		if (error instanceof FormulaEvaluationError) throw error;
		const reason = error instanceof Error ? `: ${error.message}` : '';
		throw new FormulaEvaluationError(
			`no value for ${what} (formula column ${column})${reason}`,
			column,
		);
	}
	if (typeof value !== 'number') {
		throw new FormulaEvaluationError(`no value for ${what} (formula column ${column})`, column);
	}
	return value;
}
