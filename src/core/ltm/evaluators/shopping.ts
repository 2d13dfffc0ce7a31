/**
 * Shopping: the reply as a JSON list of {item, quantity}. An answer item matches the first
 * expected name that is a substring of its lowercased name (plurals pass). Score =
 * (found/expected + right quantities/expected + [no unknown items]) / 3. Answer items are not
 * de-duplicated, so listing an item twice can push the score above 1 (an upstream quirk: kept
 * and flagged). A quantity that is not a whole JSON number (`3.0`, `"3"`) is a format error: 0.
 */
import { PythonFloat } from '../../python/python-json';
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import type { JsonValue } from '../shared/types';
import type { Evaluator, EvaluatorVerdict } from './evaluator';

/** Flag text when duplicates pushed the score past 1. */
export const SHOPPING_DUPLICATE_FLAG =
	'upstream quirk: an item listed more than once counts each time, so the score exceeds 1';

export function scoreShopping(reply: string, expected: readonly JsonValue[]): EvaluatorVerdict {
	const wanted = new Map<string, number>();
	for (const entry of expected) {
		if (Array.isArray(entry)) wanted.set(String(entry[0]).toLowerCase(), Number(entry[1]));
	}
	const names = [...wanted.keys()];
	let answer: unknown;
	try {
		answer = sanitizeAndParseJson(reply, { keepFloats: true });
	} catch {
		return formatError('the answer is not JSON');
	}
	if (!Array.isArray(answer)) return formatError('the answer is not a JSON list');
	let found = 0;
	let rightQuantities = 0;
	let unknown = 0;
	const reasons: string[] = [];
	for (const entry of answer) {
		if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
			return formatError('an element of the list is not an object');
		}
		const { item, quantity } = entry as Record<string, unknown>;
		if (typeof item !== 'string') return formatError('an element has no string `item`');
		if (
			quantity instanceof PythonFloat ||
			typeof quantity !== 'number' ||
			!Number.isInteger(quantity)
		) {
			return formatError(`the quantity of '${item}' is not a whole number`);
		}
		const name = item.toLowerCase();
		const key = names.find((candidate) => name.includes(candidate));
		if (key === undefined) {
			unknown++;
			reasons.push(`Unknown item ${name}.`);
			continue;
		}
		found++;
		if (quantity === wanted.get(key)) rightQuantities++;
		else reasons.push(`Wrong quantity for ${name}: ${quantity} vs ${wanted.get(key)}.`);
	}
	const total = names.length;
	const score =
		total === 0 ? 0 : (found / total + rightQuantities / total + (unknown === 0 ? 1 : 0)) / 3;
	if (found < total) reasons.push(`${total - found} items were not found in the answer.`);
	if (reasons.length === 0) reasons.push('All items and quantities match.');
	return {
		score,
		maxScore: 1,
		reasons,
		...(score > 1 ? { flags: [SHOPPING_DUPLICATE_FLAG] } : {}),
	};
}

function formatError(why: string): EvaluatorVerdict {
	return { score: 0, maxScore: 1, reasons: [`Response not in the expected format: ${why}.`] };
}

export const shoppingEvaluator: Evaluator = {
	judge: 'never',
	evaluate: ({ responses, expected }) => scoreShopping(responses[0] ?? '', expected),
};
