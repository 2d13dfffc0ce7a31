/**
 * Tokens with character offsets → regions, by syntaxgym-core's HF rule (`compute_mapping_huggingface`).
 * Pure; knows nothing of tokenizers. Use align-tokens-by-strings.ts for tokens without offsets.
 */
import { createAlignmentError, type AlignmentContext } from './alignment-context';

/**
 * Assigns each token to the region whose [edge, next edge) holds the token's `start` offset.
 * `edges[k]` is region k+1's reference left edge (UTF-16 offset into the sentence; the edge of
 * a region after the first falls on the joining space before it). The region cursor only
 * moves forward and the last region is open-ended, so special tokens at (0, 0) stay in the
 * current region: a leading BOS in region 1, a trailing EOS in the last region. Empty regions
 * get no tokens.
 *
 * @returns for each region, in order, the indices of its tokens (ascending).
 * @throws AlignmentError when a token has no start offset or there are no regions.
 */
export function alignTokensByOffsets(
	tokens: readonly { readonly token: string; readonly start?: number }[],
	edges: readonly number[],
	context: AlignmentContext = {},
): number[][] {
	if (edges.length === 0) {
		throw createAlignmentError(context, 'the sentence has no regions.');
	}
	const regionTokens: number[][] = edges.map(() => []);
	let cursor = 0;
	tokens.forEach(({ token, start }, tokenIndex) => {
		if (start === undefined || !Number.isFinite(start)) {
			throw createAlignmentError(
				context,
				`token ${tokenIndex + 1} ${JSON.stringify(token)} has no character offset; ` +
					'align tokens without offsets by their strings instead.',
				tokenIndex,
			);
		}
		while (cursor + 1 < edges.length && start >= (edges[cursor + 1] as number)) cursor += 1;
		(regionTokens[cursor] as number[]).push(tokenIndex);
	});
	return regionTokens;
}
