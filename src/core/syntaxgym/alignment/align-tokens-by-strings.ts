/**
 * Token strings without offsets (imported lm-zoo files) → regions, by syntaxgym-core's
 * left-to-right heuristic (`compute_mapping_heuristic`). Pure; a mismatch is an AlignmentError,
 * never a partial alignment.
 */
import { createAlignmentError, type AlignmentContext } from './alignment-context';
import type { TokenizationSpec } from './tokenization-spec';

/** One region as the alignment sees it: its content (stripped; may be empty), in region order. */
export interface AlignmentRegion {
	readonly regionNumber: number;
	readonly content: string;
}

export interface StringAlignment {
	/** For each region, in order, the indices of its tokens (ascending). */
	readonly regionTokens: readonly (readonly number[])[];
	/** For each region, the words of the text that `<unk>` tokens stood for (reference `oovs`). */
	readonly oovs: readonly (readonly string[])[];
}

const MOSES_SPLIT_TOKEN = /^@([-,.])@$/;
/** Python's `\w` for str patterns: letters, digits (all scripts) and `_`. */
const WORD_CHARACTER = /[\p{L}\p{N}_]/u;

function stripCharacters(text: string, characters: string, side: 'start' | 'end'): string {
	let start = 0;
	let end = text.length;
	if (side === 'start') while (start < end && characters.includes(text[start] as string)) start++;
	else while (end > start && characters.includes(text[end - 1] as string)) end--;
	return text.slice(start, end);
}

/** Python `str.split()` without arguments: words separated by runs of whitespace. */
function splitWords(text: string): string[] {
	return text.split(/\s+/).filter((word) => word !== '');
}

/**
 * How many characters of `text` (already left-stripped) the token consumes, or undefined if it
 * does not match there: as written; else with a subword sentinel stripped; else as a Moses split.
 */
function matchTokenAt(token: string, text: string, spec: TokenizationSpec): number | undefined {
	if (text.startsWith(token)) return token.length;
	for (const { pattern, position } of spec.sentinels) {
		const stripped = stripCharacters(token, pattern, position === 'final' ? 'end' : 'start');
		if (stripped !== token && text.startsWith(stripped)) return stripped.length;
	}
	const moses = spec.moses ? MOSES_SPLIT_TOKEN.exec(token) : null;
	if (moses && text.startsWith(moses[1] as string)) return (moses[1] as string).length;
	return undefined;
}

/**
 * Where the text that an `<unk>` stood for ends: the first place, from the current region on,
 * where `nextToken` occurs (a word-like token only at a word boundary, as the reference's
 * "remand test"). Returns the region index, the offset in that region's text and the skipped words.
 */
function findAfterUnk(
	nextToken: string,
	regionIndex: number,
	content: string,
	texts: readonly string[],
): { regionIndex: number; offset: number; skipped: string[] } | undefined {
	const nextIsPunctuation = !WORD_CHARACTER.test(nextToken[0] ?? '');
	const skipped: string[] = [];
	for (let index = regionIndex; index < texts.length; index++) {
		const text = index === regionIndex ? content : (texts[index] as string);
		for (let offset = 0; offset < text.length; offset++) {
			if (!nextIsPunctuation && offset > 0 && WORD_CHARACTER.test(text[offset - 1] as string)) {
				continue;
			}
			if (text.startsWith(nextToken, offset)) {
				skipped.push(...splitWords(text.slice(0, offset)));
				return { regionIndex: index, offset, skipped };
			}
		}
		skipped.push(...splitWords(text));
	}
	return undefined;
}

/**
 * Aligns token strings to regions by walking them left to right against the region text:
 * - a prefix type (BOS) goes to the current region; a suffix type (EOS) goes to the current
 *   region and ends the walk (prefix is checked first, so a BOS=EOS token at the end lands in
 *   the current region: the last one, even when it is empty); special types go nowhere;
 * - empty regions are passed over; a token matches if the (left-stripped, lowercased when not
 *   cased) region text starts with it, with a sentinel stripped, or with its Moses split;
 * - an unk type swallows the text up to the next token that matches, possibly across regions:
 *   the unk tokens go to the region where the skipped text starts, the skipped words become
 *   its OOVs; if nothing later matches, all remaining tokens and text go to the current region.
 *
 * Differences from the reference, all where it silently produced a wrong or partial mapping:
 * a token that matches nothing, text left over after the last token, and non-special tokens
 * after an EOS throw; a special type is skipped cleanly (the reference's sequential surprisal
 * lookup then fails); sentinel and metaspace matches check the text; the unk look-ahead
 * lowercases later regions too when not cased.
 *
 * @throws AlignmentError naming the sentence, the token (1-based index and string) and the text
 * it was expected to match.
 */
export function alignTokensByStrings(
	tokens: readonly string[],
	regions: readonly AlignmentRegion[],
	spec: TokenizationSpec,
	context: AlignmentContext = {},
): StringAlignment {
	if (regions.length === 0) throw createAlignmentError(context, 'the sentence has no regions.');
	const prefixTypes = new Set(spec.prefixTypes);
	const suffixTypes = new Set(spec.suffixTypes);
	const specialTypes = new Set(spec.specialTypes);
	const unkTypes = new Set(spec.unkTypes);
	const dropPattern =
		spec.dropTokenPattern === undefined ? undefined : new RegExp(spec.dropTokenPattern, 'gu');
	const texts = regions.map(({ content }) => (spec.cased ? content : content.toLowerCase()));
	const lastRegion = regions.length - 1;
	const regionTokens: number[][] = regions.map(() => []);
	const oovs: string[][] = regions.map(() => []);

	let regionIndex = 0;
	let content = texts[0] as string;
	let textUsedUp = false;
	let tokenIndex = 0;
	const assign = (index: number, from: number, to = from + 1): void => {
		for (let t = from; t < to; t++) (regionTokens[index] as number[]).push(t);
	};
	const mismatch = (problem: string): Error =>
		createAlignmentError(
			context,
			`token ${tokenIndex + 1} ${JSON.stringify(tokens[tokenIndex])} ${problem}. ` +
				'Check that the surprisal file was made for this suite, with the same sentence order, ' +
				'and that the tokenizer spec (unk/BOS/EOS types, cased, sentinels) fits the model.',
			tokenIndex,
		);

	walk: while (tokenIndex < tokens.length) {
		const token = tokens[tokenIndex] as string;
		if (prefixTypes.has(token)) {
			assign(regionIndex, tokenIndex++);
			continue;
		}
		if (suffixTypes.has(token)) {
			assign(regionIndex, tokenIndex++);
			break;
		}
		if (specialTypes.has(token)) {
			tokenIndex++;
			continue;
		}
		content = content.trimStart();
		if (dropPattern && content !== '') {
			const [firstWord = '', ...rest] = splitWords(content);
			if (firstWord.replace(dropPattern, '') === '') content = rest.join(' ');
		}
		if (content === '') {
			if (regionIndex === lastRegion) throw mismatch('is left over after the sentence text');
			regionIndex += 1;
			content = texts[regionIndex] as string;
			continue;
		}
		const step = matchTokenAt(token, content, spec);
		if (step !== undefined) {
			assign(regionIndex, tokenIndex++);
			content = content.slice(step);
		} else if (unkTypes.has(token)) {
			for (let window = 1; ; window++) {
				if (tokenIndex + window >= tokens.length) {
					// Nothing after the unk matches: it and everything left belong to this region.
					assign(regionIndex, tokenIndex, tokens.length);
					oovs[regionIndex]?.push(
						...splitWords([content, ...texts.slice(regionIndex + 1)].join(' ')),
					);
					tokenIndex = tokens.length;
					textUsedUp = true;
					break walk;
				}
				const found = findAfterUnk(
					tokens[tokenIndex + window] as string,
					regionIndex,
					content,
					texts,
				);
				if (found) {
					assign(regionIndex, tokenIndex, tokenIndex + window);
					oovs[regionIndex]?.push(...found.skipped);
					tokenIndex += window;
					const text =
						found.regionIndex === regionIndex ? content : (texts[found.regionIndex] as string);
					regionIndex = found.regionIndex;
					content = text.slice(found.offset);
					break;
				}
			}
		} else {
			throw mismatch(
				`does not match the text ${JSON.stringify(content)} of region ${regions[regionIndex]?.regionNumber}`,
			);
		}
		if (content.trim() === '' && regionIndex < lastRegion) {
			regionIndex += 1;
			content = texts[regionIndex] as string;
		}
	}

	if (tokenIndex < tokens.length) {
		const extra = tokens.slice(tokenIndex).findIndex((token) => !specialTypes.has(token));
		if (extra >= 0) {
			tokenIndex += extra;
			throw mismatch('comes after the end-of-sentence token');
		}
	}
	if (!textUsedUp) {
		const leftover = [content, ...texts.slice(regionIndex + 1)]
			.flatMap(splitWords)
			.filter((word) => dropPattern === undefined || word.replace(dropPattern, '') !== '');
		if (leftover.length > 0) {
			throw createAlignmentError(
				context,
				`the tokens end before the sentence text: ${JSON.stringify(leftover.join(' '))} is ` +
					'left unmatched. Check that the surprisal file was made for this suite.',
			);
		}
	}
	return { regionTokens, oovs };
}
