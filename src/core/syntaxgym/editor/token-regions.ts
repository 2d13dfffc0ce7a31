/**
 * The editor's tokenization preview: which region each model token of a sentence falls in, by
 * the reference rule (a token belongs to the last region whose left edge is <= its start offset).
 * Pure; tokens come from the worker's `tokenize`, sentences from buildSentence.
 */
import type { ScoredToken } from '../scoring/types';
import type { SuiteSentence } from '../suite/build-sentences';

export interface PreviewToken {
	/** The token's text in the sentence (from its offsets), or the model's token string. */
	readonly text: string;
	/** 1-based region number; null for special tokens and tokens without offsets. */
	readonly regionNumber: number | null;
	/** The token starts before its region's text does, or ends after it: a boundary splits it. */
	readonly crossesBoundary: boolean;
	readonly special: boolean;
}

/** Each token with its region (reference left-edge rule) and whether it straddles a boundary. */
export function assignTokensToRegions(
	sentence: SuiteSentence,
	tokens: readonly ScoredToken[],
): PreviewToken[] {
	const regions = sentence.regions.filter((region) => region.end > region.start);
	return tokens.map((token) => {
		const special = token.special === true;
		if (special || token.start === undefined || token.end === undefined) {
			return { text: token.token, regionNumber: null, crossesBoundary: false, special };
		}
		const { start, end } = token;
		let owner: (typeof regions)[number] | undefined;
		for (const region of regions) if (region.edge <= start) owner = region;
		const text = sentence.text.slice(start, end);
		if (owner === undefined) {
			return { text, regionNumber: null, crossesBoundary: false, special };
		}
		const textStart = start + (text.length - text.trimStart().length);
		const crossesBoundary = textStart < owner.start || end > owner.end;
		return { text, regionNumber: owner.regionNumber, crossesBoundary, special };
	});
}
