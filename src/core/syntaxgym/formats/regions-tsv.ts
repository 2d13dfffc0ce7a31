/**
 * Region-value tables: the writer of the CLI `regions` table and the reader behind
 * `evaluate --regions` (our table, syntaxgym-core's `metric_value` column, brain-score totals).
 */
import { METRIC_NAMES, type MetricName } from '../suite/types';
import type { MetricValue, RegionValue, RegionValueRow } from '../scoring/types';
import { formatPythonFloat, parsePythonFloat } from '../../python/python-float';
import {
	createInputFormatError,
	formatTsvField,
	readTsvTable,
	type TsvRow,
	type TsvTable,
} from '../../formats/tsv-table';
import type { InputFormatError } from '../../errors';

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

type FailAt = (
	line: number | undefined,
	column: number | undefined,
	problem: string,
) => InputFormatError;

/** Where each column read sits in the header (-1: no such column). */
interface RegionsTsvColumns {
	readonly item: number;
	readonly condition: number;
	readonly region: number;
	readonly suite: number;
	readonly content: number;
	/** The long table's `metric` column (with {@link value}), or undefined for a wide table. */
	readonly longMetric: number | undefined;
	/** The long table's `metric_value` column. */
	readonly value: number;
	/** A wide table's column for each metric read. */
	readonly metrics: ReadonlyMap<MetricName, number>;
}

/** One region's row being gathered, with its values still open to fill. */
interface RegionEntry {
	readonly row: RegionValueRow;
	readonly values: Partial<Record<MetricName, MetricValue>>;
}

/** The region key fields of one row, read and checked. */
interface RegionKey {
	readonly itemNumber: number;
	readonly conditionName: string;
	readonly regionNumber: number;
}

/**
 * Finds the columns of {@link readRegionsTsv}.
 * @throws InputFormatError for a missing key column, or a metric without a column.
 */
function findRegionsTsvColumns(
	table: TsvTable,
	metrics: readonly MetricName[],
	fail: FailAt,
): RegionsTsvColumns {
	const header = table.header.map((name) => name.toLowerCase());
	const columnOf = (name: string) => header.indexOf(name);
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
	const [item, condition, region] = REGIONS_TSV_KEY_COLUMNS.map(columnOf) as [
		number,
		number,
		number,
	];
	return {
		item,
		condition,
		region,
		suite: columnOf('suite'),
		content: columnOf('content'),
		longMetric: long ? longMetricColumn : undefined,
		value: valueColumn,
		metrics: metricColumns,
	};
}

/**
 * A row's item number, condition name and region number.
 * @throws InputFormatError for an item or region number that is not a whole number.
 */
function readRegionKey(row: TsvRow, columns: RegionsTsvColumns, fail: FailAt): RegionKey {
	const field = (index: number) => row.fields[index] as string;
	const itemNumber = parseInteger(field(columns.item));
	if (itemNumber === undefined) {
		throw fail(
			row.line,
			row.columns[columns.item] as number,
			`item_number ${JSON.stringify(field(columns.item))} is not a whole number.`,
		);
	}
	const regionNumber = parseInteger(field(columns.region));
	if (regionNumber === undefined) {
		throw fail(
			row.line,
			row.columns[columns.region] as number,
			`region_number ${JSON.stringify(field(columns.region))} is not a whole number.`,
		);
	}
	return { itemNumber, conditionName: field(columns.condition).trim(), regionNumber };
}

/**
 * The metrics a row holds, each with its column; undefined for a long table's row of a known
 * metric that was not asked for (the row is skipped).
 * @throws InputFormatError for a long table's unknown metric.
 */
function rowMetricColumns(
	row: TsvRow,
	columns: RegionsTsvColumns,
	metrics: readonly MetricName[],
	fail: FailAt,
): [MetricName, number][] | undefined {
	if (columns.longMetric === undefined) return [...columns.metrics];
	const metric = (row.fields[columns.longMetric] as string).trim();
	if (!(metrics as readonly string[]).includes(metric)) {
		if ((METRIC_NAMES as readonly string[]).includes(metric)) return undefined;
		throw fail(
			row.line,
			row.columns[columns.longMetric] as number,
			`unknown metric ${JSON.stringify(metric)} (known: ${METRIC_NAMES.join(', ')}).`,
		);
	}
	return [[metric as MetricName, columns.value]];
}

/**
 * Reads a row's metric values into its region's entry.
 * @throws InputFormatError for a value the region already has, or a bad number.
 */
function readRowValues(
	row: TsvRow,
	entry: RegionEntry,
	rowMetrics: readonly [MetricName, number][],
	table: TsvTable,
	long: boolean,
	fail: FailAt,
): void {
	const { itemNumber, conditionName, regionNumber } = entry.row;
	for (const [metric, column] of rowMetrics) {
		if (Object.hasOwn(entry.values, metric)) {
			throw fail(
				row.line,
				1,
				`item ${itemNumber}, condition ${JSON.stringify(conditionName)}, region ` +
					`${regionNumber}${long ? `, metric ${metric}` : ''} already has a value (line ${entry.row.line}).`,
			);
		}
		const text = row.fields[column] as string;
		if (text.trim() === '') {
			entry.values[metric] = null;
			continue;
		}
		const value = parsePythonFloat(text);
		if (value === undefined) {
			throw fail(
				row.line,
				row.columns[column] as number,
				`${table.header[column]} ${JSON.stringify(text)} is not a number.`,
			);
		}
		entry.values[metric] = value;
	}
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
	const fail: FailAt = (line, column, problem) =>
		createInputFormatError(source, line, column, problem);
	const columns = findRegionsTsvColumns(table, metrics, fail);

	const rows = new Map<string, RegionEntry>();
	const otherSuites = new Set<string>();
	for (const row of table.rows) {
		if (columns.suite >= 0 && options.suiteName !== undefined) {
			const suite = (row.fields[columns.suite] as string).trim();
			if (suite !== options.suiteName) {
				otherSuites.add(suite);
				continue;
			}
		}
		const { itemNumber, conditionName, regionNumber } = readRegionKey(row, columns, fail);
		const rowMetrics = rowMetricColumns(row, columns, metrics, fail);
		if (rowMetrics === undefined) continue;

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
					...(columns.content >= 0 ? { content: row.fields[columns.content] as string } : {}),
					values,
				},
			};
			rows.set(key, entry);
		}
		readRowValues(row, entry, rowMetrics, table, columns.longMetric !== undefined, fail);
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
