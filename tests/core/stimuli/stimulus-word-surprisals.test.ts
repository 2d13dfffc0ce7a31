// Word values from token surprisals: for whitespace words exactly the existing rule
// (sumSurprisalsToWords, plain and beginning-of-word corrected), then what the general spans add:
// context tokens and ignored tokens in no word, a word without a token of its own, entropy.
import { describe, expect, it } from 'vitest';
import { sumSurprisalsToWords } from '../../../src/core/scoring/word-surprisal';
import { findStimulusWords } from '../../../src/core/stimuli/stimulus-passages';
import {
	sumTokensToStimulusWords,
	type StimulusToken,
	withTopNext,
} from '../../../src/core/stimuli/stimulus-word-surprisals';

/**
 * Tokens that cut `text` at `cuts` (UTF-16 offsets), with a BOS first and, when asked, an EOS
 * last; surprisal and boundary values differ for every token (k-dependent, not tuned).
 */
function tokensOf(text: string, cuts: readonly number[], eos = false): StimulusToken[] {
	const edges = [0, ...cuts, text.length];
	const tokens: StimulusToken[] = [
		{ token: '<s>', surprisalBits: 0, special: true, boundarySurprisalBits: 0.25 },
	];
	for (let k = 0; k + 1 < edges.length; k++) {
		const start = edges[k] as number;
		const end = edges[k + 1] as number;
		tokens.push({
			token: text.slice(start, end).replace(/ /gu, 'Ġ'),
			surprisalBits: 1 + k * 1.5 + (end - start) / 7,
			boundarySurprisalBits: 0.1 + ((k * 7) % 5) / 3,
			start,
			end,
		});
	}
	if (eos)
		tokens.push({ token: '</s>', surprisalBits: 2.5, special: true, boundarySurprisalBits: 0.5 });
	return tokens;
}

describe('sumTokensToStimulusWords on whitespace words', () => {
	it.each<[string, number[], boolean]>([
		['The dog barked.', [3, 7, 11, 14], false],
		['The dog barked.', [1, 3, 4, 7, 10, 14], true],
		[' The  dog\nbarked. ', [1, 4, 5, 6, 9, 10, 17, 18], false],
		['Zoë’s café—closed', [2, 3, 5, 7, 10, 11], true],
		['one', [], true],
	])('%j cut at %j equals sumSurprisalsToWords, plain and corrected', (text, cuts, eos) => {
		const tokens = tokensOf(text, cuts, eos);
		const spans = findStimulusWords(text);
		const ours = sumTokensToStimulusWords(text, spans, tokens);
		const plain = sumSurprisalsToWords(text, tokens);
		const corrected = sumSurprisalsToWords(text, tokens, {
			boundarySurprisalBits: tokens.map((t) => t.boundarySurprisalBits ?? 0),
		});
		expect(ours.map((w) => w.tokenIndices)).toEqual(plain.map((w) => w.tokenIndices));
		ours.forEach((word, i) => {
			expect(word.surprisalBits).toBeCloseTo(plain[i]?.surprisalBits ?? NaN, 12);
			expect(word.bowSurprisalBits).toBeCloseTo(corrected[i]?.surprisalBits ?? NaN, 12);
			expect(word.entropyBits).toBeNull();
		});
	});

	it('gives no corrected value when a token has no boundary term', () => {
		const text = 'The dog';
		const tokens = tokensOf(text, [3]).map((t, i) =>
			i === 2 ? { token: t.token, surprisalBits: t.surprisalBits, start: 3, end: 7 } : t,
		);
		const words = sumTokensToStimulusWords(text, findStimulusWords(text), tokens);
		expect(words.map((w) => w.bowSurprisalBits)).toEqual([null, null]);
	});

	it('refuses text tokens without offsets', () => {
		expect(() =>
			sumTokensToStimulusWords('a', [{ start: 0, end: 1 }], [{ token: 'a', surprisalBits: 1 }]),
		).toThrow(RangeError);
	});
});

describe('sumTokensToStimulusWords on other spans', () => {
	it('a context before the target is in no word; the target gets the minus term', () => {
		const text = 'The cat sat on the mat.';
		const tokens = tokensOf(text, [3, 7, 11, 14, 18, 22]);
		const target = { start: 19, end: 23 };
		const [mat] = sumTokensToStimulusWords(text, [target], tokens);
		// Tokens: <s> The Ġcat Ġsat Ġon Ġthe Ġmat . → Ġmat is 6, "." is 7.
		expect(mat?.tokenIndices).toEqual([6, 7]);
		const bits = (tokens[6]?.surprisalBits ?? 0) + (tokens[7]?.surprisalBits ?? 0);
		expect(mat?.surprisalBits).toBeCloseTo(bits, 12);
		expect(mat?.bowSurprisalBits).toBeCloseTo(
			bits + (tokens[7]?.boundarySurprisalBits ?? 0) - (tokens[5]?.boundarySurprisalBits ?? 0),
			12,
		);
		// The same words, whole text: the target's values do not depend on the spans before it.
		const whole = sumTokensToStimulusWords(text, findStimulusWords(text), tokens);
		expect(whole.at(-1)).toEqual(mat);
	});

	it('a space token of the context stays out of the target (SentencePiece `▁` `r` `an`)', () => {
		const text = 'x ran mat';
		// Tokens: <s> x ▁ ran ▁mat; the lone ▁ is ran's leading space, in the context.
		const tokens = tokensOf(text, [1, 2, 5]);
		const [mat] = sumTokensToStimulusWords(text, [{ start: 6, end: 9 }], tokens);
		expect(mat?.tokenIndices).toEqual([4]);
		const whole = sumTokensToStimulusWords(text, findStimulusWords(text), tokens);
		expect(whole.map((w) => w.tokenIndices)).toEqual([[1], [2, 3], [4]]);
	});

	it('ignored tokens count in no sum; a word with no token of its own is NaN', () => {
		const text = 'dog. cat';
		// Tokens: <s> d og. Ġcat — "og." straddles the words "dog" and ".".
		const tokens = tokensOf(text, [1, 4]);
		const split = findStimulusWords(text, 'split');
		expect(split.map((s) => text.slice(s.start, s.end))).toEqual(['dog', '.', 'cat']);
		const words = sumTokensToStimulusWords(text, split, tokens);
		expect(words.map((w) => w.tokenIndices)).toEqual([[1, 2], [], [3]]);
		expect(words[1]?.surprisalBits).toBeNaN();
		expect(words[1]?.bowSurprisalBits).toBeNaN();

		const punctuated = tokensOf(text, [3, 4]);
		const ignored = sumTokensToStimulusWords(text, findStimulusWords(text), punctuated, {
			ignoreToken: (token) => /^\p{P}+$/u.test(token),
		});
		expect(ignored.map((w) => w.tokenIndices)).toEqual([[1], [3]]);
		expect(ignored[0]?.surprisalBits).toBeCloseTo(punctuated[1]?.surprisalBits ?? NaN, 12);
		// The corrected value of "cat" still subtracts the boundary after ".", its real context.
		expect(ignored[1]?.bowSurprisalBits).toBeCloseTo(
			(punctuated[3]?.surprisalBits ?? 0) +
				(punctuated[3]?.boundarySurprisalBits ?? 0) -
				(punctuated[2]?.boundarySurprisalBits ?? 0),
			12,
		);
	});

	it('a word made only of ignored tokens is NaN, and the next word still gets its minus term', () => {
		const text = 'a — b';
		const tokens = tokensOf(text, [1, 3, 4]);
		const words = sumTokensToStimulusWords(text, findStimulusWords(text), tokens, {
			ignoreToken: (token) => /^\p{P}+$/u.test(token),
		});
		expect(words.map((w) => w.tokenIndices)).toEqual([[1], [], [3, 4]]);
		expect(words[1]?.surprisalBits).toBeNaN();
		expect(words[2]?.bowSurprisalBits).toBeCloseTo(
			(tokens[3]?.surprisalBits ?? 0) +
				(tokens[4]?.surprisalBits ?? 0) +
				(tokens[4]?.boundarySurprisalBits ?? 0) -
				(tokens[2]?.boundarySurprisalBits ?? 0),
			12,
		);
	});

	it('entropy is that of the distribution after the token before the word’s first token', () => {
		const text = 'a bc';
		const tokens = tokensOf(text, [1, 3]).map((t, i) => ({ ...t, nextEntropyBits: 10 + i }));
		const words = sumTokensToStimulusWords(text, findStimulusWords(text), tokens);
		expect(words.map((w) => w.entropyBits)).toEqual([10, 11]);
		// No start-of-text token (reference): nothing predicts the first word.
		const unopened = tokens.slice(1);
		const first = sumTokensToStimulusWords(text, findStimulusWords(text), unopened);
		expect(first.map((w) => w.entropyBits)).toEqual([Number.NaN, 11]);
	});

	it('top next tokens: those of the distribution that predicts the word’s first token', () => {
		const text = 'a bc';
		const top = [
			null,
			{ top: [{ text: 'a', logprob: Math.log(0.5) }] },
			{
				top: [
					{ text: ' b', logprob: Math.log(0.25) },
					{ text: ' x', logprob: Math.log(0.125) },
				],
			},
			{ top: [{ text: 'c', logprob: Math.log(0.75) }] },
		];
		const tokens = withTopNext(tokensOf(text, [1, 3]), top, 1);
		expect(tokens.map((t) => t.topNext)).toEqual([
			[],
			[{ text: 'a', probability: 0.5 }],
			[{ text: ' b', probability: 0.25 }],
			[{ text: 'c', probability: 0.75 }],
		]);
		const words = sumTokensToStimulusWords(text, findStimulusWords(text), tokens);
		expect(words.map((w) => w.topNext)).toEqual([
			[{ text: 'a', probability: 0.5 }],
			[{ text: ' b', probability: 0.25 }],
		]);
		// Not asked: no topNext at all.
		const plain = sumTokensToStimulusWords(text, findStimulusWords(text), tokensOf(text, [1, 3]));
		expect(plain.every((w) => !('topNext' in w))).toBe(true);
	});
});
