/** Key-Value Pairs: 1 when the expected value is a substring of the reply. */
import { jsonText, type Evaluator } from './evaluator';

export const kvEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		const value = jsonText(expected[0]);
		const found = (responses[0] ?? '').includes(value);
		return {
			score: found ? 1 : 0,
			maxScore: 1,
			reasons: [
				found ? 'The value is in the answer.' : `The value '${value}' is not in the answer.`,
			],
		};
	},
};
