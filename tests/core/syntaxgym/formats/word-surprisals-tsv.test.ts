import { describe, expect, it } from 'vitest';
import { readTsvTable } from '../../../../src/core/formats/tsv-table';
import { writeWordSurprisalsTsv } from '../../../../src/core/syntaxgym/formats/word-surprisals-tsv';
import { sumSurprisalsToWords } from '../../../../src/core/scoring/word-surprisal';

describe('writeWordSurprisalsTsv', () => {
	const tokens = [
		{ token: 'He', surprisalBits: 3, start: 0, end: 2 },
		{ token: 'Ġsaid', surprisalBits: 2.5, start: 2, end: 7 },
		{ token: 'Ġ"', surprisalBits: 1, start: 7, end: 9 },
		{ token: 'no', surprisalBits: 0.5, start: 9, end: 11 },
		{ token: '"', surprisalBits: 0.25, start: 11, end: 12 },
	];
	const words = sumSurprisalsToWords('He said "no"', tokens);

	it('one row per word, 1-based ids, Python floats, quoted words', () => {
		expect(writeWordSurprisalsTsv([{ words }])).toBe(
			'sentence_id\tword_id\tword\tsurprisal\ttoken_count\n' +
				'1\t1\tHe\t3.0\t1\n' +
				'1\t2\tsaid\t2.5\t1\n' +
				'1\t3\t"""no"""\t1.75\t3\n',
		);
	});

	it('corrected words are written under surprisal_bow, never under surprisal', () => {
		const corrected = sumSurprisalsToWords('He said "no"', tokens, {
			boundarySurprisalBits: [0.5, 1, 0, 0, 2],
		});
		// boundary[i] follows token i. He: 3 + 0.5; said: 2.5 + 1 − 0.5; "no": 1.75 + 2 − 1.
		expect(writeWordSurprisalsTsv([{ words: corrected }], { bowCorrected: true })).toBe(
			'sentence_id\tword_id\tword\tsurprisal_bow\ttoken_count\n' +
				'1\t1\tHe\t3.5\t1\n' +
				'1\t2\tsaid\t3.0\t1\n' +
				'1\t3\t"""no"""\t2.75\t3\n',
		);
	});

	it('item and condition columns, read back by readTsvTable', () => {
		const text = writeWordSurprisalsTsv([
			{ words, itemNumber: 4, conditionName: 'match' },
			{ words: words.slice(0, 1), itemNumber: 4, conditionName: 'mis match' },
		]);
		const table = readTsvTable(text);
		expect(table.header).toEqual([
			'sentence_id',
			'word_id',
			'word',
			'surprisal',
			'token_count',
			'item_number',
			'condition_name',
		]);
		expect(table.rows.map((row) => [row.fields[2], row.fields[5], row.fields[6]])).toEqual([
			['He', '4', 'match'],
			['said', '4', 'match'],
			['"no"', '4', 'match'],
			['He', '4', 'mis match'],
		]);
	});
});
