/**
 * Builds each condition's sentence from its regions with syntaxgym-core's rule, and the region
 * spans and "left edges" that token→region alignment needs. Pure; knows nothing about tokens.
 */
import { isBlankPython, lstripPython } from '../../python/python-whitespace';
import type { Condition, Suite } from './types';

export interface SentenceRegion {
	readonly regionNumber: number;
	/** The region's content as it appears in the sentence (leading whitespace removed). */
	readonly content: string;
	/**
	 * UTF-16 span `[start, end)` of the region's text in the sentence. For an empty region
	 * `start === end`, at the position after the text built so far (before any joining space).
	 */
	readonly start: number;
	readonly end: number;
	/**
	 * syntaxgym-core's left edge (`iter_region_edges`): a token belongs to the last region whose
	 * edge is <= the token's start offset. For region k > 1 with content it is the joining space
	 * before the region (one less than `start`). When region 1 is empty, the reference still adds
	 * a joining space after the first non-empty region although none precedes it, so every later
	 * edge equals the region's `start` instead of its joining space: a token whose offset includes
	 * the leading space (GPT-2 style) lands one region early. Kept as the reference computes it
	 * (doc §3.3). An empty region's edge equals the next region's edge.
	 */
	readonly edge: number;
}

export interface SuiteSentence {
	readonly itemNumber: number;
	readonly conditionName: string;
	/** Non-empty regions, each with leading whitespace removed, joined by one space. */
	readonly text: string;
	/** Every region, empty ones included, in region order. */
	readonly regions: readonly SentenceRegion[];
}

/**
 * The sentence of one condition (syntaxgym-core `iter_sentences` + `iter_region_edges`): each
 * region's content with leading whitespace removed, empty (or whitespace-only) regions dropped,
 * the rest joined by a single space. Whitespace is Python's (`str.lstrip`, `str.strip`).
 */
export function buildSentence(itemNumber: number, condition: Condition): SuiteSentence {
	const parts: string[] = [];
	const regions: SentenceRegion[] = [];
	let length = 0;
	let edgeCursor = 0;
	condition.regions.forEach((region, index) => {
		const stripped = lstripPython(region.content);
		const isEmpty = isBlankPython(region.content);
		const edge = edgeCursor;
		edgeCursor += stripped.length + (!isEmpty && index !== 0 ? 1 : 0);
		if (isEmpty) {
			regions.push({
				regionNumber: region.regionNumber,
				content: '',
				start: length,
				end: length,
				edge,
			});
			return;
		}
		const start = parts.length === 0 ? length : length + 1;
		parts.push(stripped);
		length = start + stripped.length;
		regions.push({
			regionNumber: region.regionNumber,
			content: stripped,
			start,
			end: length,
			edge,
		});
	});
	return { itemNumber, conditionName: condition.conditionName, text: parts.join(' '), regions };
}

/**
 * Every sentence of a suite in scoring order: items in file order, and within an item its
 * conditions in file order (which may differ between items; look conditions up by name).
 */
export function buildSuiteSentences(suite: Suite): SuiteSentence[] {
	const sentences: SuiteSentence[] = [];
	for (const item of suite.items) {
		for (const condition of item.conditions) {
			sentences.push(buildSentence(item.itemNumber, condition));
		}
	}
	return sentences;
}
