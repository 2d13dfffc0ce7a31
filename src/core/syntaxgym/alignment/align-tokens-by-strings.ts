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

/** A left-to-right walk of the tokens against the region texts (see {@link alignTokensByStrings}). */
interface AlignmentWalk {
	readonly tokens: readonly string[];
	readonly regions: readonly AlignmentRegion[];
	readonly spec: TokenizationSpec;
	readonly context: AlignmentContext;
	readonly prefixTypes: ReadonlySet<string>;
	readonly suffixTypes: ReadonlySet<string>;
	readonly specialTypes: ReadonlySet<string>;
	readonly unkTypes: ReadonlySet<string>;
	readonly dropPattern: RegExp | undefined;
	/** Each region's content, lowercased when the spec is not cased. */
	readonly texts: readonly string[];
	readonly lastRegion: number;
	readonly regionTokens: number[][];
	readonly oovs: string[][];
	regionIndex: number;
	/** What is left of the current region's text. */
	content: string;
	/** An unk with nothing matching after it took all the remaining text. */
	textUsedUp: boolean;
	tokenIndex: number;
}

function startWalk(
	tokens: readonly string[],
	regions: readonly AlignmentRegion[],
	spec: TokenizationSpec,
	context: AlignmentContext,
): AlignmentWalk {
	const texts = regions.map(({ content }) => (spec.cased ? content : content.toLowerCase()));
	return {
		tokens,
		regions,
		spec,
		context,
		prefixTypes: new Set(spec.prefixTypes),
		suffixTypes: new Set(spec.suffixTypes),
		specialTypes: new Set(spec.specialTypes),
		unkTypes: new Set(spec.unkTypes),
		dropPattern:
			spec.dropTokenPattern === undefined ? undefined : new RegExp(spec.dropTokenPattern, 'gu'),
		texts,
		lastRegion: regions.length - 1,
		regionTokens: regions.map(() => []),
		oovs: regions.map(() => []),
		regionIndex: 0,
		content: texts[0] as string,
		textUsedUp: false,
		tokenIndex: 0,
	};
}

/** Gives the tokens `from` up to (not including) `to` to region `index`. */
function assign(walk: AlignmentWalk, index: number, from: number, to = from + 1): void {
	for (let t = from; t < to; t++) (walk.regionTokens[index] as number[]).push(t);
}

function mismatch(walk: AlignmentWalk, problem: string): Error {
	const { tokenIndex } = walk;
	return createAlignmentError(
		walk.context,
		`token ${tokenIndex + 1} ${JSON.stringify(walk.tokens[tokenIndex])} ${problem}. ` +
			'Check that the surprisal file was made for this suite, with the same sentence order, ' +
			'and that the tokenizer spec (unk/BOS/EOS types, cased, sentinels) fits the model.',
		tokenIndex,
	);
}

/**
 * An unk token at `walk.tokenIndex`: the unks up to the first later token that matches go to the
 * current region, and the walk goes on from where that token matched. Returns false when nothing
 * later matches: the unk and everything left then belong to the current region.
 */
function swallowUnk(walk: AlignmentWalk): boolean {
	const { tokens, texts, oovs } = walk;
	for (let window = 1; ; window++) {
		if (walk.tokenIndex + window >= tokens.length) {
			assign(walk, walk.regionIndex, walk.tokenIndex, tokens.length);
			oovs[walk.regionIndex]?.push(
				...splitWords([walk.content, ...texts.slice(walk.regionIndex + 1)].join(' ')),
			);
			walk.tokenIndex = tokens.length;
			walk.textUsedUp = true;
			return false;
		}
		const found = findAfterUnk(
			tokens[walk.tokenIndex + window] as string,
			walk.regionIndex,
			walk.content,
			texts,
		);
		if (found) {
			assign(walk, walk.regionIndex, walk.tokenIndex, walk.tokenIndex + window);
			oovs[walk.regionIndex]?.push(...found.skipped);
			walk.tokenIndex += window;
			const text =
				found.regionIndex === walk.regionIndex
					? walk.content
					: (texts[found.regionIndex] as string);
			walk.regionIndex = found.regionIndex;
			walk.content = text.slice(found.offset);
			return true;
		}
	}
}

/**
 * Matches a token that is none of the prefix, suffix or special types against the text.
 * Returns false when an unk took all the remaining text (the walk is over).
 */
function matchTextToken(walk: AlignmentWalk, token: string): boolean {
	walk.content = walk.content.trimStart();
	if (walk.dropPattern && walk.content !== '') {
		const [firstWord = '', ...rest] = splitWords(walk.content);
		if (firstWord.replace(walk.dropPattern, '') === '') walk.content = rest.join(' ');
	}
	if (walk.content === '') {
		if (walk.regionIndex === walk.lastRegion) {
			throw mismatch(walk, 'is left over after the sentence text');
		}
		walk.regionIndex += 1;
		walk.content = walk.texts[walk.regionIndex] as string;
		return true;
	}
	const step = matchTokenAt(token, walk.content, walk.spec);
	if (step !== undefined) {
		assign(walk, walk.regionIndex, walk.tokenIndex++);
		walk.content = walk.content.slice(step);
	} else if (walk.unkTypes.has(token)) {
		if (!swallowUnk(walk)) return false;
	} else {
		throw mismatch(
			walk,
			`does not match the text ${JSON.stringify(walk.content)} of region ${walk.regions[walk.regionIndex]?.regionNumber}`,
		);
	}
	if (walk.content.trim() === '' && walk.regionIndex < walk.lastRegion) {
		walk.regionIndex += 1;
		walk.content = walk.texts[walk.regionIndex] as string;
	}
	return true;
}

/** Walks the tokens until they run out, an EOS ends the sentence, or an unk takes the rest. */
function walkTokens(walk: AlignmentWalk): void {
	while (walk.tokenIndex < walk.tokens.length) {
		const token = walk.tokens[walk.tokenIndex] as string;
		if (walk.prefixTypes.has(token)) {
			assign(walk, walk.regionIndex, walk.tokenIndex++);
			continue;
		}
		if (walk.suffixTypes.has(token)) {
			assign(walk, walk.regionIndex, walk.tokenIndex++);
			return;
		}
		if (walk.specialTypes.has(token)) {
			walk.tokenIndex++;
			continue;
		}
		if (!matchTextToken(walk, token)) return;
	}
}

/**
 * After the walk: only special tokens may follow an EOS, and no text may be left.
 * @throws AlignmentError otherwise.
 */
function checkWalkEnd(walk: AlignmentWalk): void {
	const { tokens, dropPattern } = walk;
	if (walk.tokenIndex < tokens.length) {
		const extra = tokens.slice(walk.tokenIndex).findIndex((token) => !walk.specialTypes.has(token));
		if (extra >= 0) {
			walk.tokenIndex += extra;
			throw mismatch(walk, 'comes after the end-of-sentence token');
		}
	}
	if (!walk.textUsedUp) {
		const leftover = [walk.content, ...walk.texts.slice(walk.regionIndex + 1)]
			.flatMap(splitWords)
			.filter((word) => dropPattern === undefined || word.replace(dropPattern, '') !== '');
		if (leftover.length > 0) {
			throw createAlignmentError(
				walk.context,
				`the tokens end before the sentence text: ${JSON.stringify(leftover.join(' '))} is ` +
					'left unmatched. Check that the surprisal file was made for this suite.',
			);
		}
	}
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
	const walk = startWalk(tokens, regions, spec, context);
	walkTokens(walk);
	checkWalkEnd(walk);
	return { regionTokens: walk.regionTokens, oovs: walk.oovs };
}
