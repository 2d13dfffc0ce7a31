/**
 * Trigger Response: per trigger, 1 when the standardised expected sentence is in the
 * standardised reply or ROUGE-L F > 0.75; otherwise the judge is asked (our wording) whether the
 * sentence is present and to quote it, and the quote is checked with ROUGE-L again. Score =
 * sum / number of triggers.
 */
import { sanitizeAndParseJson } from '../shared/sanitize-json';
import { rougeLF, standardise } from '../shared/text-measures';
import { jsonText, NO_JUDGE_FALLBACK_FLAG, type Evaluator, type Judge } from './evaluator';

export const ROUGE_THRESHOLD = 0.75;

/** The first, deterministic pass for one trigger. */
export function triggerMatches(reply: string, expected: string): boolean {
	return (
		standardise(reply).includes(standardise(expected)) || rougeLF(expected, reply) > ROUGE_THRESHOLD
	);
}

function presencePrompt(reply: string, sentence: string): string {
	return [
		'Here is a message:',
		JSON.stringify(reply),
		`Does it contain the sentence ${JSON.stringify(sentence)}, possibly with small changes?`,
		'Answer with JSON only: {"present": true or false, "sentence": "the part of the message that carries it"}',
	].join('\n');
}

async function askPresence(
	judge: Judge,
	reply: string,
	expected: string,
): Promise<[number, string]> {
	const answer = await judge([{ role: 'user', content: presencePrompt(reply, expected) }], {
		temperature: 0,
		max_tokens: 256,
	});
	try {
		const parsed = sanitizeAndParseJson(answer) as { present?: unknown; sentence?: unknown };
		let present = parsed.present === true;
		if (present) present = rougeLF(expected, String(parsed.sentence ?? '')) > ROUGE_THRESHOLD;
		return [present ? 1 : 0, `'${expected}' is ${present ? '' : 'not '}in the response.`];
	} catch (error) {
		return [0, `Could not evaluate due to a JSON parsing error: ${String(error)}`];
	}
}

export const triggerResponseEvaluator: Evaluator = {
	judge: 'fallback',
	async evaluate({ responses, expected }, judge) {
		let score = 0;
		const reasons: string[] = [];
		const flags = new Set<string>();
		const count = Math.min(responses.length, expected.length);
		for (let index = 0; index < count; index++) {
			const reply = responses[index] ?? '';
			const want = jsonText(expected[index]);
			if (triggerMatches(reply, want)) {
				score++;
				reasons.push(`'${want}' is in the response.`);
			} else if (judge) {
				const [points, reason] = await askPresence(judge, reply, want);
				score += points;
				reasons.push(reason);
			} else {
				flags.add(NO_JUDGE_FALLBACK_FLAG);
				reasons.push(`'${want}' is not in the response.`);
			}
		}
		return {
			score,
			maxScore: expected.length,
			reasons,
			...(flags.size > 0 ? { flags: [...flags] } : {}),
		};
	},
};
