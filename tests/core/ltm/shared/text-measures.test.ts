// standardise, ROUGE-L F (rouge_score tokenisation with Porter stems) and Python repr.
import { describe, expect, it } from 'vitest';
import {
	pythonListRepr,
	pythonStringRepr,
	rougeLF,
	rougeTokens,
	standardise,
} from '../../../../src/core/ltm/shared/text-measures';

describe('standardise', () => {
	const cases: [string, string][] = [
		["Don't Panic!", 'dont panic'],
		['Don’t — stop', 'don’t — stop'],
		['A_b-c', 'abc'],
	];
	it.each(cases)('%j → %j', (text, want) => expect(standardise(text)).toBe(want));
});

describe('rouge_score tokens and ROUGE-L F', () => {
	it('tokenises ASCII [a-z0-9], stems tokens longer than 3 characters', () => {
		expect(rougeTokens('Resisting temptations, 2 cats!')).toEqual([
			'resist',
			'temptat',
			'2',
			'cat',
		]);
	});
	const cases: [string, string, number][] = [
		['the cat sat', 'the cat sat', 1],
		['the cat sat on the mat', 'the cat', 2 / (1 / (2 / 6) + 1 / 1) / 1],
		['bless you', 'gesundheit', 0],
		['', 'anything', 0],
	];
	it.each(cases)('%j vs %j → %d', (target, prediction, want) => {
		expect(rougeLF(target, prediction)).toBeCloseTo(want, 12);
	});
});

describe('Python repr', () => {
	const cases: [string, string][] = [
		['abc', "'abc'"],
		["Bob's", '"Bob\'s"'],
		['say "hi" it\'s', "'say \"hi\" it\\'s'"],
		['a\\b\nc', "'a\\\\b\\nc'"],
	];
	it.each(cases)('%j → %s', (text, want) => expect(pythonStringRepr(text)).toBe(want));
	it('lists', () => expect(pythonListRepr(['A', 'B'])).toBe("['A', 'B']"));
});
