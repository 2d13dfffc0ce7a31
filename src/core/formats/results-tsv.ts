/**
 * syntaxgym-core's result table (`syntaxgym evaluate`): `suite prediction_id item_number result`
 * with `True`/`False`, plus a `metric` column for multi-metric suites. Writer only.
 */
import type { MetricName } from '../suite/types';
import type { PredictionOutcome } from '../scoring/types';
import { formatTsvField } from './tsv-table';

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
	const withMetric = metrics.length > 1;
	const header = ['suite', 'prediction_id', 'item_number', 'result'];
	if (withMetric) header.push('metric');
	const rank = (metric: MetricName) => {
		const index = metrics.indexOf(metric);
		return index < 0 ? metrics.length : index;
	};
	const ordered = withMetric
		? [...outcomes].sort((a, b) => rank(a.metric) - rank(b.metric))
		: outcomes;
	const suite = formatTsvField(suiteName);
	const lines = [header.join('\t')];
	for (const outcome of ordered) {
		const row = [
			suite,
			String(outcome.predictionId),
			String(outcome.itemNumber),
			outcome.result ? 'True' : 'False',
		];
		if (withMetric) row.push(outcome.metric);
		lines.push(row.join('\t'));
	}
	return `${lines.join('\n')}\n`;
}
