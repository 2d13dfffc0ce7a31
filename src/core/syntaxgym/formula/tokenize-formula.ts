/**
 * Splits a prediction formula into tokens (syntaxgym-core `prediction.py` lexical rules).
 * Knows nothing about grammar beyond what lexing needs: signs, `;%cond%`. Never evaluates.
 */
import { FormulaSyntaxError } from '../../errors';

export type FormulaTokenKind =
	| 'open-paren'
	| 'close-paren'
	| 'open-bracket'
	| 'close-bracket'
	| 'number'
	| 'star'
	| 'region-separator'
	| 'condition-name'
	| 'percent'
	| 'operator'
	| 'end';

export interface FormulaToken {
	readonly kind: FormulaTokenKind;
	/** The characters as written (`''` for `end`). */
	readonly text: string;
	/** 1-based column of the first character (for `end`: one past the last character). */
	readonly column: number;
}

/** pyparsing's default whitespace: space, tab, carriage return, line feed. */
const WHITESPACE = new Set([' ', '\t', '\r', '\n']);
const OPERATORS = new Set(['+', '-', '<', '>', '=', '&', '|']);
const CONDITION_NAME_CHAR = /[A-Za-z0-9_-]/;
/** pyparsing_common.number: optional sign, integer / real (`5.`, `.5`) / scientific. */
const NUMBER = /[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?/y;

/** Tokens after which a `+`/`-` is a binary operator rather than the sign of a literal. */
const OPERAND_END_KINDS: ReadonlySet<FormulaTokenKind> = new Set([
	'number',
	'close-paren',
	'close-bracket',
	'percent',
]);

/** A misspelling we can name precisely, keyed by the characters at the error position. */
const UNSUPPORTED: readonly { text: string; message: string }[] = [
	{ text: '<=', message: "'<=' is not an operator; use '<', or '(a < b) | (a = b)'" },
	{ text: '>=', message: "'>=' is not an operator; use '>', or '(a > b) | (a = b)'" },
	{ text: '==', message: "'==' is not an operator; use '=' (equal within 0.001)" },
	{ text: '!=', message: "'!=' is not supported; the formula language has no negation" },
	{ text: '&&', message: "'&&' is not an operator; use '&'" },
	{ text: '||', message: "'||' is not an operator; use '|'" },
	{ text: '!', message: "'!' is not supported; the formula language has no negation" },
	{ text: '/', message: "'/' is not supported; the formula language has only '+' and '-'" },
	{ text: '*', message: "'*' is only allowed as a region number, as in (*;%cond%)" },
];

/**
 * Tokenizes `formula`. Whitespace (space, tab, CR, LF) separates tokens anywhere except inside
 * `;%`. A `+`/`-` directly followed by a digit or `.digit` is the sign of a number literal unless
 * it follows an operand (`-1 < 0` is a literal, `(1;%a%) -1` is a subtraction). After `;%` the
 * next token is a condition name `[A-Za-z0-9_-]+`, then `%`.
 * @throws FormulaSyntaxError with the 1-based column of the offending character.
 */
export function tokenizeFormula(formula: string): FormulaToken[] {
	const tokens: FormulaToken[] = [];
	let position = 0;
	const previousKind = (): FormulaTokenKind | undefined => tokens[tokens.length - 1]?.kind;
	const skipWhitespace = (): void => {
		while (position < formula.length && WHITESPACE.has(formula[position] ?? '')) position++;
	};
	const push = (kind: FormulaTokenKind, text: string): void => {
		tokens.push({ kind, text, column: position + 1 });
		position += text.length;
	};

	for (;;) {
		skipWhitespace();
		if (position >= formula.length) break;
		const char = formula[position] ?? '';
		const previous = previousKind();

		if (char === '(') push('open-paren', char);
		else if (char === ')') push('close-paren', char);
		else if (char === '[') push('open-bracket', char);
		else if (char === ']') push('close-bracket', char);
		else if (char === ';') {
			if (formula[position + 1] !== '%') {
				throw new FormulaSyntaxError(
					`expected ';%' at column ${position + 1} (no space between ';' and '%'), as in (1;%cond%)`,
					position + 1,
				);
			}
			push('region-separator', ';%');
			readConditionName();
		} else if (char === '*' && previous === 'open-paren') push('star', char);
		else if (isNumberStart(formula, position, previous)) {
			NUMBER.lastIndex = position;
			const match = NUMBER.exec(formula);
			if (match === null) throw unexpectedCharacter(formula, position);
			push('number', match[0]);
		} else if (OPERATORS.has(char) && !startsUnsupported(formula, position)) push('operator', char);
		else throw unexpectedCharacter(formula, position);
	}
	tokens.push({ kind: 'end', text: '', column: formula.length + 1 });
	return tokens;

	function readConditionName(): void {
		skipWhitespace();
		const start = position;
		while (position < formula.length && CONDITION_NAME_CHAR.test(formula[position] ?? '')) {
			position++;
		}
		if (position === start) {
			throw new FormulaSyntaxError(
				`expected a condition name after ';%' at column ${start + 1}` +
					` (letters, digits, '_' and '-' only) but found ${describeAt(formula, start)}`,
				start + 1,
			);
		}
		tokens.push({
			kind: 'condition-name',
			text: formula.slice(start, position),
			column: start + 1,
		});
		skipWhitespace();
		if (formula[position] !== '%') {
			throw new FormulaSyntaxError(
				`expected '%' to close the condition name at column ${position + 1} but found ` +
					`${describeAt(formula, position)} (condition names may contain only letters, digits, '_' and '-')`,
				position + 1,
			);
		}
		push('percent', '%');
	}
}

/** A digit or `.` starts a literal; so does a sign in operand position before `\d` or `.\d`. */
function isNumberStart(
	formula: string,
	position: number,
	previous: FormulaTokenKind | undefined,
): boolean {
	const char = formula[position] ?? '';
	if (/[0-9.]/.test(char)) return true;
	if (char !== '+' && char !== '-') return false;
	if (previous !== undefined && OPERAND_END_KINDS.has(previous)) return false;
	return /^(?:\d|\.\d)/.test(formula.slice(position + 1, position + 3));
}

function startsUnsupported(formula: string, position: number): boolean {
	return UNSUPPORTED.some(
		(entry) => entry.text.length > 1 && formula.startsWith(entry.text, position),
	);
}

function unexpectedCharacter(formula: string, position: number): FormulaSyntaxError {
	const known = UNSUPPORTED.find((entry) => formula.startsWith(entry.text, position));
	if (known)
		return new FormulaSyntaxError(`${known.message} (column ${position + 1})`, position + 1);
	return new FormulaSyntaxError(
		`unexpected ${describeAt(formula, position)} at column ${position + 1}; a formula uses` +
			` region references (N;%cond%), numbers, + - < > = & | and parentheses`,
		position + 1,
	);
}

/** `'x'` for the character at `position`, or `end of formula`. */
export function describeAt(formula: string, position: number): string {
	const char = formula.codePointAt(position);
	if (char === undefined) return 'end of formula';
	return `'${String.fromCodePoint(char)}'`;
}
