/**
 * Word-level surprisal: a sentence's subword-token surprisals summed over its words, with the
 * optional beginning-of-word (leading-space) correction. Pure; the engine's tokens come in as
 * data. Words are maximal runs of non-whitespace characters of the text.
 *
 * The rule, exactly:
 * - A word is a maximal run of non-whitespace characters (`"dog."` is one word, as in
 *   `text.split(/\s+/)`). Each token that is not special (BOS/EOS) belongs to the word holding
 *   its first non-whitespace character; a whitespace-only token (`Ġ`, `Ċ`) belongs to the next
 *   word, or, at the end of the text, to the last word. Special tokens belong to no word.
 *   Tokens without offsets (lm-zoo files) start a new word when their text starts with a
 *   word-boundary marker (`Ġ`, `▁`, a space) and are glued to the previous word otherwise.
 * - Plain (the `surprisal` package's span sum, minicons `word_score_tokenized` without
 *   correction): surprisal(w) = Σ surprisal(t) over the tokens t of w.
 * - With the beginning-of-word correction (Oh & Schuler 2024; minicons `bow_correction=True`;
 *   Pimentel & Meister 2024): for tokenizers that mark a word's start on its first token (GPT-2's
 *   leading space), P(w | context) = P(t₁…tₖ | context) · P(B | context, w) / P(B | context),
 *   where P(B | ·) is the probability that the next token starts a word (the summed probability
 *   of every vocabulary token that starts with the marker). In bits:
 *     surprisal(w) = Σ surprisal(t) + boundary(after w) − boundary(before w),
 *   boundary(·) = −log₂ P(B | ·). As in minicons, the first word gets no `− boundary(before w)`
 *   term (its first token usually carries no marker) and the last word gets its `+ boundary(after
 *   w)` term too (the end of the text is the end of a word). `boundarySurprisalBits[i]` is
 *   boundary after token i: the engine computes it from the distribution after token i.
 */

/** A token as the engines and lm-zoo files give it (see `ScoredToken`). */
export interface WordSurprisalToken {
	readonly token: string;
	readonly surprisalBits: number;
	/** UTF-16 [start, end) in the text; absent for tokens read from lm-zoo files. */
	readonly start?: number;
	readonly end?: number;
	readonly special?: boolean;
}

/** One word of a sentence with its summed surprisal. */
export interface WordSurprisal {
	/** The word's characters in the text (for tokens without offsets: the joined tokens). */
	readonly word: string;
	/** UTF-16 [start, end) of the word in the text; absent when the tokens had no offsets. */
	readonly start?: number;
	readonly end?: number;
	/** Surprisal of the word in bits (see the module header for the rule). */
	readonly surprisalBits: number;
	/** Indices (into the token list) of the word's tokens, in order. */
	readonly tokenIndices: readonly number[];
}

export interface WordSurprisalOptions {
	/**
	 * The beginning-of-word correction: `boundarySurprisalBits[i]` = −log₂ P(the token after
	 * token i starts a word | text through token i), one per token. Absent: plain sums.
	 */
	readonly boundarySurprisalBits?: readonly number[];
}

/** Byte-level BPE's space, newline, tab and carriage return, SentencePiece's `▁`, whitespace. */
const WORD_MARKER = /^[\sĠĊĉč▁]/u;
const BLANK_TOKEN = /^[\sĠĊĉč▁]*$/u;

/** Word spans of a text: maximal runs of non-whitespace, UTF-16 [start, end). */
export function findWordSpans(text: string): { start: number; end: number }[] {
	return [...text.matchAll(/\S+/gu)].map((match) => ({
		start: match.index,
		end: match.index + match[0].length,
	}));
}

function hasOffsets(token: WordSurprisalToken): token is WordSurprisalToken & {
	start: number;
	end: number;
} {
	return token.start !== undefined && token.end !== undefined;
}

/** Token indices of each word, from character offsets. */
function groupByOffsets(
	text: string,
	tokens: readonly WordSurprisalToken[],
): { start: number; end: number; tokenIndices: number[] }[] {
	const words = findWordSpans(text).map((span) => ({ ...span, tokenIndices: [] as number[] }));
	if (words.length === 0) return [];
	let wordIndex = 0;
	tokens.forEach((token, index) => {
		if (token.special || !hasOffsets(token)) return;
		// The token's first non-whitespace character; none: it belongs to the next word.
		let at = token.start;
		while (at < token.end && /\s/u.test(text[at] ?? '')) at += 1;
		while (wordIndex < words.length - 1 && (words[wordIndex]?.end ?? 0) <= at) wordIndex += 1;
		words[wordIndex]?.tokenIndices.push(index);
	});
	return words;
}

/** Token indices of each word, from the tokens' word-boundary markers. */
function groupByMarkers(tokens: readonly WordSurprisalToken[]): number[][] {
	const words: number[][] = [];
	let pendingBlank: number[] = [];
	tokens.forEach((token, index) => {
		if (token.special) return;
		if (BLANK_TOKEN.test(token.token)) {
			pendingBlank.push(index);
			return;
		}
		const current = words.at(-1);
		if (current === undefined || pendingBlank.length > 0 || WORD_MARKER.test(token.token)) {
			words.push([...pendingBlank, index]);
		} else {
			current.push(index);
		}
		pendingBlank = [];
	});
	if (pendingBlank.length > 0) {
		const last = words.at(-1);
		if (last) last.push(...pendingBlank);
		else words.push(pendingBlank);
	}
	return words;
}

/** The word's text when tokens have no offsets: its tokens without their boundary markers. */
function wordFromTokens(tokens: readonly WordSurprisalToken[], indices: readonly number[]): string {
	return indices
		.map((index) => tokens[index]?.token ?? '')
		.join('')
		.replace(/[Ġ▁]/gu, ' ')
		.trim();
}

/**
 * The words of `text` with their surprisals, in order (see the module header for the rule).
 * Offsets are used when every non-special token has them, markers otherwise.
 * @throws RangeError when `boundarySurprisalBits` does not have one value per token.
 */
export function sumSurprisalsToWords(
	text: string,
	tokens: readonly WordSurprisalToken[],
	options: WordSurprisalOptions = {},
): WordSurprisal[] {
	const boundary = options.boundarySurprisalBits;
	if (boundary !== undefined && boundary.length !== tokens.length) {
		throw new RangeError(
			`boundarySurprisalBits has ${boundary.length} values for ${tokens.length} tokens; give one per token.`,
		);
	}
	const scored = tokens.filter((token) => !token.special);
	const byOffsets = scored.length > 0 && scored.every(hasOffsets);
	const groups: { start?: number; end?: number; tokenIndices: number[] }[] = byOffsets
		? groupByOffsets(text, tokens)
		: groupByMarkers(tokens).map((tokenIndices) => ({ tokenIndices }));

	return groups.map((group, wordIndex) => {
		let surprisalBits = 0;
		for (const index of group.tokenIndices) surprisalBits += tokens[index]?.surprisalBits ?? 0;
		const first = group.tokenIndices[0];
		const last = group.tokenIndices.at(-1);
		if (boundary !== undefined && first !== undefined && last !== undefined) {
			surprisalBits += boundary[last] ?? 0;
			if (wordIndex > 0 && first > 0) surprisalBits -= boundary[first - 1] ?? 0;
		}
		const word =
			group.start !== undefined && group.end !== undefined
				? text.slice(group.start, group.end)
				: wordFromTokens(tokens, group.tokenIndices);
		return {
			word,
			...(group.start !== undefined && group.end !== undefined
				? { start: group.start, end: group.end }
				: {}),
			surprisalBits,
			tokenIndices: group.tokenIndices,
		};
	});
}

/** A token as the drill-down shows it (see `DisplayToken` in core/results/results-tables). */
export interface DisplayedToken {
	/** Its span of the sentence, with the joining space if any. */
	readonly text: string;
	readonly token: string;
	readonly surprisalBits: number;
	readonly special: boolean;
}

/**
 * The drill-down's regions with their tokens merged into words, by the same rule as
 * {@link sumSurprisalsToWords} applied within each region: a token whose text starts with
 * whitespace (or follows a special token, or starts the region) starts a word, any other token
 * joins the word before it; a word's surprisal is the sum of its tokens', its `token` their
 * concatenation. Special tokens stay as they are. Region sums do not change.
 */
export function mergeRegionTokensIntoWords<
	R extends { readonly tokens: readonly DisplayedToken[] },
>(regions: readonly R[]): R[] {
	return regions.map((region) => {
		const words: DisplayedToken[] = [];
		let open = false;
		for (const token of region.tokens) {
			const previous = words.at(-1);
			if (token.special || previous === undefined || !open || /^\s/u.test(token.text)) {
				words.push({ ...token });
				open = !token.special;
				continue;
			}
			words[words.length - 1] = {
				text: previous.text + token.text,
				token: previous.token + token.token,
				surprisalBits: previous.surprisalBits + token.surprisalBits,
				special: false,
			};
		}
		return { ...region, tokens: words };
	});
}
