// The stimuli reader: UTF-8 (BOM, malformed bytes located), RFC 4180 quotes, delimiter detection,
// and hostile tables refused with `source:line:column` messages; the long table's CSV reads back.
import { describe, expect, it } from 'vitest';
import { InputFormatError } from '../../../src/core/errors';
import { encodeUtf8 } from '../../../src/core/formats/utf8';
import {
	checkStimulusFileSize,
	decodeStimulusBytes,
	detectDelimiter,
	readStimulusTable,
	STIMULUS_FILE_MAX_BYTES,
} from '../../../src/core/stimuli/read-stimulus-table';
import { writeStimulusTable } from '../../../src/core/stimuli/stimulus-table';

/** The error a call throws (fails the test when it throws none). */
function thrown(call: () => unknown): InputFormatError {
	try {
		call();
	} catch (error) {
		expect(error).toBeInstanceOf(InputFormatError);
		return error as InputFormatError;
	}
	throw new Error('expected an InputFormatError');
}

describe('decodeStimulusBytes', () => {
	it('drops a BOM and keeps every character, astral ones included', () => {
		const text = 'item,sentence\n1,Zoë saw 🐕 in Zürich — €5\n';
		const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...encodeUtf8(text)]);
		expect(decodeStimulusBytes(withBom)).toBe(text);
		expect(decodeStimulusBytes(encodeUtf8(text))).toBe(text);
	});

	it.each([
		['a Latin-1 é (0xE9) on line 3', [...encodeUtf8('a,b\n1,2\nx,caf'), 0xe9, 0x0a], 3, 6, 'E9'],
		['a lone continuation byte', [...encodeUtf8('a\n'), 0x80], 2, 1, '80'],
		['an overlong slash (0xC0 0xAF)', [0x61, 0xc0, 0xaf], 1, 2, 'C0'],
		['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80], 1, 1, 'ED'],
		['a sequence cut at the end', [0x61, 0xe2, 0x82], 1, 2, 'E2'],
	])('refuses %s, located', (_, bytes, line, column, hex) => {
		const error = thrown(() => decodeStimulusBytes(new Uint8Array(bytes), 's.csv'));
		expect(error.location).toEqual({ source: 's.csv', line, column });
		expect(error.message).toContain(`byte 0x${hex} is not UTF-8`);
		expect(error.message).toMatch(/^s\.csv:\d+:\d+: /);
	});

	it('locates a bad byte after multi-byte characters by UTF-16 column', () => {
		const bytes = new Uint8Array([...encodeUtf8('ab\n🐕é'), 0xff]);
		expect(thrown(() => decodeStimulusBytes(bytes)).location).toMatchObject({ line: 2, column: 4 });
	});

	it.each([
		['an .xlsx workbook', [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], 'the file is a zip archive'],
		[
			'an old .xls workbook',
			[0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1],
			'the file is an old Excel .xls workbook',
		],
		['UTF-16 text', [0xff, 0xfe, 0x61, 0x00], 'the file is UTF-16 text'],
	])('says plainly to save %s as CSV UTF-8', (_, bytes, what) => {
		const error = thrown(() => decodeStimulusBytes(new Uint8Array(bytes), 'book.xlsx'));
		expect(error.message).toMatch(
			new RegExp(`^book\\.xlsx: ${what}.*Save it from the spreadsheet as "CSV UTF-8"`),
		);
	});

	it('states the size cap, before anything is decoded', () => {
		expect(() => checkStimulusFileSize(STIMULUS_FILE_MAX_BYTES, 'big.csv')).not.toThrow();
		const error = thrown(() => checkStimulusFileSize(STIMULUS_FILE_MAX_BYTES + 1, 'big.csv'));
		expect(error.message).toBe(
			`big.csv: the file has ${STIMULUS_FILE_MAX_BYTES + 1} bytes; stimuli files are read up to ${STIMULUS_FILE_MAX_BYTES} bytes (32 MiB). Split it into several files.`,
		);
	});
});

describe('detectDelimiter', () => {
	it.each([
		['a,b,c\n1,2,3', ','],
		['a;b;c\n1,5;2,5;3', ';'],
		['a\tb\n1,2\t3', '\t'],
		['"a,b";c;d\n', ';'],
		['\uFEFFitem\tcondition,name\n', '\t'],
		['sentence\nThe dog.', ','],
	])('%j → %j', (text, delimiter) => {
		expect(detectDelimiter(text)).toBe(delimiter);
	});
});

describe('readStimulusTable', () => {
	it('reads RFC 4180 quotes: delimiters, line breaks and doubled quotes inside a field', () => {
		const text =
			'\uFEFFitem,sentence,note\r\n1,"The dog, that barked, ran.","""quoted"""\r\n' +
			'2,"Two\nlines",x\r\n\r\n3,"He said ""no"".",\r\n';
		const table = readStimulusTable(text, { source: 's.csv' });
		expect(table.delimiter).toBe(',');
		expect(table.delimiterDetected).toBe(true);
		expect(table.header).toEqual(['item', 'sentence', 'note']);
		expect(table.rows.map((row) => row.fields)).toEqual([
			['1', 'The dog, that barked, ran.', '"quoted"'],
			['2', 'Two\nlines', 'x'],
			['3', 'He said "no".', ''],
		]);
		expect(table.rows.map((row) => row.line)).toEqual([2, 3, 6]);
		expect(table.rows[1]?.columns).toEqual([1, 3, 8]);
	});

	it('reads semicolons and tabs, detected or chosen', () => {
		expect(readStimulusTable('a;b\n1,5;x\n').rows[0]?.fields).toEqual(['1,5', 'x']);
		expect(readStimulusTable('a\tb\n1,5\t"x\ty"\n').rows[0]?.fields).toEqual(['1,5', 'x\ty']);
		const chosen = readStimulusTable('a;b\n1;2\n', { delimiter: ',' });
		expect(chosen.header).toEqual(['a;b']);
		expect(chosen.delimiterDetected).toBe(false);
	});

	it.each([
		[
			'a quote that never closes',
			'item,sentence\n1,ok\n2,"The dog\n3,next\n',
			3,
			3,
			'the quote that opens this field never closes',
		],
		[
			'text after a closing quote',
			'item,sentence\n1,"The dog" barked\n',
			2,
			12,
			'text after the closing quote',
		],
		[
			'a stray quote in a raw field',
			'item,sentence\n1,The "dog"\n',
			2,
			7,
			'a quote inside a field that does not start with one',
		],
		['too few fields', 'item,sentence,cond\n1,The dog\n', 2, 3, 'expected 3 fields'],
		['too many fields', 'item,sentence\n1,The dog,extra\n', 2, 11, 'expected 2 fields'],
		['an unnamed column', 'item,,cond\n', 1, 6, 'column 2 of the header has no name'],
		['a repeated column name', 'item,word,word\n', 1, 11, "the column name 'word' is used twice"],
	])('refuses %s at its line and column', (_, text, line, column, problem) => {
		const error = thrown(() => readStimulusTable(text, { source: 's.csv' }));
		expect(error.location).toEqual({ source: 's.csv', line, column });
		expect(error.message).toContain(`s.csv:${line}:${column}: ${problem}`);
	});

	it('refuses an empty file, blank lines only included', () => {
		for (const text of ['', '\uFEFF', '\n\r\n \n']) {
			expect(thrown(() => readStimulusTable(text)).message).toBe(
				'input: the file is empty: it needs a header line and rows.',
			);
		}
	});

	it('reads back the long table it writes, formula-like cells made inert in CSV only', () => {
		const rows = [
			['item', 'sentence', 'word', 'surprisal_bits'],
			['1', 'The dog, "Rex", ran.', '"Rex",', '-0.5'],
			['2', '=SUM(A1)', 'tab\there', 'NA'],
			['3', 'two\nlines', ' padded ', '1e-7'],
		];
		const csv = readStimulusTable(writeStimulusTable(rows, 'csv'));
		expect([csv.header, ...csv.rows.map((row) => row.fields)]).toEqual([
			rows[0],
			rows[1],
			['2', "'=SUM(A1)", 'tab\there', 'NA'],
			rows[3],
		]);
		const tsv = readStimulusTable(writeStimulusTable(rows, 'tsv'));
		expect(tsv.delimiter).toBe('\t');
		expect([tsv.header, ...tsv.rows.map((row) => row.fields)]).toEqual(rows);
	});
});
