/**
 * Whitespace exactly as Python's `str.isspace()`/`re` `\s` see it (syntaxgym-core strips and checks
 * region content with them). JavaScript's `\s` differs (it has U+FEFF, lacks U+001C-U+001F, U+0085).
 */

/** The characters Python's `str.isspace()` accepts, as the body of a RegExp character class. */
export const PYTHON_WHITESPACE_CLASS =
	'\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

const PYTHON_WHITESPACE_CHAR = new RegExp(`^[${PYTHON_WHITESPACE_CLASS}]$`);
const WHITESPACE_RUNS = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+`);
const LEADING = new RegExp(`^[${PYTHON_WHITESPACE_CLASS}]+`);
const TRAILING = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]+$`);
const RUN = new RegExp(`[${PYTHON_WHITESPACE_CLASS}]{2,}`, 'g');
const STRAY = new RegExp(
	`^[${PYTHON_WHITESPACE_CLASS}]|[${PYTHON_WHITESPACE_CLASS}]$|[${PYTHON_WHITESPACE_CLASS}]{2}`,
);

/** Python `text.lstrip()`. */
export function lstripPython(text: string): string {
	return text.replace(LEADING, '');
}

/** Python `text.strip() == ''`: empty or whitespace only. */
export function isBlankPython(text: string): boolean {
	return lstripPython(text) === '';
}

/**
 * True when syntaxgym-core's `Region` would reject `content`: a leading or trailing whitespace
 * character, or two whitespace characters in a row.
 */
export function hasStrayWhitespace(content: string): boolean {
	return STRAY.test(content);
}

/** Strips both ends and collapses every run of whitespace into one space (legacy clean-up). */
export function normalizeWhitespace(content: string): string {
	return content.replace(LEADING, '').replace(TRAILING, '').replace(RUN, ' ');
}

/** Python `char.isspace()` for one character. */
export function isPythonWhitespace(char: string): boolean {
	return PYTHON_WHITESPACE_CHAR.test(char);
}

/** Python `text.strip()` (no argument). */
export function pythonStrip(text: string): string {
	return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python `text.split()` (no argument): runs of whitespace separate, no empty pieces. */
export function pythonSplitWhitespace(text: string): string[] {
	return text.split(WHITESPACE_RUNS).filter((word) => word !== '');
}
