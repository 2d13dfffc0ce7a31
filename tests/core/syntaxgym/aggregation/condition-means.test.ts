import { describe, expect, it } from 'vitest';
import { summarizeConditionMeans } from '../../../../src/core/syntaxgym/aggregation/condition-means';
import type { MetricValue, RegionValue } from '../../../../src/core/syntaxgym/scoring/types';

function regionValue(
	itemNumber: number,
	conditionName: string,
	regionNumber: number,
	sum: MetricValue,
): RegionValue {
	return {
		itemNumber,
		conditionName,
		regionNumber,
		content: '',
		tokens: [],
		surprisalsBits: [],
		oovs: [],
		values: { sum, max: null },
	};
}

describe('summarizeConditionMeans', () => {
	const values = Object.freeze([
		regionValue(1, 'b', 2, 4),
		regionValue(1, 'b', 1, 1),
		regionValue(1, 'a', 1, 10),
		regionValue(2, 'b', 2, 6),
		regionValue(2, 'b', 1, 2),
		regionValue(2, 'a', 1, Number.NaN),
		regionValue(3, 'b', 2, 8),
		regionValue(3, 'b', 1, 3),
		regionValue(3, 'a', 1, null),
	]);

	it('groups by condition (first appearance) and region, skipping non-finite values', () => {
		const means = summarizeConditionMeans(values, 'sum');
		expect(means.map((m) => [m.conditionName, m.regionNumber, m.itemCount, m.mean])).toEqual([
			['b', 1, 3, 2],
			['b', 2, 3, 6],
			['a', 1, 1, 10],
		]);
	});

	it('95% interval: mean ± t(0.975, n−1) · sd / √n', () => {
		// b/2: values 4, 6, 8 → mean 6, sd 2, t(0.975, 2) = 4.302652729749462 (scipy).
		const [, b2] = summarizeConditionMeans(values, 'sum');
		const halfWidth = (4.302652729749462 * 2) / Math.sqrt(3);
		expect(b2?.standardDeviation).toBeCloseTo(2, 12);
		expect(b2?.ciLow).toBeCloseTo(6 - halfWidth, 9);
		expect(b2?.ciHigh).toBeCloseTo(6 + halfWidth, 9);
	});

	it('other confidence levels (t(0.95, 2) = 2.9199855803537242, scipy)', () => {
		const [, b2] = summarizeConditionMeans(values, 'sum', 0.9);
		expect(b2?.ciHigh).toBeCloseTo(6 + (2.9199855803537242 * 2) / Math.sqrt(3), 9);
	});

	it('one item: no interval; no value: NaN mean', () => {
		const a1 = summarizeConditionMeans(values, 'sum')[2];
		expect(a1).toMatchObject({ itemCount: 1, ciLow: null, ciHigh: null });
		expect(a1?.standardDeviation).toBeNaN();
		const max = summarizeConditionMeans(values, 'max');
		expect(max.every((m) => m.itemCount === 0 && Number.isNaN(m.mean))).toBe(true);
	});

	it('no region values → no rows', () => {
		expect(summarizeConditionMeans([], 'sum')).toEqual([]);
	});
});
