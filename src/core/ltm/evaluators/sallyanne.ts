/** SallyAnne: the reply parsed as JSON `{"answer": word}`; 1 when the word, lowercased, equals the expected one. */
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import { jsonText, type Evaluator } from './evaluator';

export const sallyAnneEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		const want = jsonText(expected[0]);
		let parsed: unknown;
		try {
			parsed = sanitizeAndParseJson(responses[0] ?? '');
		} catch {
			return { score: 0, maxScore: 1, reasons: ['The answer is not JSON.'] };
		}
		const answer =
			typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
				? (parsed as Record<string, unknown>).answer
				: undefined;
		if (typeof answer !== 'string') {
			return { score: 0, maxScore: 1, reasons: ['The JSON has no string "answer".'] };
		}
		const right = answer.toLowerCase() === want;
		return {
			score: right ? 1 : 0,
			maxScore: 1,
			reasons: [right ? 'The answer is correct.' : `'${answer}' is not '${want}'.`],
		};
	},
};
