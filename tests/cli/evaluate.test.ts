import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { regionsCommand } from '../../src/cli/commands/regions';
import { runCliCommand } from './run-cli-command';

const SUITE = readFileSync(new URL('../fixtures/scoring/mini-suite.json', import.meta.url), 'utf8');
const MULTI_METRIC_SUITE = JSON.stringify({
	...JSON.parse(SUITE),
	meta: { name: 'mini', metric: ['sum', 'max'] },
});

// Mini suite sentences: "The dog barks ." / "The dog bark ." / "A cat meows ." / "A cat meow" (+ empty region 3).
// Predictions: 0 = (2;%bad%) > (2;%good%), 1 = (*;%bad%) > (*;%good%).
const SURPRISALS = [
	'sentence_id\ttoken_id\ttoken\tsurprisal',
	...[
		['The', 0, 'dog', 5, 'barks', 8, '.', 2, '<eos>', 1],
		['The', 0, 'dog', 5, 'bark', 12, '.', 3, '<eos>', 1],
		['A', 0, 'cat', 6, 'meows', 9, '.', 2],
		['A', 0, 'cat', 6, 'meow', 7],
	].flatMap((pairs, s) =>
		Array.from(
			{ length: pairs.length / 2 },
			(_, t) => `${s + 1}\t${t + 1}\t${pairs[2 * t]}\t${pairs[2 * t + 1]}`,
		),
	),
	'',
].join('\n');

// Hand-computed. Item 1: bad verb 12 > 8; totals 21 > 16. Item 2: 7 > 9 no; 13 > 17 no.
const RESULTS = [
	'suite\tprediction_id\titem_number\tresult',
	'mini\t0\t1\tTrue',
	'mini\t1\t1\tTrue',
	'mini\t0\t2\tFalse',
	'mini\t1\t2\tFalse',
	'',
].join('\n');

const SUMMARY = [
	'suite mini: 2 of 2 items evaluated',
	'prediction 0 ((2;%bad%) > (2;%good%)): 1/2 = 0.500000',
	'prediction 1 ((*;%bad%) > (*;%good%)): 1/2 = 0.500000',
	'items, all predictions hold: 1/2 = 0.500000',
	'items, first prediction only: 1/2 = 0.500000',
	'',
].join('\n');

const BRAIN_SCORE_TOTALS = [
	'suite\titem_index\titem_number\tcondition_name\tregion_number\tcontent\tsum_surprisal_bits',
	'mini\t0\t1\tgood\t1\tThe dog\t5.5',
	'mini\t0\t1\tgood\t2\tbarks\t8.25',
	'mini\t0\t1\tgood\t3\t.\t3.0',
	'mini\t0\t1\tbad\t1\tThe dog\t5.5',
	'mini\t0\t1\tbad\t2\tbark\t6.0',
	'mini\t0\t1\tbad\t3\t.\t7.0',
	'other\t0\t1\tgood\t1\tThe dog\t100.0',
	'',
].join('\n');

describe('evaluate command', () => {
	it('evaluates the predictions on an lm-zoo surprisal file', async () => {
		const run = await runCliCommand(evaluateCommand, ['suite.json', '--surprisals', 's.tsv'], {
			'suite.json': SUITE,
			's.tsv': SURPRISALS,
		});
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe(RESULTS);
		expect(run.stderr.endsWith(SUMMARY)).toBe(true);
	});

	it('gives the same results from the table that `regions` printed', async () => {
		const files: Record<string, string> = { 'suite.json': SUITE, 's.tsv': SURPRISALS };
		const regions = await runCliCommand(
			regionsCommand,
			['suite.json', '--surprisals', 's.tsv'],
			files,
		);
		files['regions.tsv'] = regions.stdout;
		const run = await runCliCommand(
			evaluateCommand,
			['suite.json', '--regions', 'regions.tsv'],
			files,
		);
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe(RESULTS);
		expect(run.stderr.endsWith(SUMMARY)).toBe(true);
	});

	it('reads brain-score style totals (sum_surprisal_bits, suite column) covering some items', async () => {
		const run = await runCliCommand(evaluateCommand, ['suite.json', '--regions', 'totals.tsv'], {
			'suite.json': SUITE,
			'totals.tsv': BRAIN_SCORE_TOTALS,
		});
		expect(run.exitCode).toBe(0);
		// 6 > 8.25 no; 18.5 > 16.75 yes.
		expect(run.stdout).toBe(
			[
				'suite\tprediction_id\titem_number\tresult',
				'mini\t0\t1\tFalse',
				'mini\t1\t1\tTrue',
				'',
			].join('\n'),
		);
		expect(run.stderr).toContain(
			'suite mini: 1 of 2 items evaluated\nitems without values (not evaluated): 2\n',
		);
		expect(run.stderr).toContain(
			'items, all predictions hold: 0/1 = 0.000000\nitems, first prediction only: 0/1 = 0.000000\n',
		);
	});

	it('adds a metric column and per-metric accuracies for a multi-metric suite', async () => {
		const run = await runCliCommand(evaluateCommand, ['suite.json', '--surprisals', 's.tsv'], {
			'suite.json': MULTI_METRIC_SUITE,
			's.tsv': SURPRISALS,
		});
		expect(run.exitCode).toBe(0);
		// max: item 1 verb 12 > 8, totals 5+12+3 = 20 > 5+8+2 = 15; item 2: 7 > 9 no, bad region 3 undefined → False.
		expect(run.stdout).toBe(
			[
				'suite\tprediction_id\titem_number\tresult\tmetric',
				'mini\t0\t1\tTrue\tsum',
				'mini\t1\t1\tTrue\tsum',
				'mini\t0\t2\tFalse\tsum',
				'mini\t1\t2\tFalse\tsum',
				'mini\t0\t1\tTrue\tmax',
				'mini\t1\t1\tTrue\tmax',
				'mini\t0\t2\tFalse\tmax',
				'mini\t1\t2\tFalse\tmax',
				'',
			].join('\n'),
		);
		expect(run.stderr).toContain('[sum] items, all predictions hold: 1/2 = 0.500000\n');
		expect(run.stderr).toContain('[max] prediction 1 ((*;%bad%) > (*;%good%)): 1/2 = 0.500000\n');
	});

	it.each([
		{
			args: ['suite.json'],
			message:
				/give exactly one of --surprisals <lm-zoo\.tsv> and --regions <regions\.tsv>\.\nusage: evaluate/,
		},
		{
			args: ['suite.json', '--surprisals', 's.tsv', '--regions', 'totals.tsv'],
			message: /give exactly one of/,
		},
		{
			args: ['suite.json', '--regions', 'totals.tsv', '--spec', 'spec.json'],
			message: /--spec only applies to --surprisals/,
		},
		{ args: ['a.json', 'b.json', '--regions', 'totals.tsv'], message: /expected one suite file/ },
		{ args: ['suite.json', '--regions'], message: /Option '--regions <value>' argument missing/ },
		{
			args: ['suite.json', '--regions', 'ugly.tsv'],
			message:
				/(^|\n)benchtop: ugly\.tsv:3:1: item 1 has no condition "ugly" \(it has: good, bad\)\.\n$/,
		},
		{
			args: ['suite.json', '--regions', 'no-metric.tsv'],
			message: /(^|\n)benchtop: no-metric\.tsv:1:1: the header has no column for metric 'sum'/,
		},
		{
			args: ['suite.json', '--regions', 'wrong-suite.tsv'],
			message:
				/(^|\n)benchtop: wrong-suite\.tsv: no rows for suite "mini" \(the suite column has: other\)/,
		},
		{
			args: ['suite.json', '--surprisals', 'short.tsv'],
			message:
				/(^|\n)benchtop: short\.tsv:16: item 2, condition "bad" \(sentence 4\): the tokens end before the sentence text: "meow" is left unmatched/,
		},
	])('bad input $args → exit 2 with one located message', async ({ args, message }) => {
		const run = await runCliCommand(evaluateCommand, args, {
			'suite.json': SUITE,
			's.tsv': SURPRISALS,
			'totals.tsv': BRAIN_SCORE_TOTALS,
			'spec.json': '{}',
			'ugly.tsv': BRAIN_SCORE_TOTALS.replace('1\tgood\t2', '1\tugly\t2'),
			'no-metric.tsv': 'item_number\tcondition_name\tregion_number\tmean\n1\tgood\t1\t2.0\n',
			'wrong-suite.tsv': BRAIN_SCORE_TOTALS.split('\n')
				.filter((line) => !line.startsWith('mini'))
				.join('\n'),
			'short.tsv': SURPRISALS.replace('4\t3\tmeow\t7\n', ''),
		});
		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(message);
		expect(run.stderr).not.toMatch(/\n\s+at /);
	});
});
