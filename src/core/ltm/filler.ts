/**
 * Filler between tests: trivia-style questions with their answers, which the agent is asked to
 * list back as JSON. The trivia is ours (arithmetic and facts about made-up places, generated from
 * the item index), or a loaded upstream-format file `{"Data": [{"Question", "AnswerValue"}]}`.
 * The canned reply is Python's repr of the answer list, as upstream sends it (L4). Pure.
 */
import { pythonListRepr } from './shared/text-measures';

export interface TriviaItem {
	readonly question: string;
	readonly answer: string;
}

/** Our instruction that opens every filler message. */
export const FILLER_INSTRUCTION =
	'Below are some quiz questions, each with its answer. Read them, then reply with one message holding only the answers, as a JSON list like ["first answer", "second answer"].\n';

const TOWNS = [
	'Brellmoor',
	'Quendale',
	'Oskarby',
	'Tamsford',
	'Vellingham',
	'Corrowick',
	'Dunmere',
	'Pellithorn',
];
const FACTS: readonly [string, readonly string[]][] = [
	['what colour are the doors of the town hall', ['green', 'amber', 'violet', 'teal']],
	['which animal is on the town flag', ['a heron', 'an otter', 'a fox', 'a stag']],
	['what is the main market day', ['Tuesday', 'Thursday', 'Saturday', 'Monday']],
	['what is the river called', ['the Quill', 'the Marrow', 'the Tessel', 'the Brine']],
];

/** A 32-bit integer hash of n (deterministic; the same item index always gives the same item). */
function hash(n: number): number {
	let x = (n ^ 0x9e3779b9) >>> 0;
	x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
	x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
	return (x ^ (x >>> 16)) >>> 0;
}

/** Item `index` of our own endless trivia sequence. */
export function ourTriviaItem(index: number): TriviaItem {
	const h = hash(index);
	const a = 2 + (h % 97);
	const b = 2 + ((h >>> 8) % 89);
	switch ((h >>> 20) % 5) {
		case 0:
			return { question: `What is ${a} plus ${b}?`, answer: String(a + b) };
		case 1:
			return {
				question: `What is ${a % 13} times ${b % 11}?`,
				answer: String((a % 13) * (b % 11)),
			};
		case 2:
			return {
				question: `How many minutes are there in ${(a % 12) + 1} hours?`,
				answer: String(60 * ((a % 12) + 1)),
			};
		case 3:
			return { question: `What is ${a + b} minus ${b}?`, answer: String(a) };
		default: {
			const town = TOWNS[a % TOWNS.length]!;
			const [fact, answers] = FACTS[b % FACTS.length]!;
			return {
				question: `In the made-up town of ${town}, ${fact}?`,
				answer: answers[(a + b) % answers.length]!,
			};
		}
	}
}

/** Reads upstream's trivia JSON (`{"Data": [{"Question": ..., "AnswerValue": ...}]}`); throws with where it failed. */
export function readUpstreamTrivia(text: string): TriviaItem[] {
	const root = JSON.parse(text) as { Data?: unknown };
	if (!Array.isArray(root.Data))
		throw new Error('trivia file: expected {"Data": [...]} at the top level');
	return root.Data.map((entry, index) => {
		const { Question, AnswerValue } = (entry ?? {}) as Record<string, unknown>;
		if (typeof Question !== 'string' || AnswerValue === undefined) {
			throw new Error(`trivia file: /Data/${index} needs "Question" and "AnswerValue"`);
		}
		return { question: Question, answer: String(AnswerValue) };
	});
}

export interface FillerMessage {
	readonly text: string;
	readonly answers: readonly string[];
	/** The reply upstream records instead of asking the agent: `['A', 'B']`. */
	readonly cannedReply: string;
	/** The next trivia index to use. */
	readonly nextCursor: number;
}

/**
 * One filler message: the instruction and `Q: ..., A: ...` lines (at least one) until the
 * message's tokens plus its answers' tokens reach `min(neededTokens, maxMessageTokens)`.
 */
export function buildFiller(
	neededTokens: number,
	maxMessageTokens: number,
	cursor: number,
	countTokens: (text: string) => number,
	trivia?: readonly TriviaItem[],
): FillerMessage {
	const goal = Math.min(neededTokens, maxMessageTokens);
	let text = FILLER_INSTRUCTION;
	let total = countTokens(text);
	const answers: string[] = [];
	let next = cursor;
	while (answers.length === 0 || total < goal) {
		const item = trivia && trivia.length > 0 ? trivia[next % trivia.length]! : ourTriviaItem(next);
		next++;
		const line = `Q: ${item.question}, A: ${item.answer}\n`;
		text += line;
		answers.push(item.answer);
		total += countTokens(line) + countTokens(item.answer);
	}
	return { text, answers, cannedReply: pythonListRepr(answers), nextCursor: next };
}
