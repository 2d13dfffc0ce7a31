/**
 * Jokes: 1 when the expected joke is an exact (case-sensitive) substring of the reply, otherwise
 * checklist grading by the judge. Also builds the temporal question (L15).
 */
import { gradeWithChecklist } from './gpt-checklist';
import { jsonText, NO_JUDGE_FALLBACK_FLAG, type Evaluator } from './evaluator';

/**
 * The jokes question for a time difference in seconds, as upstream builds it from
 * `timedelta.seconds` (whole days are dropped; "0 minutes" appears when hours > 0; the double
 * space before "ago" is upstream's). The wording of this one question is kept for parity.
 */
export function jokesQuestion(deltaSeconds: number): string {
	const secondsOfDay = ((Math.floor(deltaSeconds) % 86_400) + 86_400) % 86_400;
	const minutes = Math.floor(secondsOfDay / 60);
	const hours = Math.floor(minutes / 60);
	let stamp = '';
	if (minutes > 0) stamp = `${minutes % 60} minutes ${stamp}`;
	if (hours > 0) stamp = `${hours} hours ${stamp}`;
	return `Which joke did I tell you about ${stamp} ago?`;
}

export const jokesEvaluator: Evaluator = {
	judge: 'fallback',
	async evaluate({ questions, responses, expected }, judge) {
		const joke = jsonText(expected[0]);
		if ((responses[0] ?? '').includes(joke)) {
			return { score: 1, maxScore: 1, reasons: ['The correct joke is recounted.'] };
		}
		if (!judge) {
			return {
				score: 0,
				maxScore: 1,
				reasons: ['The joke is not quoted exactly.'],
				flags: [NO_JUDGE_FALLBACK_FLAG],
			};
		}
		return gradeWithChecklist(judge, questions, responses, expected);
	},
};
