// `import-pairs` with a fake CliIo: BLiMP-style JSONL and CSV become a suite that validates
// strictly; located errors and usage.
import { describe, expect, it } from 'vitest';
import { importPairsCommand } from '../../src/cli/commands/import-pairs';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { runCliCommand } from './run-cli-command';

const JSONL =
	'{"sentence_good": "The keys are here.", "sentence_bad": "The keys is here.", "field": "morphology", "UID": "demo_agreement", "pairID": "0"}\n' +
	'{"sentence_good": "She left.", "sentence_bad": "She leaved.", "field": "morphology", "UID": "demo_agreement", "pairID": "1"}\n';

describe('import-pairs', () => {
	it('JSONL → a suite on stdout, a summary on stderr', async () => {
		const run = await runCliCommand(importPairsCommand, ['pairs.jsonl'], { 'pairs.jsonl': JSONL });
		expect(run.exitCode).toBe(0);
		expect(run.stderr).toBe(
			"converted 2 pairs from pairs.jsonl into suite 'demo_agreement' (2 items, conditions good and bad)\n",
		);
		const parsed = parseSuite(run.stdout, { mode: 'strict' });
		expect(parsed.ok).toBe(true);
		if (!parsed.ok) return;
		expect(parsed.suite.conditionNames).toEqual(['good', 'bad']);
		expect(
			parsed.suite.items.map((item) => item.conditions.map((c) => c.regions[0]?.content)),
		).toEqual([
			['The keys are here.', 'The keys is here.'],
			['She left.', 'She leaved.'],
		]);
		expect(parsed.suite.predictions.map((p) => p.formula)).toEqual(['(1;%bad%) > (1;%good%)']);
	});

	it('CSV with --name', async () => {
		const run = await runCliCommand(importPairsCommand, ['p.csv', '--name', 'My pairs'], {
			'p.csv': 'good,bad\n"Yes, it is.","Yes, it are."\n',
		});
		expect(run.exitCode).toBe(0);
		const parsed = parseSuite(run.stdout);
		expect(parsed.ok && parsed.suite.meta.name).toBe('My pairs');
	});

	it.each([
		[
			['p.jsonl'],
			{ 'p.jsonl': `${JSONL}{"sentence_good": "x y"}\n` },
			/p\.jsonl:3:1: "sentence_bad" is missing/,
		],
		[['p.txt'], { 'p.txt': 'hello\n' }, /p\.txt: not a file of minimal pairs/],
		[[], {}, /expected one file of pairs/],
		[['a.jsonl', 'b.jsonl'], {}, /expected one file of pairs/],
		[['p.jsonl', '--name', ' '], { 'p.jsonl': JSONL }, /--name must not be empty/],
		[['missing.jsonl'], {}, /missing\.jsonl: cannot read file/],
	])('%j → exit 2 with a located message', async (args, files, message) => {
		const run = await runCliCommand(importPairsCommand, args, files);
		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(message);
	});
});
