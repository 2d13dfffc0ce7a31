/**
 * Reads a stimuli spreadsheet saved as CSV or TSV: strict UTF-8 (a BOM is dropped, any malformed
 * byte is a located error), RFC 4180 quoting, the delimiter (`,` `;` or tab) chosen or detected
 * from the header line. Every column is kept as text. Errors say `source:line:column` and what to
 * change; nothing is returned half-read. Pure: bytes or text in, rows out.
 */
import { InputFormatError } from '../errors';
import { createInputFormatError } from '../formats/tsv-table';

/** The largest stimuli file read, in bytes: checked before any byte is decoded. */
export const STIMULUS_FILE_MAX_BYTES = 32 * 1024 * 1024;

/** The most data rows a stimuli file may hold (a whole self-paced-reading corpus is ~10,000). */
export const STIMULUS_MAX_ROWS = 200_000;

export type StimulusDelimiter = ',' | ';' | '\t';

export const STIMULUS_DELIMITERS: readonly StimulusDelimiter[] = [',', ';', '\t'];

/** One data row: its fields (as many as the header), where it and each field start. */
export interface StimulusRow {
	/** 1-based line of the row's first character in the file. */
	readonly line: number;
	readonly fields: readonly string[];
	/** 1-based column (UTF-16 unit, in its line) of each field's first character. */
	readonly columns: readonly number[];
}

export interface StimulusTable {
	readonly source: string;
	readonly delimiter: StimulusDelimiter;
	/** Whether the delimiter was detected (not chosen). */
	readonly delimiterDetected: boolean;
	readonly header: readonly string[];
	readonly rows: readonly StimulusRow[];
}

export interface ReadStimulusTableOptions {
	/** File name for messages (default `input`). */
	readonly source?: string;
	/** The delimiter; absent: detected from the header line. */
	readonly delimiter?: StimulusDelimiter;
}

/** The name of a delimiter in messages. */
export function delimiterName(delimiter: StimulusDelimiter): string {
	return delimiter === '\t' ? 'tab' : delimiter === ',' ? 'comma' : 'semicolon';
}

/**
 * @throws InputFormatError when a file of `byteCount` bytes is over {@link STIMULUS_FILE_MAX_BYTES}
 * (call it with the file's size before reading it).
 */
export function checkStimulusFileSize(byteCount: number, source = 'input'): void {
	if (byteCount > STIMULUS_FILE_MAX_BYTES) {
		throw createInputFormatError(
			source,
			undefined,
			undefined,
			`the file has ${byteCount} bytes; stimuli files are read up to ${STIMULUS_FILE_MAX_BYTES} bytes (${STIMULUS_FILE_MAX_BYTES / 1024 / 1024} MiB). Split it into several files.`,
		);
	}
}

/**
 * The text of a stimuli file's bytes: UTF-8 with or without a BOM (the BOM is dropped).
 * @throws InputFormatError over {@link STIMULUS_FILE_MAX_BYTES}, or at the first byte that is not
 * UTF-8 (a file saved as Latin-1 or Windows-1252, or one that mixes encodings), with its line.
 */
export function decodeStimulusBytes(bytes: Uint8Array, source = 'input'): string {
	checkStimulusFileSize(bytes.length, source);
	const other = otherFileKind(bytes);
	if (other !== undefined) {
		throw createInputFormatError(
			source,
			undefined,
			undefined,
			`${other}, not a CSV or TSV text. Save it from the spreadsheet as "CSV UTF-8" (or tab-separated text, UTF-8) and give that file.`,
		);
	}
	let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
	const units: number[] = [];
	const chunks: string[] = [];
	let line = 1;
	let lineStart = start;
	const flush = () => {
		chunks.push(String.fromCharCode(...units));
		units.length = 0;
	};
	const malformed = (at: number): InputFormatError => {
		const column = countUtf16(bytes, lineStart, at) + 1;
		const byte = (bytes[at] ?? 0).toString(16).toUpperCase().padStart(2, '0');
		return createInputFormatError(
			source,
			line,
			column,
			`byte 0x${byte} is not UTF-8 (the file, or part of it, is in another encoding such as Latin-1 or Windows-1252). Save the file as "CSV UTF-8".`,
		);
	};
	while (start < bytes.length) {
		const b0 = bytes[start] as number;
		let code: number;
		let length: number;
		if (b0 < 0x80) {
			code = b0;
			length = 1;
		} else {
			length =
				b0 >= 0xc2 && b0 <= 0xdf
					? 2
					: b0 >= 0xe0 && b0 <= 0xef
						? 3
						: b0 >= 0xf0 && b0 <= 0xf4
							? 4
							: 0;
			if (length === 0 || start + length > bytes.length) throw malformed(start);
			code = b0 & (0xff >> (length + 1));
			for (let k = 1; k < length; k++) {
				const b = bytes[start + k] as number;
				if ((b & 0xc0) !== 0x80) throw malformed(start);
				code = (code << 6) | (b & 0x3f);
			}
			const overlong = (length === 3 && code < 0x800) || (length === 4 && code < 0x10000);
			if (overlong || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw malformed(start);
		}
		if (code >= 0x10000) {
			units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
		} else units.push(code);
		start += length;
		if (code === 0x0a) {
			line += 1;
			lineStart = start;
		}
		if (units.length >= 8192) flush();
	}
	flush();
	return chunks.join('');
}

/** What a file that is not UTF-8 text looks like it is, from its first bytes; undefined: text. */
function otherFileKind(bytes: Uint8Array): string | undefined {
	const starts = (...prefix: number[]) => prefix.every((byte, i) => bytes[i] === byte);
	if (starts(0x50, 0x4b, 0x03, 0x04))
		return 'the file is a zip archive (an Excel .xlsx or OpenDocument .ods workbook?)';
	if (starts(0xd0, 0xcf, 0x11, 0xe0)) return 'the file is an old Excel .xls workbook';
	if (starts(0xff, 0xfe) || starts(0xfe, 0xff))
		return 'the file is UTF-16 text (Excel\'s "Unicode text")';
	return undefined;
}

/** UTF-16 units of the (valid) UTF-8 bytes [from, to): a column in a line. */
function countUtf16(bytes: Uint8Array, from: number, to: number): number {
	let count = 0;
	for (let i = from; i < to; i++) {
		const b = bytes[i] as number;
		if ((b & 0xc0) !== 0x80) count += b >= 0xf0 ? 2 : 1;
	}
	return count;
}

/**
 * The delimiter of a header line: the one of tab, `;`, `,` found most often outside quotes (a
 * tie goes to that order: a TSV header may hold commas in its names, a European CSV semicolons).
 * A header of one column (no delimiter at all) reads as comma-separated.
 */
export function detectDelimiter(text: string): StimulusDelimiter {
	const body = text.replace(/^\uFEFF/u, '');
	const counts = new Map<StimulusDelimiter, number>(STIMULUS_DELIMITERS.map((d) => [d, 0]));
	let quoted = false;
	for (let i = 0; i < body.length; i++) {
		const char = body[i];
		if (char === '"') quoted = !quoted;
		else if (!quoted && (char === '\n' || char === '\r')) break;
		else if (!quoted && counts.has(char as StimulusDelimiter)) {
			counts.set(char as StimulusDelimiter, (counts.get(char as StimulusDelimiter) ?? 0) + 1);
		}
	}
	let best: StimulusDelimiter = ',';
	let bestCount = 0;
	for (const delimiter of ['\t', ';', ','] as const) {
		const count = counts.get(delimiter) ?? 0;
		if (count > bestCount) {
			best = delimiter;
			bestCount = count;
		}
	}
	return best;
}

/**
 * The header and rows of a CSV/TSV text (RFC 4180: a field in double quotes may hold the
 * delimiter, line breaks and doubled quotes `""`; `\n` or `\r\n` ends a record). Blank lines are
 * skipped; header names are trimmed. Strict: a quote that never closes, text after a closing
 * quote, a row with another field count than the header, an empty or repeated header name are
 * errors at their line and column.
 * @throws InputFormatError (message `source:line:column: ...`).
 */
export function readStimulusTable(
	text: string,
	options: ReadStimulusTableOptions = {},
): StimulusTable {
	const source = options.source ?? 'input';
	const body = text.replace(/^\uFEFF/u, '');
	const delimiter = options.delimiter ?? detectDelimiter(body);
	const fail = (line: number, column: number, problem: string): never => {
		throw createInputFormatError(source, line, column, problem);
	};
	let header: string[] | undefined;
	const rows: StimulusRow[] = [];
	let at = 0;
	let line = 1;
	let lineStart = 0;
	while (at < body.length) {
		const recordLine = line;
		const fields: string[] = [];
		const columns: number[] = [];
		let blank = true;
		for (;;) {
			columns.push(at - lineStart + 1);
			let value = '';
			if (body[at] === '"') {
				const quoteLine = line;
				const quoteColumn = at - lineStart + 1;
				at += 1;
				for (;;) {
					if (at >= body.length) {
						fail(
							quoteLine,
							quoteColumn,
							`the quote that opens this field never closes (every " inside a quoted field must be doubled as ""). Check the quotes from here on.`,
						);
					}
					const char = body[at] as string;
					if (char === '"') {
						if (body[at + 1] === '"') {
							value += '"';
							at += 2;
							continue;
						}
						at += 1;
						break;
					}
					if (char === '\n') {
						line += 1;
						lineStart = at + 1;
					}
					value += char;
					at += 1;
				}
				const next = body[at];
				if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
					fail(
						line,
						at - lineStart + 1,
						`text after the closing quote of a field; quote the whole field and double the quotes inside it ("").`,
					);
				}
				if (next === '\r' && body[at + 1] !== '\n') {
					fail(
						line,
						at - lineStart + 1,
						'a carriage return without a line feed after a quoted field.',
					);
				}
				blank = false;
			} else {
				let end = at;
				while (end < body.length) {
					const char = body[end];
					if (char === delimiter || char === '\n' || (char === '\r' && body[end + 1] === '\n'))
						break;
					end += 1;
				}
				value = body.slice(at, end);
				if (value.includes('"')) {
					fail(
						line,
						at - lineStart + 1 + value.indexOf('"'),
						`a quote inside a field that does not start with one; quote the whole field and double the quote ("").`,
					);
				}
				if (value.trim() !== '') blank = false;
				at = end;
			}
			fields.push(value);
			if (body[at] === delimiter) {
				blank = false;
				at += 1;
				continue;
			}
			// End of the record: a line end or the end of the text.
			if (body[at] === '\r') at += 1;
			if (body[at] === '\n') {
				at += 1;
				line += 1;
				lineStart = at;
			}
			break;
		}
		if (blank) continue;
		if (header === undefined) {
			header = fields.map((name) => name.trim());
			const seen = new Map<string, number>();
			header.forEach((name, index) => {
				const column = columns[index] ?? 1;
				if (name === '')
					fail(
						recordLine,
						column,
						`column ${index + 1} of the header has no name; name every column.`,
					);
				const before = seen.get(name);
				if (before !== undefined) {
					fail(
						recordLine,
						column,
						`the column name '${name}' is used twice (columns ${before + 1} and ${index + 1}); give each column its own name.`,
					);
				}
				seen.set(name, index);
			});
			continue;
		}
		if (fields.length !== header.length) {
			const column =
				fields.length > header.length ? (columns[header.length] ?? 1) : (columns.at(-1) ?? 1);
			fail(
				recordLine,
				column,
				`expected ${header.length} fields (${header.join(', ')}) separated by ${delimiterName(delimiter)}s, found ${fields.length}.`,
			);
		}
		if (rows.length >= STIMULUS_MAX_ROWS) {
			fail(recordLine, 1, `more than ${STIMULUS_MAX_ROWS} rows; split the file into several.`);
		}
		rows.push({ line: recordLine, fields, columns });
	}
	if (header === undefined) {
		throw createInputFormatError(
			source,
			undefined,
			undefined,
			'the file is empty: it needs a header line and rows.',
		);
	}
	return {
		source,
		delimiter,
		delimiterDetected: options.delimiter === undefined,
		header,
		rows,
	};
}
