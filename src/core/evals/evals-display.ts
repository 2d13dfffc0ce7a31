/**
 * How the Evals page words and formats what it shows: metric names in plain language, metric
 * values, a row's verdict cell, clipped cells, the grader output's lines with the choice cut out
 * for the highlight, parameter values and the time left.
 */
import { showWhitespace, type EvalsSampleRowView } from './sample-rows';

/** What a final-report metric means, in plain words ('' for a metric we do not describe). */
export function metricLabel(key: string): string {
	if (key === 'accuracy') return 'share of samples judged correct';
	if (key === 'boostrap_std')
		return 'spread of accuracy over 1000 bootstrap resamples (upstream spells it “boostrap”)';
	if (key === 'f1_score') return 'mean word-overlap F1 with the best ideal';
	if (key === 'score') return 'mean grader score of the choices';
	if (key === 'metascore') return 'share where the grader agreed with the human label';
	if (key.startsWith('counts/')) return `samples where the grader chose “${key.slice(7)}”`;
	if (key.startsWith('usage_')) return `${key.slice(6).replace(/_/gu, ' ')} summed`;
	return '';
}

/** A metric value: whole numbers as they are, others to 4 decimals, `NaN` as such. */
export function formatMetricValue(value: number): string {
	if (Number.isNaN(value)) return 'NaN';
	return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** A report's metric, or `—` when the report does not have it. */
export function reportMetricText(
	report: Readonly<Record<string, number>> | null,
	key: string,
): string {
	const value = report?.[key];
	return value === undefined ? '—' : formatMetricValue(value);
}

/** The verdict cell of the sample table: the grader's choice (`invalid`), correct/wrong, or `—`. */
export function verdictCell(row: EvalsSampleRowView): string {
	if (row.choice !== undefined) return row.invalid ? 'invalid' : row.choice;
	if (row.correct === undefined) return '—';
	return row.correct ? 'correct' : 'wrong';
}

/** `text` cut to `length` characters with `…` when longer. */
export function clipText(text: string, length = 160): string {
	return text.length > length ? `${text.slice(0, length)}…` : text;
}

/**
 * The Ideal cell of the sample table: the ideals with their spaces, tabs and line breaks shown as
 * in the completion cell (`" yellow"` is `⎵yellow`, not `yellow`), joined by ` | `, clipped.
 */
export function idealCell(ideals: readonly string[]): string {
	return clipText(ideals.map(showWhitespace).join(' | '));
}

/** A line cut around the first occurrence of the choice (for the highlight), or null. */
export function splitAtChoice(line: string, choice: string): [string, string, string] | null {
	const at = line.indexOf(choice);
	if (choice === '' || at < 0) return null;
	return [line.slice(0, at), choice, line.slice(at + choice.length)];
}

/** A generation parameter's value as shown: JSON, or `not sent`. */
export function paramValueText(value: unknown): string {
	return value === undefined ? 'not sent' : JSON.stringify(value);
}

/** Time left in words (`about 12 s left`, `about 3 min left`), '' when unknown. */
export function etaText(seconds: number | null): string {
	if (seconds === null) return '';
	if (seconds < 60) return `about ${Math.ceil(seconds)} s left`;
	return `about ${Math.ceil(seconds / 60)} min left`;
}
