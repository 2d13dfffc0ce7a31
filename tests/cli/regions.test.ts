import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { regionsCommand } from '../../src/cli/commands/regions';
import { runCliCommand } from './run-cli-command';

const SUITE = readFileSync(new URL('../fixtures/scoring/mini-suite.json', import.meta.url), 'utf8');

/** lm-zoo surprisal TSV from `[sentence tokens as "token:bits" words]`. */
function lmZoo(...sentences: string[]): string {
	const rows = sentences.flatMap((sentence, s) =>
		sentence.split(' ').map((pair, t) => {
			const [token, bits] = pair.split(':') as [string, string];
			return `${s + 1}\t${t + 1}\t${token}\t${bits}`;
		}),
	);
	return ['sentence_id\ttoken_id\ttoken\tsurprisal', ...rows, ''].join('\n');
}

// Mini suite sentences: "The dog barks ." / "The dog bark ." / "A cat meows ." / "A cat meow" (+ empty region 3).
const SURPRISALS = lmZoo(
	'The:0 dog:5 barks:8 .:2 <eos>:1',
	'The:0 dog:5 bark:12 .:3 <eos>:1',
	'A:0 cat:6 meows:9 .:2',
	'A:0 cat:6 meow:7',
);

const HEADER =
	'item_number\tcondition_name\tregion_number\tcontent\ttokens\tsum\tmean\tmedian\trange\tmax\tmin';
// Hand-computed: the <eos> joins region 3; an empty region has sum 0, mean/median nan and
// range/max/min undefined (empty fields).
const EXPECTED = [
	HEADER,
	'1\tgood\t1\tThe dog\tThe dog\t5.0\t2.5\t2.5\t5.0\t5.0\t0.0',
	'1\tgood\t2\tbarks\tbarks\t8.0\t8.0\t8.0\t0.0\t8.0\t8.0',
	'1\tgood\t3\t.\t. <eos>\t3.0\t1.5\t1.5\t1.0\t2.0\t1.0',
	'1\tbad\t1\tThe dog\tThe dog\t5.0\t2.5\t2.5\t5.0\t5.0\t0.0',
	'1\tbad\t2\tbark\tbark\t12.0\t12.0\t12.0\t0.0\t12.0\t12.0',
	'1\tbad\t3\t.\t. <eos>\t4.0\t2.0\t2.0\t2.0\t3.0\t1.0',
	'2\tgood\t1\tA cat\tA cat\t6.0\t3.0\t3.0\t6.0\t6.0\t0.0',
	'2\tgood\t2\tmeows\tmeows\t9.0\t9.0\t9.0\t0.0\t9.0\t9.0',
	'2\tgood\t3\t.\t.\t2.0\t2.0\t2.0\t0.0\t2.0\t2.0',
	'2\tbad\t1\tA cat\tA cat\t6.0\t3.0\t3.0\t6.0\t6.0\t0.0',
	'2\tbad\t2\tmeow\tmeow\t7.0\t7.0\t7.0\t0.0\t7.0\t7.0',
	'2\tbad\t3\t\t\t0.0\tnan\tnan\t\t\t',
	'',
].join('\n');

describe('regions command', () => {
	it('prints the region table of a suite and an lm-zoo surprisal file', async () => {
		const run = await runCliCommand(regionsCommand, ['suite.json', '--surprisals', 's.tsv'], {
			'suite.json': SUITE,
			's.tsv': SURPRISALS,
		});
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toBe(EXPECTED);
		// The suite's empty region is worth one warning (located in the suite), nothing else.
		expect(run.stderr).toMatch(/^suite\.json:\d+:\d+: warning: [^\n]*empty[^\n]*\n$/);
	});

	it('aligns with the vocabulary and casing of --spec', async () => {
		const spec = JSON.stringify({
			vocabulary: {
				unk_types: ['[UNK]'],
				prefix_types: [],
				suffix_types: ['[EOS]'],
				special_types: [],
			},
			tokenizer: { type: 'word', cased: false },
		});
		const surprisals = lmZoo(
			'the:0 dog:5 barks:8 .:2 [EOS]:1',
			'the:0 dog:5 bark:12 .:3 [EOS]:1',
			'a:0 [UNK]:6 meows:9 .:2',
			'a:0 cat:6 meow:7',
		);
		const files = { 'suite.json': SUITE, 's.tsv': surprisals, 'spec.json': spec };
		const run = await runCliCommand(
			regionsCommand,
			['suite.json', '--surprisals', 's.tsv', '--spec', 'spec.json'],
			files,
		);
		expect(run.exitCode).toBe(0);
		const lines = run.stdout.split('\n');
		expect(lines[3]).toBe('1\tgood\t3\t.\t. [EOS]\t3.0\t1.5\t1.5\t1.0\t2.0\t1.0');
		expect(lines[7]).toBe('2\tgood\t1\tA cat\ta [UNK]\t6.0\t3.0\t3.0\t6.0\t6.0\t0.0');
		const withoutSpec = await runCliCommand(
			regionsCommand,
			['suite.json', '--surprisals', 's.tsv'],
			files,
		);
		expect(withoutSpec.exitCode).toBe(2);
		expect(withoutSpec.stderr).toMatch(
			/(^|\n)benchtop: s\.tsv:2: item 1, condition "good" \(sentence 1\): token 1 "the"/,
		);
	});

	it.each([
		{ args: [], message: /expected one suite file\.\nusage: regions <suite\.json>/ },
		{ args: ['suite.json'], message: /--surprisals <lm-zoo\.tsv> is required/ },
		{
			args: ['suite.json', '--surprisals', 's.tsv', '--model', 'x'],
			message: /Unknown option '--model'.*\nusage: regions/s,
		},
		{
			args: ['missing.json', '--surprisals', 's.tsv'],
			message: /missing\.json: cannot read file \(no such file\)/,
		},
		{
			args: ['broken.json', '--surprisals', 's.tsv'],
			message: /(^|\n)benchtop: broken\.json:2:\d+: error: invalid JSON/,
		},
		{
			args: ['suite.json', '--surprisals', 'three.tsv'],
			message: /three\.tsv: the file has 3 sentences but the suite has 4/,
		},
		{
			args: ['suite.json', '--surprisals', 'mismatch.tsv'],
			message:
				/(^|\n)benchtop: mismatch\.tsv:17: item 2, condition "bad" \(sentence 4\): token 2 "dog" does not match the text "cat"/,
		},
		{
			args: ['suite.json', '--surprisals', 'nan.tsv'],
			message: /(^|\n)benchtop: nan\.tsv:3:\d+: surprisal "five" is not a number/,
		},
		{
			args: ['suite.json', '--surprisals', 's.tsv', '--spec', 'broken.json'],
			message: /(^|\n)benchtop: broken\.json:2:\d+: not valid JSON/,
		},
	])('bad input $args → exit 2 with one located message', async ({ args, message }) => {
		const files = {
			'suite.json': SUITE,
			's.tsv': SURPRISALS,
			'broken.json': '{\n',
			'three.tsv': lmZoo(
				'The:0 dog:5 barks:8 .:2',
				'The:0 dog:5 bark:12 .:3',
				'A:0 cat:6 meows:9 .:2',
			),
			'mismatch.tsv': SURPRISALS.replace('4\t2\tcat', '4\t2\tdog'),
			'nan.tsv': SURPRISALS.replace('1\t2\tdog\t5', '1\t2\tdog\tfive'),
		};
		const run = await runCliCommand(regionsCommand, args, files);
		expect(run.exitCode).toBe(2);
		expect(run.stdout).toBe('');
		expect(run.stderr).toMatch(message);
		expect(run.stderr).not.toMatch(/\n\s+at /);
	});
});
