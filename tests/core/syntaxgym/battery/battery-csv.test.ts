// The long-form battery CSV: header (with each model's convention), a row per model × suite × prediction (plus `all` for suites
// with several predictions), RFC 4180 quoting and CRLF, and what Python's csv module would read.
import { describe, expect, it } from 'vitest';
import { writeBatteryCsv } from '../../../../src/core/syntaxgym/battery/battery-csv';
import { scoreBattery } from '../../../../src/core/syntaxgym/battery/sg-score';
import { readTsvTable } from '../../../../src/core/formats/tsv-table';
import { fixtureOutcomes, fixtureSuite } from './battery-fixtures';
import { HOSTILE_CELLS } from '../../formats/hostile-cells';

describe('writeBatteryCsv', () => {
	const { cells } = scoreBattery([
		{ suite: fixtureSuite('number_src', { items: 2 }), outcomes: fixtureOutcomes([[true, false]]) },
		{
			suite: fixtureSuite('Agreement, "hard"', { items: 2, predictions: 2 }),
			outcomes: fixtureOutcomes([
				[true, true],
				[true, false],
			]),
		},
		{ suite: fixtureSuite('empty', { items: 2 }), outcomes: [] },
	]);
	const csv = writeBatteryCsv([{ model: 'gpt2-en-small', convention: 'bos', cells }]);

	it('writes one CRLF-ended row per model, suite and prediction', () => {
		// Intervals: scipy 1.17.1 binomtest(k, n).proportion_ci(method='wilson'), printed with '%.6f'.
		const lines = csv.split('\r\n');
		expect(lines.at(-1)).toBe('');
		expect(lines.slice(0, -1)).toEqual([
			'model,convention,suite,circuit,prediction,items,correct,accuracy,interval_low,interval_high',
			'gpt2-en-small,bos,number_src,Agreement,0,2,1,0.500000,0.094531,0.905469',
			'gpt2-en-small,bos,"Agreement, ""hard""",ungrouped,0,2,2,1.000000,0.342380,1.000000',
			'gpt2-en-small,bos,"Agreement, ""hard""",ungrouped,1,2,1,0.500000,0.094531,0.905469',
			'gpt2-en-small,bos,"Agreement, ""hard""",ungrouped,all,2,1,0.500000,0.094531,0.905469',
			'gpt2-en-small,bos,empty,ungrouped,0,0,0,,,',
		]);
	});

	it('reads back as CSV with the same fields', () => {
		const table = readTsvTable(csv, { separator: 'comma' });
		expect(table.rows).toHaveLength(5);
		expect(table.rows[1]?.fields[2]).toBe('Agreement, "hard"');
		expect(table.rows[1]?.fields[1]).toBe('bos');
	});

	it.each(HOSTILE_CELLS)(
		'a suite name or model label %j is written inert, the figures unchanged',
		(cell, written) => {
			const hostile = scoreBattery([
				{ suite: fixtureSuite(cell, { items: 2 }), outcomes: fixtureOutcomes([[true, false]]) },
			]);
			const lines = writeBatteryCsv([{ model: cell, cells: hostile.cells }]).split('\r\n');
			expect(lines[1]).toBe(`${written},,${written},ungrouped,0,2,1,0.500000,0.094531,0.905469`);
		},
	);
});
