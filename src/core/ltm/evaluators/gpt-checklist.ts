/**
 * `evaluate_correct_gpt` rules with our own prompt wording: the judge answers, per question, a
 * yes/no checklist (refers to the expected answer? the expected answer is a number or quantity?
 * if so, do they match?). Correct = yes₁ ∧ ¬(yes₂ ∧ ¬yes₃). Score = correct items; max = the
 * number of expected answers. A reply that cannot be read adds "JSON parse error" and keeps the
 * score counted so far.
 */
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import type { JsonValue } from '../shared/types';
import type { Evaluator, EvaluatorVerdict, Judge } from './evaluator';

/** Our wording of the checklist instruction (upstream's text is not copied). */
export const CHECKLIST_SYSTEM_PROMPT = [
	'You grade answers against expected answers.',
	'For every item in the list you receive, work through three yes/no checks:',
	'1. Does the given answer refer to the expected answer?',
	'2. Is the expected answer a number or an amount?',
	'3. When it is a number or an amount, does the given answer state the same one?',
	'Reply with JSON only: a list with one object per item, such as',
	'[{"question_nr": 0, "checklist": ["yes", "no", "no"]}]',
].join('\n');

/** Generation parameters of the grading call (upstream: temperature 0.01). */
export const CHECKLIST_PARAMS = { temperature: 0.01, max_tokens: 1024 } as const;

/** Verdict from a judge's checklist reply (pure: for tests and replays). */
export function scoreChecklistReply(reply: string, expectedCount: number): EvaluatorVerdict {
	let score = 0;
	const reasons: string[] = [];
	try {
		const parsed = sanitizeAndParseJson(reply);
		if (!Array.isArray(parsed)) throw new Error('not a list');
		for (const evaluation of parsed) {
			const checklist = (evaluation as { checklist?: unknown }).checklist;
			if (!Array.isArray(checklist) || checklist.length < 3) throw new Error('short checklist');
			const yes = checklist.map((answer) => {
				if (typeof answer !== 'string') throw new Error('checklist entry is not text');
				return answer.toLowerCase() === 'yes';
			});
			const correct = yes[0]! && !(yes[1]! && !yes[2]!);
			if (correct) score++;
			let reason = `The answer ${yes[0] ? 'makes' : 'does not make'} reference to the expected answer, which ${yes[1] ? 'is' : 'is not'} numerical.`;
			if (yes[1])
				reason = `${reason.slice(0, -1)}, and the numbers ${yes[2] ? 'match' : 'do not match'}.`;
			reasons.push(reason);
		}
	} catch {
		reasons.push('JSON parse error');
	}
	return { score, maxScore: expectedCount, reasons };
}

/** Builds the judge's messages: our system prompt and the items as a JSON list (0-based). */
export function checklistMessages(
	questions: readonly string[],
	responses: readonly string[],
	expected: readonly JsonValue[],
): { role: string; content: string }[] {
	const count = Math.min(questions.length, responses.length, expected.length);
	const items = Array.from({ length: count }, (_, index) => ({
		question_nr: index,
		question: questions[index],
		expected_answer: expected[index],
		answer_given: responses[index],
	}));
	return [
		{ role: 'system', content: CHECKLIST_SYSTEM_PROMPT },
		{ role: 'user', content: JSON.stringify(items) },
	];
}

export async function gradeWithChecklist(
	judge: Judge,
	questions: readonly string[],
	responses: readonly string[],
	expected: readonly JsonValue[],
): Promise<EvaluatorVerdict> {
	const reply = await judge(checklistMessages(questions, responses, expected), CHECKLIST_PARAMS);
	return scoreChecklistReply(reply, expected.length);
}

export const gptChecklistEvaluator: Evaluator = {
	judge: 'always',
	async evaluate({ questions, responses, expected }, judge) {
		if (!judge) throw new Error('gpt_checklist needs a judge');
		return gradeWithChecklist(judge, questions, responses, expected);
	},
};
