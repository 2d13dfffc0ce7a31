import { describe, expect, it } from 'vitest';
import {
	criticalRegionNumbers,
	describeFormula,
} from '../../../../src/core/syntaxgym/formula/describe-formula';
import { parseFormula } from '../../../../src/core/syntaxgym/formula/parse-formula';

const REGIONS = ['subject', 'attractor', 'verb'];

function ast(formula: string) {
	return parseFormula(formula).ast;
}

describe('describeFormula', () => {
	const cases: [string, string][] = [
		[
			'(3;%mismatch%) > (3;%match%)',
			'Region 3 (verb) should be more surprising in “mismatch” than in “match”.',
		],
		[
			'(3;%match%) < (3;%mismatch%)',
			'Region 3 (verb) should be less surprising in “match” than in “mismatch”.',
		],
		['(1;%a%) = (1;%b%)', 'Region 1 (subject) should be as surprising in “a” as in “b”.'],
		[
			'(*;%bad%) > (*;%good%)',
			'The whole sentence should be more surprising in “bad” than in “good”.',
		],
		[
			'(2;%a%) - (2;%b%) > 0',
			'The surprisal of region 2 (attractor) in “a” minus the surprisal of region 2 (attractor) in “b” should be greater than 0.',
		],
		[
			'(3;%a%) > (3;%b%) & (3;%c%) > (3;%d%)',
			'Region 3 (verb) should be more surprising in “a” than in “b”, and region 3 (verb) should be more surprising in “c” than in “d”.',
		],
		['(5;%a%) > (5;%b%)', 'Region 5 should be more surprising in “a” than in “b”.'],
	];
	it.each(cases)('%s', (formula, words) => {
		expect(describeFormula(ast(formula), REGIONS)).toBe(words);
	});
});

describe('criticalRegionNumbers', () => {
	const cases: [string[], number[]][] = [
		[['(3;%a%) > (3;%b%)'], [3]],
		[
			['(3;%a%) > (3;%b%)', '(2;%a%) + (4;%a%) > (2;%b%)'],
			[2, 3, 4],
		],
		[['(*;%a%) > (*;%b%)'], []],
		[[], []],
	];
	it.each(cases)('%j', (formulas, numbers) => {
		expect(criticalRegionNumbers(formulas.map(ast))).toEqual(numbers);
	});
});
