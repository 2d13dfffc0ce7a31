import { describe, expect, it } from 'vitest';
import {
	compareFingerprint,
	compareRunSettings,
	type LinkedRun,
} from '../../../../src/core/syntaxgym/share/compare-fingerprint';
import {
	buildResultFingerprint,
	type RunResults,
} from '../../../../src/core/syntaxgym/share/result-fingerprint';
import type { RegionValue } from '../../../../src/core/syntaxgym/scoring/types';
import { BUNDLED_MODEL, makeResults } from './fixture-run';

function linkOf(results: RunResults, withValues = true): LinkedRun {
	const { values, ...rest } = buildResultFingerprint(results);
	return {
		results: withValues && values !== undefined ? { ...rest, values } : rest,
		model: BUNDLED_MODEL,
		convention: 'reference',
		appVersion: '0.1.0',
	};
}

/** The run with one region's sum shifted by `deltaBits`. */
function shifted(
	results: RunResults,
	itemNumber: number,
	conditionName: string,
	regionNumber: number,
	deltaBits: number,
): RunResults {
	return {
		...results,
		regionValues: results.regionValues.map((value): RegionValue => {
			if (
				value.itemNumber !== itemNumber ||
				value.conditionName !== conditionName ||
				value.regionNumber !== regionNumber
			) {
				return value;
			}
			return { ...value, values: { sum: (value.values.sum ?? 0) + deltaBits } };
		}),
	};
}

describe('compareFingerprint', () => {
	it('reports an exact reproduction', () => {
		const results = makeResults();
		expect(compareFingerprint(linkOf(results), results)).toEqual({
			reproduced: true,
			identicalOutcomes: 4,
			totalOutcomes: 4,
			maxRegionDifferenceBits: 0,
			valuesCompared: 'all-regions',
			differingItems: [],
			settingDifferences: [],
		});
	});

	it('ignores differences below half a quantum (1e-4 bits)', () => {
		const results = makeResults();
		const comparison = compareFingerprint(linkOf(results), shifted(results, 1, 'a', 3, 0.00002));
		expect(comparison.reproduced).toBe(true);
	});

	it('names a region that moved, with the size of the move', () => {
		const results = makeResults();
		const comparison = compareFingerprint(linkOf(results), shifted(results, 2, 'b', 3, 0.0003));
		expect(comparison.reproduced).toBe(false);
		expect(comparison.identicalOutcomes).toBe(4);
		expect(comparison.maxRegionDifferenceBits).toBeCloseTo(0.0003, 10);
		expect(comparison.differingItems).toHaveLength(1);
		const [item] = comparison.differingItems;
		expect(item).toMatchObject({
			itemNumber: 2,
			missing: false,
			outcomes: [],
			digestDiffers: true,
		});
		expect(item?.regions).toHaveLength(1);
		expect(item?.regions[0]).toMatchObject({ conditionName: 'b', regionNumber: 3, metric: 'sum' });
		expect(item?.regions[0]?.linkedBits).toBeCloseTo(2.75, 10);
		expect(item?.regions[0]?.reproducedBits).toBeCloseTo(2.7503, 10);
		expect(item?.regions[0]?.differenceBits).toBeCloseTo(0.0003, 10);
	});

	it('lists an outcome that flipped', () => {
		const results = makeResults();
		// Item 2, prediction 0: (2;%a%) = 11.000049 < (2;%b%) = 10.5 is false; make it true.
		const moved = shifted(results, 2, 'a', 2, -1);
		const flipped: RunResults = {
			...moved,
			outcomes: moved.outcomes.map((outcome) =>
				outcome.itemNumber === 2 && outcome.predictionId === 0
					? { ...outcome, value: true, result: true }
					: outcome,
			),
		};
		const comparison = compareFingerprint(linkOf(results), flipped);
		expect(comparison.identicalOutcomes).toBe(3);
		expect(comparison.totalOutcomes).toBe(4);
		expect(comparison.maxRegionDifferenceBits).toBeCloseTo(1, 10);
		expect(comparison.differingItems.map((item) => item.itemNumber)).toEqual([2]);
		expect(comparison.differingItems[0]?.outcomes).toEqual([
			{ predictionId: 0, metric: 'sum', linked: 'false', reproduced: 'true' },
		]);
	});

	it('reports items that the new run lacks', () => {
		const results = makeResults();
		const partial: RunResults = {
			...results,
			outcomes: results.outcomes.filter((outcome) => outcome.itemNumber === 1),
			regionValues: results.regionValues.filter((value) => value.itemNumber === 1),
		};
		const comparison = compareFingerprint(linkOf(results), partial);
		expect(comparison.reproduced).toBe(false);
		expect(comparison.identicalOutcomes).toBe(2);
		expect(comparison.differingItems).toHaveLength(1);
		expect(comparison.differingItems[0]?.itemNumber).toBe(2);
		// Every value of item 2 is now null: listed, but not a number of bits.
		expect(
			comparison.differingItems[0]?.regions.every((region) => region.differenceBits === null),
		).toBe(true);
		expect(comparison.maxRegionDifferenceBits).toBe(0);
	});

	it('reports an item that is not in the new suite at all as missing', () => {
		const results = makeResults();
		const shorter: RunResults = {
			suite: { ...results.suite, items: results.suite.items.slice(0, 1) },
			outcomes: results.outcomes.filter((outcome) => outcome.itemNumber === 1),
			regionValues: results.regionValues.filter((value) => value.itemNumber === 1),
		};
		const comparison = compareFingerprint(linkOf(results), shorter);
		expect(comparison.differingItems).toEqual([
			{
				itemNumber: 2,
				missing: true,
				outcomes: [
					{ predictionId: 0, metric: 'sum', linked: 'false', reproduced: 'missing' },
					{ predictionId: 1, metric: 'sum', linked: 'true', reproduced: 'missing' },
				],
				regions: [],
				digestDiffers: true,
				maxRegionDifferenceBits: 0,
			},
		]);
	});

	describe('with key regions only (no full values in the link)', () => {
		it('compares key values one by one', () => {
			const results = makeResults();
			const comparison = compareFingerprint(
				linkOf(results, false),
				shifted(results, 1, 'b', 2, 0.5),
			);
			expect(comparison.valuesCompared).toBe('key-regions');
			expect(comparison.maxRegionDifferenceBits).toBeCloseTo(0.5, 10);
			expect(comparison.differingItems[0]?.regions[0]).toMatchObject({
				conditionName: 'b',
				regionNumber: 2,
			});
		});

		it('still catches a change outside the key regions by its digest', () => {
			const results = makeResults();
			// Region 1 of condition a is only referenced through (*;%a%): make the suite's
			// predictions reference region 2 only, so region 1 is outside the key regions.
			const narrow: RunResults = {
				...results,
				suite: { ...results.suite, predictions: results.suite.predictions.slice(0, 1) },
				outcomes: results.outcomes.filter((outcome) => outcome.predictionId === 0),
			};
			const comparison = compareFingerprint(
				linkOf(narrow, false),
				shifted(narrow, 1, 'a', 1, 0.25),
			);
			expect(comparison.reproduced).toBe(false);
			expect(comparison.maxRegionDifferenceBits).toBe(0);
			expect(comparison.differingItems).toEqual([
				{
					itemNumber: 1,
					missing: false,
					outcomes: [],
					regions: [],
					digestDiffers: true,
					maxRegionDifferenceBits: 0,
				},
			]);
		});
	});
});

describe('compareRunSettings', () => {
	const link = linkOf(makeResults());
	it.each([
		[{}, []],
		[{ model: BUNDLED_MODEL, convention: 'reference' as const, appVersion: '0.1.0' }, []],
		[
			{ model: { ...BUNDLED_MODEL, backend: 'webgpu' as const, dtype: 'q8' as const } },
			[
				{ setting: 'model.dtype', linked: 'fp32', reproduced: 'q8' },
				{ setting: 'model.backend', linked: 'wasm', reproduced: 'webgpu' },
			],
		],
		[
			{ model: { source: 'openai' as const, model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' } },
			[{ setting: 'model.source', linked: 'bundled', reproduced: 'openai' }],
		],
		[
			{ convention: 'bos' as const, appVersion: '0.2.0' },
			[
				{ setting: 'convention', linked: 'reference', reproduced: 'bos' },
				{ setting: 'appVersion', linked: '0.1.0', reproduced: '0.2.0' },
			],
		],
	])('%j → %j', (setup, expected) => {
		expect(compareRunSettings(link, { ...makeResults(), ...setup })).toEqual(expected);
	});

	it('an endpoint run reproduced on another server: the base URL differs', () => {
		const endpoint = { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' } as const;
		const endpointLink = { ...link, model: endpoint };
		expect(
			compareRunSettings(endpointLink, {
				...makeResults(),
				model: { ...endpoint, baseUrl: 'https://gpu.example.org/v1' },
			}),
		).toEqual([
			{
				setting: 'model.baseUrl',
				linked: 'http://127.0.0.1:8000/v1',
				reproduced: 'https://gpu.example.org/v1',
			},
		]);
		expect(compareRunSettings(endpointLink, { ...makeResults(), model: endpoint })).toEqual([]);
	});
});
