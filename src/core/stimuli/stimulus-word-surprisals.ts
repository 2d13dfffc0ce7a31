/**
 * Token surprisals of a scored passage summed over its words (spans from stimulus-passages.ts),
 * with the beginning-of-word correction and the next-word entropy where the engine gave them.
 * The same rule as `sumSurprisalsToWords` (core/scoring/word-surprisal.ts) for spans
 * that are whitespace runs, generalized to any spans. Pure.
 *
 * - A token that is not special belongs to the word whose span holds its first non-whitespace
 *   character; a whitespace-only token (`Ġ`, `▁`, `Ċ`) to the word of the next token that is not
 *   whitespace only, or at the end of the text to the last word. So a word's leading space is
 *   counted in that word (GPT-2's `Ġdog`, SentencePiece's `▁` `r` `a` `n`). A token whose first
 *   character is in no span (a context before a target, ignored punctuation) is in no word, and
 *   so are the whitespace-only tokens just before it.
 * - surprisal(w) = Σ surprisal(t) over the tokens of w (the `surprisal` package, minicons
 *   without correction, pangoling's sum of log-probs), leaving out tokens whose text matches the
 *   ignore pattern (pangoling's `ignore_regex`).
 * - Beginning-of-word corrected (as the CLI's `surprisals --words --bow`): Σ + boundary(after w's
 *   last token) − boundary(after the token before w), the minus term only when a text token
 *   comes before w (the first word of a text has none, as minicons).
 * - Top next tokens (when asked): the most likely tokens of that same distribution (the one that
 *   predicts w's first token), most likely first; none for a word no token comes before.
 * - Next-word entropy: the entropy of the distribution that predicts w's first token (the one
 *   after the token before it), in bits, where the tokens carry it; NaN for a word no token
 *   comes before (the first word with no start-of-text token).
 */
import type { ScoredToken } from '../scoring/scored-token';
import type { StimulusWordSpan } from './stimulus-passages';

/** One of a distribution's most likely next tokens: its text (with its leading space, if any)
 * and its probability. */
export interface StimulusNextToken {
	readonly text: string;
	readonly probability: number;
}

/** A scored token as the engines give it, with the top next tokens when they were asked for. */
export interface StimulusToken extends ScoredToken {
	/** The most likely tokens of the distribution this token was drawn from, most likely first
	 * (when the engine was asked for them). */
	readonly topNext?: readonly StimulusNextToken[];
}

/** One word's values. Numbers are NaN where the word has no token of its own. */
export interface StimulusWordValues {
	/** Indices into the tokens, in order, ignored tokens left out. */
	readonly tokenIndices: readonly number[];
	readonly surprisalBits: number;
	/** Null when the tokens carry no boundary values. */
	readonly bowSurprisalBits: number | null;
	/** Null when the tokens carry no entropy. */
	readonly entropyBits: number | null;
	/** The most likely next tokens at the word's first token; absent when not asked, empty for a
	 * word no token comes before. */
	readonly topNext?: readonly StimulusNextToken[];
}

export interface StimulusWordOptions {
	/** Whether a token (its text in the passage, whitespace trimmed) is left out of every sum. */
	readonly ignoreToken?: (tokenText: string) => boolean;
}

/**
 * The word (index into `spans`) each token belongs to, null for a special token or one in no
 * word (the rule in the module header; ignoring tokens by pattern is not applied here).
 * @throws RangeError when a text token has no character offsets (engines always give them).
 */
export function assignTokensToWords(
	text: string,
	spans: readonly Pick<StimulusWordSpan, 'start' | 'end'>[],
	tokens: readonly StimulusToken[],
): (number | null)[] {
	const wordOf: (number | null)[] = tokens.map(() => null);
	/** The first span whose end is after `at` (spans are in text order). */
	const spanAfter = (at: number): number => {
		let low = 0;
		let high = spans.length;
		while (low < high) {
			const middle = (low + high) >> 1;
			if ((spans[middle]?.end ?? 0) <= at) low = middle + 1;
			else high = middle;
		}
		return low;
	};
	/** Whitespace-only tokens waiting for the word of the next token. */
	let pending: number[] = [];
	tokens.forEach((token, index) => {
		if (token.special) return;
		if (token.start === undefined || token.end === undefined) {
			throw new RangeError(`Token ${index + 1} ('${token.token}') has no character offsets.`);
		}
		let at = token.start;
		while (at < token.end && /\s/u.test(text[at] ?? '')) at += 1;
		if (at === token.end) {
			pending.push(index);
			return;
		}
		const word = spanAfter(at);
		const waiting = pending;
		pending = [];
		// In no word (a context, ignored punctuation): the spaces before it are in none either.
		if (word >= spans.length || (spans[word]?.start ?? Infinity) > at) return;
		for (const blank of waiting) wordOf[blank] = word;
		wordOf[index] = word;
	});
	if (spans.length > 0) for (const blank of pending) wordOf[blank] = spans.length - 1;
	return wordOf;
}

/**
 * The values of each span, in span order.
 * @throws RangeError when a text token has no character offsets (engines always give them).
 */
export function sumTokensToStimulusWords(
	text: string,
	spans: readonly Pick<StimulusWordSpan, 'start' | 'end'>[],
	tokens: readonly StimulusToken[],
	options: StimulusWordOptions = {},
): StimulusWordValues[] {
	const members: number[][] = spans.map(() => []);
	const firstOf: (number | undefined)[] = spans.map(() => undefined);
	assignTokensToWords(text, spans, tokens).forEach((word, index) => {
		if (word === null) return;
		firstOf[word] ??= index;
		const token = tokens[index];
		const tokenText = token ? text.slice(token.start, token.end).trim() : '';
		if (options.ignoreToken !== undefined && tokenText !== '' && options.ignoreToken(tokenText)) {
			return;
		}
		members[word]?.push(index);
	});
	const boundary = tokens.every(
		(token) => token.special || typeof token.boundarySurprisalBits === 'number',
	)
		? tokens.map((token) => token.boundarySurprisalBits ?? 0)
		: null;
	const hasEntropy = tokens.some((token) => typeof token.nextEntropyBits === 'number');
	const hasTop = tokens.some((token) => token.topNext !== undefined);
	return members.map((tokenIndices, wordIndex) => {
		const first = tokenIndices[0];
		const last = tokenIndices.at(-1);
		if (first === undefined || last === undefined) {
			return {
				tokenIndices,
				surprisalBits: Number.NaN,
				bowSurprisalBits: boundary === null ? null : Number.NaN,
				entropyBits: hasEntropy ? Number.NaN : null,
				...(hasTop ? { topNext: [] } : {}),
			};
		}
		let surprisalBits = 0;
		for (const index of tokenIndices) surprisalBits += tokens[index]?.surprisalBits ?? Number.NaN;
		const opening = firstOf[wordIndex] ?? first;
		let bowSurprisalBits: number | null = null;
		if (boundary !== null) {
			bowSurprisalBits = surprisalBits + (boundary[last] ?? Number.NaN);
			if (tokens.slice(0, opening).some((token) => !token.special)) {
				bowSurprisalBits -= boundary[opening - 1] ?? Number.NaN;
			}
		}
		const entropy = opening > 0 ? tokens[opening - 1]?.nextEntropyBits : undefined;
		return {
			tokenIndices,
			surprisalBits,
			bowSurprisalBits,
			entropyBits: hasEntropy ? (typeof entropy === 'number' ? entropy : Number.NaN) : null,
			...(hasTop ? { topNext: (opening > 0 ? tokens[opening]?.topNext : undefined) ?? [] } : {}),
		};
	});
}

/** A token's top-k as the engines give them (`ScoredText.topLogprobs[i]`): log-probs in nats. */
export interface EngineTopLogprobs {
	readonly top: readonly { readonly text: string; readonly logprob: number }[];
}

/**
 * The tokens with their `topNext` from the engine's per-token top-k (`top[i]`: the distribution
 * token i was drawn from; null for the first token), the first `k` of each, as probabilities.
 */
export function withTopNext<T extends StimulusToken>(
	tokens: readonly T[],
	top: readonly (EngineTopLogprobs | null)[],
	k: number,
): T[] {
	return tokens.map((token, index) => ({
		...token,
		topNext: (top[index]?.top ?? [])
			.slice(0, k)
			.map(({ text, logprob }) => ({ text, probability: Math.exp(logprob) })),
	}));
}
