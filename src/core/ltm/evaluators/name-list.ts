/**
 * NameList: the reply parsed as a JSON list (sanitised), lowercased; each given name that is still
 * in the expected set counts once and leaves it; score = matched / max(#expected, #given). A reply
 * that is not a JSON list of strings scores 0.
 */
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import { jsonText, type Evaluator } from './evaluator';

/** NameList scoring on one reply (also the `json_list_overlap` generic rule). */
export function scoreNameList(
	reply: string,
	expected: readonly string[],
): { score: number; maxScore: number; reasons: string[] } {
	let given: unknown;
	try {
		given = sanitizeAndParseJson(reply);
	} catch {
		return { score: 0, maxScore: 1, reasons: ['The answer is not a JSON list.'] };
	}
	if (!Array.isArray(given) || !given.every((name) => typeof name === 'string')) {
		return { score: 0, maxScore: 1, reasons: ['The answer is not a JSON list of names.'] };
	}
	const remaining = expected.map((name) => name.toLowerCase());
	let matched = 0;
	for (const name of given as string[]) {
		const at = remaining.indexOf(name.toLowerCase());
		if (at !== -1) {
			remaining.splice(at, 1);
			matched++;
		}
	}
	const maxScore = Math.max(expected.length, given.length);
	const reasons = [`${matched} of ${expected.length} names recalled; ${given.length} given.`];
	if (remaining.length > 0) reasons.push(`Missing: ${remaining.join(', ')}.`);
	return { score: matched, maxScore, reasons };
}

export const nameListEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		return scoreNameList(
			responses[0] ?? '',
			expected.map((name) => jsonText(name)),
		);
	},
};
