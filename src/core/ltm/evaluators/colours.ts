/** Colours: 1 when the last colour, lowercased, is a substring of the lowercased last reply ("Redwood" counts for red). */
import { jsonText, type Evaluator } from './evaluator';

export const coloursEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		const colour = jsonText(expected[expected.length - 1]).toLowerCase();
		const reply = (responses[responses.length - 1] ?? '').toLowerCase();
		return reply.includes(colour)
			? { score: 1, maxScore: 1, reasons: [`'${colour}' is in the answer.`] }
			: { score: 0, maxScore: 1, reasons: [`'${colour}' is not in the answer.`] };
	},
};
