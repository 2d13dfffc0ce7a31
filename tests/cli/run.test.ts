// `run` with a fake CliIo and the real Node engine (gpt2-random-tiny): the result TSV of a bundled
// suite, and the same results as the two-step path `surprisals` → `evaluate --surprisals` (token
// strings instead of offsets: both alignments must agree on GPT-2 tokens).
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { runCommand } from '../../src/cli/commands/run';
import { surprisalsCommand } from '../../src/cli/commands/surprisals';
import { parseSuite } from '../../src/core/suite/parse-suite';
import { buildSuiteSentences } from '../../src/core/suite/build-sentences';
import { runCliCommand } from './run-cli-command';

const SUITE_PATH = 'suites/subject-verb-agreement-pp.json';
const suiteText = await readFile(new URL(`../../${SUITE_PATH}`, import.meta.url), 'utf8');
const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];

describe('run command', () => {
	it('prints one result row per item and prediction, accuracies on stderr', async () => {
		const parsed = parseSuite(suiteText);
		if (!parsed.ok) throw new Error('the bundled suite does not parse');
		const { suite } = parsed;
		const run = await runCliCommand(runCommand, ['suite.json', ...TINY], {
			'suite.json': suiteText,
		});
		expect(run.exitCode).toBe(0);
		const [header, ...rows] = run.stdout.trimEnd().split('\n');
		expect(header).toBe('suite\tprediction_id\titem_number\tresult');
		expect(rows).toHaveLength(suite.items.length * suite.predictions.length);
		for (const row of rows) {
			expect(row).toMatch(new RegExp(`^${suite.meta.name}\\t[01]\\t\\d+\\t(True|False)$`));
		}
		expect(run.stderr).toMatch(/scored 64 sentences .* gpt2-random-tiny \(fp32, reference\)/);
		expect(run.stderr).toMatch(/prediction 0 .*: \d+\/16 = /);
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
			expect(run.stdout).toBe(evaluated.stdout);
		},
	);

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
		expect(run.stderr).toMatch(/usage: run <suite\.json>/);
	});
});
