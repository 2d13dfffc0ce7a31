// `run` with several suites says, before the model loads, that they are one battery scored in
// one pooled request (and how many sentences); one suite says nothing of it.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run';
import { buildSuiteSentences } from '../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { runCliCommand } from './run-cli-command';

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url), 'utf8');
const FILES = {
	'a.json': await read('suites/subject-verb-agreement-pp.json'),
	'b.json': await read('suites/npi-licensing-ever.json'),
};
const TINY = ['--model', 'gpt2-random-tiny', '--threads', '2'];

function sentenceCount(text: string): number {
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('a bundled suite does not parse');
	return buildSuiteSentences(parsed.suite).length;
}

describe('run: the battery line', () => {
	it('says several suites are one battery with one pooled request, first on stderr', async () => {
		const run = await runCliCommand(runCommand, ['a.json', 'b.json', ...TINY], FILES);
		expect(run.exitCode).toBe(0);
		const sentences = sentenceCount(FILES['a.json']) + sentenceCount(FILES['b.json']);
		expect(run.stderr.split('\n')[0]).toBe(
			`Battery: 2 suites, one pooled scoring request (${sentences} sentences)`,
		);
	});

	it('says nothing of a battery for one suite', async () => {
		const run = await runCliCommand(runCommand, ['a.json', ...TINY], FILES);
		expect(run.exitCode).toBe(0);
		expect(run.stderr).not.toMatch(/Battery:|pooled/);
	});

	it('--help says several suites are one battery scored in one pooled request', async () => {
		const run = await runCliCommand(runCommand, ['--help'], {});
		expect(run.stdout).toMatch(/several suites are one battery: .* one pooled request/);
	});
});
