import { describe, expect, it } from 'vitest';
import {
	readRegionsTsv,
	writeRegionsTsv,
} from '../../../../src/core/syntaxgym/formats/regions-tsv';
import { InputFormatError } from '../../../../src/core/errors';
import type { RegionValue } from '../../../../src/core/syntaxgym/scoring/types';

const VALUES: readonly RegionValue[] = Object.freeze([
	{
		itemNumber: 1,
		conditionName: 'what_gap',
		regionNumber: 1,
		content: 'I know what',
		tokens: ['I', 'know', 'what'],
		surprisalsBits: [0, 6.278113, 4.560977],
		oovs: [],
		values: {
			sum: 10.83909,
			mean: 3.61303,
			median: 4.560977,
			range: 6.278113,
			max: 6.278113,
			min: 0,
		},
	},
	{
		itemNumber: 1,
		conditionName: 'what_gap',
		regionNumber: 2,
		content: '',
		tokens: [],
		surprisalsBits: [],
		oovs: [],
		values: { sum: 0, mean: Number.NaN, median: Number.NaN, range: null, max: null, min: null },
	},
	{
		itemNumber: 1,
		conditionName: 'what_gap',
		regionNumber: 3,
		content: 'party.',
		tokens: ['party', '.', '<eos>'],
		surprisalsBits: [1e-5, 2, -0],
		oovs: [],
		values: { sum: 2.00001, mean: 0.6666700000000001, median: 1e-5, range: 2, max: 2, min: -0 },
	},
]);

const WRITTEN =
	'item_number\tcondition_name\tregion_number\tcontent\ttokens\tsum\tmean\tmedian\trange\tmax\tmin\n' +
	'1\twhat_gap\t1\tI know what\tI know what\t10.83909\t3.61303\t4.560977\t6.278113\t6.278113\t0.0\n' +
	'1\twhat_gap\t2\t\t\t0.0\tnan\tnan\t\t\t\n' +
	'1\twhat_gap\t3\tparty.\tparty . <eos>\t2.00001\t0.6666700000000001\t1e-05\t2.0\t2.0\t-0.0\n';

describe('writeRegionsTsv', () => {
	it('writes the regions table: Python floats, nan, empty for undefined', () => {
		expect(writeRegionsTsv(VALUES)).toBe(WRITTEN);
	});

	it('writes only the metrics asked for', () => {
		expect(writeRegionsTsv(VALUES.slice(0, 1), ['sum'])).toBe(
			'item_number\tcondition_name\tregion_number\tcontent\ttokens\tsum\n' +
				'1\twhat_gap\t1\tI know what\tI know what\t10.83909\n',
		);
	});

	it('quotes content and tokens holding `"`, tabs or line breaks, and reads them back', () => {
		const awkward: RegionValue = {
			...(VALUES[0] as RegionValue),
			content: 'said "no"\tthen\nleft',
			tokens: ['said', 'Ġ"', 'no', '"'],
		};
		const text = writeRegionsTsv([awkward], ['sum']);
		expect(text).toContain('\t"said ""no""\tthen\nleft"\t"said Ġ"" no """\t10.83909\n');
		const [row] = readRegionsTsv(text, { metrics: ['sum'] });
		expect(row?.content).toBe(awkward.content);
		expect(row?.values).toEqual({ sum: 10.83909 });
	});
});

describe('readRegionsTsv', () => {
	it('reads back what writeRegionsTsv wrote (round trip, NaN and undefined kept)', () => {
		const rows = readRegionsTsv(WRITTEN, {
			metrics: ['sum', 'mean', 'median', 'range', 'max', 'min'],
		});
		expect(
			rows.map((r) => [r.itemNumber, r.conditionName, r.regionNumber, r.content, r.values]),
		).toEqual(
			VALUES.map((v) => [v.itemNumber, v.conditionName, v.regionNumber, v.content, v.values]),
		);
		expect(rows.map((r) => r.line)).toEqual([2, 3, 4]);
	});

	it.each([
		[
			'a column named after the metric',
			'item_number\tcondition_name\tregion_number\tsum\n1\ta\t1\t2.5\n',
		],
		[
			'<metric>_surprisal_bits',
			'suite\titem_number\tcondition_name\tregion_number\tsum_surprisal_bits\ns\t1\ta\t1\t2.5\n',
		],
		[
			'metric_value for a single metric',
			'item_number\tcondition_name\tregion_number\tmetric_value\n1\ta\t1\t2.5\n',
		],
		[
			'a long table with metric and metric_value',
			'item_number\tcondition_name\tregion_number\tmetric\tmetric_value\n1\ta\t1\tsum\t2.5\n1\ta\t1\tmax\t9\n',
		],
	])('%s', (_name, text) => {
		expect(readRegionsTsv(text, { metrics: ['sum'], suiteName: 's' })).toEqual([
			{ line: 2, itemNumber: 1, conditionName: 'a', regionNumber: 1, values: { sum: 2.5 } },
		]);
	});

	it('keeps only the rows of the suite when there is a suite column', () => {
		const text =
			'suite\titem_number\tcondition_name\tregion_number\tsum\n' +
			'other\t1\ta\t1\t1\nmine\t1\ta\t1\t2\nmine\t2\ta\t1\t3\n';
		const rows = readRegionsTsv(text, { metrics: ['sum'], suiteName: 'mine' });
		expect(rows.map((r) => [r.line, r.itemNumber, r.values.sum])).toEqual([
			[3, 1, 2],
			[4, 2, 3],
		]);
	});

	it.each([
		[
			'no key column',
			'item_number\tcondition_name\tsum\n1\ta\t1\n',
			{ metrics: ['sum'] },
			'r.tsv:1:1: the header has no region_number column',
		],
		[
			'no column for a metric',
			'item_number\tcondition_name\tregion_number\tsum\n1\ta\t1\t1\n',
			{ metrics: ['sum', 'mean'] },
			"r.tsv:1:1: the header has no column for metric 'mean'",
		],
		[
			'metric_value with two metrics',
			'item_number\tcondition_name\tregion_number\tmetric_value\n1\ta\t1\t1\n',
			{ metrics: ['sum', 'mean'] },
			"no column for metric 'sum'",
		],
		[
			'bad number',
			'item_number\tcondition_name\tregion_number\tsum\n1\ta\t1\tx1\n',
			{ metrics: ['sum'] },
			'r.tsv:2:7: sum "x1" is not a number',
		],
		[
			'bad item number',
			'item_number\tcondition_name\tregion_number\tsum\none\ta\t1\t1\n',
			{ metrics: ['sum'] },
			'r.tsv:2:1: item_number "one"',
		],
		[
			'bad region number',
			'item_number\tcondition_name\tregion_number\tsum\n1\ta\t1.5\t1\n',
			{ metrics: ['sum'] },
			'r.tsv:2:5: region_number "1.5"',
		],
		[
			'a region twice',
			'item_number\tcondition_name\tregion_number\tsum\n1\ta\t1\t1\n1\ta\t1\t2\n',
			{ metrics: ['sum'] },
			'r.tsv:3:1: item 1, condition "a", region 1 already has a value (line 2)',
		],
		[
			'unknown metric in a long table',
			'item_number\tcondition_name\tregion_number\tmetric\tmetric_value\n1\ta\t1\tsurprise\t1\n',
			{ metrics: ['sum'] },
			'r.tsv:2:7: unknown metric "surprise"',
		],
		[
			'no rows for the suite',
			'suite\titem_number\tcondition_name\tregion_number\tsum\nx\t1\ta\t1\t1\ny\t1\ta\t1\t1\n',
			{ metrics: ['sum'], suiteName: 'z' },
			'r.tsv: no rows for suite "z" (the suite column has: x, y)',
		],
	] as const)('%s → InputFormatError', (_name, text, options, message) => {
		const run = () => readRegionsTsv(text, { ...options, source: 'r.tsv' });
		expect(run).toThrow(InputFormatError);
		expect(run).toThrow(message);
	});
});
