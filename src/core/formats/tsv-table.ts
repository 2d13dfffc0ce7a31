/**
 * Splits a TSV text into a header and rows, remembering where every field starts, so readers of
 * the concrete formats can report line:column. Pure; no quoting (the formats have none).
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
	 */
	readonly separator?: 'tab' | 'whitespace';
}

function splitLine(
	text: string,
	separator: 'tab' | 'whitespace',
): { fields: string[]; columns: number[] } {
	const fields: string[] = [];
	const columns: number[] = [];
	if (separator === 'tab') {
		let start = 0;
		for (const field of text.split('\t')) {
			fields.push(field);
			columns.push(start + 1);
			start += field.length + 1;
		}
	} else {
		for (const match of text.matchAll(/[^ \t]+/g)) {
			fields.push(match[0]);
			columns.push(match.index + 1);
		}
	}
	return { fields, columns };
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
 * @throws InputFormatError at the first row with a wrong field count, or for an empty text.
 */
export function readTsvTable(text: string, options: ReadTsvOptions = {}): TsvTable {
	const separator = options.separator ?? 'tab';
	const lines = text.replace(/^\uFEFF/, '').split('\n');
	let header: string[] | undefined;
	let headerLine = 0;
	const rows: TsvRow[] = [];
	lines.forEach((raw, index) => {
		const lineText = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
		if (lineText.trim() === '') return;
		const line = index + 1;
		const { fields, columns } = splitLine(lineText, separator);
		if (header === undefined) {
			header = fields.map((field) => field.trim());
			headerLine = line;
			return;
		}
		if (fields.length !== header.length) {
			const column =
				fields.length > header.length ? (columns[header.length] as number) : lineText.length + 1;
			throw createInputFormatError(
				options.source,
				line,
				column,
				`expected ${header.length} fields (${header.join(', ')}), found ${fields.length}.`,
			);
		}
		rows.push({ line, fields, columns });
	});
	if (header === undefined) {
		throw createInputFormatError(options.source, undefined, undefined, 'the file is empty.');
	}
	return { header, headerLine, rows };
}
