import { describe, expect, it } from 'vitest';
import type { FormulaNode } from '../../../../src/core/syntaxgym/formula/ast';
import { FormulaSyntaxError } from '../../../../src/core/errors';
import {
	MAX_FORMULA_LENGTH,
	parseFormula,
	type ParseFormulaOptions,
} from '../../../../src/core/syntaxgym/formula/parse-formula';

/** The tree as a fully parenthesised string: `{l op r}` for binaries, literals as written. */
function shape(node: FormulaNode): string {
	switch (node.kind) {
		case 'number':
			return `#${node.text}`;
		case 'region':
			return `R${node.regionNumber}:${node.conditionName}`;
		case 'binary':
			return `{${shape(node.left)} ${node.operator} ${shape(node.right)}}`;
	}
}

function parseShape(formula: string, options?: ParseFormulaOptions): string {
	return shape(parseFormula(formula, options).ast);
}

function syntaxErrorOf(formula: string, options?: ParseFormulaOptions): FormulaSyntaxError {
	try {
		parseFormula(formula, options);
	} catch (error) {
		if (error instanceof FormulaSyntaxError) return error;
		throw error;
	}
	throw new Error(`expected a FormulaSyntaxError for ${formula}`);
}

describe('parseFormula: reference examples and grammar', () => {
	it.each([
		// atoms
		['(5;%a%)', 'R5:a'],
		['(*;%cond%)', 'R*:cond'],
		['(01;%a%)', 'R1:a'],
		['( 1 ;%a% )', 'R1:a'],
		['(1;% a %)', 'R1:a'],
		['(2;%what_no-gap%)', 'R2:what_no-gap'],
		['(2;%1-2_x%)', 'R2:1-2_x'],
		['5.', '#5.'],
		['.5', '#.5'],
		['1e3', '#1e3'],
		['1.5e-3', '#1.5e-3'],
		['(1)', '#1'],
		['((1;%a%))', 'R1:a'],
		// signs: literal in operand position, operator after an operand
		['-1 < 0', '{#-1 < #0}'],
		['(1;%a%) -1', '{R1:a - #1}'],
		['(1;%a%)-1', '{R1:a - #1}'],
		['(1;%a%) - -1', '{R1:a - #-1}'],
		['(1;%a%) < +2', '{R1:a < #+2}'],
		// arithmetic: left-associative
		['5 - 4 - 3', '{{#5 - #4} - #3}'],
		['5 - (4 - 3)', '{#5 - {#4 - #3}}'],
		['(1;%a%)+(2;%a%)', '{R1:a + R2:a}'],
		// precedence: + - tighter than < > = tighter than & |
		['(1;%a%) + (2;%a%) < (1;%b%) + (2;%b%)', '{{R1:a + R2:a} < {R1:b + R2:b}}'],
		['(1;%a%) < (1;%b%) & (2;%a%) > (2;%b%)', '{{R1:a < R1:b} & {R2:a > R2:b}}'],
		['(1;%a%) = (1;%b%) | (2;%a%) = (2;%b%)', '{{R1:a = R1:b} | {R2:a = R2:b}}'],
		// & and | share one level, left to right
		['1 | 0 & 0', '{{#1 | #0} & #0}'],
		['1 & 0 | 1', '{{#1 & #0} | #1}'],
		['1 | (0 & 0)', '{#1 | {#0 & #0}}'],
		// whitespace anywhere but inside ;%
		['\t(1;%a%)\r\n>\n(1;%b%) ', '{R1:a > R1:b}'],
		// a Hu et al. 2020 nextflow formula
		[
			'((5;%reduced_ambig%) - (5;%unreduced_ambig%)) > ((5;%reduced_unambig%) - (5;%unreduced_unambig%))',
			'{{R5:reduced_ambig - R5:unreduced_ambig} > {R5:reduced_unambig - R5:unreduced_unambig}}',
		],
	])('%j → %s', (formula, expected) => {
		expect(parseShape(formula)).toBe(expected);
	});

	it('records columns of atoms and operators (1-based)', () => {
		const { ast } = parseFormula('(1;%a%) - 2.5 > (*;%b%)');
		expect(ast).toEqual({
			kind: 'binary',
			operator: '>',
			column: 15,
			left: {
				kind: 'binary',
				operator: '-',
				column: 9,
				left: { kind: 'region', regionNumber: 1, conditionName: 'a', column: 1 },
				right: { kind: 'number', value: 2.5, text: '2.5', column: 11 },
			},
			right: { kind: 'region', regionNumber: '*', conditionName: 'b', column: 17 },
		});
	});

	it.each([
		['5.', 5],
		['.5', 0.5],
		['-1', -1],
		['+2', 2],
		['1e3', 1000],
		['1.5e-3', 0.0015],
		['-1.e3', -1000],
	])('literal %j has value %d', (formula, value) => {
		const { ast } = parseFormula(formula);
		expect(ast.kind === 'number' && ast.value).toBe(value);
	});
});

describe('parseFormula: brackets', () => {
	it('rejects [ ] by default at the bracket column', () => {
		const error = syntaxErrorOf('(1;%a%) > 0 & [(2;%a%) > 0]');
		expect(error.column).toBe(15);
		expect(error.message).toMatch(/square brackets/);
	});

	it.each([
		['[(6;%a%) > (6;%b%)] & [(6;%c%) < (6;%d%)]', '{{R6:a > R6:b} & {R6:c < R6:d}}', 1],
		[
			'[(6;%np_mismatch%)-(6;%np_match%)]+[[(5;%vp_mismatch%)+(6;%vp_mismatch%)]-[(5;%vp_match%)+(6;%vp_match%)]]>0',
			'{{{R6:np_mismatch - R6:np_match} + {{R5:vp_mismatch + R6:vp_mismatch} - {R5:vp_match + R6:vp_match}}} > #0}',
			1,
		],
		['(1;%a%) > [0]', '{R1:a > #0}', 11],
	])('accepts %j as parentheses with one warning', (formula, expected, column) => {
		const { ast, warnings } = parseFormula(formula, { brackets: 'accept' });
		expect(shape(ast)).toBe(expected);
		expect(warnings).toEqual([
			{ code: 'formula-brackets', column, message: expect.stringMatching(/square brackets/) },
		]);
	});

	it.each([
		['[(1;%a%) > 0)', 13, /expected '\]' to close '\[' at column 1/],
		['((1;%a%) > 0]', 13, /expected '\)' to close '\(' at column 1/],
		['[1;%a%]', 3, /unexpected|expected/],
	])('mismatched brackets %j fail at column %i', (formula, column, message) => {
		const error = syntaxErrorOf(formula, { brackets: 'accept' });
		expect(error.column).toBe(column);
		expect(error.message).toMatch(message);
	});
});

describe('parseFormula: chained comparisons', () => {
	it.each([
		['(2;%a%) > (1;%a%) > (5;%a%)', 19],
		['(1;%a%) < (2;%a%) = 1', 19],
		['1<2<3', 4],
	])('%j is an error at the second operator (column %i) by default', (formula, column) => {
		const error = syntaxErrorOf(formula);
		expect(error.column).toBe(column);
		expect(error.message).toMatch(/cannot be chained/);
	});

	it.each([
		['(2;%a%) > (1;%a%) > (5;%a%)', '{R2:a > R1:a}', 19],
		['(1;%a%) < (2;%a%) = 1', '{R1:a < R2:a}', 19],
		['1 < 2 + 3 > 4 - 5 & 0', '{{#1 < {#2 + #3}} & #0}', 11],
		['1 < 2 < 3 < 4', '{#1 < #2}', 7],
	])('first-only keeps the first comparison of %j', (formula, expected, column) => {
		const { ast, warnings } = parseFormula(formula, { chainedComparisons: 'first-only' });
		expect(shape(ast)).toBe(expected);
		expect(warnings).toHaveLength(1);
		expect(warnings[0]).toMatchObject({ code: 'formula-chained-comparison', column });
	});

	it('first-only still requires the dropped part to parse', () => {
		expect(syntaxErrorOf('1 < 2 < ', { chainedComparisons: 'first-only' }).column).toBe(9);
	});
});

describe('parseFormula: errors name the column and what was expected', () => {
	it.each([
		['', 1, /empty/],
		['   ', 1, /empty/],
		['(1;%a%) >', 10, /expected a region reference.*end of the formula/],
		['(1;%a%) (2;%a%)', 9, /expected an operator/],
		['(1;%a%))', 8, /unmatched '\)'/],
		['((1;%a%)', 9, /expected '\)' to close '\(' at column 1/],
		['(1;%a% > 0', 8, /expected '\)' to close the region reference/],
		['-(1;%a%)', 1, /unary '-'/],
		['(1;%a%) - - (1;%b%)', 11, /unary '-'/],
		['(1.5;%a%)', 2, /region number must be digits/],
		['(-1;%a%)', 2, /region number must be digits/],
		['(1;%a.b%)', 6, /'%'/],
		['(1; %a%)', 3, /';%'/],
		['(1;%a%) <= 2', 9, /'<='/],
		['(1;%a%) * 2', 9, /'\*'/],
		['2 / (1;%a%)', 3, /'\/'/],
		['1 > & 2', 5, /expected a region reference/],
		['(*)', 2, /expected|unexpected/],
	])('%j fails at column %i', (formula, column, message) => {
		const error = syntaxErrorOf(formula);
		expect(error.column).toBe(column);
		expect(error.message).toMatch(message);
	});

	it('refuses absurd nesting without exhausting the stack', () => {
		const formula = `${'('.repeat(600)}1${')'.repeat(600)}`;
		expect(syntaxErrorOf(formula).message).toMatch(/nested more than/);
	});
});

describe('parseFormula: length bound', () => {
	it('rejects a formula longer than MAX_FORMULA_LENGTH with the column just past the bound', () => {
		const chain = Array.from({ length: 5_000 }, () => '1').join(' + ');
		expect(() => parseFormula(chain)).toThrow(FormulaSyntaxError);
		try {
			parseFormula(chain);
		} catch (error) {
			expect((error as FormulaSyntaxError).column).toBe(MAX_FORMULA_LENGTH + 1);
		}
	});

	it('accepts a formula of exactly MAX_FORMULA_LENGTH characters', () => {
		const base = '(1;%a%) < (1;%b%)';
		const formula = base + ' '.repeat(MAX_FORMULA_LENGTH - base.length);
		expect(parseFormula(formula).ast.kind).toBe('binary');
	});
});
