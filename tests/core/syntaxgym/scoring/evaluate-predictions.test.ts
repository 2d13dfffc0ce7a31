import { describe, expect, it } from 'vitest';
import { evaluateItemPredictions } from '../../../../src/core/syntaxgym/scoring/evaluate-predictions';
import { FormulaEvaluationError } from '../../../../src/core/errors';
import type { MetricName } from '../../../../src/core/syntaxgym/suite/types';
import type { MetricValue, RegionValue } from '../../../../src/core/syntaxgym/scoring/types';
import { loadMiniSuite } from './mini-suite';

// Mini suite predictions: 0 = (2;%bad%) > (2;%good%), 1 = (*;%bad%) > (*;%good%).

/** Region values of one item: per condition, one value per region (regions 1, 2, 3). */
function regionValues(
	itemNumber: number,
	byCondition: Record<string, readonly MetricValue[]>,
	metric: MetricName = 'sum',
): RegionValue[] {
	return Object.entries(byCondition).flatMap(([conditionName, values]) =>
		values.map((value, index) => ({
			itemNumber,
			conditionName,
			regionNumber: index + 1,
			content: '',
			tokens: [],
			surprisalsBits: [],
			oovs: [],
			values: { [metric]: value },
		})),
	);
}

describe('evaluateItemPredictions (single metric)', () => {
	const suite = loadMiniSuite();
	const item1 = suite.items[0] as (typeof suite.items)[0];

	it.each([
		{ good: [1, 2, 3], bad: [1, 5, 3], results: [true, true], values: [true, true] },
		{ good: [1, 5, 3], bad: [1, 2, 3], results: [false, false], values: [false, false] },
		{ good: [1, 2, 3], bad: [1, 2, 3], results: [false, false], values: [false, false] },
		{ good: [9, 2, 3], bad: [1, 5, 3], results: [true, false], values: [true, false] },
		// (*) is Python's left-to-right sum in region order: 0.1+0.2+0.3 = 0.6000000000000001,
		// 0.3+0.2+0.1 = 0.6.
		{ good: [0.3, 0.2, 0.1], bad: [0.1, 0.2, 0.3], results: [false, true], values: [false, true] },
		{
			good: [0.1, 0.2, 0.3],
			bad: [0.3, 0.2, 0.1],
			results: [false, false],
			values: [false, false],
		},
	])('good $good, bad $bad → $results', ({ good, bad, results }) => {
		const outcomes = evaluateItemPredictions(suite, item1, regionValues(1, { good, bad }));
		expect(outcomes).toEqual(
			results.map((result, predictionId) => ({
				itemNumber: 1,
				predictionId,
				metric: 'sum',
				value: result,
				result,
			})),
		);
	});

	it('ignores region values of other items', () => {
		const values = [
			...regionValues(2, { good: [0, 0, 0], bad: [0, 99, 0] }),
			...regionValues(1, { good: [1, 5, 3], bad: [1, 2, 3] }),
		];
		expect(evaluateItemPredictions(suite, item1, values).map((o) => o.result)).toEqual([
			false,
			false,
		]);
	});

	it('throws a FormulaEvaluationError naming item, prediction and metric for a missing value', () => {
		const values = regionValues(1, { good: [1, 2, 3], bad: [1, 5] });
		expect(() => evaluateItemPredictions(suite, item1, values)).toThrow(FormulaEvaluationError);
		expect(() => evaluateItemPredictions(suite, item1, values)).toThrow(
			/item 1, prediction 1 \(\(\*;%bad%\) > \(\*;%good%\)\) under metric sum: no value for all regions \(\*\) of condition 'bad'/,
		);
	});
});

describe('evaluateItemPredictions (undefined values and several metrics)', () => {
	it.each([
		// max of an empty region is undefined (null): it reads as NaN, so comparisons are False.
		{ good: [1, 2, 3], bad: [1, 5, null], results: [true, false] },
		{ good: [1, null, 3], bad: [1, 5, 3], results: [false, false] },
		{ good: [1, 2, 3], bad: [1, 5, 3], results: [true, true] },
	])('metric max, good $good, bad $bad → $results', ({ good, bad, results }) => {
		const suite = loadMiniSuite('max');
		const item2 = suite.items[1] as (typeof suite.items)[0];
		const outcomes = evaluateItemPredictions(suite, item2, regionValues(2, { good, bad }, 'max'));
		expect(outcomes.map((o) => [o.metric, o.result])).toEqual(results.map((r) => ['max', r]));
	});

	const multi = loadMiniSuite(['sum', 'max']);
	const item1 = multi.items[0] as (typeof multi.items)[0];
	const values: RegionValue[] = regionValues(1, { good: [1, 2, 3], bad: [1, 5, 3] }).map(
		(value, index) => ({
			...value,
			// max: good 1,2,3 and bad 1,1,1 (index 3..5): prediction 0 false, prediction 1 false
			values: { ...value.values, max: index < 3 ? index + 1 : 1 },
		}),
	);

	it.each([
		{
			metrics: undefined,
			expected: [
				['sum', 0, true],
				['sum', 1, true],
				['max', 0, false],
				['max', 1, false],
			],
		},
		{
			metrics: ['max'] as const,
			expected: [
				['max', 0, false],
				['max', 1, false],
			],
		},
	])('evaluates every prediction under metrics $metrics, metric by metric', (example) => {
		const outcomes = evaluateItemPredictions(multi, item1, values, example.metrics);
		expect(outcomes.map((o) => [o.metric, o.predictionId, o.result])).toEqual(example.expected);
	});
});
