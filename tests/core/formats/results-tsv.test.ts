import { describe, expect, it } from 'vitest';
import { writeResultsTsv } from '../../../src/core/formats/results-tsv';
import type { PredictionOutcome } from '../../../src/core/scoring/types';

function outcome(
	itemNumber: number,
	predictionId: number,
	metric: PredictionOutcome['metric'],
	result: boolean,
): PredictionOutcome {
	return { itemNumber, predictionId, metric, value: result, result };
}

describe('writeResultsTsv', () => {
	it('one metric: the syntaxgym-core table, rows in the given order', () => {
		const outcomes = [
			outcome(1, 0, 'sum', true),
			outcome(1, 1, 'sum', false),
			outcome(2, 0, 'sum', false),
		];
		expect(writeResultsTsv('fgd_hierarchy', outcomes, ['sum'])).toBe(
			'suite\tprediction_id\titem_number\tresult\n' +
				'fgd_hierarchy\t0\t1\tTrue\n' +
				'fgd_hierarchy\t1\t1\tFalse\n' +
				'fgd_hierarchy\t0\t2\tFalse\n',
		);
	});

	it('several metrics: a metric column, rows grouped by metric in suite order', () => {
		const outcomes = Object.freeze([
			outcome(1, 0, 'sum', true),
			outcome(1, 0, 'max', false),
			outcome(2, 0, 'sum', false),
			outcome(2, 0, 'max', true),
		]);
		expect(writeResultsTsv('test', outcomes, ['sum', 'max'])).toBe(
			'suite\tprediction_id\titem_number\tresult\tmetric\n' +
				'test\t0\t1\tTrue\tsum\n' +
				'test\t0\t2\tFalse\tsum\n' +
				'test\t0\t1\tFalse\tmax\n' +
				'test\t0\t2\tTrue\tmax\n',
		);
	});

	it('no outcomes: just the header', () => {
		expect(writeResultsTsv('s', [], ['sum'])).toBe('suite\tprediction_id\titem_number\tresult\n');
	});
});
