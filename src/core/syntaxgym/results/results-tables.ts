/**
 * What the results views show, computed from the core's scores: the item × prediction grid with
 * each condition's sentence, and one sentence's tokens grouped by region for the drill-down.
 * Pure; scoring and alignment are the core's, this only arranges their output.
 */
import { alignTokensByOffsets } from '../alignment/align-tokens-by-offsets';
import { computeRegionValues } from '../scoring/compute-region-values';
import type { ItemScore } from '../scoring/score-suite';
import type { PredictionOutcome, ScoredToken } from '../scoring/types';
import { buildSentence, type SuiteSentence } from '../suite/build-sentences';
import type { MetricName, Suite } from '../suite/types';

export interface ItemGridRow {
	readonly itemNumber: number;
	/** Per prediction (by predictionId): true/false, or null when not evaluated (yet). */
	readonly results: readonly (boolean | null)[];
	/** Every prediction holds; null until the item is scored. */
	readonly allHold: boolean | null;
	/** Each condition's sentence, in the item's condition order. */
	readonly sentences: readonly { readonly conditionName: string; readonly text: string }[];
	/** Why the item could not be scored (alignment or formula problem), if it could not. */
	readonly problem?: string;
}

/**
 * One row per suite item (suite order) with its outcomes under `metric`. Items without a score
 * have null results; `problems` maps item numbers to why scoring them failed.
 */
export function buildItemGrid(
	suite: Suite,
	scores: ReadonlyMap<number, ItemScore>,
	metric: MetricName,
	problems: ReadonlyMap<number, string> = new Map(),
): ItemGridRow[] {
	return suite.items.map((item) => {
		const outcomes = scores.get(item.itemNumber)?.outcomes.filter((o) => o.metric === metric);
		const results = suite.predictions.map((prediction) => {
			const outcome: PredictionOutcome | undefined = outcomes?.find(
				(o) => o.predictionId === prediction.predictionId,
			);
			return outcome ? outcome.result : null;
		});
		const problem = problems.get(item.itemNumber);
		return {
			itemNumber: item.itemNumber,
			results,
			allHold: outcomes && outcomes.length > 0 ? results.every((r) => r === true) : null,
			sentences: item.conditions.map((condition) => ({
				conditionName: condition.conditionName,
				text: buildSentence(item.itemNumber, condition).text,
			})),
			...(problem === undefined ? {} : { problem }),
		};
	});
}

export interface DisplayToken {
	/** The token's text in the sentence (its character span), or the token itself if special
	 * or without offsets. May start with the joining space. */
	readonly text: string;
	/** The model's token string (`Ġdog`). */
	readonly token: string;
	readonly surprisalBits: number;
	readonly special: boolean;
}

export interface RegionTokens {
	readonly regionNumber: number;
	/** From the suite's `region_meta`. */
	readonly regionName: string;
	readonly content: string;
	readonly tokens: readonly DisplayToken[];
	/** Sum of the region's token surprisals (bits); 0 for an empty region. */
	readonly sumBits: number;
}

/** A token as shown: its span of `text` (a special token, or one without offsets, by its name). */
export function displayToken(token: ScoredToken, text: string): DisplayToken {
	const span =
		token.start !== undefined && token.end !== undefined && token.end > token.start
			? text.slice(token.start, token.end)
			: '';
	return {
		text: token.special || span === '' ? token.token : span,
		token: token.token,
		surprisalBits: token.surprisalBits,
		special: token.special === true,
	};
}

/**
 * One sentence's tokens grouped by region for the drill-down. Tokens with offsets are placed by
 * the reference's offset rule and shown as their span of the sentence; tokens without offsets
 * (imported files) by the string heuristic. Tokens the alignment gives no region are left out.
 * @throws AlignmentError when the tokens do not fit the sentence.
 */
export function groupTokensByRegion(
	sentence: SuiteSentence,
	tokens: readonly ScoredToken[],
	regionNames: readonly string[],
): RegionTokens[] {
	const name = (regionNumber: number) => regionNames[regionNumber - 1] ?? `region ${regionNumber}`;
	const sum = (list: readonly DisplayToken[]) =>
		list.reduce((total, token) => total + token.surprisalBits, 0);
	if (tokens.length > 0 && tokens.every((token) => token.start !== undefined)) {
		const regionTokens = alignTokensByOffsets(
			tokens,
			sentence.regions.map((region) => region.edge),
			{ itemNumber: sentence.itemNumber, conditionName: sentence.conditionName },
		);
		return sentence.regions.map((region, index) => {
			const list = (regionTokens[index] ?? []).map((tokenIndex) =>
				displayToken(tokens[tokenIndex] as ScoredToken, sentence.text),
			);
			return {
				regionNumber: region.regionNumber,
				regionName: name(region.regionNumber),
				content: region.content,
				tokens: list,
				sumBits: sum(list),
			};
		});
	}
	const values = computeRegionValues(sentence, tokens, ['sum']);
	return values.map((value) => {
		const list = value.tokens.map((token, index): DisplayToken => ({
			text: token,
			token,
			surprisalBits: value.surprisalsBits[index] ?? Number.NaN,
			special: false,
		}));
		return {
			regionNumber: value.regionNumber,
			regionName: name(value.regionNumber),
			content: value.content,
			tokens: list,
			sumBits: sum(list),
		};
	});
}
