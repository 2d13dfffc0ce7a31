/**
 * The one table reader and writer. Splits a TSV/CSV text into a header and rows, remembering
 * where every field starts, so readers of the concrete formats can report line:column; writes
 * fields with RFC 4180 quoting where needed (`"`, separator, line break), and reads both quoted
 * and raw fields back. {@link writeCsvTable} writes the spreadsheet exports (CSV) with every
 * formula-like text cell made inert. Pure.
 */
import { InputFormatError } from '../errors';

export interface TsvRow {
	/** 1-based line number in the text. */
	readonly line: number;
	readonly fields: readonly string[];
	/** 1-based column (UTF-16 unit) where each field starts. */
	readonly columns: readonly number[];
}

export interface TsvTable {
	readonly header: readonly string[];
	readonly headerLine: number;
	readonly rows: readonly TsvRow[];
}

export interface ReadTsvOptions {
	/** A file name or label for error messages. */
	readonly source?: string;
	/**
	 * `tab` (default): fields are separated by single tabs, spaces are data.
	 * `whitespace`: runs of spaces/tabs separate fields (pandas `delim_whitespace`, lm-zoo files).
	 * `comma`: CSV (RFC 4180), single commas separate fields.
	 */
	readonly separator?: Separator;
}

type Separator = 'tab' | 'whitespace' | 'comma';

interface ScannedRecord {
	readonly fields: string[];
	/** 0-based offsets of each field's first character in the text. */
	readonly starts: number[];
	/** Offset just past the record's line end (or the text's end). */
	readonly next: number;
	/** Whether a quoted field ran past the record's first line. */
	readonly multiline: boolean;
}

function isSeparator(char: string | undefined, separator: Separator): boolean {
	if (separator === 'comma') return char === ',';
	return char === '\t' || (separator === 'whitespace' && char === ' ');
}

function isLineEnd(text: string, at: number): boolean {
	return at >= text.length || text[at] === '\n' || (text[at] === '\r' && text[at + 1] === '\n');
}

/**
 * Whether a field must be quoted: it holds `"`, a line break, or the separator (a tab; for the
 * whitespace-separated format any space or tab; for CSV a comma).
 */
export function tsvFieldNeedsQuotes(field: string, separator: Separator = 'tab'): boolean {
	if (separator === 'comma') return /[",\r\n]/.test(field);
	return separator === 'tab' ? /["\t\r\n]/.test(field) : /["\s]/.test(field);
}

/**
 * One field as written: RFC 4180 quoting (`"` around, inner `"` doubled) when
 * {@link tsvFieldNeedsQuotes}, else as it is. Python's `csv` (QUOTE_MINIMAL) and pandas read it.
 */
export function formatTsvField(field: string, separator: Separator = 'tab'): string {
	return tsvFieldNeedsQuotes(field, separator) ? `"${field.replaceAll('"', '""')}"` : field;
}

/**
 * One line (no line end) of fields, each through {@link formatTsvField}, tab-separated (commas
 * for `comma`). Cells are written verbatim: this is for the data formats that must stay
 * byte-exact with their reference tools (syntaxgym-core, lm-zoo); spreadsheet exports go through
 * {@link writeCsvTable}.
 */
export function formatTsvRow(fields: readonly string[], separator: Separator = 'tab'): string {
	return fields
		.map((field) => formatTsvField(field, separator))
		.join(separator === 'comma' ? ',' : '\t');
}

/** What makes a spreadsheet read a cell as a formula: `=`, `+`, `-`, `@`, tab or CR first. */
const FORMULA_START = /^[=+\-@\t\r]/u;

/** A number as the writers print it: decimal or exponent form, or Python's `inf`/`nan`. */
const NUMBER_LITERAL = /^[-+]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|inf(?:inity)?|nan)$/iu;

/**
 * A cell a spreadsheet will not evaluate: a text starting with `=`, `+`, `-`, `@`, tab or CR
 * gets a `'` in front (shown as text by Excel, LibreOffice and Google Sheets); a number
 * (`-3.5`, `1e-05`, `-inf`, `nan`) and any other text stay as they are.
 */
export function inertSpreadsheetCell(field: string): string {
	return FORMULA_START.test(field) && !NUMBER_LITERAL.test(field) ? `'${field}` : field;
}

/**
 * One CSV field for a spreadsheet: made inert ({@link inertSpreadsheetCell}), then quoted when it
 * holds `"`, a comma or a line break, has a space at an edge, or was made inert.
 */
export function formatCsvField(field: string): string {
	const inert = inertSpreadsheetCell(field);
	return inert !== field || /[",\r\n]|^\s|\s$/u.test(inert)
		? `"${inert.replaceAll('"', '""')}"`
		: inert;
}

/**
 * The CSV that every spreadsheet export writes (region table, battery, Evals samples): rows of
 * {@link formatCsvField}s, comma-separated, each ended by CRLF (RFC 4180).
 */
export function writeCsvTable(rows: readonly (readonly string[])[]): string {
	return rows.map((row) => `${row.map(formatCsvField).join(',')}\r\n`).join('');
}

/**
 * A quoted field starting at `at` (which holds `"`): its text and the offset after the closing
 * quote, or undefined when it is not one a minimal-quoting writer would have written (unclosed,
 * text after the closing quote, or, in TSV, a content that needed no quotes: then the quotes are
 * data, as in files written before quoting, where `""` is a GPT-2 token). In CSV any field may be
 * quoted (RFC 4180, Python's `csv`).
 */
function scanQuotedField(
	text: string,
	at: number,
	separator: Separator,
): { value: string; end: number } | undefined {
	let value = '';
	let index = at + 1;
	for (;;) {
		const quote = text.indexOf('"', index);
		if (quote < 0) return undefined;
		value += text.slice(index, quote);
		if (text[quote + 1] === '"') {
			value += '"';
			index = quote + 2;
			continue;
		}
		const end = quote + 1;
		if (!isLineEnd(text, end) && !isSeparator(text[end], separator)) return undefined;
		return separator === 'comma' || tsvFieldNeedsQuotes(value, separator)
			? { value, end }
			: undefined;
	}
}

/** Reads one record from `at` (a line start); `quoted: false` splits the line as it is. */
function scanRecord(
	text: string,
	at: number,
	separator: Separator,
	quoted: boolean,
): ScannedRecord {
	const fields: string[] = [];
	const starts: number[] = [];
	let multiline = false;
	let index = at;
	if (separator === 'whitespace') {
		while (isSeparator(text[index], separator)) index += 1;
		if (isLineEnd(text, index)) return finish();
	}
	for (;;) {
		starts.push(index);
		const quotedField =
			quoted && text[index] === '"' ? scanQuotedField(text, index, separator) : undefined;
		if (quotedField) {
			fields.push(quotedField.value);
			if (/[\r\n]/.test(text.slice(index, quotedField.end))) multiline = true;
			index = quotedField.end;
		} else {
			let end = index;
			while (!isLineEnd(text, end) && !isSeparator(text[end], separator)) end += 1;
			fields.push(text.slice(index, end));
			index = end;
		}
		if (isLineEnd(text, index)) return finish();
		// One separator (tab), or a run of them (whitespace); a trailing run ends the record.
		index += 1;
		if (separator === 'whitespace') {
			while (isSeparator(text[index], separator)) index += 1;
			if (isLineEnd(text, index)) return finish();
		}
	}
	function finish(): ScannedRecord {
		const next = index >= text.length ? text.length : text[index] === '\r' ? index + 2 : index + 1;
		return { fields, starts, next, multiline };
	}
}

/** 1-based line and column of every offset, from the line starts of the text. */
function locateOffsets(text: string): (offset: number) => { line: number; column: number } {
	const lineStarts = [0];
	for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
		lineStarts.push(index + 1);
	}
	return (offset) => {
		let low = 0;
		let high = lineStarts.length - 1;
		while (low < high) {
			const middle = Math.ceil((low + high) / 2);
			if ((lineStarts[middle] as number) <= offset) low = middle;
			else high = middle - 1;
		}
		return { line: low + 1, column: offset - (lineStarts[low] as number) + 1 };
	};
}

/** An InputFormatError whose message starts with `source:line:column`. */
export function createInputFormatError(
	source: string | undefined,
	line: number | undefined,
	column: number | undefined,
	problem: string,
): InputFormatError {
	const where = [source ?? 'input', line, line === undefined ? undefined : column]
		.filter((part) => part !== undefined)
		.join(':');
	return new InputFormatError(`${where}: ${problem}`, {
		...(source === undefined ? {} : { source }),
		...(line === undefined ? {} : { line }),
		...(column === undefined || line === undefined ? {} : { column }),
	});
}

/**
 * Reads a header line and data rows. Blank lines are skipped (as pandas does), a leading BOM and
 * `\r` line ends are ignored. Every row must have as many fields as the header.
 *
 * Both forms of a field are read: RFC 4180 quoted (`"a""b"`, as {@link formatTsvField} and
 * Python's `csv` write; the field may then hold tabs and line breaks) and raw (files written
 * before quoting, where `"` is just a token). A field is taken as quoted only when its quotes
 * close before a separator or line end and its content needed quoting; a row whose quoted
 * reading runs over several lines or has the wrong field count, while the raw reading of its
 * line fits the header, is read raw.
 * @throws InputFormatError at the first row with a wrong field count, or for an empty text.
 */
export function readTsvTable(text: string, options: ReadTsvOptions = {}): TsvTable {
	const separator = options.separator ?? 'tab';
	const body = text.replace(/^\uFEFF/, '');
	const offset = text.length - body.length;
	const locate = locateOffsets(text);
	let header: string[] | undefined;
	let headerLine = 0;
	const rows: TsvRow[] = [];
	let at = 0;
	while (at < body.length) {
		const raw = scanRecord(body, at, separator, false);
		const lineText = body.slice(at, raw.next).replace(/\r?\n$/, '');
		if (lineText.trim() === '') {
			at = raw.next;
			continue;
		}
		const quoted = scanRecord(body, at, separator, true);
		const expected = header?.length;
		const fits = (record: ScannedRecord) =>
			expected === undefined || record.fields.length === expected;
		let record: ScannedRecord;
		if (!quoted.multiline) record = fits(quoted) || !fits(raw) ? quoted : raw;
		else record = fits(raw) || !fits(quoted) ? raw : quoted;
		const { line } = locate(at + offset);
		const columns = record.starts.map((start) => locate(start + offset).column);
		if (header === undefined) {
			header = record.fields.map((field) => field.trim());
			headerLine = line;
		} else if (record.fields.length !== header.length) {
			const column =
				record.fields.length > header.length
					? (columns[header.length] as number)
					: lineText.length + 1;
			throw createInputFormatError(
				options.source,
				line,
				column,
				`expected ${header.length} fields (${header.join(', ')}), found ${record.fields.length}.`,
			);
		} else {
			rows.push({ line, fields: record.fields, columns });
		}
		at = record.next;
	}
	if (header === undefined) {
		throw createInputFormatError(options.source, undefined, undefined, 'the file is empty.');
	}
	return { header, headerLine, rows };
}
