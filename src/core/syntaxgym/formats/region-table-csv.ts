/**
 * The region table as CSV (RFC 4180) for spreadsheets: the columns of the CLI `regions` table,
 * values written as there (Python repr, `nan`, empty for undefined). Writer only; pure.
 */
import { writeCsvTable } from '../../formats/tsv-table';
import { REGIONS_TSV_KEY_COLUMNS, formatMetricValue } from './regions-tsv';
import type { RegionValue } from '../scoring/types';
import { METRIC_NAMES, type MetricName } from '../suite/types';

/**
 * Header `item_number,condition_name,region_number,content,tokens` then one column per metric
 * (default all six), one row per region value in the given order, CRLF line ends (RFC 4180).
 * `tokens` is the region's model tokens joined by single spaces. Content is kept verbatim,
 * quoted where needed, except that a formula-like text (`=`, `+`, `-`, `@`, tab, CR first) gets
 * a `'` in front so a spreadsheet shows it instead of evaluating it ({@link writeCsvTable}).
 */
export function writeRegionTableCsv(
	regionValues: readonly RegionValue[],
	metrics: readonly MetricName[] = METRIC_NAMES,
): string {
	const rows = [[...REGIONS_TSV_KEY_COLUMNS, 'content', 'tokens', ...metrics]];
	for (const value of regionValues) {
		rows.push([
			String(value.itemNumber),
			value.conditionName,
			String(value.regionNumber),
			value.content,
			value.tokens.join(' '),
			...metrics.map((metric) => formatMetricValue(value.values[metric])),
		]);
	}
	return writeCsvTable(rows);
}
