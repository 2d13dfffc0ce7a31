import { describe, expect, it } from 'vitest';
import { InputFormatError } from '../../../../src/core/errors';
import {
	MINIMAL_PAIR_FORMULA,
	buildMinimalPairSuite,
	convertMinimalPairs,
	detectMinimalPairFormat,
	readMinimalPairs,
	readMinimalPairsJsonl,
	readMinimalPairsTable,
} from '../../../../src/core/syntaxgym/suite/minimal-pairs';
import { buildSuiteSentences } from '../../../../src/core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';

// Our own example sentences, in BLiMP's field layout.
const JSONL =
	'{"sentence_good": "The cats sleep.", "sentence_bad": "The cats sleeps.", "field": "morphology", "UID": "agreement_demo", "pairID": "0", "one_prefix_method": true}\n' +
	'\n' +
	'{"sentence_good": " A dog  barks. ", "sentence_bad": "A dog bark.", "field": "morphology", "UID": "agreement_demo", "pairID": 1}\r\n';

describe('readMinimalPairsJsonl', () => {
	it('reads pairs, keeps field/UID/pairID, cleans whitespace, skips blank lines', () => {
		expect(readMinimalPairsJsonl(JSONL, 'p.jsonl')).toEqual([
			{
				good: 'The cats sleep.',
				bad: 'The cats sleeps.',
				field: 'morphology',
				uid: 'agreement_demo',
				pairId: '0',
				line: 1,
			},
			{
				good: 'A dog barks.',
				bad: 'A dog bark.',
				field: 'morphology',
				uid: 'agreement_demo',
				pairId: '1',
				line: 3,
			},
		]);
	});

	it.each([
		['{"sentence_good": "a b"}', 'p.jsonl:1:1: "sentence_bad" is missing'],
		[
			'{"sentence_good": "a b", "sentence_bad": 3}',
			'p.jsonl:1:42: "sentence_bad" must be a string',
		],
		[
			'{"sentence_good": "", "sentence_bad": "b a"}',
			'p.jsonl:1:19: "sentence_good" must not be empty',
		],
		[
			'{"sentence_good": "a b", "sentence_bad": "b a", "UID": 7}',
			'p.jsonl:1:56: "UID" must be a string',
		],
		['[1, 2]', 'p.jsonl:1:1: the line must be a JSON object'],
		['{"sentence_good": "a b",', 'p.jsonl:1:1: this line is not a JSON object'],
		[
			'{"sentence_good": "same", "sentence_bad": " same"}',
			'p.jsonl:1:1: the good and the bad sentence are the same',
		],
		['{"sentence_good": "a b", "sentence_bad": "   "}', 'p.jsonl:1:1: the bad sentence is empty'],
	])('%s → %s', (line, message) => {
		const text = `${line}\n`;
		expect(() => readMinimalPairsJsonl(text, 'p.jsonl')).toThrow(message);
		expect(() => readMinimalPairsJsonl(text, 'p.jsonl')).toThrow(InputFormatError);
	});

	it('names the line of the bad pair', () => {
		expect(() => readMinimalPairsJsonl(`${JSONL}{"sentence_good": "x y"}\n`, 'p.jsonl')).toThrow(
			'p.jsonl:4:1:',
		);
	});
});

describe('readMinimalPairsTable', () => {
	it.each([
		[
			'no header: every row is a pair',
			'The cats sleep.,The cats sleeps.\nA dog barks.,A dog bark.\n',
		],
		['a good,bad header', 'good,bad\nThe cats sleep.,The cats sleeps.\nA dog barks.,A dog bark.\n'],
		[
			'a reversed header',
			'sentence_bad,sentence_good\nThe cats sleeps.,The cats sleep.\nA dog bark.,A dog barks.\n',
		],
	])('%s', (_, text) => {
		expect(readMinimalPairsTable(text, 'comma').map((p) => [p.good, p.bad])).toEqual([
			['The cats sleep.', 'The cats sleeps.'],
			['A dog barks.', 'A dog bark.'],
		]);
	});

	it('CSV quoting: commas and quotes inside sentences', () => {
		const text = 'good,bad\n"Yes, she said ""hi"".","Yes, she say ""hi""."\n';
		expect(readMinimalPairsTable(text, 'comma')).toEqual([
			{ good: 'Yes, she said "hi".', bad: 'Yes, she say "hi".', line: 2 },
		]);
	});

	it('TSV', () => {
		expect(readMinimalPairsTable('The cats sleep.\tThe cats sleeps.\n', 'tab')).toEqual([
			{ good: 'The cats sleep.', bad: 'The cats sleeps.', line: 1 },
		]);
	});

	it.each([
		[
			'good,bad\nA dog barks.,A dog bark.,extra\n',
			'p.csv:2:26: expected two fields (good sentence, bad sentence), found 3',
		],
		['A dog barks.\n', 'p.csv:1:13: expected two fields (good sentence, bad sentence), found 1'],
		['good,bad\nsame,same\n', 'p.csv:2:1: the good and the bad sentence are the same'],
	])('%j → %s', (text, message) => {
		expect(() => readMinimalPairsTable(text, 'comma', 'p.csv')).toThrow(message);
	});
});

describe('detectMinimalPairFormat', () => {
	it.each([
		['pairs.jsonl', '', 'jsonl'],
		['PAIRS.CSV', '', 'csv'],
		['pairs.tsv', '', 'tsv'],
		['pairs.json', JSONL, 'jsonl'],
		['suite.json', '{"meta": {"name": "x"}, "items": []}', null],
		['suite.json', '{\n  "meta": {}\n}', null],
	])('%s → %s', (fileName, text, format) => {
		expect(detectMinimalPairFormat(fileName, text)).toBe(format);
	});
});

describe('buildMinimalPairSuite', () => {
	const pairs = readMinimalPairs(JSONL, 'jsonl');

	it('one item per pair, conditions good/bad, one region, bad > good over the sentence', () => {
		const suite = buildMinimalPairSuite(pairs, { sourceName: 'p.jsonl' });
		expect(suite).toMatchObject({
			meta: { name: 'agreement_demo', metric: 'sum' },
			region_meta: { '1': 'sentence' },
			predictions: [{ type: 'formula', formula: '(1;%bad%) > (1;%good%)' }],
			items: [
				{
					item_number: 1,
					conditions: [
						{ condition_name: 'good', regions: [{ region_number: 1, content: 'The cats sleep.' }] },
						{ condition_name: 'bad', regions: [{ region_number: 1, content: 'The cats sleeps.' }] },
					],
				},
				{ item_number: 2 },
			],
		});
		expect(String((suite.meta as { comment: string }).comment)).toContain(
			'Converted from 2 minimal pairs in p.jsonl',
		);
		expect(String((suite.meta as { comment: string }).comment)).toContain(
			'UIDs: agreement_demo (2).',
		);
	});

	it('the converted suite parses strictly, with no errors, and builds the pair sentences', () => {
		const { suiteText, pairCount } = convertMinimalPairs(JSONL, 'p.jsonl', {
			name: 'Agreement demo',
		});
		expect(pairCount).toBe(2);
		const parsed = parseSuite(suiteText, { mode: 'strict' });
		expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
		if (!parsed.ok) return;
		expect(parsed.suite.meta.name).toBe('Agreement demo');
		expect(parsed.suite.predictions.map((p) => p.formula)).toEqual([MINIMAL_PAIR_FORMULA]);
		expect(
			buildSuiteSentences(parsed.suite).map((s) => [s.itemNumber, s.conditionName, s.text]),
		).toEqual([
			[1, 'good', 'The cats sleep.'],
			[1, 'bad', 'The cats sleeps.'],
			[2, 'good', 'A dog barks.'],
			[2, 'bad', 'A dog bark.'],
		]);
	});

	it('a file that is not pairs is a located error naming the formats', () => {
		expect(() => convertMinimalPairs('{"meta": {}}', 'suite.json')).toThrow(
			'suite.json: not a file of minimal pairs',
		);
		expect(() => convertMinimalPairs('\n\n', 'empty.jsonl')).toThrow(
			'empty.jsonl: the file holds no pairs.',
		);
	});
});

describe('the suite name', () => {
	it.each([
		[{ name: 'Given' }, 'Given'],
		[{ sourceName: 'data/blimp/my_pairs.csv' }, 'my_pairs'],
		[{}, 'minimal pairs'],
	])('%j → %s', (options, name) => {
		const suite = buildMinimalPairSuite([{ good: 'a b', bad: 'b a', line: 1 }], options);
		expect((suite.meta as { name: string }).name).toBe(name);
	});
});
