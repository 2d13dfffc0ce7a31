import { describe, expect, it } from 'vitest';
import {
	findWordSpans,
	mergeRegionTokensIntoWords,
	sumSurprisalsToWords,
	type WordSurprisalToken,
} from '../../../src/core/scoring/word-surprisal';

/** Tokens with offsets from their text pieces (`Ġ` written as a space in the pieces). */
function tokensOf(pieces: readonly (readonly [string, number])[]): WordSurprisalToken[] {
	let start = 0;
	return pieces.map(([piece, surprisalBits]) => {
		const token = {
			token: piece.replace(/ /g, 'Ġ'),
			surprisalBits,
			start,
			end: start + piece.length,
		};
		start += piece.length;
		return token;
	});
}

const summary = (words: ReturnType<typeof sumSurprisalsToWords>) =>
	words.map((w) => [w.word, w.surprisalBits, w.tokenIndices]);

describe('findWordSpans', () => {
	it.each([
		[
			'The dog barks.',
			[
				[0, 3],
				[4, 7],
				[8, 14],
			],
		],
		[
			'  two  spaces ',
			[
				[2, 5],
				[7, 13],
			],
		],
		['', []],
		['\n', []],
	])('%j', (text, spans) => {
		expect(findWordSpans(text).map(({ start, end }) => [start, end])).toEqual(spans);
	});
});

describe('sumSurprisalsToWords: plain sums', () => {
	it.each([
		[
			'one token per word',
			'The dog barks',
			[
				['The', 1],
				[' dog', 2],
				[' barks', 3],
			],
			[
				['The', 1, [0]],
				['dog', 2, [1]],
				['barks', 3, [2]],
			],
		],
		[
			'subwords and punctuation join their word',
			'The unbelievable dog.',
			[
				['The', 1],
				[' un', 2],
				['believ', 4],
				['able', 0.5],
				[' dog', 3],
				['.', 1.25],
			],
			[
				['The', 1, [0]],
				['unbelievable', 6.5, [1, 2, 3]],
				['dog.', 4.25, [4, 5]],
			],
		],
		[
			'a whitespace-only token joins the next word; at the end, the last word',
			'a\n\nb ',
			[
				['a', 1],
				['\n\n', 2],
				['b', 3],
				[' ', 4],
			],
			[
				['a', 1, [0]],
				['b', 9, [1, 2, 3]],
			],
		],
		[
			'a token spanning two words belongs to the word of its first character',
			'ab cd',
			[
				['ab c', 5],
				['d', 1],
			],
			[
				['ab', 5, [0]],
				['cd', 1, [1]],
			],
		],
	] as const)('%s', (_, text, pieces, expected) => {
		expect(summary(sumSurprisalsToWords(text, tokensOf(pieces)))).toEqual(expected);
	});

	it('special tokens (BOS, EOS) belong to no word; words keep their offsets', () => {
		const text = 'Hi there';
		const tokens: WordSurprisalToken[] = [
			{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
			...tokensOf([
				['Hi', 7],
				[' there', 2],
			]).map((t) => ({ ...t })),
			{ token: '<|endoftext|>', surprisalBits: 5, start: 8, end: 8, special: true },
		];
		expect(sumSurprisalsToWords(text, tokens)).toEqual([
			{ word: 'Hi', start: 0, end: 2, surprisalBits: 7, tokenIndices: [1] },
			{ word: 'there', start: 3, end: 8, surprisalBits: 2, tokenIndices: [2] },
		]);
	});

	it('tokens without offsets (lm-zoo files) are grouped by their word-boundary markers', () => {
		const tokens = [
			{ token: 'The', surprisalBits: 1 },
			{ token: 'Ġun', surprisalBits: 2 },
			{ token: 'believable', surprisalBits: 3 },
			{ token: 'Ġ', surprisalBits: 0.5 },
			{ token: 'dog', surprisalBits: 4 },
			{ token: '<eos>', surprisalBits: 9, special: true },
			{ token: '▁cat', surprisalBits: 6 },
		];
		expect(summary(sumSurprisalsToWords('', tokens))).toEqual([
			['The', 1, [0]],
			['unbelievable', 5, [1, 2]],
			['dog', 4.5, [3, 4]],
			['cat', 6, [6]],
		]);
	});

	it('an empty text has no words', () => {
		expect(sumSurprisalsToWords('', [])).toEqual([]);
	});
});

describe('sumSurprisalsToWords: beginning-of-word correction', () => {
	// boundary[i] = −log2 P(the token after token i starts a word | through token i).
	const text = 'The unbelievable dog';
	const tokens = tokensOf([
		['The', 1],
		[' un', 2],
		['believ', 4],
		['able', 0.5],
		[' dog', 3],
	]);
	const boundary = [0.25, 6, 5, 0.5, 1];

	it('adds boundary after each word, subtracts boundary before it (not for the first word)', () => {
		const words = sumSurprisalsToWords(text, tokens, { boundarySurprisalBits: boundary });
		expect(summary(words)).toEqual([
			['The', 1 + 0.25, [0]],
			['unbelievable', 2 + 4 + 0.5 + 0.5 - 0.25, [1, 2, 3]],
			['dog', 3 + 1 - 0.5, [4]],
		]);
	});

	it('the corrected sentence total is the plain total plus the boundary after the last word', () => {
		const plain = sumSurprisalsToWords(text, tokens).reduce((sum, w) => sum + w.surprisalBits, 0);
		const corrected = sumSurprisalsToWords(text, tokens, {
			boundarySurprisalBits: boundary,
		}).reduce((sum, w) => sum + w.surprisalBits, 0);
		expect(corrected).toBeCloseTo(plain + 1, 12);
	});

	it('a BOS token before the first word changes nothing for that word', () => {
		const withBos: WordSurprisalToken[] = [
			{ token: '<|endoftext|>', surprisalBits: 0, start: 0, end: 0, special: true },
			...tokens,
		];
		const words = sumSurprisalsToWords(text, withBos, { boundarySurprisalBits: [3, ...boundary] });
		expect(words[0]?.surprisalBits).toBe(1.25);
	});

	it('needs one boundary value per token', () => {
		expect(() => sumSurprisalsToWords(text, tokens, { boundarySurprisalBits: [1] })).toThrow(
			'boundarySurprisalBits has 1 values for 5 tokens',
		);
	});
});

describe('mergeRegionTokensIntoWords', () => {
	const token = (text: string, surprisalBits: number, special = false) => ({
		text,
		token: text.replace(/ /g, 'Ġ'),
		surprisalBits,
		special,
	});

	it.each([
		[
			'subwords join; a leading space starts a word',
			[token('The', 1), token(' un', 2), token('believ', 3), token('able', 0.5)],
			[
				['The', 'The', 1],
				[' unbelievable', 'Ġunbelievable', 5.5],
			],
		],
		[
			'special tokens stay alone, and the token after one starts a word',
			[token('<|endoftext|>', 0, true), token('Hi', 4), token('!', 1)],
			[
				['<|endoftext|>', '<|endoftext|>', 0],
				['Hi!', 'Hi!', 5],
			],
		],
		[
			'a whitespace-only token starts the word it is the space of',
			[token('a', 1), token(' ', 2), token('b', 3)],
			[
				['a', 'a', 1],
				[' b', 'Ġb', 5],
			],
		],
		['an empty region stays empty', [], []],
	] as const)('%s', (_, tokens, words) => {
		const [region] = mergeRegionTokensIntoWords([{ regionNumber: 1, sumBits: 9, tokens }]);
		expect(region?.tokens.map((t) => [t.text, t.token, t.surprisalBits])).toEqual(words);
		expect(region?.sumBits).toBe(9);
	});

	it('a word never crosses a region edge', () => {
		const regions = mergeRegionTokensIntoWords([
			{ tokens: [token('The', 1)] },
			{ tokens: [token('re', 2), token(' cat', 3)] },
		]);
		expect(regions.map((r) => r.tokens.map((t) => t.text))).toEqual([['The'], ['re', ' cat']]);
	});
});
