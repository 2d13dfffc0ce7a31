import { describe, expect, it } from 'vitest';
import {
	correctRegionWords,
	hasWordBoundaries,
	sumCorrectedSurprisalsToWords,
	wordBoundarySurprisals,
	type BoundaryToken,
} from '../../../src/core/scoring/word-boundary-correction';
import {
	mergeRegionTokensIntoWords,
	type DisplayedToken,
} from '../../../src/core/scoring/word-surprisal';

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

/** Display tokens as the drill-down has them: the span of the sentence, `Ġ` as a space. */
function displayed(tokens: readonly BoundaryToken[]): DisplayedToken[] {
	return tokens.map((token) => ({
		text: token.special ? token.token : token.token.replace(/Ġ/g, ' '),
		token: token.token,
		surprisalBits: token.surprisalBits,
		special: token.special === true,
	}));
}

describe('correctRegionWords', () => {
	it('gives merged words their corrected values; region sums follow', () => {
		const words = sumCorrectedSurprisalsToWords('The dog barks', DOG) ?? [];
		const shown = displayed(DOG);
		const regions = mergeRegionTokensIntoWords([
			{ regionNumber: 1, sumBits: 3, tokens: shown.slice(0, 2) },
			{ regionNumber: 2, sumBits: 4, tokens: shown.slice(2) },
		]);
		const before = structuredClone(regions);
		const corrected = correctRegionWords(regions, words);
		expect(
			corrected.map((r) => [
				r.regionNumber,
				r.sumBits,
				r.tokens.map((w) => [w.text, w.surprisalBits]),
			]),
		).toEqual([
			[
				1,
				1.5 + 1.75,
				[
					['The', 1.5],
					[' dog', 1.75],
				],
			],
			[2, 3.875, [[' barks', 3.875]]],
		]);
		expect(regions).toEqual(before);
	});

	it('keeps special tokens as they are and counts them in the region sum', () => {
		const tokens = tokensOf(
			[
				['The', 5, 0.5],
				[' dog', 2, 0.25],
			],
			{ bos: [0.125, 3] },
		);
		const words = sumCorrectedSurprisalsToWords('The dog', tokens) ?? [];
		const [region] = correctRegionWords(
			mergeRegionTokensIntoWords([{ sumBits: 0, tokens: displayed(tokens) }]),
			words,
		);
		// BOS 0.125 kept; The = 5 + 0.5 (first word: no minus term); dog = 2 + 0.25 − 0.5.
		expect(region?.tokens.map((w) => [w.special, w.surprisalBits])).toEqual([
			[true, 0.125],
			[false, 5.5],
			[false, 1.75],
		]);
		expect(region?.sumBits).toBe(0.125 + 5.5 + 1.75);
	});

	it('leaves out sumBits when the regions have none (the explorer’s one region)', () => {
		const words = sumCorrectedSurprisalsToWords('The dog barks', DOG) ?? [];
		const [region] = correctRegionWords(
			mergeRegionTokensIntoWords([{ tokens: displayed(DOG) }]),
			words,
		);
		expect(region && 'sumBits' in region).toBe(false);
		expect(region?.tokens.map((w) => w.surprisalBits)).toEqual([1.5, 1.75, 3.875]);
	});

	it.each([
		[
			'between words: it is counted in the next word',
			'a  b',
			tokensOf([
				['a', 1, 0.5],
				[' ', 2, 1],
				[' b', 3, 0.25],
			]),
			// a = 1 + 0.5; b = (2 + 3) + 0.25 − 0.5.
			[
				['a', 1.5],
				[' b', 4.75],
			],
		],
		[
			'at the end: it is counted in the last word',
			'a b\n',
			tokensOf([
				['a', 1, 0.5],
				[' b', 3, 0.25],
				['\n', 2, 4],
			]),
			// a = 1 + 0.5; b = (3 + 2) + 4 − 0.5.
			[
				['a', 1.5],
				[' b', 8.5],
			],
		],
	])('drops a whitespace-only unit %s', (_name, text, tokens, expected) => {
		const words = sumCorrectedSurprisalsToWords(text, tokens) ?? [];
		const merged = mergeRegionTokensIntoWords([{ tokens: displayed(tokens) }]);
		expect(merged[0]?.tokens.map((w) => w.text)).toContain(text.includes('\n') ? '\n' : ' ');
		const [region] = correctRegionWords(merged, words);
		expect(region?.tokens.map((w) => [w.text, w.surprisalBits])).toEqual(expected);
	});

	it.each([
		[
			'a word is missing from the regions',
			[{ tokens: displayed(DOG).slice(0, 2) }],
			/regions hold 2 words, the sentence 3/,
		],
		[
			'the regions hold another word',
			[{ tokens: displayed(DOG).map((t, i) => (i === 1 ? { ...t, text: ' cat' } : t)) }],
			/Word 2 is “cat” in the regions but “dog” in the sentence/,
		],
	])('throws when %s', (_name, regions, message) => {
		const words = sumCorrectedSurprisalsToWords('The dog barks', DOG) ?? [];
		expect(() => correctRegionWords(mergeRegionTokensIntoWords(regions), words)).toThrow(message);
	});
});
