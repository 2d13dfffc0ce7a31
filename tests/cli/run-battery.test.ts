// `run` over several bundled suites with the real Node engine (gpt2-random-tiny): the battery's
// circuit means and SG score on stderr (checked against the per-suite summaries it prints), and
// `--battery-csv` writing the long-form CSV whose counts match those summaries.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatBatterySummary } from '../../src/cli/shared/battery-summary';
import { runCommand } from '../../src/cli/commands/run';
import { HU2020_SUITE_NAMES } from '../../src/core/syntaxgym/battery/circuits';
import { scoreBattery } from '../../src/core/syntaxgym/battery/sg-score';
import { readTsvTable } from '../../src/core/formats/tsv-table';
import { fixtureOutcomes, fixtureSuite } from '../core/syntaxgym/battery/battery-fixtures';
import { runCliCommand } from './run-cli-command';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
const FILES = {
	'a.json': await read('suites/subject-verb-agreement-pp.json'),
	'b.json': await read('suites/filler-gap-object.json'),
	'c.json': await read('suites/npi-licensing-ever.json'),
};
const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];
const folder = await mkdtemp(join(tmpdir(), 'benchtop-run-battery-'));
afterAll(() => rm(folder, { recursive: true, force: true }));

/** `items, <rule label>: c/n = x` of each suite summary, in order. */
function itemAccuracies(stderr: string, label: string): number[] {
	const pattern = new RegExp(`^items, ${label}: (\\d+)/(\\d+) = `, 'gm');
	return [...stderr.matchAll(pattern)].map((m) => Number(m[1]) / Number(m[2]));
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

describe('run: a battery of several suites', () => {
	const csvPath = join(folder, 'battery.csv');
	const run = runCliCommand(
		runCommand,
		['a.json', 'b.json', 'c.json', ...TINY, '--battery-csv', csvPath],
		FILES,
	);

	it('prints the SG score under both item rules: the mean of the suites’ item accuracies', async () => {
		const { exitCode, stderr } = await run;
		expect(exitCode).toBe(0);
		expect(stderr).toMatch(/^battery: 3 suites, 3 in the SG score/m);
		for (const [rule, label] of [
			['first prediction only \\(Hu et al\\. 2020\\)', 'first prediction only'],
			['all predictions hold', 'all predictions hold'],
		] as const) {
			const accuracies = itemAccuracies(stderr, label);
			expect(accuracies).toHaveLength(3);
			const printed = new RegExp(`^SG score, ${rule}: (\\S+)$`, 'm').exec(stderr)?.[1];
			expect(Number(printed)).toBeCloseTo(mean(accuracies), 6);
		}
	});

	it('groups the bundled suites by their meta.tags circuits and prints no published scores', async () => {
		const { stderr } = await run;
		for (const circuit of ['Agreement', 'Long-Distance Dependencies', 'Licensing']) {
			expect(stderr).toMatch(
				new RegExp(`^ {2}${circuit} \\(1 suite\\): \\d\\.\\d{6} \\| \\d\\.\\d{6}$`, 'm'),
			);
		}
		expect(stderr).not.toMatch(/ungrouped/);
		expect(stderr).not.toMatch(/published SG scores/);
	});

	it('writes the long-form CSV: a row per suite and prediction, counts as in the summaries', async () => {
		const { stderr } = await run;
		expect(stderr).toMatch(/^wrote the battery CSV \(3 suites\) to /m);
		const table = readTsvTable(await readFile(csvPath, 'utf8'), { separator: 'comma' });
		expect(table.header).toEqual([
			'model',
			'convention',
			'suite',
			'circuit',
			'prediction',
			'items',
			'correct',
			'accuracy',
			'interval_low',
			'interval_high',
		]);
		const printed = [...stderr.matchAll(/^prediction (\d+) .*: (\d+)\/(\d+) = /gm)].map((m) =>
			[m[1], m[2], m[3]].join(' '),
		);
		// Every row names the convention (the bundled model's own default); the rest by position.
		expect(new Set(table.rows.map((row) => row.fields[1]))).toEqual(new Set(['bos']));
		const rows = table.rows.map((row) => row.fields.filter((_, index) => index !== 1));
		expect(rows.filter((f) => f[3] !== 'all').map((f) => [f[3], f[5], f[4]].join(' '))).toEqual(
			printed,
		);
		const all = rows.filter((f) => f[3] === 'all').map((f) => Number(f[5]) / Number(f[4]));
		expect(all).toEqual(itemAccuracies(stderr, 'all predictions hold'));
		const circuits = {
			'Subject-verb agreement across a prepositional phrase': 'Agreement',
			'Filler-gap dependencies: object extraction': 'Long-Distance Dependencies',
			"NPI licensing: 'ever' under negation": 'Licensing',
		} as Record<string, string>;
		for (const fields of rows) {
			expect(fields[0]).toBe('gpt2-random-tiny');
			expect(fields[2]).toBe(circuits[fields[1] ?? '']);
			const [low, accuracy, high] = [fields[7], fields[6], fields[8]].map(Number);
			expect(low).toBeLessThanOrEqual(accuracy as number);
			expect(high).toBeGreaterThanOrEqual(accuracy as number);
		}
	});
});

describe('run: battery options', () => {
	it('one suite: no battery lines, the CSV still written', async () => {
		const csvPath = join(folder, 'one.csv');
		const run = await runCliCommand(
			runCommand,
			['a.json', ...TINY, '--battery-csv', csvPath],
			FILES,
		);
		expect(run.exitCode).toBe(0);
		expect(run.stderr).not.toMatch(/^battery:/m);
		const lines = (await readFile(csvPath, 'utf8')).split('\r\n');
		// Header, predictions 0 and 1, `all`, and the empty string after the last CRLF.
		expect(lines).toHaveLength(5);
	});

	it('a suite named like a formula: its name is written inert in the CSV, figures unchanged', async () => {
		const hostile = JSON.parse(FILES['b.json']) as { meta: { name: string } };
		hostile.meta.name = '=HYPERLINK("http://x","y")';
		const csvPath = join(folder, 'hostile.csv');
		const run = await runCliCommand(
			runCommand,
			['a.json', 'h.json', ...TINY, '--battery-csv', csvPath],
			{ 'a.json': FILES['a.json'], 'h.json': JSON.stringify(hostile) },
		);
		expect(run.exitCode).toBe(0);
		const lines = (await readFile(csvPath, 'utf8')).split('\r\n');
		const hostileLines = lines.filter((line) => line.includes('HYPERLINK'));
		expect(hostileLines.length).toBeGreaterThan(0);
		for (const line of hostileLines) {
			expect(line).toMatch(
				/^gpt2-random-tiny,[a-z]+,"'=HYPERLINK\(""http:\/\/x"",""y""\)",[^,]+,(\d+|all),\d+,\d+,\d\.\d{6},\d\.\d{6},\d\.\d{6}$/,
			);
		}
	});

	it('a --battery-csv folder that does not exist stops the run before the model loads', async () => {
		const run = await runCliCommand(
			runCommand,
			['a.json', 'b.json', ...TINY, '--battery-csv', join(folder, 'missing', 'x.csv')],
			FILES,
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/--battery-csv .*missing.*: its folder does not exist/);
		expect(run.stderr).not.toMatch(/scored/);
	});
});

describe('the battery summary of the Hu et al. suite set', () => {
	it('names what the SG score leaves out and shows the published scores with their source', () => {
		const battery = scoreBattery(
			HU2020_SUITE_NAMES.map((name) => ({
				suite: fixtureSuite(name, { items: 2 }),
				outcomes: fixtureOutcomes([[true, false]]),
			})),
		);
		const text = formatBatterySummary(battery);
		expect(text).toMatch(/^battery: 34 suites, 31 in the SG score/m);
		expect(text).toMatch(/^SG score, first prediction only \(Hu et al\. 2020\): 0\.500000$/m);
		expect(text).toMatch(/^left out of the SG score: nn-nv-rpl \(Hu et al\.'s master notebook/m);
		expect(text).toMatch(/^ {2}Licensing \(10 suites\): 0\.500000 \| 0\.500000$/m);
		expect(text).toMatch(
			/^published SG scores \(github\.com\/cpllab\/syntactic-generalization .*: GPT-2-XL 0\.842, GPT-2 0\.784, Transformer-XL 0\.596, JRNN 0\.563, GRNN 0\.551$/m,
		);
	});
});
