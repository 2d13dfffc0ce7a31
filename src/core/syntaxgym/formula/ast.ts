/**
 * The prediction-formula syntax tree (syntaxgym-core `syntaxgym/prediction.py` grammar).
 * Plain data: parse-formula.ts builds it, evaluate-formula.ts walks it.
 */

export type ArithmeticOperator = '+' | '-';
export type ComparisonOperator = '<' | '>' | '=';
export type LogicalOperator = '&' | '|';
export type BinaryOperator = ArithmeticOperator | ComparisonOperator | LogicalOperator;

/** `(N;%cond%)` or `(*;%cond%)`: the value of region N (or the sum over all regions) of a condition. */
export interface RegionReferenceNode {
	readonly kind: 'region';
	readonly regionNumber: number | '*';
	readonly conditionName: string;
	/** 1-based column of the opening parenthesis in the formula string. */
	readonly column: number;
}

export interface NumberNode {
	readonly kind: 'number';
	readonly value: number;
	/** The literal as written (`-1`, `.5`, `1e3`). */
	readonly text: string;
	readonly column: number;
}

export interface BinaryNode {
	readonly kind: 'binary';
	readonly operator: BinaryOperator;
	readonly left: FormulaNode;
	readonly right: FormulaNode;
	/** 1-based column of the operator. */
	readonly column: number;
}

export type FormulaNode = RegionReferenceNode | NumberNode | BinaryNode;

/** What a formula evaluates to: comparisons give booleans, arithmetic gives numbers, and
 * `&`/`|` return one of their operands, as Python's `and`/`or` do. */
export type FormulaValue = number | boolean;
