/**
 * The bits of Python's string and JSON behaviour that OpenAI Evals verdicts and prompts depend on:
 * `str.strip`/`split` whitespace, `string.punctuation`, `str()`/`repr()` of JSON values, float
 * `repr`, `str.format` with only the needed keys (`format_necessary`) and `json.dumps`. Pure.
 */
import { formatPythonFloat as pythonFloatRepr } from './python-float';
import { isPythonWhitespace, pythonSplitWhitespace, pythonStrip } from './python-whitespace';

export { isPythonWhitespace, pythonFloatRepr, pythonSplitWhitespace, pythonStrip };
/** A parsed JSON value, as Python's `json.loads` gives it. */
export type JsonValue =
	null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** Python's `string.punctuation`: the 32 printable ASCII symbols (no Unicode punctuation). */
export const PYTHON_PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const PUNCTUATION_SET = new Set(PYTHON_PUNCTUATION);

/** Deletes every character of `string.punctuation` (ASCII only). */
export function removeAsciiPunctuation(text: string): string {
	let out = '';
	for (const char of text) if (!PUNCTUATION_SET.has(char)) out += char;
	return out;
}

export function containsAsciiPunctuation(text: string): boolean {
	for (const char of text) if (PUNCTUATION_SET.has(char)) return true;
	return false;
}

/**
 * A JSON number as Python prints it after `json.loads`: integral values as ints (the JSON text
 * `1.0` loads as a float upstream but is indistinguishable here: a documented divergence).
 */
function pythonNumberStr(value: number): string {
	return Number.isInteger(value) && Math.abs(value) < 1e16 ? String(value) : pythonFloatRepr(value);
}

/** Python `repr(str)`: single quotes unless the text has `'` and no `"`; escapes as CPython. */
export function pythonStringRepr(text: string): string {
	const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
	let out = quote;
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (char === quote || char === '\\') out += `\\${char}`;
		else if (char === '\n') out += '\\n';
		else if (char === '\r') out += '\\r';
		else if (char === '\t') out += '\\t';
		else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
		else if (!isPrintableForRepr(code)) {
			if (code <= 0xff) out += `\\x${code.toString(16).padStart(2, '0')}`;
			else if (code <= 0xffff) out += `\\u${code.toString(16).padStart(4, '0')}`;
			else out += `\\U${code.toString(16).padStart(8, '0')}`;
		} else out += char;
	}
	return out + quote;
}

/** Approximates `str.isprintable()` for repr: separators, controls, format chars, unassigned. */
function isPrintableForRepr(code: number): boolean {
	if (code === 0x20) return true;
	const char = String.fromCodePoint(code);
	return !/[\p{Z}\p{C}]/u.test(char);
}

/** Python `repr()` of a JSON value (`True`, `None`, `['a', 1]`, `{'k': 'v'}`). */
export function pythonRepr(value: JsonValue): string {
	if (value === null) return 'None';
	if (typeof value === 'boolean') return value ? 'True' : 'False';
	if (typeof value === 'number') return pythonNumberStr(value);
	if (typeof value === 'string') return pythonStringRepr(value);
	if (Array.isArray(value))
		return `[${value.map((item: JsonValue) => pythonRepr(item)).join(', ')}]`;
	const entries = Object.entries(value as Record<string, JsonValue>);
	return `{${entries.map(([key, item]) => `${pythonStringRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
}

/** Python `str()` of a JSON value: strings as themselves, everything else as `repr`. */
export function pythonStr(value: JsonValue): string {
	return typeof value === 'string' ? value : pythonRepr(value);
}

export type FormatPiece = { readonly literal: string } | { readonly field: string };

/**
 * Splits a template as Python's `string.Formatter().parse`: `{{`/`}}` are literal braces,
 * `{name}` a field. Conversions (`!r`) and format specs (`:>4`) and indexing are not supported
 * (no upstream spec uses them) and raise; so do a lone `}` or an unclosed `{`, as in Python.
 */
export function parseFormatTemplate(template: string): FormatPiece[] {
	const pieces: FormatPiece[] = [];
	let literal = '';
	for (let i = 0; i < template.length; i++) {
		const char = template.charAt(i);
		if (char === '{') {
			if (template.charAt(i + 1) === '{') {
				literal += '{';
				i++;
				continue;
			}
			const close = template.indexOf('}', i + 1);
			if (close === -1) throw new Error("Single '{' encountered in format string");
			const field = template.slice(i + 1, close);
			if (!/^[^!:[\].{}]*$/u.test(field)) {
				throw new Error(
					`the placeholder {${field}} uses a conversion, format spec or index, which Benchtop does not support`,
				);
			}
			if (field === '') throw new Error('a positional placeholder {} has no value here');
			if (literal !== '') pieces.push({ literal });
			literal = '';
			pieces.push({ field });
			i = close;
		} else if (char === '}') {
			if (template.charAt(i + 1) !== '}')
				throw new Error("Single '}' encountered in format string");
			literal += '}';
			i++;
		} else literal += char;
	}
	if (literal !== '') pieces.push({ literal });
	return pieces;
}

/** The placeholder names of a template, in order, repeats included. */
export function templateFields(template: string): string[] {
	return parseFormatTemplate(template).flatMap((piece) => ('field' in piece ? [piece.field] : []));
}

/** Report and event keys whose numbers Python holds as floats (`float(True)` prints `1.0`). */
export const FLOAT_KEYS: ReadonlySet<string> = new Set([
	'accuracy',
	'boostrap_std',
	'f1_score',
	'score',
	'metascore',
]);

/**
 * Python `json.dumps(value, ensure_ascii=False)`: separators `, ` and `: `, `NaN`/`Infinity`
 * literals. JS numbers carry no int/float distinction: integral numbers print as ints except under
 * the keys in `floatKeys` (at any depth), which print as Python floats (`1.0`).
 */
export function pythonJsonDumps(
	value: unknown,
	floatKeys: ReadonlySet<string> = FLOAT_KEYS,
	asFloat = false,
): string {
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'boolean') return value ? 'true' : 'false';
	if (typeof value === 'number') {
		if (Number.isNaN(value)) return 'NaN';
		if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
		if (asFloat) return pythonFloatRepr(value);
		return Number.isInteger(value) && Math.abs(value) < 1e16
			? String(value)
			: pythonFloatRepr(value);
	}
	if (typeof value === 'string') return JSON.stringify(value);
	if (Array.isArray(value)) {
		return `[${value.map((item) => pythonJsonDumps(item, floatKeys, asFloat)).join(', ')}]`;
	}
	if (typeof value === 'object') {
		const entries = Object.entries(value as Record<string, unknown>).filter(
			([, item]) => item !== undefined,
		);
		const body = entries.map(
			([key, item]) =>
				`${JSON.stringify(key)}: ${pythonJsonDumps(item, floatKeys, floatKeys.has(key))}`,
		);
		return `{${body.join(', ')}}`;
	}
	return JSON.stringify(String(value));
}
