// A small hand-made suite and run for the share-link tests (no parser needed): 2 items ×
// 2 conditions × 3 regions, metric sum, predictions (2;%a%) < (2;%b%) and (*;%a%) < (*;%b%).
import type { FormulaNode } from '../../../../src/core/syntaxgym/formula/ast';
import type { ModelSpec } from '../../../../src/core/model/model-spec';
import type { PredictionOutcome, RegionValue } from '../../../../src/core/syntaxgym/scoring/types';
import type { MetricName, Suite } from '../../../../src/core/syntaxgym/suite/types';
import type { RunResults } from '../../../../src/core/syntaxgym/share/result-fingerprint';

const region = (regionNumber: number | '*', conditionName: string): FormulaNode => ({
	kind: 'region',
	regionNumber,
	conditionName,
	column: 1,
});
const less = (left: FormulaNode, right: FormulaNode): FormulaNode => ({
	kind: 'binary',
	operator: '<',
	left,
	right,
	column: 1,
});

export const SUITE_TEXT = '{"meta":{"name":"fixture"}}';

export function makeSuite(metrics: readonly MetricName[] = ['sum']): Suite {
	const words: Record<string, readonly string[]> = {
		a: ['The', 'cat', 'sleeps.'],
		b: ['The', 'cats', 'sleeps.'],
	};
	return {
		meta: {
			name: 'fixture',
			metrics,
			metricAsWritten: metrics.length === 1 ? (metrics[0] ?? 'sum') : metrics,
			extra: {},
		},
		regionNames: ['determiner', 'noun', 'verb'],
		conditionNames: ['a', 'b'],
		predictions: [
			{
				predictionId: 0,
				formula: '(2;%a%) < (2;%b%)',
				source: 'formula',
				ast: less(region(2, 'a'), region(2, 'b')),
			},
			{
				predictionId: 1,
				formula: '(*;%a%) < (*;%b%)',
				source: 'formula',
				ast: less(region('*', 'a'), region('*', 'b')),
			},
		],
		items: [1, 2].map((itemNumber) => ({
			itemNumber,
			conditions: ['a', 'b'].map((conditionName) => ({
				conditionName,
				regions: (words[conditionName] ?? []).map((content, index) => ({
					regionNumber: index + 1,
					content,
				})),
			})),
		})),
	};
}

/** Region sums in bits: item × condition × region. */
export const SUMS: Record<number, Record<string, readonly number[]>> = {
	1: { a: [0, 7.123456, 3.5], b: [0, 9.87654321, 4.25] },
	2: { a: [0, 11.000049, 2.2], b: [0, 10.5, 2.75] },
};

export function makeResults(suite: Suite = makeSuite()): RunResults {
	const regionValues: RegionValue[] = [];
	const outcomes: PredictionOutcome[] = [];
	for (const item of suite.items) {
		const sums = SUMS[item.itemNumber] ?? {};
		for (const condition of item.conditions) {
			for (const r of condition.regions) {
				const value = sums[condition.conditionName]?.[r.regionNumber - 1] ?? 0;
				regionValues.push({
					itemNumber: item.itemNumber,
					conditionName: condition.conditionName,
					regionNumber: r.regionNumber,
					content: r.content,
					tokens: [],
					surprisalsBits: [],
					oovs: [],
					values: Object.fromEntries(
						suite.meta.metrics.map((metric) => [metric, metric === 'range' ? null : value]),
					),
				});
			}
		}
		const total = (name: string) => (sums[name] ?? []).reduce((x, y) => x + y, 0);
		const noun = (name: string) => sums[name]?.[1] ?? 0;
		for (const metric of suite.meta.metrics) {
			outcomes.push({
				itemNumber: item.itemNumber,
				predictionId: 0,
				metric,
				value: noun('a') < noun('b'),
				result: noun('a') < noun('b'),
			});
			outcomes.push({
				itemNumber: item.itemNumber,
				predictionId: 1,
				metric,
				value: total('a') < total('b'),
				result: total('a') < total('b'),
			});
		}
	}
	return { suite, outcomes, regionValues };
}

export const BUNDLED_MODEL: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'wasm',
};
export const HUB_MODEL: ModelSpec = {
	source: 'hub',
	id: 'Xenova/distilgpt2',
	revision: '0123456789abcdef0123456789abcdef01234567',
	dtype: 'fp32',
	backend: 'webgpu',
};
