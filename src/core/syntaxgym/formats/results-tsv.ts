/**
 * syntaxgym-core's result table (`syntaxgym evaluate`): `suite prediction_id item_number result`
 * with `True`/`False`, plus a `metric` column for multi-metric suites and a `convention` column
 * for a run not scored as syntaxgym-core scores. Writer only.
 */
import type { SurprisalConvention } from '../../model/model-spec';
import type { MetricName } from '../suite/types';
import type { PredictionOutcome } from '../scoring/types';
import { formatTsvField } from '../../formats/tsv-table';

/** One suite's outcomes, as `writeResultsTsv` takes them. */
export interface SuiteResults {
	readonly suiteName: string;
	readonly outcomes: readonly PredictionOutcome[];
	readonly metrics: readonly MetricName[];
}

/**
 * One row per outcome. With one metric the table is syntaxgym-core's, rows in the given order
 * (item by item, predictions in order); with several, a last `metric` column is added and rows
 * are grouped by metric in `metrics` order (stable), so each block reads as the reference's
 * output for that metric. `prediction_id` is 0-based; a suite name holding `"`, a tab or a line
 * break is RFC 4180 quoted.
 */
export function writeResultsTsv(
	suiteName: string,
	outcomes: readonly PredictionOutcome[],
	metrics: readonly MetricName[],
): string {
	return writeSuitesResultsTsv([{ suiteName, outcomes, metrics }]);
}

/** What the results were scored under, for {@link writeSuitesResultsTsv}. */
export interface ResultsProvenance {
	/** The surprisal convention; `reference` (syntaxgym-core's) or absent adds no column. */
	readonly convention?: SurprisalConvention;
}

/**
 * Several suites in one table: one header, then each suite's rows as `writeResultsTsv` orders
 * them, suites in the given order. The `metric` column is there when any suite has several
 * metrics (then every row has it); one suite gives exactly `writeResultsTsv`'s table. A
 * convention other than `reference` adds a last column `convention` (every row): the table then
 * says it is not syntaxgym-core's scoring, and a `reference` table stays byte for byte its format.
 */
export function writeSuitesResultsTsv(
	suites: readonly SuiteResults[],
	provenance: ResultsProvenance = {},
): string {
	const withMetric = suites.some((suite) => suite.metrics.length > 1);
	const convention =
		provenance.convention !== undefined && provenance.convention !== 'reference'
			? provenance.convention
			: undefined;
	const header = ['suite', 'prediction_id', 'item_number', 'result'];
	if (withMetric) header.push('metric');
	if (convention !== undefined) header.push('convention');
	const lines = [header.join('\t')];
	for (const { suiteName, outcomes, metrics } of suites) {
		const rank = (metric: MetricName) => {
			const index = metrics.indexOf(metric);
			return index < 0 ? metrics.length : index;
		};
		const ordered =
			metrics.length > 1 ? [...outcomes].sort((a, b) => rank(a.metric) - rank(b.metric)) : outcomes;
		const suite = formatTsvField(suiteName);
		for (const outcome of ordered) {
			const row = [
				suite,
				String(outcome.predictionId),
				String(outcome.itemNumber),
				outcome.result ? 'True' : 'False',
			];
			if (withMetric) row.push(outcome.metric);
			if (convention !== undefined) row.push(convention);
			lines.push(row.join('\t'));
		}
	}
	return `${lines.join('\n')}\n`;
}
