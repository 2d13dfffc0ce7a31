import { describe, expect, it } from 'vitest';
import {
	foldWordCorrectionIntoTokens,
	hasWordBoundaries,
	sumCorrectedSurprisalsToWords,
	wordBoundarySurprisals,
	type BoundaryToken,
} from '../../../src/core/surprisal/word-boundary-correction';
import { mergeRegionTokensIntoWords } from '../../../src/core/surprisal/word-surprisal';

/** Tokens with offsets from [piece, surprisal, boundary] (`Ġ` written as a space in pieces). */
function tokensOf(
	pieces: readonly (readonly [string, number, number | undefined])[],
	options: { bos?: readonly [number, number] } = {},
): BoundaryToken[] {
	let start = 0;
	const tokens: BoundaryToken[] = pieces.map(([piece, surprisalBits, boundary]) => {
		const token = {
			token: piece.replace(/ /g, 'Ġ'),
			surprisalBits,
			start,
			end: start + piece.length,
			...(boundary === undefined ? {} : { boundarySurprisalBits: boundary }),
		};
		start += piece.length;
		return token;
	});
	if (!options.bos) return tokens;
	const [bits, boundary] = options.bos;
	return [
		{
			token: '<|endoftext|>',
			surprisalBits: bits,
			start: 0,
			end: 0,
			special: true,
			boundarySurprisalBits: boundary,
		},
		...tokens,
	];
}

// "The dog barks": The | Ġdog | Ġbar ks. Corrected by hand from the rule
// surprisal(w) = Σ s(t) + b(last of w) − b(token before w), first word without the minus:
//   The   = 1 + 0.5               = 1.5
//   dog   = 2 + 0.25 − 0.5        = 1.75
//   barks = 3 + 1 + 0.125 − 0.25  = 3.875
const DOG = tokensOf([
	['The', 1, 0.5],
	[' dog', 2, 0.25],
	[' bar', 3, 4],
	['ks', 1, 0.125],
]);

describe('wordBoundarySurprisals', () => {
	it.each([
		['every token has one', DOG, [0.5, 0.25, 4, 0.125]],
		[
			'one token lacks it',
			tokensOf([
				['The', 1, 0.5],
				[' dog', 2, undefined],
			]),
			null,
		],
		['no tokens', [], null],
	])('%s', (_name, tokens, expected) => {
		expect(wordBoundarySurprisals(tokens)).toEqual(expected);
	});
});

describe('hasWordBoundaries', () => {
	it.each([
		['all sentences have them', [{ tokens: DOG }, { tokens: DOG.slice(0, 2) }], true],
		[
			'one sentence has none',
			[{ tokens: DOG }, { tokens: DOG.map(({ boundarySurprisalBits: _b, ...t }) => t) }],
			false,
		],
		['a sentence without tokens', [{ tokens: DOG }, { tokens: [] }], false],
		['no sentences', [], false],
	])('%s', (_name, sentences, expected) => {
		expect(hasWordBoundaries(sentences)).toBe(expected);
	});
});

describe('sumCorrectedSurprisalsToWords', () => {
	it('corrects each word by the boundary terms around it', () => {
		const words = sumCorrectedSurprisalsToWords('The dog barks', DOG);
		expect(words?.map((w) => [w.word, w.surprisalBits, w.tokenIndices])).toEqual([
			['The', 1.5, [0]],
			['dog', 1.75, [1]],
			['barks', 3.875, [2, 3]],
		]);
	});

	it('is null without boundary terms', () => {
		const plain = DOG.map(({ boundarySurprisalBits: _b, ...token }) => token);
		expect(sumCorrectedSurprisalsToWords('The dog barks', plain)).toBeNull();
	});
});

describe('foldWordCorrectionIntoTokens', () => {
	it.each([
		[
			'each word’s correction lands on its last token',
			'The dog barks',
			DOG,
			// The: 1 + 0.5; dog: 2 + 0.25 − 0.5; bar unchanged; ks: 1 + (0.125 − 0.25).
			[1.5, 1.75, 3, 0.875],
		],
		[
			'a BOS keeps its value; the first word still has no minus term',
			'The dog',
			tokensOf(
				[
					['The', 5, 0.5],
					[' dog', 2, 0.25],
				],
				{ bos: [0, 3] },
			),
			// BOS 0; The: 5 + 0.5 (no − 3: first word); dog: 2 + 0.25 − 0.5.
			[0, 5.5, 1.75],
		],
		[
			'a whitespace-only token belongs to the next word',
			'a  b',
			tokensOf([
				['a', 1, 0.5],
				[' ', 2, 1],
				[' b', 3, 0.25],
			]),
			// a: 1 + 0.5; b = (2 + 3) + 0.25 − 0.5: the correction on Ġb.
			[1.5, 2, 2.75],
		],
	])('%s', (_name, text, tokens, expected) => {
		const before = structuredClone(tokens);
		const folded = foldWordCorrectionIntoTokens(text, tokens);
		expect(folded.map((t) => t.surprisalBits)).toEqual(expected);
		expect(folded.map(({ surprisalBits: _s, ...rest }) => rest)).toEqual(
			tokens.map(({ surprisalBits: _s, ...rest }) => rest),
		);
		expect(tokens).toEqual(before);
	});

	it('merged into words, the folded tokens give the corrected words', () => {
		const display = foldWordCorrectionIntoTokens('The dog barks', DOG).map((token) => ({
			text: token.token.replace(/Ġ/g, ' '),
			token: token.token,
			surprisalBits: token.surprisalBits,
			special: false,
		}));
		const [region] = mergeRegionTokensIntoWords([{ tokens: display }]);
		expect(region?.tokens.map((w) => [w.text, w.surprisalBits])).toEqual([
			['The', 1.5],
			[' dog', 1.75],
			[' barks', 3.875],
		]);
	});

	it('throws, saying what to do, when a token has no boundary term', () => {
		const plain = DOG.map(({ boundarySurprisalBits: _b, ...token }) => token);
		expect(() => foldWordCorrectionIntoTokens('The dog barks', plain)).toThrow(
			/score the text with word boundaries/,
		);
	});
});
