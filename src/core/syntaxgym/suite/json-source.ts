/**
 * Strict JSON reading with positions: values come from the native JSON.parse (fast, linear), and
 * line/column of syntax errors and of JSON pointers come from jsonc-parser's scanner, on demand.
 * Never evaluates anything, never builds objects from keys (so `__proto__` stays plain data).
 */
import { visit, type ParseErrorCode } from 'jsonc-parser';

/** A 1-based position in a text; `offset` is the 0-based UTF-16 index. */
export interface TextLocation {
	readonly offset: number;
	readonly line: number;
	readonly column: number;
}

export interface JsonSyntaxProblem extends TextLocation {
	readonly message: string;
	readonly hint: string;
}

export type ReadJsonResult =
	| { readonly ok: true; readonly value: unknown }
	| { readonly ok: false; readonly problems: readonly JsonSyntaxProblem[] };

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Parses `text` as strict JSON (no comments, no trailing commas). On failure every syntax problem
 * the scanner finds is returned (at most `maxProblems`), each located and with a fix hint.
 */
export function readJsonText(text: string, maxProblems = 20): ReadJsonResult {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		const problems = findSyntaxProblems(text, maxProblems);
		if (problems.length > 0) return { ok: false, problems };
		const message = error instanceof Error ? error.message : String(error);
		return {
			ok: false,
			problems: [
				{
					offset: 0,
					line: 1,
					column: 1,
					message: `not valid JSON: ${message}`,
					hint: 'check the file with a JSON validator; it must be strict JSON',
				},
			],
		};
	}
}

function findSyntaxProblems(text: string, maxProblems: number): JsonSyntaxProblem[] {
	// A number with a leading zero (`01`) makes the scanner see `0` and a stray `1`, and every
	// error after it is a consequence. So report it, blank the zeros out (same length, so offsets
	// hold) and scan again.
	const leadingZeros: JsonSyntaxProblem[] = [];
	let scanned = text;
	for (;;) {
		const { problems, leadingZero } = scanSyntaxProblems(scanned, maxProblems);
		if (leadingZero === undefined || leadingZeros.length >= maxProblems) {
			return [...leadingZeros, ...problems]
				.sort((a, b) => a.offset - b.offset)
				.slice(0, maxProblems);
		}
		leadingZeros.push(leadingZero.problem);
		const { start, written, fixed } = leadingZero;
		scanned =
			scanned.slice(0, start) +
			fixed.padStart(written.length) +
			scanned.slice(start + written.length);
	}
}

interface LeadingZero {
	readonly problem: JsonSyntaxProblem;
	/** Offset of the number as written (`-007`) and the same number without leading zeros. */
	readonly start: number;
	readonly written: string;
	readonly fixed: string;
}

function scanSyntaxProblems(
	text: string,
	maxProblems: number,
): { problems: JsonSyntaxProblem[]; leadingZero?: LeadingZero } {
	const problems: JsonSyntaxProblem[] = [];
	let leadingZero: LeadingZero | undefined;
	class FoundLeadingZero extends Error {}
	try {
		visit(
			text,
			{
				onError: (code, offset, length, startLine, startCharacter) => {
					if (problems.length >= maxProblems) return;
					if (problems[problems.length - 1]?.offset === offset) return;
					const zero = findLeadingZero(code, text, offset);
					if (zero !== undefined) {
						leadingZero = {
							...zero,
							problem: {
								...locateBefore(text, zero.start, offset, startLine, startCharacter),
								message: `numbers must not start with a zero (found '${zero.written}')`,
								hint: `write ${zero.fixed} without the leading zero`,
							},
						};
						throw new FoundLeadingZero();
					}
					const problem = describeSyntaxError(code, text, offset, length);
					const at = problem.offset ?? offset;
					if (at !== offset && problems[problems.length - 1]?.offset === at) return;
					problems.push({
						...locateBefore(text, at, offset, startLine, startCharacter),
						message: problem.message,
						hint: problem.hint,
					});
				},
			},
			STRICT_JSON,
		);
	} catch (error) {
		// FoundLeadingZero, or a recursion limit in the scanner: keep what was found before it.
		if (!(error instanceof FoundLeadingZero) && !(error instanceof RangeError)) throw error;
	}
	return leadingZero === undefined ? { problems } : { problems, leadingZero };
}

/** The scanner stops a number after a leading `0`; the error then sits on the next digit. */
function findLeadingZero(
	code: ParseErrorCode,
	text: string,
	offset: number,
): Omit<LeadingZero, 'problem'> | undefined {
	if (code !== 6 && code !== 9 && code !== 3) return undefined;
	const zero = /(?:^|[^0-9.eE+-])(-?0)$/.exec(text.slice(Math.max(0, offset - 3), offset))?.[1];
	const digits = /^[0-9]+/.exec(text.slice(offset, offset + 400))?.[0];
	if (zero === undefined || digits === undefined) return undefined;
	const written = `${zero}${digits}`;
	return {
		start: offset - zero.length,
		written,
		fixed: written.replace(/^(-?)0+(?=[0-9])/, '$1'),
	};
}

/** jsonc-parser ParseErrorCode values (a const enum there, so repeated here by value). */
const SYNTAX_ERRORS: Readonly<Record<number, { message: string; hint: string }>> = {
	1: {
		message: 'invalid symbol',
		hint: 'JSON allows only objects, arrays, strings, numbers, true, false and null',
	},
	2: { message: 'invalid number', hint: 'write numbers as in 12, -3.5 or 1e-3' },
	3: { message: 'expected a property name in double quotes', hint: 'write keys as "name"' },
	4: { message: 'expected a value', hint: 'add the missing value or remove the extra comma' },
	5: { message: "expected ':' after the property name", hint: 'write "key": value' },
	6: { message: "expected ','", hint: 'separate values and properties with commas' },
	7: { message: "expected '}'", hint: 'close every object with }' },
	8: { message: "expected ']'", hint: 'close every array with ]' },
	9: {
		message: 'expected end of file',
		hint: 'a JSON file holds exactly one value; remove what follows it',
	},
	10: { message: 'comments are not allowed in JSON', hint: 'remove the comment' },
	11: { message: 'unterminated comment', hint: 'remove the comment' },
	12: { message: 'unterminated string', hint: 'close the string with a double quote' },
	13: { message: 'unterminated number', hint: 'write numbers as in 12, -3.5 or 1e-3' },
	14: { message: 'invalid unicode escape', hint: 'write \\u followed by four hex digits' },
	15: {
		message: 'invalid escape character',
		hint: 'valid escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX',
	},
	16: {
		message: 'invalid character in string',
		hint: 'escape control characters such as tabs and newlines (\\t, \\n)',
	},
};

/**
 * The location of `at` (<= `offset`), given that `offset` is at 0-based `line`/`character`.
 * Line breaks are `\r\n`, `\r` or `\n`, as jsonc-parser's scanner counts them.
 */
function locateBefore(
	text: string,
	at: number,
	offset: number,
	line: number,
	character: number,
): TextLocation {
	if (at === offset) return { offset, line: line + 1, column: character + 1 };
	const between = text.slice(at, offset);
	const breaks = between.match(/\r\n|\r|\n/g)?.length ?? 0;
	if (breaks === 0) return { offset: at, line: line + 1, column: character - (offset - at) + 1 };
	const lineStart = Math.max(text.lastIndexOf('\n', at - 1), text.lastIndexOf('\r', at - 1)) + 1;
	return { offset: at, line: line + 1 - breaks, column: at - lineStart + 1 };
}

/**
 * Message and hint for one scanner error; `offset` is set when the problem is better shown
 * elsewhere (at a trailing comma rather than the bracket after it).
 */
function describeSyntaxError(
	code: ParseErrorCode,
	text: string,
	offset: number,
	length: number,
): { message: string; hint: string; offset?: number } {
	const known = SYNTAX_ERRORS[code] ?? {
		message: 'syntax error',
		hint: 'the file must be strict JSON',
	};
	const found = length > 0 ? text.slice(offset, offset + Math.min(length, 20)) : '';
	const foundText =
		offset >= text.length ? ' (found end of file)' : found ? ` (found '${found}')` : '';
	const before = text.slice(Math.max(0, offset - 200), offset);
	if ((code === 3 || code === 4) && /^[}\]]/.test(found) && /,\s*$/.test(before)) {
		return {
			message: `trailing comma before '${found[0]}'`,
			hint: 'remove the comma after the last element',
			offset: text.lastIndexOf(',', offset - 1),
		};
	}
	return { message: `${known.message}${foundText}`, hint: known.hint };
}

/** Escapes one RFC 6901 reference token (`~` → `~0`, `/` → `~1`). */
export function escapePointerSegment(segment: string | number): string {
	return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Builds an RFC 6901 pointer from segments: `jsonPointer('items', 3, 'conditions')` → `/items/3/conditions`. */
export function jsonPointer(...segments: readonly (string | number)[]): string {
	return segments.map((segment) => `/${escapePointerSegment(segment)}`).join('');
}

/** Splits an RFC 6901 pointer into unescaped segments (`''` → `[]`). */
export function splitJsonPointer(pointer: string): string[] {
	if (pointer === '') return [];
	return pointer
		.slice(1)
		.split('/')
		.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

interface PointerTrieNode {
	readonly children: Map<string, PointerTrieNode>;
	pointer?: string;
}

interface VisitFrame {
	readonly node: PointerTrieNode | undefined;
	readonly isArray: boolean;
	nextIndex: number;
	key: string;
}

class StopVisit extends Error {}

/**
 * Finds where each pointer's value starts in `text` (valid JSON). A pointer to a member that
 * does not exist gets the location of its nearest existing ancestor. One linear pass that skips
 * subtrees no pointer enters, and stops once every pointer is found; duplicate keys resolve to
 * the first occurrence found. Pointers that cannot be located are absent from the result.
 */
export function locateJsonPointers(
	text: string,
	pointers: Iterable<string>,
): Map<string, TextLocation> {
	const wanted = new Set<string>();
	for (const pointer of pointers) wanted.add(pointer);
	if (wanted.size === 0) return new Map();
	const found = findTrieValues(text, buildPointerTrie(wanted));

	const located = new Map<string, TextLocation>();
	for (const pointer of wanted) {
		let segments = splitJsonPointer(pointer);
		for (;;) {
			const location = found.get(jsonPointer(...segments));
			if (location !== undefined) {
				located.set(pointer, location);
				break;
			}
			if (segments.length === 0) break;
			segments = segments.slice(0, -1);
		}
	}
	return located;
}

/** The pointers as a trie of segments: every node (each pointer's ancestors too) is a target. */
function buildPointerTrie(wanted: ReadonlySet<string>): PointerTrieNode {
	const root: PointerTrieNode = { children: new Map() };
	for (const pointer of wanted) {
		let node = root;
		let prefix = '';
		node.pointer = prefix;
		for (const segment of splitJsonPointer(pointer)) {
			prefix += `/${escapePointerSegment(segment)}`;
			let child = node.children.get(segment);
			if (child === undefined) {
				child = { children: new Map(), pointer: prefix };
				node.children.set(segment, child);
			}
			node = child;
		}
	}
	return root;
}

/**
 * Where the value of each node of the trie starts in `text`, by pointer: one pass that skips
 * subtrees no node enters, and stops once every node is found (or at a RangeError: too deep).
 */
function findTrieValues(text: string, root: PointerTrieNode): Map<string, TextLocation> {
	let targetCount = 0;
	const countTargets = (node: PointerTrieNode): void => {
		targetCount++;
		for (const child of node.children.values()) countTargets(child);
	};
	countTargets(root);

	const found = new Map<string, TextLocation>();
	const stack: VisitFrame[] = [];
	const enterValue = (
		offset: number,
		line: number,
		character: number,
	): PointerTrieNode | undefined => {
		const parent = stack[stack.length - 1];
		let node: PointerTrieNode | undefined;
		if (parent === undefined) node = root;
		else if (parent.node !== undefined) {
			const segment = parent.isArray ? String(parent.nextIndex++) : parent.key;
			node = parent.node.children.get(segment);
		}
		if (node?.pointer !== undefined && !found.has(node.pointer)) {
			found.set(node.pointer, { offset, line: line + 1, column: character + 1 });
			if (found.size === targetCount) throw new StopVisit();
		}
		return node;
	};
	const enterContainer =
		(isArray: boolean) =>
		(offset: number, _length: number, line: number, character: number): boolean => {
			const node = enterValue(offset, line, character);
			stack.push({ node, isArray, nextIndex: 0, key: '' });
			return node !== undefined && node.children.size > 0;
		};
	try {
		visit(
			text,
			{
				onObjectBegin: enterContainer(false),
				onArrayBegin: enterContainer(true),
				onObjectEnd: () => void stack.pop(),
				onArrayEnd: () => void stack.pop(),
				onObjectProperty: (property) => {
					const frame = stack[stack.length - 1];
					if (frame !== undefined) frame.key = property;
				},
				onLiteralValue: (_value, offset, _length, line, character) => {
					enterValue(offset, line, character);
				},
			},
			STRICT_JSON,
		);
	} catch (error) {
		if (!(error instanceof StopVisit) && !(error instanceof RangeError)) throw error;
	}
	return found;
}
