/**
 * The verdicts of the four basic Evals templates, exactly as upstream computes them
 * (`evals/api.py` record_and_check_match, `evals/elsuite/utils.py` normalize / fuzzy_match /
 * f1_score, `evals/elsuite/basic/json_match.py`), quirks included: no strip in Match, ASCII-only
 * punctuation, Unicode word boundaries for articles, Python equality in JsonMatch. Pure.
 */
import { pythonSplitWhitespace, removeAsciiPunctuation } from './python-text';
import type { JsonValue } from './types';

/** Ideals as a list: a string becomes a 1-element list (upstream wraps non-lists). */
export function idealList(ideal: JsonValue | undefined): JsonValue[] {
	if (ideal === undefined) return [];
	return Array.isArray(ideal) ? [...(ideal as JsonValue[])] : [ideal];
}

/**
 * Match: the first ideal (in order) that the completion starts with; no strip, case-sensitive.
 * `picked` is that ideal, or null.
 */
export function checkMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; picked: string | null } {
	const picked = ideals.find((ideal) => completion.startsWith(ideal)) ?? null;
	return { correct: picked !== null, picked };
}

/** Includes: some ideal occurs in the completion (`rfind != -1`); both lowercased with ignoreCase. */
export function checkIncludes(
	completion: string,
	ideals: readonly string[],
	ignoreCase: boolean,
): boolean {
	const text = ignoreCase ? completion.toLowerCase() : completion;
	return ideals.some((ideal) => text.includes(ignoreCase ? ideal.toLowerCase() : ideal));
}

/**
 * Python's `\b(a|an|the)\b` on a str: a word character is a letter or number (`str.isalnum`) or
 * `_`; combining marks are not word characters in Python's `re`.
 */
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/**
 * Upstream `normalize`: lower case; delete ASCII punctuation (`string.punctuation`, so `_` and `-`
 * go, `’` and `—` stay); replace the words a / an / the by a space; collapse whitespace.
 */
export function normalizeAnswer(text: string): string {
	const lowered = text.toLowerCase();
	const withoutPunctuation = removeAsciiPunctuation(lowered);
	const withoutArticles = withoutPunctuation.replace(ARTICLES, ' ');
	return pythonSplitWhitespace(withoutArticles).join(' ');
}

/** FuzzyMatch of one ideal: after normalizing, either side contains the other; empty only matches empty. */
export function fuzzyMatch(completion: string, ideal: string): boolean {
	const a = normalizeAnswer(completion);
	const b = normalizeAnswer(ideal);
	if (a === '' || b === '') return a === b;
	return a.includes(b) || b.includes(a);
}

function tokenF1(prediction: string, truth: string): number {
	const predicted = pythonSplitWhitespace(normalizeAnswer(prediction));
	const expected = pythonSplitWhitespace(normalizeAnswer(truth));
	const counts = new Map<string, number>();
	for (const token of expected) counts.set(token, (counts.get(token) ?? 0) + 1);
	let same = 0;
	for (const token of predicted) {
		const left = counts.get(token) ?? 0;
		if (left > 0) {
			same++;
			counts.set(token, left - 1);
		}
	}
	if (same === 0) return 0;
	const precision = (1.0 * same) / predicted.length;
	const recall = (1.0 * same) / expected.length;
	return (2 * precision * recall) / (precision + recall);
}

/** Upstream `f1_score`: token-multiset F1 after normalizing, the maximum over ideals (0 with none). */
export function f1Score(completion: string, ideals: readonly string[]): number {
	if (ideals.length === 0)
		throw new Error('f1_score needs at least one ideal (max() of an empty list)');
	return Math.max(...ideals.map((ideal) => tokenF1(completion, ideal)));
}

/** FuzzyMatch verdict, the ideals that matched (as `picked` holds the completion once per match) and f1. */
export function checkFuzzyMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; matches: boolean[]; f1: number } {
	const matches = ideals.map((ideal) => fuzzyMatch(completion, ideal));
	return { correct: matches.includes(true), matches, f1: f1Score(completion, ideals) };
}

/**
 * `json.loads` as far as JS can follow it: `JSON.parse`, so surrounding whitespace is fine and
 * code fences or trailing text fail. Returns undefined when the text is not JSON. (Python also
 * accepts NaN / Infinity literals, and keeps big ints exact: documented divergences.)
 */
export function parseJsonLoose(text: string): { value: JsonValue } | undefined {
	try {
		return { value: JSON.parse(text) as JsonValue };
	} catch {
		return undefined;
	}
}

function isObject(value: JsonValue): value is { readonly [key: string]: JsonValue } {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Python `==` on two JSON scalars: bool is an int (`true == 1`), int equals float, str only str. */
function pythonScalarEquals(a: JsonValue, b: JsonValue): boolean {
	const asNumber = (value: JsonValue): number | undefined =>
		typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : undefined;
	const na = asNumber(a);
	const nb = asNumber(b);
	if (na !== undefined && nb !== undefined) return na === nb;
	if (typeof a === 'string' && typeof b === 'string') return a === b;
	return false;
}

/**
 * Upstream `json_match(sampled, correct)`: null/missing on either side is false; objects match when
 * every key of the union matches (a missing key is None, hence false); lists need equal length and
 * elementwise matches in order; everything else is Python `==`.
 */
export function jsonMatch(sampled: JsonValue | undefined, correct: JsonValue | undefined): boolean {
	if (sampled === undefined || sampled === null || correct === undefined || correct === null) {
		return false;
	}
	if (isObject(sampled)) {
		if (!isObject(correct)) return false;
		const keys = new Set([...Object.keys(sampled), ...Object.keys(correct)]);
		return [...keys].every((key) => jsonMatch(sampled[key], correct[key]));
	}
	if (Array.isArray(sampled)) {
		if (!Array.isArray(correct)) return false;
		const s = sampled as readonly JsonValue[];
		const c = correct as readonly JsonValue[];
		return s.length === c.length && s.every((item, index) => jsonMatch(item, c[index]));
	}
	if (isObject(correct) || Array.isArray(correct)) return false;
	return pythonScalarEquals(sampled, correct);
}

/**
 * JsonMatch of a completion against ideals (each a JSON text). An ideal that is not valid JSON
 * throws (upstream lets `json.loads` raise); an invalid completion matches nothing.
 */
export function checkJsonMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; matches: boolean[] } {
	const correctValues = ideals.map((ideal, index) => {
		const parsed = parseJsonLoose(ideal);
		if (!parsed) {
			throw new Error(
				`ideal ${ideals.length > 1 ? `#${index + 1} ` : ''}is not valid JSON: ${JSON.stringify(ideal)} (JsonMatch ideals must be JSON texts, e.g. "{\\"a\\": 1}")`,
			);
		}
		return parsed.value;
	});
	const sampled = parseJsonLoose(completion)?.value;
	const matches = correctValues.map((value) => jsonMatch(sampled, value));
	return { correct: matches.includes(true), matches };
}
