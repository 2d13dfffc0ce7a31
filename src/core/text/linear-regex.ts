/**
 * Regular expressions from definition files, run in linear time. Patterns are written in
 * JavaScript syntax and searched for anywhere in the text (`RegExp.prototype.test`, Python's
 * `re.search`), but they run on RE2 (re2js, pure JavaScript), whose time grows with the text's
 * length and never explodes: `^(a|aa)+$` against 10,000 `a`s and a `b` answers at once, where the
 * backtracking engine would run for ages. What needs backtracking is refused with the construct
 * named: lookahead and lookbehind, backreferences. The pattern is translated so that RE2 matches
 * what JavaScript would: `.` and `\s` / `\S` keep their JavaScript sets, `\uXXXX` and `[^]` are
 * rewritten, and RE2-only syntax (`\A`, `\z`, `(?i)`, `[[:alpha:]]`) is refused or kept literal
 * as JavaScript reads it. Known leftovers: case folding of a few non-ASCII letters under `i`, and
 * `^` / `$` under `m` meet only `\n` (JavaScript also meets `\r`, U+2028, U+2029).
 */
import { RE2JS, RE2JSException } from 're2js';

/** A pattern (or its flags) that the linear-time engine does not run; the message says why. */
export class RegexRefused extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'RegexRefused';
	}
}

/** Longest pattern source accepted (after templates are rendered). */
export const MAX_PATTERN_CHARS = 10_000;

export interface LinearRegex {
	/** Whether the pattern occurs anywhere in the text. */
	test(text: string): boolean;
	/** The first match and its groups (`undefined` for a group that took no part), or null. */
	exec(text: string): [string, ...(string | undefined)[]] | null;
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator code points, as inclusive ranges. */
const JS_SPACE: readonly (readonly [number, number])[] = [
	[0x09, 0x0d],
	[0x20, 0x20],
	[0xa0, 0xa0],
	[0x1680, 0x1680],
	[0x2000, 0x200a],
	[0x2028, 0x2029],
	[0x202f, 0x202f],
	[0x205f, 0x205f],
	[0x3000, 0x3000],
	[0xfeff, 0xfeff],
];

function complement(ranges: readonly (readonly [number, number])[]): [number, number][] {
	const out: [number, number][] = [];
	let next = 0;
	for (const [from, to] of ranges) {
		if (from > next) out.push([next, from - 1]);
		next = to + 1;
	}
	if (next <= 0x10ffff) out.push([next, 0x10ffff]);
	return out;
}

const hex = (code: number) => `\\x{${code.toString(16)}}`;
const rangeText = (ranges: readonly (readonly [number, number])[]) =>
	ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');

const SPACE_ITEMS = rangeText(JS_SPACE);
const NON_SPACE_ITEMS = rangeText(complement(JS_SPACE));
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = `[^\\n\\r${hex(0x2028)}${hex(0x2029)}]`;
const ANY = `[${hex(0)}-${hex(0x10ffff)}]`;
const NOTHING = `[^${hex(0)}-${hex(0x10ffff)}]`;

const FLAG_BITS: Readonly<Record<string, number>> = {
	i: RE2JS.CASE_INSENSITIVE,
	m: RE2JS.MULTILINE,
	s: RE2JS.DOTALL,
	// No effect on a search for one match: Unicode code points are read either way, `g` and `d`
	// only change what a JavaScript RegExp object remembers or reports.
	u: 0,
	g: 0,
	d: 0,
};

function flagBits(flags: string): number {
	let bits = 0;
	const seen = new Set<string>();
	for (const flag of flags) {
		if (!(flag in FLAG_BITS))
			throw new RegexRefused(
				`flag '${flag}' is not supported (use i, m, s; u, g and d are accepted and change nothing)`,
			);
		if (seen.has(flag)) throw new RegexRefused(`flag '${flag}' is given twice`);
		seen.add(flag);
		bits |= FLAG_BITS[flag]!;
	}
	return bits;
}

/** Escapes that stand for a set of characters (never an end of a range). */
const SET_ESCAPES = /^\\[dDwWsSpP]/;
const PASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 'n', 'r', 't', 'f', 'v']);
const BACKTRACKING =
	'needs backtracking; patterns run on a linear-time engine (RE2), which has no lookaround and no backreferences';

/** `\u` escapes at `at` (the backslash): `\uXXXX` or `\u{X…}`, as RE2's `\x{…}`. */
function unicodeEscape(source: string, at: number): { text: string; end: number } {
	const braced = /^\\u\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(at, at + 10));
	if (braced && Number.parseInt(braced[1]!, 16) <= 0x10ffff)
		return { text: `\\x{${braced[1]}}`, end: at + braced[0].length };
	const four = /^\\u([0-9a-fA-F]{4})/.exec(source.slice(at, at + 6));
	if (four) return { text: `\\x{${four[1]}}`, end: at + 6 };
	throw new RegexRefused(`'\\u' at character ${at + 1} must be followed by 4 hex digits or {hex}`);
}

/**
 * One escape at `at` (the backslash), in a class or not: the RE2 text for it and where it ends.
 * Refuses backreferences and escapes whose meaning differs between the two engines.
 */
function escape(
	source: string,
	at: number,
	inClass: boolean,
	unicode: boolean,
): { text: string; end: number } {
	const char = source[at + 1];
	const where = `at character ${at + 1}`;
	if (char === undefined) throw new RegexRefused(`the pattern ends with a lone '\\'`);
	if (PASS_ESCAPES.has(char)) return { text: `\\${char}`, end: at + 2 };
	if (char === 's') return { text: inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`, end: at + 2 };
	if (char === 'S')
		return { text: inClass ? NON_SPACE_ITEMS : `[${NON_SPACE_ITEMS}]`, end: at + 2 };
	if (char === 'b' || char === 'B') {
		// In a class, JavaScript's `\b` is a backspace; RE2 refuses it there.
		if (inClass) {
			if (char === 'b') return { text: hex(8), end: at + 2 };
		} else return { text: `\\${char}`, end: at + 2 };
	}
	if (char === 'u') return unicodeEscape(source, at);
	if (char === 'x') {
		const digits = /^[0-9a-fA-F]{2}/.exec(source.slice(at + 2, at + 4));
		if (digits) return { text: `\\x{${digits[0]}}`, end: at + 4 };
		throw new RegexRefused(`'\\x' ${where} must be followed by 2 hex digits`);
	}
	if (char === 'c') {
		const letter = source[at + 2] ?? '';
		if (/^[A-Za-z]$/.test(letter))
			return { text: hex(letter.toUpperCase().charCodeAt(0) % 32), end: at + 3 };
	}
	if (char === '0' && !/^[0-9]$/.test(source[at + 2] ?? '')) return { text: hex(0), end: at + 2 };
	if (/^[1-9]$/.test(char))
		throw new RegexRefused(`a backreference '\\${char}' ${where} ${BACKTRACKING}`);
	if (char === 'k' && !inClass)
		throw new RegexRefused(`a named backreference '\\k' ${where} ${BACKTRACKING}`);
	if (char === 'p' || char === 'P') {
		if (!unicode)
			throw new RegexRefused(
				`'\\${char}' ${where} is a plain '${char}' in JavaScript without the u flag; add the u flag for a Unicode property`,
			);
		const property = /^\{[A-Za-z_]+\}/.exec(source.slice(at + 2, at + 40));
		if (property) return { text: `\\${char}${property[0]}`, end: at + 2 + property[0].length };
	}
	if (/^[!-/:-@[-`{-~]$/.test(char)) return { text: `\\${char}`, end: at + 2 };
	throw new RegexRefused(
		`the escape '\\${char}' ${where} is not supported (its meaning differs between JavaScript and RE2)`,
	);
}

/** The RE2 text of a class that starts at `at` (its `[`), and where it ends. */
function translateClass(
	source: string,
	at: number,
	unicode: boolean,
): { text: string; end: number } {
	let i = at + 1;
	let negated = false;
	if (source[i] === '^') {
		negated = true;
		i++;
	}
	if (source[i] === ']') return { text: negated ? ANY : NOTHING, end: i + 1 };
	let text = negated ? '[^' : '[';
	let afterSet = false;
	while (i < source.length && source[i] !== ']') {
		const char = source[i]!;
		if (char === '\\') {
			const part = escape(source, i, true, unicode);
			text += part.text;
			afterSet = SET_ESCAPES.test(source.slice(i, i + 2));
			i = part.end;
		} else {
			// A `[` is plain in a JavaScript class (RE2 would read `[:alpha:]` as a POSIX class), and
			// so is a `-` beside a set such as `\s` (RE2 would read a range into the expanded set).
			const plainDash = char === '-' && (afterSet || SET_ESCAPES.test(source.slice(i + 1, i + 3)));
			text += char === '[' || plainDash ? `\\${char}` : char;
			afterSet = false;
			i++;
		}
	}
	if (i >= source.length)
		throw new RegexRefused(`the class '[' at character ${at + 1} is not closed`);
	return { text: `${text}]`, end: i + 1 };
}

/** Translates a JavaScript pattern into RE2 syntax of the same meaning, or refuses it. */
export function translatePattern(source: string, flags = ''): string {
	const dotAll = flags.includes('s');
	const unicode = flags.includes('u');
	let out = '';
	let i = 0;
	while (i < source.length) {
		const char = source[i]!;
		if (char === '\\') {
			const part = escape(source, i, false, unicode);
			out += part.text;
			i = part.end;
		} else if (char === '[') {
			const part = translateClass(source, i, unicode);
			out += part.text;
			i = part.end;
		} else if (char === '.') {
			out += dotAll ? '.' : DOT;
			i++;
		} else if (char === '(' && source[i + 1] === '?') {
			const head = source.slice(i, i + 4);
			const where = `at character ${i + 1}`;
			if (head.startsWith('(?=') || head.startsWith('(?!'))
				throw new RegexRefused(`a lookahead '${head.slice(0, 3)}' ${where} ${BACKTRACKING}`);
			if (head.startsWith('(?<=') || head.startsWith('(?<!'))
				throw new RegexRefused(`a lookbehind '${head}' ${where} ${BACKTRACKING}`);
			if (head.startsWith('(?:') || head.startsWith('(?<')) {
				out += head.slice(0, 3);
				i += 3;
			} else throw new RegexRefused(`the group '${head.slice(0, 3)}' ${where} is not supported`);
		} else {
			out += char;
			i++;
		}
	}
	return out;
}

/**
 * Compiles a pattern from a file for linear-time search. Throws `RegexRefused` (a plain sentence,
 * to be located by the caller) for what it does not run or what is not a valid pattern.
 */
export function compileLinearRegex(source: string, flags = ''): LinearRegex {
	if (source.length > MAX_PATTERN_CHARS)
		throw new RegexRefused(
			`the pattern has ${source.length} characters; at most ${MAX_PATTERN_CHARS} are accepted`,
		);
	const bits = flagBits(flags);
	// JavaScript first: what it refuses is not a pattern at all (its message is the clearest).
	try {
		new RegExp(source, flags.replace(/[gd]/g, ''));
	} catch (cause) {
		throw new RegexRefused(`not a valid regular expression: ${(cause as Error).message}`);
	}
	let compiled: RE2JS;
	try {
		compiled = RE2JS.compile(translatePattern(source, flags), bits);
	} catch (cause) {
		if (cause instanceof RE2JSException)
			throw new RegexRefused(`not accepted by the linear-time engine (RE2): ${cause.message}`);
		throw cause;
	}
	return {
		test: (text) => compiled.test(text),
		exec(text) {
			const matcher = compiled.matcher(text);
			if (!matcher.find()) return null;
			const groups: [string, ...(string | undefined)[]] = [matcher.group(0) ?? ''];
			for (let group = 1; group <= matcher.groupCount(); group++)
				groups.push(matcher.group(group) ?? undefined);
			return groups;
		},
	};
}
