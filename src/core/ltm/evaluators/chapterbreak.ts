/** ChapterBreak: 1 when the set of all digit runs in the reply is exactly {answer} ("3 (not 4)" scores 0). */
import { jsonText, type Evaluator } from './evaluator';

export function digitSetEquals(reply: string, answer: string): boolean {
	const digits = new Set(reply.match(/\d+/g) ?? []);
	return digits.size === 1 && digits.has(answer);
}

export const chapterBreakEvaluator: Evaluator = {
	judge: 'never',
	evaluate({ responses, expected }) {
		const answer = jsonText(expected[0]);
		const right = digitSetEquals(responses[0] ?? '', answer);
		return {
			score: right ? 1 : 0,
			maxScore: 1,
			reasons: [
				right ? 'The right chapter was chosen.' : `The answer is not just option ${answer}.`,
			],
		};
	},
};
