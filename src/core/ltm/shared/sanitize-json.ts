/**
 * A port of goodai-ltm's `sanitize_and_parse_json` (goodai/helpers/json_helper.py): strict JSON,
 * else the inside of a ```javascript / ```json / ``` fence (greedy, first fence to last), else an
 * iterative repair driven by Python's decode errors. Throws when nothing parses. Pure.
 */
import { parsePythonJson, PythonJsonError, type PythonJsonOptions } from '../../python/python-json';

/** Thrown when the text cannot be read as JSON even after repairs. */
export class JsonSanitizeError extends Error {
	override name = 'JsonSanitizeError';
}

const JAVASCRIPT_FENCE = /^[\s\S]*```javascript([\s\S]*)```[\s\S]*$/;
const JSON_FENCE = /^[\s\S]*```(?:json)?([\s\S]*)```[\s\S]*$/;

/** Parses model output as JSON the way the benchmark does; throws JsonSanitizeError on failure. */
export function sanitizeAndParseJson(content: string, options: PythonJsonOptions = {}): unknown {
	try {
		return parsePythonJson(content, options);
	} catch (error) {
		if (!(error instanceof PythonJsonError)) throw error;
	}
	const fenced = firstFenceMatch(content);
	const countdown = Math.max(5, Math.floor(fenced.length / 50));
	return repair(fenced, countdown, options);
}

/**
 * Python's `re.search(r"^.*```X(.*)```.*$", s, MULTILINE | DOTALL)`: `^.*` is greedy, so the
 * group starts after the *last* opening fence that still leaves a closing fence after it.
 */
function firstFenceMatch(content: string): string {
	const js = JAVASCRIPT_FENCE.exec(content);
	if (js) return js[1] ?? '';
	const json = JSON_FENCE.exec(content);
	if (json) return json[1] ?? '';
	return content;
}

function repair(input: string, countdown: number, options: PythonJsonOptions): unknown {
	let content = input;
	for (let left = countdown; ; left--) {
		if (left <= 0) {
			throw new JsonSanitizeError(
				`Unable to sanitize JSON after a number of iterations: ${content}`,
			);
		}
		content = content.trim();
		let failure: PythonJsonError;
		try {
			return parsePythonJson(content, options);
		} catch (error) {
			if (!(error instanceof PythonJsonError)) throw error;
			failure = error;
		}
		const { msg, pos } = failure;
		const remain = content.slice(pos).trimStart();
		if (msg.startsWith('Extra data')) {
			content = content.slice(0, pos);
		} else if (msg.startsWith('Expecting value')) {
			if (pos === 0) {
				const brace = content.indexOf('{');
				const bracket = content.indexOf('[');
				const starts = [brace, bracket].filter((index) => index !== -1);
				if (starts.length === 0) throw new JsonSanitizeError('Content provided is not JSON!');
				content = content.slice(Math.min(...starts));
			} else if (remain.startsWith('//')) {
				content = removeLineComment(content, pos);
			} else if (remain.startsWith('...')) {
				content = removeEllipsis(content, pos);
			} else if (remain.startsWith(']')) {
				content = removeCommaBefore(content, pos);
			} else {
				content = content.slice(0, pos) + '"' + content.slice(pos);
			}
		} else if (msg.startsWith('Expecting property name enclosed in double quotes')) {
			if (remain.startsWith('...')) content = removeEllipsis(content, pos);
			else if (remain.startsWith('}')) content = removeCommaBefore(content, pos);
			else if (remain.startsWith('//')) content = removeLineComment(content, pos);
			else throw failure;
		} else if (msg.startsWith("Expecting ',' delimiter")) {
			content = content.slice(0, pos) + ',' + content.slice(pos);
		} else if (msg.startsWith("Expecting ':' delimiter")) {
			if (remain.startsWith('}') || remain.startsWith(',')) {
				content = content.slice(0, pos) + ': null' + content.slice(pos);
			} else throw failure;
		} else if (msg.startsWith('Invalid control character at') && content[pos] === '\n') {
			content = content.slice(0, pos) + content.slice(pos + 1);
		} else {
			throw failure;
		}
	}
}

function removeEllipsis(content: string, pos: number): string {
	const at = content.indexOf('...', pos);
	if (at === -1) throw new JsonSanitizeError(`Expected ellipsis at position ${pos}: ${content}`);
	return content.slice(0, at) + content.slice(at + 3);
}

function removeLineComment(content: string, pos: number): string {
	const at = content.indexOf('//', pos);
	if (at === -1)
		throw new JsonSanitizeError(`Expected line comment marker at position ${pos}: ${content}`);
	const lineBreak = content.indexOf('\n', at);
	if (lineBreak === -1)
		throw new JsonSanitizeError(`Expected line break after position ${at}: ${content}`);
	return content.slice(0, at) + content.slice(lineBreak + 1);
}

/** Python `content.rfind(",", 0, pos + 1)` and drop that comma. */
function removeCommaBefore(content: string, pos: number): string {
	const at = content.lastIndexOf(',', pos);
	if (at === -1)
		throw new JsonSanitizeError(`Unable to resolve JSON error at position ${pos}: ${content}`);
	return content.slice(0, at) + content.slice(at + 1);
}
