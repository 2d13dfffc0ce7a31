import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
	checkSentenceCount,
	readLmZooSurprisals,
	writeLmZooSurprisals,
} from '../../../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { InputFormatError } from '../../../../src/core/errors';

const GOOD = [
	'sentence_id\ttoken_id\ttoken\tsurprisal',
	'1\t1\tThe\t0.000000',
	'1\t2\tdog\t7.25',
	'1\t3\t<eos>\t-0.000000',
	'',
	'2\t1\tA\t0.0',
	'2\t2\tcat\t1e-05',
	'',
].join('\n');

describe('readLmZooSurprisals', () => {
	it('reads sentences in order with tokens, bits and lines', () => {
		expect(readLmZooSurprisals(GOOD, 'surp.tsv')).toEqual([
			{
				sentenceId: 1,
				tokens: [
					{ token: 'The', surprisalBits: 0, line: 2 },
					{ token: 'dog', surprisalBits: 7.25, line: 3 },
					{ token: '<eos>', surprisalBits: -0, line: 4 },
				],
			},
			{
				sentenceId: 2,
				tokens: [
					{ token: 'A', surprisalBits: 0, line: 6 },
					{ token: 'cat', surprisalBits: 1e-5, line: 7 },
				],
			},
		]);
	});

	it('accepts space-separated columns in any order, CRLF and a BOM; ignores extra columns', () => {
		const text = '\uFEFFtoken  surprisal sentence_id token_id extra\r\nHi 2.5 1 1 x\r\n';
		expect(readLmZooSurprisals(text)).toEqual([
			{ sentenceId: 1, tokens: [{ token: 'Hi', surprisalBits: 2.5, line: 2 }] },
		]);
	});

	it.each([
		[
			'missing column',
			'sentence_id\ttoken_id\ttoken\n1\t1\ta\n',
			's.tsv:1:1: the header must name the columns',
		],
		[
			'short row',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\n',
			's.tsv:2:6: expected 4 fields',
		],
		[
			'long row',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\t2\t3\n',
			's.tsv:2:9: expected 4 fields',
		],
		[
			'non-numeric surprisal',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\tlots\n',
			's.tsv:2:7: surprisal "lots" is not a number',
		],
		[
			'first sentence is not 1',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n2\t1\ta\t1\n',
			's.tsv:2:1: sentence_id "2" is out of order: expected 1',
		],
		[
			'sentence skipped',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\t1\n3\t1\tb\t1\n',
			's.tsv:3:1: sentence_id "3" is out of order: expected 1 or 2',
		],
		[
			'sentence going back',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\t1\n2\t1\tb\t1\n1\t2\tc\t1\n',
			's.tsv:4:1: sentence_id "1" is out of order: expected 2 or 3',
		],
		[
			'token id gap',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\t1\n1\t3\tb\t1\n',
			's.tsv:3:3: token_id "3" is out of order: expected 2',
		],
		[
			'new sentence not at token 1',
			'sentence_id\ttoken_id\ttoken\tsurprisal\n1\t1\ta\t1\n2\t2\tb\t1\n',
			's.tsv:3:3: token_id "2"',
		],
		['empty file', '\n\n', 's.tsv: the file is empty'],
	])('%s → located InputFormatError', (_name, text, message) => {
		const run = () => readLmZooSurprisals(text, 's.tsv');
		expect(run).toThrow(InputFormatError);
		expect(run).toThrow(message);
	});

	it('the error carries source, line and column', () => {
		try {
			readLmZooSurprisals('sentence_id token_id token surprisal\n1 1 a x\n', 'f.tsv');
			expect.unreachable();
		} catch (error) {
			expect((error as InputFormatError).location).toEqual({ source: 'f.tsv', line: 2, column: 7 });
		}
	});
});

describe('checkSentenceCount', () => {
	const sentences = readLmZooSurprisals(GOOD);
	it('passes when counts agree', () => {
		expect(() => checkSentenceCount(sentences, 2, 's.tsv')).not.toThrow();
	});
	it.each([
		[1, 's.tsv:6:1: the file has 2 sentences but the suite has 1'],
		[3, 's.tsv: the file has 2 sentences but the suite has 3'],
	])('suite with %i sentences', (expected, message) => {
		expect(() => checkSentenceCount(sentences, expected, 's.tsv')).toThrow(message);
	});
});

describe('writeLmZooSurprisals', () => {
	it('writes 1-based ids and Python floats, and reads back to the same values', () => {
		const sentences = [
			{
				tokens: [
					{ token: 'The', surprisalBits: 0 },
					{ token: 'Ġdog', surprisalBits: 0.1 + 0.2 },
				],
			},
			{ tokens: [{ token: '<|endoftext|>', surprisalBits: 1.5e-7 }] },
		];
		const text = writeLmZooSurprisals(sentences);
		expect(text).toBe(
			'sentence_id\ttoken_id\ttoken\tsurprisal\n' +
				'1\t1\tThe\t0.0\n1\t2\tĠdog\t0.30000000000000004\n2\t1\t<|endoftext|>\t1.5e-07\n',
		);
		const read = readLmZooSurprisals(text);
		expect(read.map((s) => s.tokens.map((t) => [t.token, t.surprisalBits]))).toEqual(
			sentences.map((s) => s.tokens.map((t) => [t.token, t.surprisalBits])),
		);
	});

	it('quotes a token holding whitespace instead of changing it', () => {
		expect(writeLmZooSurprisals([{ tokens: [{ token: 'a b', surprisalBits: 1 }] }])).toContain(
			'\t"a b"\t',
		);
	});
});

describe('token TSV with awkward tokens, items and conditions', () => {
	const TOKENS = ['"', 'Ġ"', '""', 'a\tb', 'line\nbreak', 'Ġthe', '\r\n', 'x y'];
	const sentences = [
		{
			itemNumber: 3,
			conditionName: 'what gap',
			tokens: TOKENS.map((token, index) => ({ token, surprisalBits: index + 0.5 })),
		},
		{ itemNumber: 3, conditionName: 'that_nogap', tokens: [{ token: '"', surprisalBits: 2 }] },
	];
	const text = writeLmZooSurprisals(sentences);

	it('writes item_number and condition_name after the lm-zoo columns', () => {
		expect(text.split('\n')[0]).toBe(
			'sentence_id\ttoken_id\ttoken\tsurprisal\titem_number\tcondition_name',
		);
		expect(text.split('\n')[1]).toBe('1\t1\t""""\t0.5\t3\t"what gap"');
	});

	it('round trip: every token, item and condition comes back', () => {
		const read = readLmZooSurprisals(text, 'tokens.tsv');
		expect(
			read.map((s) => [
				s.itemNumber,
				s.conditionName,
				s.tokens.map((t) => [t.token, t.surprisalBits]),
			]),
		).toEqual(
			sentences.map((s) => [
				s.itemNumber,
				s.conditionName,
				s.tokens.map((t) => [t.token, t.surprisalBits]),
			]),
		);
	});

	const python = spawnSync('python3', ['--version']).status === 0;
	it.skipIf(!python)('Python csv (tab dialect) loses no row', () => {
		const script =
			'import csv, io, json, sys\n' +
			"source = io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline='')\n" +
			"print(json.dumps(list(csv.reader(source, delimiter='\\t'))))\n";
		const result = spawnSync('python3', ['-c', script], { input: text, encoding: 'utf8' });
		expect(result.stderr).toBe('');
		const rows = JSON.parse(result.stdout) as string[][];
		expect(rows).toHaveLength(1 + TOKENS.length + 1);
		expect(rows.slice(1).map((row) => row[2])).toEqual([...TOKENS, '"']);
		expect(rows.every((row) => row.length === 6)).toBe(true);
	});
});
