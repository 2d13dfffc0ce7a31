/**
 * Parses a prediction formula into the AST of ast.ts, with syntaxgym-core's grammar and precedence.
 * Hand-written recursive descent over tokenize-formula.ts: no eval, no Function, no evaluation here.
 */
import { FormulaSyntaxError } from '../../errors';
import type { BinaryOperator, FormulaNode } from './ast';
import { tokenizeFormula, type FormulaToken, type FormulaTokenKind } from './tokenize-formula';

export interface ParseFormulaOptions {
	/**
	 * `error` (default): `[`/`]` are a syntax error, as in syntaxgym-core. `accept`: they group like
	 * `(`/`)` (the 2019/2020 syntax of the Hu et al. suites) and a `formula-brackets` warning is given.
	 */
	brackets?: 'error' | 'accept';
	/**
	 * `error` (default): `a < b < c` is a syntax error at the second operator. `first-only`: keep
	 * `a < b` and drop the rest (still parsed), as syntaxgym-core silently does, with a warning.
	 */
	chainedComparisons?: 'error' | 'first-only';
}

/** A formula that parses but not as written: `formula-brackets` or `formula-chained-comparison`. */
export interface FormulaWarning {
	code: string;
	message: string;
	/** 1-based column in the formula string. */
	column: number;
}

const COMPARISON_OPERATORS = new Set(['<', '>', '=']);
const ARITHMETIC_OPERATORS = new Set(['+', '-']);
const LOGICAL_OPERATORS = new Set(['&', '|']);
/** Deeper nesting than this is refused rather than risking the call stack. */
const MAX_NESTING_DEPTH = 500;
const OPERAND_EXPECTED = 'a region reference like (1;%cond%), a number or an opening parenthesis';

/**
 * Parses `formula`. Precedence, tightest first: `+ -` (left-assoc), `< > =` (no chaining),
 * `& |` (one level, left to right: `A | B & C` is `(A | B) & C`). Atoms: `(N;%cond%)`,
 * `(*;%cond%)`, number literals with optional sign. No unary operators.
 * @throws FormulaSyntaxError with a 1-based column and a message saying what was expected.
 */
/**
 * The longest formula accepted (characters). Published suites stay under 200; the bound keeps
 * the recursive evaluator and formatter far from the stack limit on a left-deep operator chain.
 */
export const MAX_FORMULA_LENGTH = 2_000;

export function parseFormula(
	formula: string,
	options: ParseFormulaOptions = {},
): { ast: FormulaNode; warnings: FormulaWarning[] } {
	if (formula.length > MAX_FORMULA_LENGTH) {
		throw new FormulaSyntaxError(
			`the formula has ${formula.length} characters, more than the ${MAX_FORMULA_LENGTH} accepted; split it into several predictions`,
			MAX_FORMULA_LENGTH + 1,
		);
	}
	const parser = new FormulaParser(tokenizeFormula(formula), options);
	const ast = parser.parseFormula();
	return { ast, warnings: parser.warnings };
}

class FormulaParser {
	readonly warnings: FormulaWarning[] = [];
	#index = 0;
	#depth = 0;

	constructor(
		private readonly tokens: readonly FormulaToken[],
		private readonly options: ParseFormulaOptions,
	) {}

	parseFormula(): FormulaNode {
		if (this.#peek().kind === 'end') {
			throw new FormulaSyntaxError(`the formula is empty; expected ${OPERAND_EXPECTED}`, 1);
		}
		const ast = this.#parseLogical();
		const token = this.#peek();
		if (token.kind !== 'end') {
			if (token.kind === 'close-paren' || token.kind === 'close-bracket') {
				throw syntaxError(token, `unmatched '${token.text}' at column ${token.column}`);
			}
			throw syntaxError(
				token,
				`expected an operator (+ - < > = & |) or the end of the formula at column ${token.column} but found ${describe(token)}`,
			);
		}
		return ast;
	}

	/** `& |`: one precedence level, left-associative. */
	#parseLogical(): FormulaNode {
		let left = this.#parseComparison();
		for (let token = this.#peek(); isOperator(token, LOGICAL_OPERATORS); token = this.#peek()) {
			this.#index++;
			const right = this.#parseComparison();
			left = binary(token, left, right);
		}
		return left;
	}

	/** `< > =`: one comparison at most; a second one is an error or (first-only) dropped. */
	#parseComparison(): FormulaNode {
		const left = this.#parseArithmetic();
		const operator = this.#peek();
		if (!isOperator(operator, COMPARISON_OPERATORS)) return left;
		this.#index++;
		const node = binary(operator, left, this.#parseArithmetic());
		const second = this.#peek();
		if (!isOperator(second, COMPARISON_OPERATORS)) return node;
		if (this.options.chainedComparisons !== 'first-only') {
			throw syntaxError(
				second,
				`comparisons cannot be chained: second comparison '${second.text}' at column ${second.column};` +
					` combine them with '&', as in '(a < b) & (b < c)'`,
			);
		}
		this.warnings.push({
			code: 'formula-chained-comparison',
			column: second.column,
			message:
				`chained comparison: only the first comparison ('${operator.text}' at column ${operator.column})` +
				` counts and everything from '${second.text}' at column ${second.column} up to the next & or |` +
				` is ignored, as syntaxgym-core does`,
		});
		while (isOperator(this.#peek(), COMPARISON_OPERATORS)) {
			this.#index++;
			this.#parseArithmetic();
		}
		return node;
	}

	/** `+ -`: left-associative. */
	#parseArithmetic(): FormulaNode {
		let left = this.#parseOperand();
		for (let token = this.#peek(); isOperator(token, ARITHMETIC_OPERATORS); token = this.#peek()) {
			this.#index++;
			left = binary(token, left, this.#parseOperand());
		}
		return left;
	}

	#parseOperand(): FormulaNode {
		const token = this.#peek();
		switch (token.kind) {
			case 'number':
				this.#index++;
				return {
					kind: 'number',
					value: Number(token.text),
					text: token.text,
					column: token.column,
				};
			case 'open-paren':
				return this.#isRegionReference() ? this.#parseRegionReference() : this.#parseGroup();
			case 'open-bracket':
				if (this.options.brackets !== 'accept') {
					throw syntaxError(
						token,
						`square brackets are not allowed (column ${token.column}); group with '(' and ')'`,
					);
				}
				if (!this.warnings.some((warning) => warning.code === 'formula-brackets')) {
					this.warnings.push({
						code: 'formula-brackets',
						column: token.column,
						message: `square brackets (first at column ${token.column}) were read as parentheses; current syntaxgym-core rejects them`,
					});
				}
				return this.#parseGroup();
			case 'operator':
				if (token.text === '-' || token.text === '+') {
					throw syntaxError(
						token,
						`unary '${token.text}' at column ${token.column} is not supported: a sign must be directly` +
							` followed by digits (-1), and an expression cannot be negated (write 0 - (...))`,
					);
				}
				throw syntaxError(
					token,
					`expected ${OPERAND_EXPECTED} at column ${token.column} but found ${describe(token)}`,
				);
			default:
				throw syntaxError(
					token,
					`expected ${OPERAND_EXPECTED} at column ${token.column} but found ${describe(token)}`,
				);
		}
	}

	/** `(` then digits or `*` then `;%`: pyparsing tries the region atom before a group. */
	#isRegionReference(): boolean {
		const number = this.tokens[this.#index + 1];
		const separator = this.tokens[this.#index + 2];
		if (number === undefined || separator?.kind !== 'region-separator') return false;
		if (number.kind === 'star' || (number.kind === 'number' && /^\d+$/.test(number.text)))
			return true;
		throw syntaxError(
			number,
			`a region number must be digits or '*' (column ${number.column}) but found ${describe(number)}`,
		);
	}

	#parseRegionReference(): FormulaNode {
		const open = this.#take('open-paren');
		const number = this.tokens[this.#index++] as FormulaToken;
		this.#take('region-separator');
		const name = this.#take('condition-name');
		this.#take('percent');
		const close = this.#peek();
		if (close.kind !== 'close-paren') {
			throw syntaxError(
				close,
				`expected ')' to close the region reference opened at column ${open.column}` +
					` but found ${describe(close)} at column ${close.column}`,
			);
		}
		this.#index++;
		return {
			kind: 'region',
			regionNumber: number.kind === 'star' ? '*' : Number.parseInt(number.text, 10),
			conditionName: name.text,
			column: open.column,
		};
	}

	#parseGroup(): FormulaNode {
		const open = this.#peek();
		this.#index++;
		if (++this.#depth > MAX_NESTING_DEPTH) {
			throw syntaxError(
				open,
				`parentheses nested more than ${MAX_NESTING_DEPTH} deep at column ${open.column}`,
			);
		}
		const inner = this.#parseLogical();
		this.#depth--;
		const expected: FormulaTokenKind =
			open.kind === 'open-bracket' ? 'close-bracket' : 'close-paren';
		const close = this.#peek();
		if (close.kind !== expected) {
			const closer = expected === 'close-bracket' ? ']' : ')';
			throw syntaxError(
				close,
				`expected '${closer}' to close '${open.text}' at column ${open.column}` +
					(close.kind === 'end' ? '' : ` or an operator (+ - < > = & |)`) +
					` but found ${describe(close)} at column ${close.column}`,
			);
		}
		this.#index++;
		return inner;
	}

	#peek(): FormulaToken {
		return this.tokens[this.#index] ?? (this.tokens[this.tokens.length - 1] as FormulaToken);
	}

	/** Consumes a token the tokenizer guarantees (it emits `;%`, name and `%` together). */
	#take(kind: FormulaTokenKind): FormulaToken {
		const token = this.#peek();
		if (token.kind !== kind) throw syntaxError(token, `expected ${kind} at column ${token.column}`);
		this.#index++;
		return token;
	}
}

function isOperator(token: FormulaToken, operators: ReadonlySet<string>): boolean {
	return token.kind === 'operator' && operators.has(token.text);
}

function binary(operator: FormulaToken, left: FormulaNode, right: FormulaNode): FormulaNode {
	return {
		kind: 'binary',
		operator: operator.text as BinaryOperator,
		left,
		right,
		column: operator.column,
	};
}

function describe(token: FormulaToken): string {
	return token.kind === 'end' ? 'the end of the formula' : `'${token.text}'`;
}

function syntaxError(token: FormulaToken, message: string): FormulaSyntaxError {
	return new FormulaSyntaxError(message, token.column);
}
