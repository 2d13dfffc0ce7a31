/**
 * The beginning-of-word correction where tokens are shown merged into words (the drill-down's
 * regions, the explorer): whether scored tokens carry boundary values, and the tokens with each
 * word's correction term moved onto the word's last token. The rule itself is
 * `sumSurprisalsToWords` (word-surprisal.ts); nothing here restates it.
 */
import {
	sumSurprisalsToWords,
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
 * Copies of the tokens in which each word's correction (its corrected surprisal minus its plain
 * sum, words as `sumSurprisalsToWords` finds them) is added to the surprisal of the word's last
 * token. Summing a word's tokens then gives its corrected surprisal (to rounding), so code that
 * merges tokens into words (`mergeRegionTokensIntoWords`) shows corrected words unchanged. The
 * copies' token values are no surprisals of tokens: show them only merged into words. Tokens in
 * no word (special tokens) keep their value. The input is not changed.
 * @throws RangeError when a token has no boundary term (see `wordBoundarySurprisals`).
 */
export function foldWordCorrectionIntoTokens<T extends BoundaryToken>(
	text: string,
	tokens: readonly T[],
): T[] {
	const corrected = sumCorrectedSurprisalsToWords(text, tokens);
	if (corrected === null) {
		throw new RangeError(
			'These tokens have no word-boundary values: score the text with word boundaries (wordBoundaries) to correct its words.',
		);
	}
	const plain = sumSurprisalsToWords(text, tokens);
	const folded = tokens.map((token) => ({ ...token }));
	corrected.forEach((word, index) => {
		const last = word.tokenIndices.at(-1);
		const target = last === undefined ? undefined : folded[last];
		if (last === undefined || target === undefined) return;
		const correction = word.surprisalBits - (plain[index]?.surprisalBits ?? 0);
		folded[last] = { ...target, surprisalBits: target.surprisalBits + correction };
	});
	return folded;
}
