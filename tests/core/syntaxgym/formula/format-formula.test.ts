import { describe, expect, it } from 'vitest';
import type { FormulaNode } from '../../../../src/core/syntaxgym/formula/ast';
import {
	formatFormula,
	referencedRegions,
} from '../../../../src/core/syntaxgym/formula/format-formula';
import { parseFormula } from '../../../../src/core/syntaxgym/formula/parse-formula';

/** The tree without columns, to compare a formula with its re-parsed formatting. */
function withoutColumns(node: FormulaNode): unknown {
	switch (node.kind) {
		case 'number':
			return { value: node.value };
		case 'region':
			return { region: node.regionNumber, condition: node.conditionName };
		case 'binary':
			return [withoutColumns(node.left), node.operator, withoutColumns(node.right)];
	}
}

describe('formatFormula', () => {
	it.each([
		['(1;%a%)', '(1;%a%)'],
		['( 01 ;%a% )', '(1;%a%)'],
		['(*;%a%)>0', '(*;%a%) > 0'],
		['5 - 4 - 3', '5 - 4 - 3'],
		['5 - (4 - 3)', '5 - (4 - 3)'],
		['5 + (4 + 3)', '5 + (4 + 3)'],
		['(1;%a%) -1', '(1;%a%) - 1'],
		['(1;%a%) - -1', '(1;%a%) - -1'],
		['-1 < 0', '-1 < 0'],
		['1.50e3 > .5', '1.50e3 > .5'],
		['((1;%a%) + (2;%a%)) < ((1;%b%) + (2;%b%))', '(1;%a%) + (2;%a%) < (1;%b%) + (2;%b%)'],
		['((1;%a%) < (1;%b%)) & ((2;%a%) > (2;%b%))', '(1;%a%) < (1;%b%) & (2;%a%) > (2;%b%)'],
		['1 | 0 & 0', '1 | 0 & 0'],
		['1 | (0 & 0)', '1 | (0 & 0)'],
		['(1 < 2) = 1', '(1 < 2) = 1'],
		['1 = (1 < 2)', '1 = (1 < 2)'],
		['(1 & 0) + 1', '(1 & 0) + 1'],
		['1 + (1 < 0)', '1 + (1 < 0)'],
		['((1 < 0)) & (1 | 0)', '1 < 0 & (1 | 0)'],
	])('%j → %j', (formula, expected) => {
		expect(formatFormula(parseFormula(formula).ast)).toBe(expected);
	});

	it.each([
		'[(6;%what_nogap%) >  (6;%that_nogap%)] & [(6;%what_subjgap%) <  (6;%that_subjgap%)]',
		'[(6;%np_mismatch%)-(6;%np_match%)]+[[(5;%vp_mismatch%)+(6;%vp_mismatch%)]-[(5;%vp_match%)+(6;%vp_match%)]]>0',
		'[(5;%a%) > (5;%b%)] & [(5;%a%) > (5;%c%)] & [[(5;%a%) - (5;%b%)] > [(5;%c%) - (5;%d%)]]',
		'1 - (2 - (3 - 4)) | (1 | (0 & 1))',
	])('re-parsing the formatted %j gives the same tree', (formula) => {
		const { ast } = parseFormula(formula, { brackets: 'accept' });
		const again = parseFormula(formatFormula(ast)).ast;
		expect(withoutColumns(again)).toEqual(withoutColumns(ast));
	});
});

describe('referencedRegions', () => {
	it.each([
		['1 < 2', []],
		[
			'(5;%a%) > (05;%b%) & (*;%a%) > 0',
			[
				{ conditionName: 'a', regionNumber: 5, column: 1 },
				{ conditionName: 'b', regionNumber: 5, column: 11 },
				{ conditionName: 'a', regionNumber: '*', column: 22 },
			],
		],
		[
			'(1;%a%) - (1;%a%)',
			[
				{ conditionName: 'a', regionNumber: 1, column: 1 },
				{ conditionName: 'a', regionNumber: 1, column: 11 },
			],
		],
	])('%j', (formula, expected) => {
		expect(referencedRegions(parseFormula(formula).ast)).toEqual(expected);
	});
});
