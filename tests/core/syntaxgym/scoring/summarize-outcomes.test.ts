import { describe, expect, it } from 'vitest';
import {
	ITEM_RULES,
	summarizeOutcomes,
} from '../../../../src/core/syntaxgym/scoring/summarize-outcomes';
import type { MetricName } from '../../../../src/core/syntaxgym/suite/types';
import type { PredictionOutcome } from '../../../../src/core/syntaxgym/scoring/types';
import { loadMiniSuite } from './mini-suite';

/** `[itemNumber, predictionId, result]` (metric `sum` unless given) → outcomes. */
function outcomesOf(
	rows: readonly (readonly [number, number, boolean, MetricName?])[],
): PredictionOutcome[] {
	return rows.map(([itemNumber, predictionId, result, metric = 'sum']) => ({
		itemNumber,
		predictionId,
		metric,
		value: result,
		result,
	}));
}

describe('summarizeOutcomes', () => {
	const suite = loadMiniSuite(); // two predictions, metric sum

	it.each([
		{
			name: 'both items, mixed',
			rows: [
				[1, 0, true],
				[1, 1, false],
				[2, 0, true],
				[2, 1, true],
			] as const,
			predictions: [
				[0, 2, 2],
				[1, 1, 2],
			],
			all: [1, 2],
			first: [2, 2],
			itemNumbers: [1, 2],
		},
		{
			name: 'prediction 0 holds where prediction 1 fails (first-only counts more)',
			rows: [
				[2, 0, true],
				[2, 1, false],
				[1, 0, true],
				[1, 1, false],
			] as const,
			predictions: [
				[0, 2, 2],
				[1, 0, 2],
			],
			all: [0, 2],
			first: [2, 2],
			itemNumbers: [2, 1],
		},
		{
			name: 'a partial run: one item finished',
			rows: [
				[1, 0, false],
				[1, 1, true],
			] as const,
			predictions: [
				[0, 0, 1],
				[1, 1, 1],
			],
			all: [0, 1],
			first: [0, 1],
			itemNumbers: [1],
		},
		{
			name: 'an item without a prediction-0 outcome is not counted by the first-prediction rule',
			rows: [
				[1, 1, true],
				[2, 0, true],
				[2, 1, true],
			] as const,
			predictions: [
				[0, 1, 1],
				[1, 2, 2],
			],
			all: [2, 2],
			first: [1, 1],
			itemNumbers: [1, 2],
		},
	])('$name', ({ rows, predictions, all, first, itemNumbers }) => {
		const summary = summarizeOutcomes(suite, outcomesOf(rows));
		expect(summary.metrics).toEqual(['sum']);
		expect(summary.itemNumbers).toEqual(itemNumbers);
		expect(summary.predictions).toEqual(
			predictions.map(([predictionId, correct, total]) => ({
				predictionId,
				metric: 'sum',
				correct,
				total,
				accuracy: (correct as number) / (total as number),
			})),
		);
		expect(summary.items).toEqual([
			{
				rule: 'all-predictions',
				metric: 'sum',
				correct: all[0],
				total: all[1],
				accuracy: (all[0] as number) / (all[1] as number),
			},
			{
				rule: 'first-prediction',
				metric: 'sum',
				correct: first[0],
				total: first[1],
				accuracy: (first[0] as number) / (first[1] as number),
			},
		]);
	});

	it('has no metrics, items or accuracies for no outcomes', () => {
		expect(summarizeOutcomes(suite, [])).toEqual({
			metrics: [],
			itemNumbers: [],
			predictions: [],
			items: [],
		});
	});

	it('summarises each metric of a multi-metric suite on its own, in suite order', () => {
		const multi = loadMiniSuite(['max', 'sum']);
		const summary = summarizeOutcomes(
			multi,
			outcomesOf([
				[1, 0, true, 'sum'],
				[1, 1, true, 'sum'],
				[1, 0, true, 'max'],
				[1, 1, false, 'max'],
			]),
		);
		expect(summary.metrics).toEqual(['max', 'sum']);
		expect(summary.predictions.map((p) => [p.metric, p.predictionId, p.correct, p.total])).toEqual([
			['max', 0, 1, 1],
			['max', 1, 0, 1],
			['sum', 0, 1, 1],
			['sum', 1, 1, 1],
		]);
		expect(summary.items.map((i) => [i.metric, i.rule, i.correct, i.total])).toEqual([
			['max', 'all-predictions', 0, 1],
			['max', 'first-prediction', 1, 1],
			['sum', 'all-predictions', 1, 1],
			['sum', 'first-prediction', 1, 1],
		]);
	});

	it('gives NaN accuracy for a prediction without outcomes', () => {
		const summary = summarizeOutcomes(suite, outcomesOf([[1, 0, true]]));
		expect(summary.predictions[1]).toEqual({
			predictionId: 1,
			metric: 'sum',
			correct: 0,
			total: 0,
			accuracy: Number.NaN,
		});
	});

	it('names both item rules', () => {
		expect(ITEM_RULES.map(({ rule, label }) => [rule, label])).toEqual([
			['all-predictions', 'all predictions hold'],
			['first-prediction', 'first prediction only'],
		]);
	});
});
