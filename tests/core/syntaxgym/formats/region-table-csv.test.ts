import { describe, expect, it } from 'vitest';
import { writeRegionTableCsv } from '../../../../src/core/syntaxgym/formats/region-table-csv';
import type { RegionValue } from '../../../../src/core/syntaxgym/scoring/types';
import { HOSTILE_CELLS } from '../../formats/hostile-cells';

function regionValue(overrides: Partial<RegionValue>): RegionValue {
	return {
		itemNumber: 1,
		conditionName: 'good',
		regionNumber: 1,
		content: 'The dog',
		tokens: ['The', 'Ġdog'],
		surprisalsBits: [0, 5.5],
		oovs: [],
		values: { sum: 5.5, mean: 2.75 },
		...overrides,
	};
}

describe('writeRegionTableCsv', () => {
	it('writes the regions-table columns with CRLF rows, values as Python repr', () => {
		const csv = writeRegionTableCsv(
			[
				regionValue({}),
				regionValue({
					regionNumber: 2,
					content: 'barks, loudly',
					tokens: [],
					values: { sum: 0, mean: Number.NaN, max: null },
				}),
			],
			['sum', 'mean', 'max'],
		);
		expect(csv).toBe(
			'item_number,condition_name,region_number,content,tokens,sum,mean,max\r\n' +
				'1,good,1,The dog,The Ġdog,5.5,2.75,\r\n' +
				'1,good,2,"barks, loudly",,0.0,nan,\r\n',
		);
	});

	it('has all six metric columns by default', () => {
		const [header] = writeRegionTableCsv([]).split('\r\n');
		expect(header).toBe(
			'item_number,condition_name,region_number,content,tokens,sum,mean,median,range,max,min',
		);
	});

	it.each(HOSTILE_CELLS)(
		'a region content or condition name %j is written inert; negative numbers stay',
		(cell, written) => {
			const csv = writeRegionTableCsv(
				[
					regionValue({
						conditionName: cell,
						content: cell,
						tokens: [cell],
						values: { sum: -3.5, mean: Number.NEGATIVE_INFINITY, max: Number.NaN },
					}),
				],
				['sum', 'mean', 'max'],
			);
			expect(csv.split('\r\n')[1]).toBe(`1,${written},1,${written},${written},-3.5,-inf,nan`);
		},
	);
});
