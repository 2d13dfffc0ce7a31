/**
 * One sentence's scored tokens → its region values (tokens, surprisals, OOVs, metric values):
 * alignment by offsets or by token strings, then the reference metrics. Pure.
 */
import { alignTokensByOffsets } from '../alignment/align-tokens-by-offsets';
import { alignTokensByStrings } from '../alignment/align-tokens-by-strings';
import type { AlignmentContext } from '../alignment/alignment-context';
import { DEFAULT_TOKENIZATION_SPEC, type TokenizationSpec } from '../alignment/tokenization-spec';
import { computeRegionMetric } from '../aggregation/region-metrics';
import type { SuiteSentence } from '../suite/build-sentences';
import type { MetricName } from '../suite/types';
import type { MetricValue, RegionValue, ScoredToken } from './types';

/**
 * `offsets`: by character offsets (syntaxgym-core's HF path; engine tokens). `strings`: by the
 * token strings (the lm-zoo heuristic; imported files). `auto` (default): offsets when every
 * token has a start offset, else strings.
 */
export type AlignmentMethod = 'auto' | 'offsets' | 'strings';

export interface AlignmentOptions {
	readonly alignment?: AlignmentMethod;
	/** For the strings path; default DEFAULT_TOKENIZATION_SPEC. */
	readonly tokenizationSpec?: TokenizationSpec;
}

/**
 * Region values of one sentence for `metrics`, one per region in region order (empty regions
 * included). Each token's surprisal counts in exactly the region it is aligned to; tokens the
 * strings path assigns to no region (special types) count nowhere.
 * @throws AlignmentError (naming item, condition and token) when the tokens do not fit the text.
 */
export function computeRegionValues(
	sentence: SuiteSentence,
	tokens: readonly ScoredToken[],
	metrics: readonly MetricName[],
	options: AlignmentOptions = {},
	sentenceIndex?: number,
): RegionValue[] {
	const context: AlignmentContext = {
		itemNumber: sentence.itemNumber,
		conditionName: sentence.conditionName,
		...(sentenceIndex === undefined ? {} : { sentenceIndex }),
	};
	const method =
		options.alignment === undefined || options.alignment === 'auto'
			? tokens.every((token) => token.start !== undefined)
				? 'offsets'
				: 'strings'
			: options.alignment;
	let regionTokens: readonly (readonly number[])[];
	let oovs: readonly (readonly string[])[];
	if (method === 'offsets') {
		regionTokens = alignTokensByOffsets(
			tokens,
			sentence.regions.map((region) => region.edge),
			context,
		);
		oovs = sentence.regions.map(() => []);
	} else {
		({ regionTokens, oovs } = alignTokensByStrings(
			tokens.map((token) => token.token),
			sentence.regions,
			options.tokenizationSpec ?? DEFAULT_TOKENIZATION_SPEC,
			context,
		));
	}
	return sentence.regions.map((region, index) => {
		const assigned = (regionTokens[index] ?? []).map((t) => tokens[t] as ScoredToken);
		const surprisalsBits = assigned.map((token) => token.surprisalBits);
		const values: Partial<Record<MetricName, MetricValue>> = {};
		for (const metric of metrics) values[metric] = computeRegionMetric(metric, surprisalsBits);
		return {
			itemNumber: sentence.itemNumber,
			conditionName: sentence.conditionName,
			regionNumber: region.regionNumber,
			content: region.content,
			tokens: assigned.map((token) => token.token),
			surprisalsBits,
			oovs: [...(oovs[index] ?? [])],
			values,
		};
	});
}
