// Filler: our trivia is deterministic and right; upstream-format trivia files are read with
// located errors; messages grow to the token goal with at least one line.
import { describe, expect, it } from 'vitest';
import {
	buildFiller,
	FILLER_INSTRUCTION,
	ourTriviaItem,
	readUpstreamTrivia,
} from '../../../src/core/ltm/filler';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

describe('ourTriviaItem', () => {
	it('is the same item for the same index, and its arithmetic is right', () => {
		for (let index = 0; index < 200; index++) {
			const item = ourTriviaItem(index);
			expect(ourTriviaItem(index)).toEqual(item);
			const plus = /^What is (\d+) plus (\d+)\?$/.exec(item.question);
			if (plus) expect(Number(item.answer)).toBe(Number(plus[1]) + Number(plus[2]));
			const times = /^What is (\d+) times (\d+)\?$/.exec(item.question);
			if (times) expect(Number(item.answer)).toBe(Number(times[1]) * Number(times[2]));
			const minus = /^What is (\d+) minus (\d+)\?$/.exec(item.question);
			if (minus) expect(Number(item.answer)).toBe(Number(minus[1]) - Number(minus[2]));
			const hours = /^How many minutes are there in (\d+) hours\?$/.exec(item.question);
			if (hours) expect(Number(item.answer)).toBe(60 * Number(hours[1]));
		}
	});
});

describe('readUpstreamTrivia', () => {
	it('reads {"Data": [{"Question", "AnswerValue"}]}', () => {
		expect(
			readUpstreamTrivia(
				'{"Data": [{"Question": "Q1", "AnswerValue": "A1"}, {"Question": "Q2", "AnswerValue": 7}]}',
			),
		).toEqual([
			{ question: 'Q1', answer: 'A1' },
			{ question: 'Q2', answer: '7' },
		]);
	});
	const bad: [string, RegExp][] = [
		['[]', /expected \{"Data": \[\.\.\.\]\}/],
		['{"Data": [{"Question": "Q"}]}', /\/Data\/0 needs "Question" and "AnswerValue"/],
	];
	it.each(bad)('%s is a located error', (text, message) =>
		expect(() => readUpstreamTrivia(text)).toThrow(message),
	);
});

describe('buildFiller', () => {
	const cases: [number, number, number][] = [
		[1, 1024, 1],
		[200, 1024, 200],
		[5000, 300, 300],
	];
	it.each(cases)(
		'needed %d, max %d: reaches %d tokens with at least one line',
		(needed, max, goal) => {
			const filler = buildFiller(needed, max, 10, words);
			expect(filler.text.startsWith(FILLER_INSTRUCTION)).toBe(true);
			expect(filler.answers.length).toBeGreaterThanOrEqual(1);
			const lines = filler.text
				.slice(FILLER_INSTRUCTION.length)
				.split('\n')
				.filter((line) => line !== '');
			expect(lines).toHaveLength(filler.answers.length);
			const counted =
				words(FILLER_INSTRUCTION) +
				lines.reduce((sum, line, index) => sum + words(line) + words(filler.answers[index]!), 0);
			expect(counted).toBeGreaterThanOrEqual(goal);
			expect(filler.nextCursor).toBe(10 + filler.answers.length);
		},
	);
});
