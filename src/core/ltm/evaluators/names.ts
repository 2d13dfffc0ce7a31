/** Names: 1 when the last name given is, case-insensitively, a substring of the first reply. */
import { jsonText, type Evaluator } from './evaluator';

export const namesEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		const name = jsonText(expected[expected.length - 1]);
		const found = (responses[0] ?? '').toLowerCase().includes(name.toLowerCase());
		return {
			score: found ? 1 : 0,
			maxScore: 1,
			reasons: [
				found ? `The name '${name}' is in the answer.` : `The name '${name}' is not in the answer.`,
			],
		};
	},
};
