/**
 * The scoring pipeline shared by the CLI and the app: token surprisals (or ready region values)
 * → region values → prediction outcomes → accuracies. Item by item, so results can appear as
 * items finish. Pure.
 */
import { AlignmentError } from '../../errors';
import { buildSentence } from '../suite/build-sentences';
import type { Item, MetricName, Suite } from '../suite/types';
import { computeRegionValues, type AlignmentOptions } from './compute-region-values';
import { evaluateItemPredictions } from './evaluate-predictions';
import { summarizeOutcomes, type OutcomeSummary } from './summarize-outcomes';
import type { PredictionOutcome, RegionValue, ScoredToken } from './types';

export interface ScoreOptions extends AlignmentOptions {
	/**
	 * Metrics to compute region values for (default: the suite's). The suite's own metrics are
	 * always added, since predictions are evaluated under them.
	 */
	readonly regionMetrics?: readonly MetricName[];
}

export interface ItemScore {
	readonly itemNumber: number;
	/** Conditions in the item's file order, regions in order. */
	readonly regionValues: readonly RegionValue[];
	/** Metric by metric (suite order), predictions in order. */
	readonly outcomes: readonly PredictionOutcome[];
}

export interface SuiteScore {
	readonly items: readonly ItemScore[];
	/** Every item's region values, items in suite order. */
	readonly regionValues: readonly RegionValue[];
	/** Every item's outcomes, items in suite order. */
	readonly outcomes: readonly PredictionOutcome[];
	readonly summary: OutcomeSummary;
}

function metricsToCompute(suite: Suite, options: ScoreOptions): MetricName[] {
	return [...new Set([...(options.regionMetrics ?? []), ...suite.meta.metrics])];
}

/**
 * Scores one item: aligns each condition's tokens to its regions, computes region values and
 * evaluates every prediction under every suite metric. `tokensByCondition` maps each condition
 * name of the item to its sentence's scored tokens. `firstSentenceIndex` (the suite position of
 * the item's first sentence) only serves error messages.
 * @throws AlignmentError when a condition has no tokens or its tokens do not fit its text;
 * FormulaEvaluationError when a prediction cannot be evaluated.
 */
export function scoreItem(
	suite: Suite,
	item: Item,
	tokensByCondition: ReadonlyMap<string, readonly ScoredToken[]>,
	options: ScoreOptions = {},
	firstSentenceIndex?: number,
): ItemScore {
	const metrics = metricsToCompute(suite, options);
	const regionValues = item.conditions.flatMap((condition, index) => {
		const sentenceIndex = firstSentenceIndex === undefined ? undefined : firstSentenceIndex + index;
		const tokens = tokensByCondition.get(condition.conditionName);
		if (tokens === undefined) {
			throw new AlignmentError(
				`item ${item.itemNumber}, condition ${JSON.stringify(condition.conditionName)}: no tokens were given for this sentence.`,
				sentenceIndex === undefined ? {} : { sentenceIndex },
			);
		}
		return computeRegionValues(
			buildSentence(item.itemNumber, condition),
			tokens,
			metrics,
			options,
			sentenceIndex,
		);
	});
	return {
		itemNumber: item.itemNumber,
		regionValues,
		outcomes: evaluateItemPredictions(suite, item, regionValues),
	};
}

/**
 * Scores a whole suite. `tokensBySentence` holds one token list per sentence in suite order
 * (items in file order, each item's conditions in file order: the order of
 * `buildSuiteSentences` and of lm-zoo files).
 * @throws AlignmentError when the sentence count differs or a sentence does not align.
 */
export function scoreSuite(
	suite: Suite,
	tokensBySentence: readonly (readonly ScoredToken[])[],
	options: ScoreOptions = {},
): SuiteScore {
	const expected = sentenceCount(suite);
	if (tokensBySentence.length !== expected) {
		throw new AlignmentError(
			`${tokensBySentence.length} sentences of tokens were given but the suite has ${expected} ` +
				'(one per item and condition).',
			{},
		);
	}
	let sentenceIndex = 0;
	const items = suite.items.map((item) => {
		const tokensByCondition = new Map<string, readonly ScoredToken[]>();
		const first = sentenceIndex;
		for (const condition of item.conditions) {
			tokensByCondition.set(condition.conditionName, tokensBySentence[sentenceIndex] ?? []);
			sentenceIndex += 1;
		}
		return scoreItem(suite, item, tokensByCondition, options, first);
	});
	return assembleSuiteScore(suite, items);
}

/**
 * Scores several suites from one list of sentences' tokens: each suite's sentences in suite order,
 * suites one after another (how `run a.json b.json ...` sends them in one scoring request).
 * Returns each suite with its score, in the given order.
 * @throws AlignmentError when the sentence count differs or a sentence does not align.
 */
export function scoreSuites(
	suites: readonly Suite[],
	tokensBySentence: readonly (readonly ScoredToken[])[],
	options: ScoreOptions = {},
): { readonly suite: Suite; readonly score: SuiteScore }[] {
	const expected = suites.reduce((count, suite) => count + sentenceCount(suite), 0);
	if (tokensBySentence.length !== expected) {
		throw new AlignmentError(
			`${tokensBySentence.length} sentences of tokens were given but the suites have ` +
				`${expected} (one per item and condition).`,
			{},
		);
	}
	let offset = 0;
	return suites.map((suite) => {
		const count = sentenceCount(suite);
		offset += count;
		return {
			suite,
			score: scoreSuite(suite, tokensBySentence.slice(offset - count, offset), options),
		};
	});
}

function sentenceCount(suite: Suite): number {
	return suite.items.reduce((count, item) => count + item.conditions.length, 0);
}

/** Puts item scores (all of a suite's items, or those finished so far) together with a summary. */
export function assembleSuiteScore(suite: Suite, items: readonly ItemScore[]): SuiteScore {
	const outcomes = items.flatMap((item) => item.outcomes);
	return {
		items,
		regionValues: items.flatMap((item) => item.regionValues),
		outcomes,
		summary: summarizeOutcomes(suite, outcomes),
	};
}
