import { describe, expect, it } from 'vitest';
import type { ConditionRegionMean } from '../../../../src/core/syntaxgym/aggregation/condition-means';
import {
	buildAccuracyChartSpec,
	buildRegionChartSpec,
} from '../../../../src/core/syntaxgym/charts/chart-spec';

function mean(
	conditionName: string,
	regionNumber: number,
	value: number,
	ci: [number, number] | null,
): ConditionRegionMean {
	return {
		conditionName,
		regionNumber,
		metric: 'sum',
		itemCount: 2,
		mean: value,
		standardDeviation: 1,
		ciLow: ci ? ci[0] : null,
		ciHigh: ci ? ci[1] : null,
	};
}

describe('buildRegionChartSpec', () => {
	it('puts regions on x and one series per condition, in the given order, with gaps', () => {
		const spec = buildRegionChartSpec(
			[
				mean('good', 1, 3, [2, 4]),
				mean('good', 2, 5, null),
				mean('bad', 2, 9, [8, 10]),
				mean('bad', 1, Number.NaN, null),
			],
			['subject', 'verb'],
			['bad', 'good'],
			'sum',
		);
		expect(spec.labels).toEqual(['1: subject', '2: verb']);
		expect(spec.series).toEqual([
			{ label: 'bad', values: [null, 9], low: [null, 8], high: [null, 10] },
			{ label: 'good', values: [3, 5], low: [2, null], high: [4, null] },
		]);
		expect(spec.yLabel).toBe('Surprisal, sum (bits)');
	});

	it('asks the value axis to reach the whiskers, not only the bars (no interval cut at the top)', () => {
		const spec = buildRegionChartSpec(
			[mean('good', 1, 3, [-0.5, 4]), mean('bad', 1, 9, [7, 12.5])],
			['verb'],
			['bad', 'good'],
			'sum',
		);
		expect([spec.ySuggestedMin, spec.ySuggestedMax]).toEqual([-0.5, 12.5]);
		const noValues = buildRegionChartSpec([], ['verb'], ['good'], 'sum');
		expect([noValues.ySuggestedMin, noValues.ySuggestedMax]).toEqual([undefined, undefined]);
	});
});

describe('buildAccuracyChartSpec', () => {
	it('keeps accuracies per prediction and fixes the axis to [0, 1]', () => {
		const spec = buildAccuracyChartSpec(
			['#0', '#1'],
			[
				{ label: 'gpt2-en-small', accuracies: [0.75, null] },
				{ label: 'gpt2-random-tiny', accuracies: [0.5, Number.NaN] },
			],
			'Accuracy by model',
		);
		expect(spec).toEqual({
			title: 'Accuracy by model',
			xLabel: 'Prediction',
			yLabel: 'Accuracy',
			labels: ['#0', '#1'],
			series: [
				{ label: 'gpt2-en-small', values: [0.75, null] },
				{ label: 'gpt2-random-tiny', values: [0.5, null] },
			],
			yMin: 0,
			yMax: 1,
		});
	});
});
