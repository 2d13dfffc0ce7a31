/**
 * Words for what is wrong in a definitions file, as the suite errors have them: a JSON syntax
 * problem with its line, column and a short reason, and a schema problem with the values allowed
 * there instead of the validator's own text. Pure; the caller adds the file and JSON pointer.
 */
import type * as v from 'valibot';
import { readJsonText } from '../syntaxgym/suite/json-source';

/** Control characters (a binary file read as text) shown as `\u0000` escapes, never raw. */
function visible(text: string): string {
	return text.replace(
		// eslint-disable-next-line no-control-regex -- matching them is the point
		/[\u0000-\u001f\u007f-\u009f]/gu,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/** A JSON text's value, or why it is not JSON: `not JSON at line L, column C: reason (fix)`. */
export function readDefinitionJson(
	text: string,
):
	| { readonly ok: true; readonly value: unknown }
	| { readonly ok: false; readonly message: string } {
	const read = readJsonText(text.startsWith('\uFEFF') ? text.slice(1) : text, 1);
	if (read.ok) return read;
	const problem = read.problems[0];
	if (!problem) return { ok: false, message: 'not JSON' };
	return {
		ok: false,
		message: `not JSON at line ${problem.line}, column ${problem.column}: ${visible(problem.message)} (${problem.hint})`,
	};
}

const QUOTED = /"((?:[^"\\]|\\.)*)"/gu;

/**
 * One valibot issue in plain words: `expected one of: a, b, c (found "x")` where the allowed
 * values are literals; `unknown field "x"` for a key the object does not take; otherwise what was
 * expected and what was found. `objectAlternative` names what an `Object` alternative stands for.
 */
export function describeIssue(
	issue: v.BaseIssue<unknown>,
	objectAlternative = 'an object',
): string {
	const { expected, received } = issue;
	const found = received === 'undefined' ? 'missing' : `found ${visible(received)}`;
	if (issue.type === 'strict_object' && expected === 'never') {
		return `unknown field ${visible(received)}: remove it or check its spelling`;
	}
	if (issue.kind !== 'schema' || expected === null) return visible(issue.message);
	const literals = [...expected.matchAll(QUOTED)].map((match) => match[1] ?? '');
	const rest = expected.replace(QUOTED, '').replace(/[()|\s]/gu, '');
	if (literals.length > 0 && (rest === '' || rest === 'Object')) {
		const object = rest === 'Object' ? `, or ${objectAlternative}` : '';
		return `expected one of: ${literals.join(', ')}${object} (${found})`;
	}
	return `expected ${expected.replace(/^\((.*)\)$/u, '$1')} (${found})`;
}
