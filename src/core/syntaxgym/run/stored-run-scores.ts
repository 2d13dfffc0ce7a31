/**
 * A stored run's items, scored by the core pipeline as they arrive: item results → item scores
 * (or why an item could not be scored), kept in suite order for tables and exports. Pure.
 */
import {
	assembleSuiteScore,
	scoreItem,
	type ItemScore,
	type SuiteScore,
} from '../scoring/score-suite';
import type { ScoredToken } from '../scoring/types';
import type { ItemResult } from './suite-run';
import { METRIC_NAMES, type MetricName, type Suite } from '../suite/types';

/** Immutable: every update returns a new value. */
export interface StoredRunScores {
	/** Stored items by item number. */
	readonly items: ReadonlyMap<number, ItemResult>;
	/** Scores of the items that could be scored, by item number. */
	readonly scores: ReadonlyMap<number, ItemScore>;
	/** Why an item could not be scored (alignment, formula, unknown item), by item number. */
	readonly problems: ReadonlyMap<number, string>;
}

export const EMPTY_RUN_SCORES: StoredRunScores = {
	items: new Map(),
	scores: new Map(),
	problems: new Map(),
};

function describe(error: unknown): string {
	return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * Adds (or replaces) `items` and scores them: region values under `regionMetrics` (default all
 * six, so charts and tables can show any) plus the suite's own, outcomes under the suite's
 * metrics. An item that fails is kept with its problem and without a score.
 */
export function addScoredItems(
	suite: Suite,
	previous: StoredRunScores,
	items: readonly ItemResult[],
	regionMetrics: readonly MetricName[] = METRIC_NAMES,
): StoredRunScores {
	if (items.length === 0) return previous;
	const stored = new Map(previous.items);
	const scores = new Map(previous.scores);
	const problems = new Map(previous.problems);
	for (const result of items) {
		stored.set(result.itemNumber, result);
		const item = suite.items.find((candidate) => candidate.itemNumber === result.itemNumber);
		if (!item) {
			scores.delete(result.itemNumber);
			problems.set(result.itemNumber, `item ${result.itemNumber} is not in the suite.`);
			continue;
		}
		const tokensByCondition = new Map<string, readonly ScoredToken[]>(
			result.sentences.map((sentence) => [sentence.conditionName, sentence.tokens]),
		);
		try {
			scores.set(item.itemNumber, scoreItem(suite, item, tokensByCondition, { regionMetrics }));
			problems.delete(item.itemNumber);
		} catch (error) {
			scores.delete(item.itemNumber);
			problems.set(item.itemNumber, describe(error));
		}
	}
	return { items: stored, scores, problems };
}

/** The scored items in suite order (the CLI's order), assembled with their summary. */
export function assembleStoredRunScore(suite: Suite, stored: StoredRunScores): SuiteScore {
	const ordered = suite.items
		.map((item) => stored.scores.get(item.itemNumber))
		.filter((score): score is ItemScore => score !== undefined);
	return assembleSuiteScore(suite, ordered);
}

/** The stored items in suite order (items not stored are skipped). */
export function orderStoredItems(suite: Suite, stored: StoredRunScores): ItemResult[] {
	return suite.items
		.map((item) => stored.items.get(item.itemNumber))
		.filter((item): item is ItemResult => item !== undefined);
}

/**
 * The stored sentences in lm-zoo order (items in suite order, each item's conditions in file
 * order), special tokens (BOS/EOS) included as lm-zoo's own files do (its alignment treats them
 * as prefix/suffix types, as the offset rule does): what an lm-zoo surprisal file holds. A
 * condition with no stored sentence gives an empty token list, so positions still match.
 */
export function collectLmZooSentences(
	suite: Suite,
	stored: StoredRunScores,
): {
	readonly tokens: readonly ScoredToken[];
	readonly itemNumber: number;
	readonly conditionName: string;
}[] {
	const sentences: { tokens: readonly ScoredToken[]; itemNumber: number; conditionName: string }[] =
		[];
	for (const item of suite.items) {
		const result = stored.items.get(item.itemNumber);
		if (!result) continue;
		for (const condition of item.conditions) {
			const sentence = result.sentences.find((s) => s.conditionName === condition.conditionName);
			sentences.push({
				tokens: sentence ? sentence.tokens : [],
				itemNumber: item.itemNumber,
				conditionName: condition.conditionName,
			});
		}
	}
	return sentences;
}
