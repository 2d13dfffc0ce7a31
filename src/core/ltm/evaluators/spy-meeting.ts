/**
 * Spy Meeting: for each of the three topics, a hit when one of its keywords appears as a whole
 * word, case-sensitively ("Dawn" does not match "dawn"); minus 1 (once) when a confusion keyword
 * appears. Score = max(hits − confusion, 0) / 3.
 * NOTE: upstream draws confusion keywords from its full table of coded messages; we do not copy
 * that table: the confusion words are the keywords of the run's other Spy Meeting tests.
 */
import type { JsonValue, LtmTestDefinition } from '../shared/types';
import { jsonText, type Evaluator, type EvaluatorVerdict } from './evaluator';

function wholeWord(keyword: string, text: string): boolean {
	const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(text);
}

function keywordLists(expected: readonly JsonValue[]): string[][] {
	return expected.map((entry) =>
		Array.isArray(entry) ? entry.map((k) => jsonText(k)) : [jsonText(entry)],
	);
}

/** Keywords of the other Spy Meeting tests that are not among this test's own. */
export function spyConfusionKeywords(
	test: LtmTestDefinition,
	allTests: readonly LtmTestDefinition[],
): string[] {
	const own = new Set(keywordLists(test.expectedResponses).flat());
	const words = new Set<string>();
	for (const other of allTests) {
		if (other.evaluator !== 'spy_meeting' || other.uniqueId === test.uniqueId) continue;
		for (const word of keywordLists(other.expectedResponses).flat())
			if (!own.has(word)) words.add(word);
	}
	return [...words];
}

export function scoreSpyMeeting(
	reply: string,
	expected: readonly JsonValue[],
	confusionKeywords: readonly string[],
): EvaluatorVerdict {
	const reasons: string[] = [];
	let hits = 0;
	for (const keywords of keywordLists(expected)) {
		if (keywords.some((keyword) => wholeWord(keyword, reply))) {
			hits++;
			reasons.push(`Answer contains one of ${JSON.stringify(keywords)}.`);
		} else {
			reasons.push(`None of ${JSON.stringify(keywords)} is in the answer.`);
		}
	}
	const confused = confusionKeywords.filter((keyword) => wholeWord(keyword, reply));
	if (confused.length > 0)
		reasons.push(`Confusing keyword(s) in the answer: ${confused.join(', ')}.`);
	const score = Math.max(hits - (confused.length > 0 ? 1 : 0), 0);
	return { score, maxScore: 3, reasons };
}

export const spyMeetingEvaluator: Evaluator = {
	judge: 'never',
	evaluate: ({ responses, expected, test, allTests }) =>
		scoreSpyMeeting(responses[0] ?? '', expected, spyConfusionKeywords(test, allTests ?? [])),
};
