/**
 * Turns a formula AST back into text: readable spacing, only the parentheses the grammar needs,
 * and a list of the regions a formula references. Pure; no parsing or evaluation here.
 */
import type { BinaryOperator, FormulaNode } from './ast';

const PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
	'&': 1,
	'|': 1,
	'<': 2,
	'>': 2,
	'=': 2,
	'+': 3,
	'-': 3,
};
const COMPARISON = 2;

/**
 * Formats `ast` as `(1;%a%) - (1;%b%) > 0 & (2;%a%) < (2;%b%)`: one space around operators,
 * literals as written, region numbers without leading zeros. Parentheses appear only where
 * re-parsing would otherwise give a different tree (a right operand of the same level, since
 * every level is left-associative; any comparison inside a comparison, which cannot chain).
 */
export function formatFormula(ast: FormulaNode): string {
	switch (ast.kind) {
		case 'number':
			return ast.text;
		case 'region':
			return `(${ast.regionNumber};%${ast.conditionName}%)`;
		case 'binary': {
			const level = PRECEDENCE[ast.operator];
			const left = formatOperand(ast.left, level, false);
			const right = formatOperand(ast.right, level, true);
			return `${left} ${ast.operator} ${right}`;
		}
	}
}

function formatOperand(node: FormulaNode, parentLevel: number, isRight: boolean): string {
	const text = formatFormula(node);
	if (node.kind !== 'binary') return text;
	const level = PRECEDENCE[node.operator];
	const needsParentheses =
		level < parentLevel || (level === parentLevel && (isRight || level === COMPARISON));
	return needsParentheses ? `(${text})` : text;
}

/** A region reference found in a formula, with the column of its opening parenthesis. */
export interface ReferencedRegion {
	conditionName: string;
	regionNumber: number | '*';
	column: number;
}

/** Every region reference in `ast`, left to right, repeats included. */
export function referencedRegions(ast: FormulaNode): ReferencedRegion[] {
	const found: ReferencedRegion[] = [];
	const visit = (node: FormulaNode): void => {
		if (node.kind === 'region') {
			found.push({
				conditionName: node.conditionName,
				regionNumber: node.regionNumber,
				column: node.column,
			});
		} else if (node.kind === 'binary') {
			visit(node.left);
			visit(node.right);
		}
	};
	visit(ast);
	return found;
}
