/**
 * The beginning-of-word correction where tokens are shown merged into words (the drill-down's
 * regions, the explorer): whether scored tokens carry boundary values, and merged words given
 * their corrected values. The rule itself is `sumSurprisalsToWords` (word-surprisal.ts); nothing
 * here restates it.
 */
import {
	sumSurprisalsToWords,
	type DisplayedToken,
	type WordSurprisal,
	type WordSurprisalToken,
} from './word-surprisal';

/** A scored token that may carry its boundary term (see `ScoredToken.boundarySurprisalBits`). */
export interface BoundaryToken extends WordSurprisalToken {
	readonly boundarySurprisalBits?: number;
}

/**
 * The tokens' boundary terms in bits, one per token, or null when the list is empty or any token
 * has none (scored without word boundaries).
 */
export function wordBoundarySurprisals(tokens: readonly BoundaryToken[]): number[] | null {
	if (tokens.length === 0) return null;
	const bits: number[] = [];
	for (const token of tokens) {
		if (typeof token.boundarySurprisalBits !== 'number') return null;
		bits.push(token.boundarySurprisalBits);
	}
	return bits;
}

/**
 * Whether every sentence (at least one) has a boundary term on every token: what the
 * beginning-of-word correction of their words needs.
 */
export function hasWordBoundaries(
	sentences: readonly { readonly tokens: readonly BoundaryToken[] }[],
): boolean {
	return (
		sentences.length > 0 &&
		sentences.every((sentence) => wordBoundarySurprisals(sentence.tokens) !== null)
	);
}

/**
 * The words of `text` with the beginning-of-word correction, or null when the tokens carry no
 * boundary terms. Same words and order as the plain `sumSurprisalsToWords(text, tokens)`.
 */
export function sumCorrectedSurprisalsToWords(
	text: string,
	tokens: readonly BoundaryToken[],
): WordSurprisal[] | null {
	const boundarySurprisalBits = wordBoundarySurprisals(tokens);
	return boundarySurprisalBits === null
		? null
		: sumSurprisalsToWords(text, tokens, { boundarySurprisalBits });
}

/**
 * Regions whose tokens are merged into words (`mergeRegionTokensIntoWords`), with each word's
 * value replaced by its corrected surprisal: the n-th merged word that is not special is the n-th
 * of `words` (`sumCorrectedSurprisalsToWords` of the whole sentence, so the first word of the
 * sentence alone has no minus term). A whitespace-only unit (a space or line break token that
 * merging leaves alone) is dropped: `sumSurprisalsToWords` counts it in the next word, or at the
 * end of the text in the last one. A region's `sumBits`, when it has one, becomes the sum of its
 * corrected words and its special tokens. The input is not changed.
 * @throws RangeError when the merged words are not `words` (another count, or another text).
 */
export function correctRegionWords<
	R extends { readonly tokens: readonly DisplayedToken[]; readonly sumBits?: number },
>(regions: readonly R[], words: readonly WordSurprisal[]): R[] {
	let next = 0;
	const corrected = regions.map((region) => {
		let sumBits = 0;
		const tokens = region.tokens.flatMap((unit): DisplayedToken[] => {
			if (unit.special) {
				sumBits += unit.surprisalBits;
				return [unit];
			}
			if (unit.text.trim() === '') return [];
			const word = words[next];
			if (word === undefined || word.word !== unit.text.trim()) {
				throw new RangeError(
					`Word ${next + 1} is “${unit.text.trim()}” in the regions but “${word?.word ?? '(none)'}” in the sentence: the beginning-of-word correction cannot be placed.`,
				);
			}
			next += 1;
			sumBits += word.surprisalBits;
			return [{ ...unit, surprisalBits: word.surprisalBits }];
		});
		return { ...region, tokens, ...(region.sumBits === undefined ? {} : { sumBits }) };
	});
	if (next !== words.length) {
		throw new RangeError(
			`The regions hold ${next} words, the sentence ${words.length}: the beginning-of-word correction cannot be placed.`,
		);
	}
	return corrected;
}
