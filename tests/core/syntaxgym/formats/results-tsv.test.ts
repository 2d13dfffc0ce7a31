import { describe, expect, it } from 'vitest';
import {
	writeResultsTsv,
	writeSuitesResultsTsv,
} from '../../../../src/core/syntaxgym/formats/results-tsv';
import type { PredictionOutcome } from '../../../../src/core/syntaxgym/scoring/types';

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

describe('writeSuitesResultsTsv', () => {
	const one = [outcome(1, 0, 'sum', true), outcome(2, 0, 'sum', false)];
	const two = [outcome(1, 0, 'sum', false), outcome(1, 0, 'max', true)];

	it('one suite: exactly writeResultsTsv', () => {
		expect(writeSuitesResultsTsv([{ suiteName: 'a', outcomes: one, metrics: ['sum'] }])).toBe(
			writeResultsTsv('a', one, ['sum']),
		);
	});

	it('one header, suites in order; single-metric suites share the plain table', () => {
		expect(
			writeSuitesResultsTsv([
				{ suiteName: 'a', outcomes: one, metrics: ['sum'] },
				{ suiteName: 'b', outcomes: one.slice(0, 1), metrics: ['sum'] },
			]),
		).toBe(
			'suite\tprediction_id\titem_number\tresult\n' +
				'a\t0\t1\tTrue\n' +
				'a\t0\t2\tFalse\n' +
				'b\t0\t1\tTrue\n',
		);
	});

	it('a multi-metric suite puts the metric column on every row; each suite grouped by metric', () => {
		expect(
			writeSuitesResultsTsv([
				{ suiteName: 'a', outcomes: one, metrics: ['sum'] },
				{ suiteName: 'b', outcomes: two, metrics: ['max', 'sum'] },
			]),
		).toBe(
			'suite\tprediction_id\titem_number\tresult\tmetric\n' +
				'a\t0\t1\tTrue\tsum\n' +
				'a\t0\t2\tFalse\tsum\n' +
				'b\t0\t1\tTrue\tmax\n' +
				'b\t0\t1\tFalse\tsum\n',
		);
	});

	it('names a convention other than reference in a last column; reference stays syntaxgym-core’s table', () => {
		const suites = [{ suiteName: 'a', outcomes: one, metrics: ['sum'] as const }];
		expect(writeSuitesResultsTsv(suites, { convention: 'reference' })).toBe(
			writeSuitesResultsTsv(suites),
		);
		expect(writeSuitesResultsTsv(suites, { convention: 'bos' })).toBe(
			'suite\tprediction_id\titem_number\tresult\tconvention\n' +
				'a\t0\t1\tTrue\tbos\n' +
				'a\t0\t2\tFalse\tbos\n',
		);
	});
});
