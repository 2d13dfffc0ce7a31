/**
 * Region-value tables: the writer of the CLI `regions` table and the reader behind
 * `evaluate --regions` (our table, syntaxgym-core's `metric_value` column, brain-score totals).
 */
import { METRIC_NAMES, type MetricName } from '../suite/types';
import type { MetricValue, RegionValue, RegionValueRow } from '../scoring/types';
import { formatPythonFloat, parsePythonFloat } from '../../python/python-float';
import { createInputFormatError, formatTsvField, readTsvTable } from '../../formats/tsv-table';

export const REGIONS_TSV_KEY_COLUMNS = ['item_number', 'condition_name', 'region_number'] as const;

/**
 * How a metric value is written: Python `repr` for numbers (`-0.0`, `1e-05`), `nan` for NaN
 * (mean/median of an empty region), the empty string for undefined (`null`: range/max/min of
 * an empty region). The reader reads back exactly these.
 */
export function formatMetricValue(value: MetricValue | undefined): string {
	return value === null || value === undefined ? '' : formatPythonFloat(value);
}

/**
 * The CLI `regions` table: header `item_number condition_name region_number content tokens`
 * then one column per metric (default all six: `sum mean median range max min`), one row per
 * region value in the given order. `tokens` is the region's model tokens joined by single
 * spaces. Numbers as in {@link formatMetricValue}; a field holding `"`, a tab or a line break is
 * RFC 4180 quoted ({@link formatTsvField}).
 */
export function writeRegionsTsv(
	regionValues: readonly RegionValue[],
	metrics: readonly MetricName[] = METRIC_NAMES,
): string {
	const lines = [[...REGIONS_TSV_KEY_COLUMNS, 'content', 'tokens', ...metrics].join('\t')];
	for (const value of regionValues) {
		lines.push(
			[
				String(value.itemNumber),
				formatTsvField(value.conditionName),
				String(value.regionNumber),
				formatTsvField(value.content),
				formatTsvField(value.tokens.join(' ')),
				...metrics.map((metric) => formatMetricValue(value.values[metric])),
			].join('\t'),
		);
	}
	return `${lines.join('\n')}\n`;
}

export interface ReadRegionsTsvOptions {
	readonly source?: string;
	/** The metrics to read: each needs a column (see {@link readRegionsTsv}). */
	readonly metrics: readonly MetricName[];
	/** With a `suite` column: keep only the rows of this suite (`meta.name`). */
	readonly suiteName?: string;
}

function parseInteger(text: string): number | undefined {
	return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * Reads region values, tab-separated, columns by header name (extra columns are ignored):
 * `item_number condition_name region_number`, then for each metric m a column named `m`
 * (`sum`), `m_surprisal_bits` (brain-score's `sum_surprisal_bits`), or, for a single metric,
 * `metric_value` (syntaxgym-core's tabular output); or a long table with `metric` and
 * `metric_value` columns. An optional `suite` column selects the rows of `suiteName`.
 * Values: numbers, `nan`, `inf`; an empty field is undefined (`null`).
 * @throws InputFormatError (`source:line:column`) for a missing column, a bad number, a repeated
 * region, or no rows for the suite.
 */
export function readRegionsTsv(text: string, options: ReadRegionsTsvOptions): RegionValueRow[] {
	const { source, metrics } = options;
	const table = readTsvTable(text, source === undefined ? {} : { source });
	const header = table.header.map((name) => name.toLowerCase());
	const columnOf = (name: string) => header.indexOf(name);
	const fail = (line: number | undefined, column: number | undefined, problem: string) =>
		createInputFormatError(source, line, column, problem);

	for (const key of REGIONS_TSV_KEY_COLUMNS) {
		if (columnOf(key) < 0) {
			throw fail(
				table.headerLine,
				1,
				`the header has no ${key} column (found: ${table.header.join(', ')}).`,
			);
		}
	}
	const longMetricColumn = columnOf('metric');
	const valueColumn = columnOf('metric_value');
	const long = longMetricColumn >= 0 && valueColumn >= 0;
	const metricColumns = new Map<MetricName, number>();
	if (!long) {
		for (const metric of metrics) {
			const candidates = [metric, `${metric}_surprisal_bits`];
			if (metrics.length === 1) candidates.push('metric_value');
			const column = candidates.map(columnOf).find((index) => index >= 0);
			if (column === undefined) {
				throw fail(
					table.headerLine,
					1,
					`the header has no column for metric '${metric}' (expected one of ` +
						`${candidates.join(', ')}, or 'metric' and 'metric_value' columns).`,
				);
			}
			metricColumns.set(metric, column);
		}
	}

	const suiteColumn = columnOf('suite');
	const contentColumn = columnOf('content');
	const rows = new Map<
		string,
		{ row: RegionValueRow; values: Partial<Record<MetricName, MetricValue>> }
	>();
	const otherSuites = new Set<string>();
	for (const row of table.rows) {
		const field = (index: number) => row.fields[index] as string;
		const columnAt = (index: number) => row.columns[index] as number;
		if (suiteColumn >= 0 && options.suiteName !== undefined) {
			const suite = field(suiteColumn).trim();
			if (suite !== options.suiteName) {
				otherSuites.add(suite);
				continue;
			}
		}
		const [itemColumn, conditionColumn, regionColumn] = REGIONS_TSV_KEY_COLUMNS.map(columnOf) as [
			number,
			number,
			number,
		];
		const itemNumber = parseInteger(field(itemColumn));
		if (itemNumber === undefined) {
			throw fail(
				row.line,
				columnAt(itemColumn),
				`item_number ${JSON.stringify(field(itemColumn))} is not a whole number.`,
			);
		}
		const regionNumber = parseInteger(field(regionColumn));
		if (regionNumber === undefined) {
			throw fail(
				row.line,
				columnAt(regionColumn),
				`region_number ${JSON.stringify(field(regionColumn))} is not a whole number.`,
			);
		}
		const conditionName = field(conditionColumn).trim();

		let rowMetrics: [MetricName, number][];
		if (long) {
			const metric = field(longMetricColumn).trim();
			if (!(metrics as readonly string[]).includes(metric)) {
				if ((METRIC_NAMES as readonly string[]).includes(metric)) continue;
				throw fail(
					row.line,
					columnAt(longMetricColumn),
					`unknown metric ${JSON.stringify(metric)} (known: ${METRIC_NAMES.join(', ')}).`,
				);
			}
			rowMetrics = [[metric as MetricName, valueColumn]];
		} else {
			rowMetrics = [...metricColumns];
		}

		const key = `${itemNumber}\u0000${conditionName}\u0000${regionNumber}`;
		let entry = rows.get(key);
		if (!entry) {
			const values: Partial<Record<MetricName, MetricValue>> = {};
			entry = {
				values,
				row: {
					line: row.line,
					itemNumber,
					conditionName,
					regionNumber,
					...(contentColumn >= 0 ? { content: field(contentColumn) } : {}),
					values,
				},
			};
			rows.set(key, entry);
		}
		for (const [metric, column] of rowMetrics) {
			if (Object.hasOwn(entry.values, metric)) {
				throw fail(
					row.line,
					1,
					`item ${itemNumber}, condition ${JSON.stringify(conditionName)}, region ` +
						`${regionNumber}${long ? `, metric ${metric}` : ''} already has a value (line ${entry.row.line}).`,
				);
			}
			const text = field(column);
			if (text.trim() === '') {
				entry.values[metric] = null;
				continue;
			}
			const value = parsePythonFloat(text);
			if (value === undefined) {
				throw fail(
					row.line,
					columnAt(column),
					`${table.header[column]} ${JSON.stringify(text)} is not a number.`,
				);
			}
			entry.values[metric] = value;
		}
	}
	if (rows.size === 0 && otherSuites.size > 0) {
		throw fail(
			undefined,
			undefined,
			`no rows for suite ${JSON.stringify(options.suiteName)} (the suite column has: ` +
				`${[...otherSuites].slice(0, 10).join(', ')}${otherSuites.size > 10 ? ', …' : ''}).`,
		);
	}
	return [...rows.values()].map(({ row }) => row);
}
