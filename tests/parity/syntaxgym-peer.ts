// Access to the third-party SyntaxGym parity data in ../shared/peer/syntaxgym (read at test time,
// never copied into the project) and comparison helpers for the parity tests. Test helper only.
import { readFileSync } from 'node:fs';
import type { MetricValue } from '../../src/core/syntaxgym/scoring/types';
import { METRIC_NAMES, type MetricName } from '../../src/core/syntaxgym/suite/types';
import { describeMissingPeerData, isCi, missingPeerPaths, peerPath } from './peer-data';

/** `../shared/peer/syntaxgym/` relative to the project root (absolute, ends with `/`). */
export const PEER_SYNTAXGYM = peerPath('syntaxgym/');
export const PEER_OUTPUTS = `${PEER_SYNTAXGYM}outputs/`;
export const PEER_SUITES = `${PEER_SYNTAXGYM}suites/nextflow/`;

/** Paths relative to PEER_SYNTAXGYM as paths relative to ../shared/peer (for describeWithPeer). */
export function syntaxgymPeerPaths(...paths: string[]): string[] {
	return paths.map((path) => `syntaxgym/${path}`);
}

/**
 * True when every path (relative to PEER_SYNTAXGYM) exists; else false with a warning, and under
 * CI (CI=true) it throws, so the test file fails instead of skipping. Prefer `describeWithPeer`.
 */
export function hasPeerFiles(...paths: string[]): boolean {
	const missing = missingPeerPaths(syntaxgymPeerPaths(...paths));
	if (missing.length === 0) return true;
	const message = describeMissingPeerData(missing);
	if (isCi()) throw new Error(message);
	console.warn(`skipping: ${message}`);
	return false;
}

export function readPeerText(path: string): string {
	return readFileSync(`${PEER_SYNTAXGYM}${path}`, 'utf8');
}

/** A TSV with a header as records keyed by column name (no quoting; the peer files have none). */
export function parseTsvRecords(text: string): Record<string, string>[] {
	const [header = '', ...lines] = text.replace(/\r/g, '').split('\n');
	const columns = header.split('\t');
	return lines
		.filter((line) => line !== '')
		.map((line) => {
			const fields = line.split('\t');
			return Object.fromEntries(columns.map((column, index) => [column, fields[index] ?? '']));
		});
}

/**
 * |expected − actual| for a metric value written as in the peer files (blank = undefined,
 * `nan`); 0 when both are undefined or both NaN, Infinity when only one is.
 */
export function metricDifference(expected: string, actual: MetricValue | undefined): number {
	if (expected.trim() === '') return actual === null ? 0 : Number.POSITIVE_INFINITY;
	if (expected.trim().toLowerCase() === 'nan') {
		return typeof actual === 'number' && Number.isNaN(actual) ? 0 : Number.POSITIVE_INFINITY;
	}
	if (typeof actual !== 'number' || Number.isNaN(actual)) return Number.POSITIVE_INFINITY;
	return Math.abs(Number(expected) - actual);
}

/** A metric value as our regions TSV writes it (blank = undefined, `nan`), read back. */
export function readMetricField(text: string): MetricValue {
	if (text === '') return null;
	return text === 'nan' ? Number.NaN : Number(text);
}

/** Largest |Δ| per metric over a list of per-region differences. */
export function maxDifferences(
	differences: readonly Readonly<Record<MetricName, number>>[],
): Record<MetricName, number> {
	return Object.fromEntries(
		METRIC_NAMES.map((metric) => [metric, Math.max(0, ...differences.map((d) => d[metric]))]),
	) as Record<MetricName, number>;
}

/** `key` of a region row: item, condition, region. */
export function regionKey(
	item: number | string,
	condition: string,
	region: number | string,
): string {
	return `${item}\u0000${condition}\u0000${region}`;
}

/** regionKey of a TSV record with `item_number`, `condition_name`, `region_number` columns. */
export function recordRegionKey(record: Readonly<Record<string, string>>): string {
	return regionKey(
		record.item_number ?? '',
		record.condition_name ?? '',
		record.region_number ?? '',
	);
}
