import { describe, expect, it } from 'vitest';
import { createInputFormatError, readTsvTable } from '../../../src/core/formats/tsv-table';
import { InputFormatError } from '../../../src/core/errors';

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
