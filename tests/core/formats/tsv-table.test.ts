import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
	createInputFormatError,
	formatCsvField,
	formatTsvField,
	formatTsvRow,
	inertSpreadsheetCell,
	readTsvTable,
	writeCsvTable,
} from '../../../src/core/formats/tsv-table';
import { InputFormatError } from '../../../src/core/errors';
import { HOSTILE_CELLS, NUMBER_CELLS } from './hostile-cells';

describe('readTsvTable', () => {
	it('tab-separated: spaces are data, columns are 1-based field starts', () => {
		expect(readTsvTable('a\tb c\n\n1 2\t\n')).toEqual({
			header: ['a', 'b c'],
			headerLine: 1,
			rows: [{ line: 3, fields: ['1 2', ''], columns: [1, 5] }],
		});
	});

	it('whitespace-separated: runs of spaces and tabs', () => {
		expect(readTsvTable('\n x  y\t z\r\n1 \t2 3\r\n', { separator: 'whitespace' })).toEqual({
			header: ['x', 'y', 'z'],
			headerLine: 2,
			rows: [{ line: 3, fields: ['1', '2', '3'], columns: [1, 4, 6] }],
		});
	});

	it('a row with the wrong number of fields is a located error', () => {
		expect(() => readTsvTable('a\tb\n1\n', { source: 't.tsv' })).toThrow(
			't.tsv:2:2: expected 2 fields (a, b), found 1.',
		);
	});
});

describe('formatTsvField', () => {
	it.each([
		['plain', 'tab', 'plain'],
		['a b', 'tab', 'a b'],
		['"', 'tab', '""""'],
		['say "hi"', 'tab', '"say ""hi"""'],
		['a\tb', 'tab', '"a\tb"'],
		['a\nb', 'tab', '"a\nb"'],
		['a\r\nb', 'tab', '"a\r\nb"'],
		['a b', 'whitespace', '"a b"'],
		['Ġ"', 'whitespace', '"Ġ"""'],
		['', 'tab', ''],
		['a,b', 'comma', '"a,b"'],
		['a\tb', 'comma', 'a\tb'],
	] as const)('%j (%s) → %j', (field, separator, written) => {
		expect(formatTsvField(field, separator)).toBe(written);
	});
});

/** Fields that need quoting, and ones whose quotes must stay data when read. */
const AWKWARD_ROWS = [
	['1', '"', '2.5'],
	['2', '""', '0.5'],
	['3', 'a\tb', '1.0'],
	['4', 'line\nbreak', '2.0'],
	['5', '"quoted"', '3.0'],
	['6', 'Ġ."', '4.0'],
	['7', '\r\n', '5.0'],
];

describe('readTsvTable reads quoted fields back', () => {
	const written =
		[
			formatTsvRow(['id', 'token', 'surprisal']),
			...AWKWARD_ROWS.map((row) => formatTsvRow(row)),
		].join('\n') + '\n';

	it('round trip: `"`, tab and line-break tokens come back as written', () => {
		expect(readTsvTable(written).rows.map((row) => row.fields)).toEqual(AWKWARD_ROWS);
	});

	it('locates rows by their first line, fields by their column', () => {
		const { rows } = readTsvTable(written);
		expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 7, 8, 9]);
		expect(rows[0]?.columns).toEqual([1, 3, 8]);
		// The row after a two-line field starts on the line after the field's end.
		expect(readTsvTable('a\tb\n"x\ny"\t1\n2\t3\n').rows[1]?.line).toBe(4);
	});

	it('raw files written before quoting: a lone `"` or `""` token is data', () => {
		const old = 'id\ttoken\ts\n1\t"\t2.5\n2\tx\t1.0\n3\t""\t0.5\n4\t"\t3.0\n';
		expect(readTsvTable(old).rows.map((row) => row.fields)).toEqual([
			['1', '"', '2.5'],
			['2', 'x', '1.0'],
			['3', '""', '0.5'],
			['4', '"', '3.0'],
		]);
	});

	it('whitespace-separated: a quoted field may hold spaces', () => {
		const text = 'id token s\n1 """" 2.5\n2  "a b"\t1.0\n3 " 0.5\n';
		expect(readTsvTable(text, { separator: 'whitespace' }).rows.map((row) => row.fields)).toEqual([
			['1', '"', '2.5'],
			['2', 'a b', '1.0'],
			['3', '"', '0.5'],
		]);
	});

	it('comma-separated (CSV): quoted commas, and formatTsvRow joins with commas', () => {
		const text = `${formatTsvRow(['good', 'bad'], 'comma')}\n${formatTsvRow(['Yes, "it" is.', 'No'], 'comma')}\n`;
		expect(text).toBe('good,bad\n"Yes, ""it"" is.",No\n');
		expect(readTsvTable(text, { separator: 'comma' }).rows[0]?.fields).toEqual([
			'Yes, "it" is.',
			'No',
		]);
	});

	it('an unclosed quote that fits neither reading is a located error', () => {
		expect(() => readTsvTable('a\tb\n"x\ty\tz\n', { source: 'q.tsv' })).toThrow(
			'q.tsv:2:6: expected 2 fields (a, b), found 3.',
		);
	});

	const python = spawnSync('python3', ['--version']).status === 0;
	it.skipIf(!python)('Python csv (tab dialect) reads every row and field as written', () => {
		// newline='' as the csv docs ask, so line breaks inside quoted fields stay as written.
		const script =
			'import csv, io, json, sys\n' +
			"source = io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline='')\n" +
			"print(json.dumps(list(csv.reader(source, delimiter='\\t'))))\n";
		const result = spawnSync('python3', ['-c', script], { input: written, encoding: 'utf8' });
		expect(result.stderr).toBe('');
		expect(JSON.parse(result.stdout)).toEqual([['id', 'token', 'surprisal'], ...AWKWARD_ROWS]);
	});
});

describe('writeCsvTable: the spreadsheet exports', () => {
	it.each(HOSTILE_CELLS)('a formula-like text %j is written inert: %j', (cell, written) => {
		expect(formatCsvField(cell)).toBe(written);
		expect(inertSpreadsheetCell(cell)).toBe(`'${cell}`);
	});

	it.each(NUMBER_CELLS)('the number %j is written unchanged', (cell) => {
		expect(formatCsvField(cell)).toBe(cell);
	});

	it.each([
		['plain', 'plain'],
		['a,b', '"a,b"'],
		['say "hi"', '"say ""hi"""'],
		['two\nlines', '"two\nlines"'],
		[' padded', '" padded"'],
		['a-b=c', 'a-b=c'],
		["'=1", "'=1"],
		['', ''],
	])('other text: %j → %j', (cell, written) => {
		expect(formatCsvField(cell)).toBe(written);
	});

	const cells = [...HOSTILE_CELLS.map(([cell]) => cell), ...NUMBER_CELLS];
	const csv = writeCsvTable([cells.map((_, index) => `c${index}`), cells]);
	const expected = [...HOSTILE_CELLS.map(([cell]) => `'${cell}`), ...NUMBER_CELLS];

	it("CRLF rows that read back as CSV: texts with their ', numbers as they were", () => {
		expect(csv.endsWith('\r\n')).toBe(true);
		expect(readTsvTable(csv, { separator: 'comma' }).rows[0]?.fields).toEqual(expected);
	});

	const python = spawnSync('python3', ['--version']).status === 0;
	it.skipIf(!python)('Python csv reads the same fields', () => {
		const script =
			'import csv, io, json, sys\n' +
			"source = io.TextIOWrapper(sys.stdin.buffer, encoding='utf-8', newline='')\n" +
			'print(json.dumps(list(csv.reader(source))))\n';
		const result = spawnSync('python3', ['-c', script], { input: csv, encoding: 'utf8' });
		expect(result.stderr).toBe('');
		expect(JSON.parse(result.stdout)[1]).toEqual(expected);
	});
});

describe('createInputFormatError', () => {
	it.each([
		['f.tsv', 3, 4, 'f.tsv:3:4: bad', { source: 'f.tsv', line: 3, column: 4 }],
		['f.tsv', undefined, undefined, 'f.tsv: bad', { source: 'f.tsv' }],
		[undefined, 2, undefined, 'input:2: bad', { line: 2 }],
	])('%s %s %s', (source, line, column, message, location) => {
		const error = createInputFormatError(source, line, column, 'bad');
		expect(error).toBeInstanceOf(InputFormatError);
		expect(error.message).toBe(message);
		expect(error.location).toEqual(location);
	});
});
