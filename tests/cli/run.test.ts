// `run` with a fake CliIo and the real Node engine (gpt2-random-tiny): the result TSV of a bundled
// suite, and the same results as the two-step path `surprisals` → `evaluate --surprisals` (token
// strings instead of offsets: both alignments must agree on GPT-2 tokens).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { runCommand } from '../../src/cli/commands/run';
import { surprisalsCommand } from '../../src/cli/commands/surprisals';
import { conventionDefaultOf, conventionFactsOf } from '../../src/core/model/convention-choice';
import { DEFAULT_MODEL_ID } from '../../src/core/model/model-spec';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { runCliCommand } from './run-cli-command';

const SUITE_PATH = 'suites/subject-verb-agreement-pp.json';
const suiteText = await readFile(new URL(`../../${SUITE_PATH}`, import.meta.url), 'utf8');
const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];

describe('run command', () => {
	it('--convention reference: syntaxgym-core’s table, one row per item and prediction; accuracies on stderr', async () => {
		const parsed = parseSuite(suiteText);
		if (!parsed.ok) throw new Error('the bundled suite does not parse');
		const { suite } = parsed;
		const run = await runCliCommand(
			runCommand,
			['suite.json', ...TINY, '--convention', 'reference'],
			{ 'suite.json': suiteText },
		);
		expect(run.exitCode).toBe(0);
		const [header, ...rows] = run.stdout.trimEnd().split('\n');
		expect(header).toBe('suite\tprediction_id\titem_number\tresult');
		expect(rows).toHaveLength(suite.items.length * suite.predictions.length);
		for (const row of rows) {
			expect(row).toMatch(new RegExp(`^${suite.meta.name}\\t[01]\\t\\d+\\t(True|False)$`));
		}
		expect(run.stderr).toMatch(/scored 64 sentences .* gpt2-random-tiny \(fp32, reference\)/);
		expect(run.stderr).toMatch(
			/^results of gpt2-random-tiny under convention reference \(--convention\):$/m,
		);
		expect(run.stderr).toMatch(/prediction 0 .*: \d+\/16 = /);
	});

	it('no flags on gpt2-en-small: the app’s default convention (bos), named on stdout and stderr', async () => {
		const run = await runCliCommand(runCommand, ['suite.json', '--threads', '2'], {
			'suite.json': suiteText,
		});
		expect(run.exitCode, run.stderr).toBe(0);
		const app = conventionDefaultOf(
			conventionFactsOf({
				source: 'bundled',
				id: DEFAULT_MODEL_ID,
				dtype: 'fp32',
				backend: 'wasm',
			}),
		);
		expect(app?.convention).toBe('bos');
		const [header, ...rows] = run.stdout.trimEnd().split('\n');
		expect(header).toBe('suite\tprediction_id\titem_number\tresult\tconvention');
		expect(rows.length).toBeGreaterThan(0);
		for (const row of rows) expect(row.endsWith('\tbos')).toBe(true);
		expect(run.stderr).toMatch(
			/^convention: bos \(the model's default\): gpt2-en-small: its model card/m,
		);
		expect(run.stderr).toMatch(
			/^results of gpt2-en-small under convention bos \(the model's default\):$/m,
		);
	});

	it.each(['reference', 'bos', 'bos+eos'])(
		'%s: the same results as surprisals → evaluate --surprisals',
		async (convention) => {
			const parsed = parseSuite(suiteText);
			if (!parsed.ok) throw new Error('the bundled suite does not parse');
			const sentences = buildSuiteSentences(parsed.suite).map((s) => s.text);
			const args = [...TINY, '--convention', convention];
			const run = await runCliCommand(runCommand, ['suite.json', ...args], {
				'suite.json': suiteText,
			});
			const surprisals = await runCliCommand(surprisalsCommand, ['s.txt', ...args], {
				's.txt': `${sentences.join('\n')}\n`,
			});
			const evaluated = await runCliCommand(
				evaluateCommand,
				['suite.json', '--surprisals', 'surprisals.tsv'],
				{ 'suite.json': suiteText, 'surprisals.tsv': surprisals.stdout },
			);
			expect([run.exitCode, surprisals.exitCode, evaluated.exitCode]).toEqual([0, 0, 0]);
			// Outside reference the run's table names its convention in a last column.
			const table =
				convention === 'reference'
					? run.stdout
					: run.stdout.replaceAll(/\tconvention\n|\t(bos|bos\+eos)\n/g, '\n');
			expect(run.stdout === table).toBe(convention === 'reference');
			expect(table).toBe(evaluated.stdout);
		},
	);

	it('several suites: scored in one request, one table (suites in argument order), a summary each', async () => {
		const otherPath = 'suites/filler-gap-object.json';
		const otherText = await readFile(new URL(`../../${otherPath}`, import.meta.url), 'utf8');
		const files = { 'a.json': suiteText, 'b.json': otherText };
		const both = await runCliCommand(runCommand, ['a.json', 'b.json', ...TINY], files);
		const a = await runCliCommand(runCommand, ['a.json', ...TINY], files);
		const b = await runCliCommand(runCommand, ['b.json', ...TINY], files);
		expect([both.exitCode, a.exitCode, b.exitCode]).toEqual([0, 0, 0]);
		const [header, ...rowsA] = a.stdout.trimEnd().split('\n');
		const [, ...rowsB] = b.stdout.trimEnd().split('\n');
		// Pooling changes which sentence lends a prefix its cache, not the results.
		expect(both.stdout).toBe(`${[header, ...rowsA, ...rowsB].join('\n')}\n`);
		expect(both.stderr.match(/^scored \d+ sentences/gm)).toHaveLength(1);
		const sentences = (text: string) => Number(/^scored (\d+) sentences/m.exec(text)?.[1]);
		expect(sentences(both.stderr)).toBe(sentences(a.stderr) + sentences(b.stderr));
		const summaries = [...both.stderr.matchAll(/^suite (.+): \d+ of \d+ items evaluated$/gm)];
		expect(summaries.map((m) => m[1])).toEqual([
			/^suite (.+):/m.exec(a.stderr)?.[1],
			/^suite (.+):/m.exec(b.stderr)?.[1],
		]);
	});

	it('a bad suite among several stops the run before any model is loaded', async () => {
		const run = await runCliCommand(runCommand, ['a.json', 'b.json', ...TINY], {
			'a.json': suiteText,
			'b.json': '{ "meta": ',
		});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/b\.json:1:/);
		expect(run.stderr).not.toMatch(/scored/);
	});

	it('a suite that does not parse is an input error (exit 2), before any model is loaded', async () => {
		const run = await runCliCommand(runCommand, ['suite.json', ...TINY], {
			'suite.json': '{ "meta": ',
		});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/suite\.json:1:/);
		expect(run.stderr).not.toMatch(/scored/);
	});

	it('a bad option is an input error with the usage line', async () => {
		const run = await runCliCommand(runCommand, ['suite.json', '--convention', 'x'], {
			'suite.json': suiteText,
		});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/usage: run <suite\.json>\.\.\./);
	});
});
