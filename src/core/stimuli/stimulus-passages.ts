/**
 * The texts a stimuli table asks to score, and where each of its words is: one text per row (a
 * group column joins rows into one running passage), one word per row (the user's words, never
 * re-split), or a context and a target. Bad rows are located (`source:line:column`). Pure.
 */
import { createInputFormatError } from '../formats/tsv-table';
import type { StimulusTable } from './read-stimulus-table';

/** How the words of a text are found (text layouts only; one word per row keeps the user's). */
export type PunctuationRule = 'keep' | 'split' | 'ignore';

export const PUNCTUATION_RULES: readonly PunctuationRule[] = ['keep', 'split', 'ignore'];

export type StimulusLayout =
	| {
			readonly kind: 'text';
			readonly textColumn: string;
			/** Rows with the same value are read as one running passage, in row order. */
			readonly groupColumn?: string;
	  }
	| {
			readonly kind: 'word';
			readonly wordColumn: string;
			/** Rows with the same value are the words of one sentence or passage. */
			readonly groupColumn: string;
			/** A number giving each word's place in its group; absent: row order. */
			readonly orderColumn?: string;
	  }
	| {
			readonly kind: 'context-target';
			readonly contextColumn: string;
			readonly targetColumn: string;
	  };

/** One word of a passage: its UTF-16 span in the passage's text and the row it came from. */
export interface StimulusWordSpan {
	readonly start: number;
	readonly end: number;
	/** Index into `StimulusTable.rows`. */
	readonly rowIndex: number;
}

/** One text to score and its words, in reading order. */
export interface StimulusPassage {
	readonly text: string;
	readonly words: readonly StimulusWordSpan[];
}

/** What joins rows of a passage, words of a word-per-row group, a context and its target, unless
 * chosen otherwise (pangoling's `sep`; `''` for a language written without spaces). */
export const STIMULUS_JOINER = ' ';

/** Punctuation split off at a word's edges (Unicode general category P). */
const EDGE_PUNCTUATION = /^(\p{P}*)(.*?)(\p{P}*)$/su;

/**
 * The words of a text as UTF-16 spans: maximal runs of non-whitespace (`keep`, `"dog."` is one
 * word, as minicons and pangoling split on spaces); with `split` the punctuation at a run's start
 * and end becomes words of its own (`"(dog)."` → `(`, `dog`, `).`; `don't` stays whole); with
 * `ignore` that punctuation is in no word (its tokens count in no word's surprisal). A run that
 * is all punctuation is one word under `split` and none under `ignore`.
 */
export function findStimulusWords(
	text: string,
	punctuation: PunctuationRule = 'keep',
): { start: number; end: number }[] {
	const spans: { start: number; end: number }[] = [];
	for (const match of text.matchAll(/\S+/gu)) {
		const start = match.index;
		const run = match[0];
		if (punctuation === 'keep') {
			spans.push({ start, end: start + run.length });
			continue;
		}
		const [, lead = '', core = '', trail = ''] = EDGE_PUNCTUATION.exec(run) ?? [];
		if (core === '') {
			if (punctuation === 'split') spans.push({ start, end: start + run.length });
			continue;
		}
		const coreStart = start + lead.length;
		const coreEnd = coreStart + core.length;
		if (punctuation === 'split' && lead !== '') spans.push({ start, end: coreStart });
		spans.push({ start: coreStart, end: coreEnd });
		if (punctuation === 'split' && trail !== '')
			spans.push({ start: coreEnd, end: coreEnd + trail.length });
	}
	return spans;
}

function columnIndex(table: StimulusTable, name: string, role: string): number {
	const index = table.header.indexOf(name);
	if (index < 0) {
		throw createInputFormatError(
			table.source,
			1,
			undefined,
			`no column named '${name}' for the ${role}; the columns are ${table.header.map((h) => `'${h}'`).join(', ')}.`,
		);
	}
	return index;
}

/** The row's field and where it is, for messages. */
function cell(table: StimulusTable, rowIndex: number, column: number) {
	const row = table.rows[rowIndex];
	return {
		value: row?.fields[column] ?? '',
		line: row?.line ?? 0,
		column: row?.columns[column] ?? 1,
	};
}

/**
 * Row indices by group value, groups in order of first appearance.
 * @throws InputFormatError for an empty group value, or (with `contiguous`) a group whose rows
 * come back after another group's: rows out of order.
 */
function groupRows(
	table: StimulusTable,
	groupIndex: number,
	contiguous: boolean,
	orderHint: string,
): number[][] {
	const groups = new Map<string, number[]>();
	let current: string | undefined;
	table.rows.forEach((_, rowIndex) => {
		const { value, line, column } = cell(table, rowIndex, groupIndex);
		const name = table.header[groupIndex] ?? '';
		if (value.trim() === '') {
			throw createInputFormatError(
				table.source,
				line,
				column,
				`the group column '${name}' is empty; give every row its group.`,
			);
		}
		const rows = groups.get(value);
		if (rows === undefined) groups.set(value, [rowIndex]);
		else {
			if (contiguous && current !== value) {
				const last = table.rows[rows.at(-1) ?? 0]?.line ?? 0;
				throw createInputFormatError(
					table.source,
					line,
					column,
					`the rows of group '${value}' (column '${name}') are out of order: it came before, up to line ${last}, and other groups came between. ${orderHint}`,
				);
			}
			rows.push(rowIndex);
		}
		current = value;
	});
	return [...groups.values()];
}

function requireText(table: StimulusTable, rowIndex: number, column: number, what: string): string {
	const { value, line, column: at } = cell(table, rowIndex, column);
	if (value.trim() === '') {
		throw createInputFormatError(
			table.source,
			line,
			at,
			`the ${what} column '${table.header[column] ?? ''}' is empty; give every row its ${what}, or remove the row.`,
		);
	}
	return value;
}

/** Texts joined by `sep` (nothing where one side already has whitespace there). */
function joinPart(before: string, part: string, sep: string): { text: string; offset: number } {
	const glue = before === '' || /\s$/u.test(before) || /^\s/u.test(part) ? '' : sep;
	return { text: before + glue + part, offset: before.length + glue.length };
}

/**
 * The passages of a table under a layout, in table order (groups by first appearance).
 * @throws InputFormatError for a missing column, an empty text/word/target, an empty group, a
 * group whose rows are out of order (no order column), an order value that is not a number or
 * is repeated in its group.
 */
export function buildStimulusPassages(
	table: StimulusTable,
	layout: StimulusLayout,
	punctuation: PunctuationRule = 'keep',
	sep: string = STIMULUS_JOINER,
): StimulusPassage[] {
	if (layout.kind === 'context-target') {
		const context = columnIndex(table, layout.contextColumn, 'context');
		const target = columnIndex(table, layout.targetColumn, 'target');
		return table.rows.map((_, rowIndex) => {
			const before = cell(table, rowIndex, context).value;
			const { text, offset } = joinPart(
				before,
				requireText(table, rowIndex, target, 'target'),
				sep,
			);
			const words = findStimulusWords(text.slice(offset), punctuation).map((span) => ({
				start: span.start + offset,
				end: span.end + offset,
				rowIndex,
			}));
			return { text, words };
		});
	}
	if (layout.kind === 'text') {
		const textIndex = columnIndex(table, layout.textColumn, 'text');
		const groups =
			layout.groupColumn === undefined
				? table.rows.map((_, rowIndex) => [rowIndex])
				: groupRows(
						table,
						columnIndex(table, layout.groupColumn, 'group'),
						true,
						'Sort the file so that each passage’s rows are together, in reading order.',
					);
		return groups.map((rows) => {
			let text = '';
			const words: StimulusWordSpan[] = [];
			for (const rowIndex of rows) {
				const part = requireText(table, rowIndex, textIndex, 'text');
				const joined = joinPart(text, part, sep);
				text = joined.text;
				for (const span of findStimulusWords(part, punctuation)) {
					words.push({
						start: span.start + joined.offset,
						end: span.end + joined.offset,
						rowIndex,
					});
				}
			}
			return { text, words };
		});
	}
	const wordIndex = columnIndex(table, layout.wordColumn, 'word');
	const groupIndex = columnIndex(table, layout.groupColumn, 'group');
	const orderIndex =
		layout.orderColumn === undefined ? undefined : columnIndex(table, layout.orderColumn, 'order');
	const groups = groupRows(
		table,
		groupIndex,
		orderIndex === undefined,
		'Sort the file so that each group’s words are together, or name the column that orders them.',
	);
	return groups.map((rows) => {
		const ordered = orderIndex === undefined ? rows : orderRows(table, rows, orderIndex);
		let text = '';
		const words: StimulusWordSpan[] = [];
		for (const rowIndex of ordered) {
			const word = requireText(table, rowIndex, wordIndex, 'word').trim();
			const joined = joinPart(text, word, sep);
			text = joined.text;
			words.push({ start: joined.offset, end: joined.offset + word.length, rowIndex });
		}
		return { text, words };
	});
}

/** A group's rows sorted by the order column. @throws InputFormatError for a bad or repeated value. */
function orderRows(table: StimulusTable, rows: readonly number[], orderIndex: number): number[] {
	const name = table.header[orderIndex] ?? '';
	const seen = new Map<number, number>();
	const keyed = rows.map((rowIndex) => {
		const { value, line, column } = cell(table, rowIndex, orderIndex);
		const order = value.trim() === '' ? Number.NaN : Number(value.trim());
		if (!Number.isFinite(order)) {
			throw createInputFormatError(
				table.source,
				line,
				column,
				`the order column '${name}' holds '${value}', not a number.`,
			);
		}
		const before = seen.get(order);
		if (before !== undefined) {
			throw createInputFormatError(
				table.source,
				line,
				column,
				`the order ${value.trim()} (column '${name}') is used twice in this group (also on line ${before}); each word needs its own place.`,
			);
		}
		seen.set(order, table.rows[rowIndex]?.line ?? 0);
		return { rowIndex, order };
	});
	return keyed.sort((a, b) => a.order - b.order).map((entry) => entry.rowIndex);
}
