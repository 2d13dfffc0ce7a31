/**
 * The Stimuli page's figure: mean word surprisal at each word position, or at a critical word
 * (named by a column of the file) and the words around it, one series per condition (a column of
 * the file; none: every row is one series), with Student-t 95% intervals over the rows' words
 * there, for one model. Plain values for the UI's chart component. Pure.
 */
import { studentTQuantile } from '../syntaxgym/aggregation/student-t';
import { seriesExtent, type ChartSeries, type ChartSpec } from '../syntaxgym/charts/chart-spec';
import type { StimulusTable } from './read-stimulus-table';
import type { StimuliWordRow } from './stimuli-run-kind';

/** Positions past this are left out of the figure (the table has them all). */
export const STIMULI_FIGURE_MAX_POSITIONS = 40;

/** The mean of one condition at one word position. */
export interface StimuliPositionMean {
	readonly condition: string;
	/** 1-based word position in its text or target. */
	readonly position: number;
	/** Words with a finite surprisal here. */
	readonly count: number;
	readonly mean: number;
	/** mean ± t(n − 1) · sd / √n at 95%; null below two words. */
	readonly low: number | null;
	readonly high: number | null;
}

/**
 * Mean surprisal per condition and word position for model `model`; conditions in order of
 * first appearance, positions ascending. `conditionColumn` null: one condition, "all".
 */
export function stimuliPositionMeans(
	table: StimulusTable,
	words: readonly StimuliWordRow[],
	model: number,
	conditionColumn: string | null,
): StimuliPositionMean[] {
	const column = conditionColumn === null ? -1 : table.header.indexOf(conditionColumn);
	const groups = new Map<string, Map<number, number[]>>();
	for (const word of words) {
		if (word.model !== model || !Number.isFinite(word.surprisalBits)) continue;
		const condition = column < 0 ? 'all' : (table.rows[word.row]?.fields[column] ?? '');
		const positions = groups.get(condition) ?? new Map<number, number[]>();
		groups.set(condition, positions);
		const position = word.wordIndex + 1;
		const values = positions.get(position) ?? [];
		positions.set(position, values);
		values.push(word.surprisalBits);
	}
	return meansOfGroups(groups);
}

/** Mean and Student-t 95% interval of each condition's values at each position (ascending). */
function meansOfGroups(
	groups: ReadonlyMap<string, ReadonlyMap<number, number[]>>,
): StimuliPositionMean[] {
	const means: StimuliPositionMean[] = [];
	for (const [condition, positions] of groups) {
		for (const position of [...positions.keys()].sort((a, b) => a - b)) {
			const values = positions.get(position) ?? [];
			const n = values.length;
			const mean = values.reduce((sum, x) => sum + x, 0) / n;
			const sd =
				n < 2 ? Number.NaN : Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1));
			const half = n < 2 ? null : (studentTQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
			means.push({
				condition,
				position,
				count: n,
				mean,
				low: half === null ? null : mean - half,
				high: half === null ? null : mean + half,
			});
		}
	}
	return means;
}

/** One series per condition (in order of first appearance) of the means at `positions` (null
 * where a condition has none), and the extent of their values and intervals. */
function seriesAt(
	means: readonly StimuliPositionMean[],
	positions: readonly number[],
): { series: ChartSeries[]; extent: ReturnType<typeof seriesExtent> } {
	const conditions = [...new Set(means.map((m) => m.condition))];
	const find = (condition: string, position: number) =>
		means.find((m) => m.condition === condition && m.position === position);
	const series = conditions.map((condition) => ({
		label: condition,
		values: positions.map((p) => find(condition, p)?.mean ?? null),
		low: positions.map((p) => find(condition, p)?.low ?? null),
		high: positions.map((p) => find(condition, p)?.high ?? null),
	}));
	return { series, extent: seriesExtent(series) };
}

/** The chart of the means: positions on the x axis (up to STIMULI_FIGURE_MAX_POSITIONS). */
export function stimuliFigureSpec(means: readonly StimuliPositionMean[], model: string): ChartSpec {
	const last = Math.min(
		STIMULI_FIGURE_MAX_POSITIONS,
		means.reduce((max, m) => Math.max(max, m.position), 0),
	);
	const positions = Array.from({ length: last }, (_, index) => index + 1);
	const { series, extent } = seriesAt(means, positions);
	return {
		title: `Mean word surprisal by position (${model}), with 95% CI`,
		xLabel: 'Word position',
		yLabel: 'Surprisal (bits)',
		labels: positions.map(String),
		series,
		...(extent === undefined ? {} : { ySuggestedMin: extent.min, ySuggestedMax: extent.max }),
	};
}

/** Words a critical-word figure shows on each side of the critical word. */
export const STIMULI_CRITICAL_SPAN = 2;

/** Cells that mark a row's word as critical in a one-word-per-row file. */
const CRITICAL_FLAGS = new Set(['1', 'true', 'yes', 'y', 'x', 'critical']);

/** A word compared with a critical-word cell: case and punctuation at its ends left out. */
function bareWord(text: string): string {
	return text
		.trim()
		.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '')
		.toLowerCase();
}

/** Means around the critical words, and the rows whose cell named no word of theirs. */
export interface StimuliCriticalMeans {
	/** `position` is the offset from the critical word (−span … +span). */
	readonly means: readonly StimuliPositionMean[];
	readonly criticalWords: number;
	/** Rows with a non-empty critical cell that matched none of their words (1-based lines
	 * are not known here: 0-based row indices). */
	readonly unmatchedRows: readonly number[];
}

/**
 * Mean surprisal per condition at the critical word of each row and at the `span` words before
 * and after it in the same passage, for model `model`. The critical column's cell says which word:
 * - one word per row (`wordPerRow`): a flag (1, true, yes, y, x, critical; any case) on the
 *   critical word's own row;
 * - otherwise: the word's 1-based position among the row's words, or the word itself (the first
 *   word of the row equal to it, case and end punctuation aside).
 * An empty cell marks no word. `words` in table order (by model, then place), as the page has them.
 */
export function stimuliCriticalMeans(
	table: StimulusTable,
	words: readonly StimuliWordRow[],
	model: number,
	conditionColumn: string | null,
	criticalColumn: string,
	wordPerRow: boolean,
	span = STIMULI_CRITICAL_SPAN,
): StimuliCriticalMeans {
	const column = conditionColumn === null ? -1 : table.header.indexOf(conditionColumn);
	const critical = table.header.indexOf(criticalColumn);
	const modelWords = words.filter((word) => word.model === model);
	const cellOf = (row: number): string => table.rows[row]?.fields[critical]?.trim() ?? '';
	// Each row's words in order (their indices into modelWords), for in-row positions.
	const wordsOfRow = new Map<number, number[]>();
	modelWords.forEach((word, index) => {
		const list = wordsOfRow.get(word.row) ?? [];
		wordsOfRow.set(word.row, list);
		list.push(index);
	});
	const criticalIndices: number[] = [];
	const unmatchedRows: number[] = [];
	if (critical >= 0) {
		for (const [row, indices] of wordsOfRow) {
			const cell = cellOf(row);
			if (cell === '') continue;
			let found: number | undefined;
			if (wordPerRow) {
				if (CRITICAL_FLAGS.has(cell.toLowerCase())) found = indices[0];
				else continue;
			} else if (/^[1-9]\d*$/u.test(cell)) {
				found = indices[Number(cell) - 1];
			} else {
				const wanted = bareWord(cell);
				found = indices.find((index) => bareWord(modelWords[index]?.word ?? '') === wanted);
			}
			if (found === undefined) unmatchedRows.push(row);
			else criticalIndices.push(found);
		}
	}
	const groups = new Map<string, Map<number, number[]>>();
	for (const at of criticalIndices) {
		const centre = modelWords[at];
		if (centre === undefined) continue;
		const condition = column < 0 ? 'all' : (table.rows[centre.row]?.fields[column] ?? '');
		const offsets = groups.get(condition) ?? new Map<number, number[]>();
		groups.set(condition, offsets);
		for (let offset = -span; offset <= span; offset++) {
			const word = modelWords[at + offset];
			// The same passage: word indices run on from the critical word's without a break.
			if (word === undefined || word.wordIndex !== centre.wordIndex + offset) continue;
			if (!Number.isFinite(word.surprisalBits)) continue;
			const values = offsets.get(offset) ?? [];
			offsets.set(offset, values);
			values.push(word.surprisalBits);
		}
	}
	return {
		means: meansOfGroups(groups),
		criticalWords: criticalIndices.length,
		unmatchedRows: unmatchedRows.sort((a, b) => a - b),
	};
}

/** A critical-word offset as the figure names it: "critical", "critical − 1", "critical + 2". */
export function criticalOffsetLabel(offset: number): string {
	if (offset === 0) return 'critical';
	return `critical ${offset < 0 ? '−' : '+'} ${Math.abs(offset)}`;
}

/** The chart of critical-word means: offsets −span … +span on the x axis. */
export function stimuliCriticalFigureSpec(
	means: readonly StimuliPositionMean[],
	model: string,
	criticalColumn: string,
	span = STIMULI_CRITICAL_SPAN,
): ChartSpec {
	const offsets = Array.from({ length: 2 * span + 1 }, (_, index) => index - span);
	const { series, extent } = seriesAt(means, offsets);
	return {
		title: `Mean word surprisal around the critical word ('${criticalColumn}', ${model}), with 95% CI`,
		xLabel: 'Word, relative to the critical word',
		yLabel: 'Surprisal (bits)',
		labels: offsets.map(criticalOffsetLabel),
		series,
		...(extent === undefined ? {} : { ySuggestedMin: extent.min, ySuggestedMax: extent.max }),
	};
}

/** Texts (passages) the page draws as heat strips: the first ones of the run. */
export const STIMULI_HEAT_STRIPS = 20;

/** One text's words for a heat strip, with the file line of its first word's row. */
export interface StimuliHeatStrip {
	readonly line: number;
	/** The strip's condition (its first row's cell), '' without a condition column. */
	readonly condition: string;
	readonly words: readonly {
		readonly word: string;
		/** The word's tokens as the vocabulary spells them, space-separated. */
		readonly tokens: string;
		readonly surprisalBits: number;
	}[];
}

/**
 * The first `limit` texts of model `model`'s words as heat strips, in table order: a text starts
 * at each word whose index in its passage is 0.
 */
export function stimuliHeatStrips(
	table: StimulusTable,
	words: readonly StimuliWordRow[],
	model: number,
	conditionColumn: string | null,
	limit = STIMULI_HEAT_STRIPS,
): StimuliHeatStrip[] {
	const column = conditionColumn === null ? -1 : table.header.indexOf(conditionColumn);
	const strips: { line: number; condition: string; words: StimuliHeatStrip['words'][number][] }[] =
		[];
	for (const word of words) {
		if (word.model !== model) continue;
		if (word.wordIndex === 0 || strips.length === 0) {
			if (strips.length === limit) break;
			const row = table.rows[word.row];
			strips.push({
				line: row?.line ?? word.row + 2,
				condition: column < 0 ? '' : (row?.fields[column] ?? ''),
				words: [],
			});
		}
		strips.at(-1)?.words.push({
			word: word.word,
			tokens: (word.tokens ?? []).join(' '),
			surprisalBits: word.surprisalBits,
		});
	}
	return strips;
}
