import { describe, expect, it } from 'vitest';
import { scoreRegionRows } from '../../../../src/core/syntaxgym/scoring/score-region-rows';
import { InputFormatError } from '../../../../src/core/errors';
import { readRegionsTsv } from '../../../../src/core/syntaxgym/formats/regions-tsv';
import type { RegionValueRow } from '../../../../src/core/syntaxgym/scoring/types';
import type { MetricValue } from '../../../../src/core/syntaxgym/scoring/types';
import { loadMiniSuite } from './mini-suite';

// Mini suite predictions: 0 = (2;%bad%) > (2;%good%), 1 = (*;%bad%) > (*;%good%).

/** Rows `[item, condition, region, sum, content?]`, line numbers from 2 on. */
function rowsOf(
	spec: readonly (readonly [number, string, number, MetricValue, string?])[],
): RegionValueRow[] {
	return spec.map(([itemNumber, conditionName, regionNumber, sum, content], index) => ({
		line: index + 2,
		itemNumber,
		conditionName,
		regionNumber,
		...(content === undefined ? {} : { content }),
		values: { sum },
	}));
}

const ITEM_1 = [
	[1, 'good', 1, 5],
	[1, 'good', 2, 8],
	[1, 'good', 3, 3],
	[1, 'bad', 1, 5],
	[1, 'bad', 2, 12],
	[1, 'bad', 3, 4],
] as const;
const ITEM_2 = [
	[2, 'bad', 3, 0],
	[2, 'bad', 2, 7],
	[2, 'bad', 1, 6],
	[2, 'good', 3, 2],
	[2, 'good', 2, 9],
	[2, 'good', 1, 6],
] as const;

describe('scoreRegionRows', () => {
	const suite = loadMiniSuite();

	it.each([
		{
			name: 'both items (rows in any order)',
			rows: rowsOf([...ITEM_2, ...ITEM_1]),
			outcomes: [
				[1, 0, true],
				[1, 1, true],
				[2, 0, false],
				[2, 1, false],
			],
			itemsWithoutValues: [],
			all: [1, 2],
		},
		{
			name: 'only item 2 has rows',
			rows: rowsOf(ITEM_2),
			outcomes: [
				[2, 0, false],
				[2, 1, false],
			],
			itemsWithoutValues: [1],
			all: [0, 1],
		},
		{
			name: 'content that matches up to surrounding whitespace',
			rows: rowsOf([
				[1, 'good', 1, 5, ' The dog'],
				[1, 'good', 2, 8, 'barks'],
				[1, 'good', 3, 3, '.'],
				[1, 'bad', 1, 5, 'The dog '],
				[1, 'bad', 2, 7, 'bark'],
				[1, 'bad', 3, 5, '.'],
			]),
			outcomes: [
				[1, 0, false],
				[1, 1, true],
			],
			itemsWithoutValues: [2],
			all: [0, 1],
		},
	])('$name', ({ rows, outcomes, itemsWithoutValues, all }) => {
		const score = scoreRegionRows(suite, rows, 'totals.tsv');
		expect(score.outcomes.map((o) => [o.itemNumber, o.predictionId, o.result])).toEqual(outcomes);
		expect(score.itemsWithoutValues).toEqual(itemsWithoutValues);
		const allRule = score.summary.items.find((i) => i.rule === 'all-predictions');
		expect([allRule?.correct, allRule?.total]).toEqual(all);
		expect(score.regionValues.every((v) => v.tokens.length === 0)).toBe(true);
	});

	it.each([
		{
			name: 'an item the suite lacks',
			rows: rowsOf([[3, 'good', 1, 1]]),
			message: 'totals.tsv:2:1: item 3 is not in suite "mini".',
		},
		{
			name: 'an unknown condition',
			rows: rowsOf([...ITEM_1, [2, 'ugly', 1, 1]]),
			message: 'totals.tsv:8:1: item 2 has no condition "ugly" (it has: good, bad).',
		},
		{
			name: 'an unknown region',
			rows: rowsOf([[1, 'bad', 4, 1]]),
			message: 'totals.tsv:2:1: item 1, condition "bad" has no region 4.',
		},
		{
			name: 'content of another suite',
			rows: rowsOf([[1, 'bad', 2, 1, 'barked']]),
			message:
				/^totals\.tsv:2:1: the content "barked" of item 1, condition "bad", region 2 differs/,
		},
		{
			name: 'a region a prediction needs is missing',
			rows: rowsOf(ITEM_1.slice(0, 5)),
			message:
				/^totals\.tsv: missing value: item 1, prediction 1 .* no value for all regions \(\*\) of condition 'bad'/,
		},
	])('throws a located InputFormatError for $name', ({ rows, message }) => {
		expect(() => scoreRegionRows(suite, rows, 'totals.tsv')).toThrow(InputFormatError);
		expect(() => scoreRegionRows(suite, rows, 'totals.tsv')).toThrow(message);
	});

	it('scores a table read with readRegionsTsv (brain-score column name, suite column)', () => {
		const text = [
			'suite\titem_number\tcondition_name\tregion_number\tsum_surprisal_bits',
			...[...ITEM_1, ...ITEM_2].map(([item, condition, region, sum]) =>
				['mini', item, condition, region, sum].join('\t'),
			),
			'other\t1\tgood\t1\t100',
		].join('\n');
		const rows = readRegionsTsv(text, { metrics: ['sum'], suiteName: 'mini', source: 'in.tsv' });
		const score = scoreRegionRows(suite, rows, 'in.tsv');
		expect(score.outcomes.map((o) => o.result)).toEqual([true, true, false, false]);
	});
});
