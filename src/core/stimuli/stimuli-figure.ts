/**
 * The Stimuli page's figure: mean word surprisal at each word position, one series per condition
 * (a column of the file; none: every row is one series), with Student-t 95% intervals over the
 * rows' words at that position, for one model. Plain values for the UI's chart component. Pure.
 */
import { studentTQuantile } from '../syntaxgym/aggregation/student-t';
import { seriesExtent, type ChartSpec } from '../syntaxgym/charts/chart-spec';
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

/** The chart of the means: positions on the x axis (up to STIMULI_FIGURE_MAX_POSITIONS). */
export function stimuliFigureSpec(means: readonly StimuliPositionMean[], model: string): ChartSpec {
	const last = Math.min(
		STIMULI_FIGURE_MAX_POSITIONS,
		means.reduce((max, m) => Math.max(max, m.position), 0),
	);
	const positions = Array.from({ length: last }, (_, index) => index + 1);
	const conditions = [...new Set(means.map((m) => m.condition))];
	const find = (condition: string, position: number) =>
		means.find((m) => m.condition === condition && m.position === position);
	const series = conditions.map((condition) => ({
		label: condition,
		values: positions.map((p) => find(condition, p)?.mean ?? null),
		low: positions.map((p) => find(condition, p)?.low ?? null),
		high: positions.map((p) => find(condition, p)?.high ?? null),
	}));
	const extent = seriesExtent(series);
	return {
		title: `Mean word surprisal by position (${model}), with 95% CI`,
		xLabel: 'Word position',
		yLabel: 'Surprisal (bits)',
		labels: positions.map(String),
		series,
		...(extent === undefined ? {} : { ySuggestedMin: extent.min, ySuggestedMax: extent.max }),
	};
}
