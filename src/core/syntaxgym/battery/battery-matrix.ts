/**
 * The model × suite matrix: which stored runs form which model columns (a battery and the
 * batteries of the same suite set, or runs picked from History), then each suite's cell per
 * column (item accuracy with its Wilson interval), circuit means, the SG score, Hu et al.'s
 * published scores and paired McNemar tests between two columns. Pure; storage reads are the UI's.
 */
import { describeRunModel, runModelName } from '../../run/run-model';
import type { SuiteRun } from '../run/suite-run';
import type { ItemRule } from '../scoring/summarize-outcomes';
import type { PredictionOutcome } from '../scoring/types';
import type { Suite } from '../suite/types';
import { writeBatteryCsv } from './battery-csv';
import {
	HU2020_CIRCUITS,
	UNGROUPED,
	isHu2020Excluded,
	isHu2020SuiteSet,
	suiteCircuit,
} from './circuits';
import { holmAdjust, mcnemarTest, type McNemarResult } from './mcnemar';
import {
	HU2020_PUBLISHED_SG_SCORES,
	HU2020_PUBLISHED_SOURCE,
	type PublishedScoresSource,
	type PublishedSgScore,
} from './published-scores';
import {
	DEFAULT_SG_RULE,
	batterySuiteCell,
	itemAccuracy,
	sgScore,
	type BatterySuiteCell,
	type CellAccuracy,
	type CircuitMean,
	type SgScore,
} from './sg-score';

/** A run that a newer run of the same column and suite replaces. */
export interface ReplacedRun {
	readonly runId: number;
	readonly byRunId: number;
}

/** One model column before its runs are read: the runs it shows, one per suite. */
export interface MatrixColumnPlan {
	/** Unique within the plan. */
	readonly key: string;
	/** The column heading: model name, convention, date (and a number where that clashes). */
	readonly label: string;
	/** `gpt2-en-small`, `openai/<model>`. */
	readonly modelName: string;
	/** The model in one line (revision, source, dtype). */
	readonly modelDescription: string;
	readonly convention: SuiteRun['convention'];
	/** The newest run's start, in milliseconds since the Unix epoch. */
	readonly createdAtMs: number;
	/** Set when the column is one battery. */
	readonly batteryId?: string;
	/** One run per suite (by SHA-256): the newest. */
	readonly runs: readonly SuiteRun[];
	readonly replaced: readonly ReplacedRun[];
}

/** Which runs the matrix shows, and what the request named that is not there. */
export interface MatrixPlan {
	readonly source: 'battery' | 'picked';
	/** The battery the matrix is of (source `battery`). */
	readonly batteryId?: string;
	readonly columns: readonly MatrixColumnPlan[];
	/** Picked run ids that are not stored suite runs. */
	readonly missingRunIds: readonly number[];
}

/** A run's suite and outcomes as read from storage, or why they could not be read. */
export type MatrixRunLoad =
	| {
			readonly ok: true;
			readonly suite: Suite;
			readonly outcomes: readonly PredictionOutcome[];
	  }
	| { readonly ok: false; readonly message: string };

const byNewest = (a: SuiteRun, b: SuiteRun) => b.createdAt - a.createdAt || b.id - a.id;

/** The newest run per suite (by SHA-256), in suite-name order, and the runs they replace. */
function newestPerSuite(runs: readonly SuiteRun[]): {
	runs: SuiteRun[];
	replaced: ReplacedRun[];
} {
	const chosen = new Map<string, SuiteRun>();
	const replaced: ReplacedRun[] = [];
	for (const run of [...runs].sort(byNewest)) {
		const newer = chosen.get(run.suiteSha256);
		if (newer === undefined) chosen.set(run.suiteSha256, run);
		else replaced.push({ runId: run.id, byRunId: newer.id });
	}
	const kept = [...chosen.values()].sort(
		(a, b) => a.suiteName.localeCompare(b.suiteName) || a.suiteSha256.localeCompare(b.suiteSha256),
	);
	return { runs: kept, replaced };
}

/** `2026-11-25` (UTC) of a time in milliseconds since the Unix epoch. */
function isoDate(ms: number): string {
	return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : 'unknown date';
}

function columnOf(key: string, runs: readonly SuiteRun[], batteryId?: string): MatrixColumnPlan {
	const picked = newestPerSuite(runs);
	const newest = [...runs].sort(byNewest)[0];
	if (newest === undefined) throw new Error('a matrix column needs a run');
	return {
		key,
		label: `${runModelName(newest.model)} · ${newest.convention} · ${isoDate(newest.createdAt)}`,
		modelName: runModelName(newest.model),
		modelDescription: describeRunModel(newest.model),
		convention: newest.convention,
		createdAtMs: newest.createdAt,
		...(batteryId === undefined ? {} : { batteryId }),
		runs: picked.runs,
		replaced: picked.replaced,
	};
}

/** Numbers the labels that clash (`… (2)`), so each column and CSV model name is unique. */
function withUniqueLabels(columns: readonly MatrixColumnPlan[]): MatrixColumnPlan[] {
	const seen = new Map<string, number>();
	return columns.map((column) => {
		const count = (seen.get(column.label) ?? 0) + 1;
		seen.set(column.label, count);
		const clashes = columns.filter((other) => other.label === column.label).length > 1;
		return clashes ? { ...column, label: `${column.label} (${count})` } : column;
	});
}

/** The battery of the newest run that belongs to one, if any. */
export function newestBatteryId(runs: readonly SuiteRun[]): string | undefined {
	return [...runs].sort(byNewest).find((run) => run.battery !== undefined)?.battery?.id;
}

/** The suite set of some runs: their distinct suite SHA-256s, sorted, joined. */
function suiteSetKey(runs: readonly SuiteRun[]): string {
	return [...new Set(runs.map((run) => run.suiteSha256))].sort().join(',');
}

/**
 * The matrix of a battery: that battery, then every other stored battery with the same suite set
 * (the same suite texts), newest first, a column each. No columns when no run has `batteryId`.
 */
export function planBatteryMatrix(batteryId: string, runs: readonly SuiteRun[]): MatrixPlan {
	const batteries = new Map<string, SuiteRun[]>();
	for (const run of runs) {
		if (run.battery === undefined) continue;
		const members = batteries.get(run.battery.id) ?? [];
		members.push(run);
		batteries.set(run.battery.id, members);
	}
	const own = batteries.get(batteryId);
	if (own === undefined) return { source: 'battery', batteryId, columns: [], missingRunIds: [] };
	const suiteSet = suiteSetKey(own);
	const others = [...batteries.entries()]
		.filter(([id, members]) => id !== batteryId && suiteSetKey(members) === suiteSet)
		.map(([id, members]) => columnOf(`battery:${id}`, members, id))
		.sort((a, b) => b.createdAtMs - a.createdAtMs);
	const columns = [columnOf(`battery:${batteryId}`, own, batteryId), ...others];
	return { source: 'battery', batteryId, columns: withUniqueLabels(columns), missingRunIds: [] };
}

/** What makes runs one column: the model (name, revision, source, dtype) and the convention. */
function modelIdentity(run: SuiteRun): string {
	return `${describeRunModel(run.model)}\u0000${run.convention}`;
}

/**
 * The matrix of runs picked from History: one column per model and convention, in the order
 * the models are first picked; where a column has several runs of one suite, the newest counts.
 */
export function planPickedRunsMatrix(
	runIds: readonly number[],
	runs: readonly SuiteRun[],
): MatrixPlan {
	const byId = new Map(runs.map((run) => [run.id, run]));
	const groups = new Map<string, SuiteRun[]>();
	const missingRunIds: number[] = [];
	for (const runId of new Set(runIds)) {
		const run = byId.get(runId);
		if (run === undefined) {
			missingRunIds.push(runId);
			continue;
		}
		const key = modelIdentity(run);
		groups.set(key, [...(groups.get(key) ?? []), run]);
	}
	const columns = [...groups.values()].map((members, index) => columnOf(`model:${index}`, members));
	return { source: 'picked', columns: withUniqueLabels(columns), missingRunIds };
}

/**
 * The plan a matrix link asks for: a battery (`batteryId`), picked runs (`runIds`), or else the
 * newest battery; undefined when no battery is stored.
 */
export function planMatrix(
	request: { readonly batteryId?: string; readonly runIds?: readonly number[] },
	runs: readonly SuiteRun[],
): MatrixPlan | undefined {
	if (request.batteryId !== undefined) return planBatteryMatrix(request.batteryId, runs);
	if (request.runIds !== undefined) return planPickedRunsMatrix(request.runIds, runs);
	const newest = newestBatteryId(runs);
	return newest === undefined ? undefined : planBatteryMatrix(newest, runs);
}

/** A column's cell of one suite row. */
export type MatrixCell =
	| {
			readonly kind: 'scored';
			readonly runId: number;
			readonly cell: BatterySuiteCell;
			/** Item accuracy under the SG score's rule (what the matrix shows). */
			readonly accuracy: CellAccuracy;
			/** Stored items and the suite's items; `finished` when the run is done with all. */
			readonly itemsDone: number;
			readonly itemCount: number;
			readonly finished: boolean;
	  }
	| { readonly kind: 'unreadable'; readonly runId: number; readonly message: string }
	| { readonly kind: 'absent' };

/** One suite's row: its cell in every column. */
export interface MatrixRow {
	/** The suite text's SHA-256. */
	readonly key: string;
	readonly suiteName: string;
	readonly circuit: string;
	/** False for the suites Hu et al.'s master notebook leaves out of the SG score. */
	readonly inSgScore: boolean;
	/** One per column, in column order. */
	readonly cells: readonly MatrixCell[];
}

/** A circuit's rows and its mean per column (undefined where no suite of it counts). */
export interface MatrixCircuit {
	readonly circuit: string;
	readonly rows: readonly MatrixRow[];
	readonly means: readonly (CircuitMean | undefined)[];
}

/** A column with its SG score (under {@link DEFAULT_SG_RULE}). */
export interface MatrixColumn extends MatrixColumnPlan {
	readonly sg: SgScore;
}

/** The published SG scores shown beside the columns (Hu et al.'s suite set only). */
export interface PublishedColumns {
	readonly source: PublishedScoresSource;
	readonly scores: readonly PublishedSgScore[];
}

export interface BatteryMatrix {
	readonly plan: MatrixPlan;
	readonly columns: readonly MatrixColumn[];
	/** Hu et al.'s circuits first (their order), then others by name, `ungrouped` last. */
	readonly circuits: readonly MatrixCircuit[];
	/** Every row, in circuit order. */
	readonly rows: readonly MatrixRow[];
	readonly published: PublishedColumns | undefined;
}

function cellOfRun(run: SuiteRun, load: MatrixRunLoad | undefined): MatrixCell {
	if (load === undefined) return { kind: 'unreadable', runId: run.id, message: 'not read' };
	if (!load.ok) return { kind: 'unreadable', runId: run.id, message: load.message };
	const cell = batterySuiteCell({ suite: load.suite, outcomes: load.outcomes });
	return {
		kind: 'scored',
		runId: run.id,
		cell,
		accuracy: itemAccuracy(cell, DEFAULT_SG_RULE),
		itemsDone: run.itemsDone,
		itemCount: run.itemCount,
		finished: run.status === 'done' && run.itemsDone >= run.itemCount,
	};
}

/** A row's circuit when no column could read its suite: by its name (Hu et al.'s) or ungrouped. */
function circuitOfName(suiteName: string): string {
	const meta = { name: suiteName, metrics: ['sum'] as const, metricAsWritten: 'sum', extra: {} };
	return suiteCircuit({ meta }).circuit;
}

function circuitOrder(a: string, b: string): number {
	const rank = (circuit: string) => {
		const hu = HU2020_CIRCUITS.findIndex((entry) => entry.circuit === circuit);
		if (hu >= 0) return hu;
		return circuit === UNGROUPED ? HU2020_CIRCUITS.length + 1 : HU2020_CIRCUITS.length;
	};
	return rank(a) - rank(b) || a.localeCompare(b);
}

/** Every suite of the plan's columns as a row (cells in column order), grouped by circuit. */
function rowsOf(plan: MatrixPlan, loads: ReadonlyMap<number, MatrixRunLoad>): MatrixRow[] {
	const bySuite = new Map<string, { suiteName: string; cells: MatrixCell[] }>();
	plan.columns.forEach((column, index) => {
		for (const run of column.runs) {
			const row = bySuite.get(run.suiteSha256) ?? {
				suiteName: run.suiteName,
				cells: plan.columns.map((): MatrixCell => ({ kind: 'absent' })),
			};
			row.cells[index] = cellOfRun(run, loads.get(run.id));
			bySuite.set(run.suiteSha256, row);
		}
	});
	return [...bySuite.entries()]
		.map(([key, { suiteName, cells }]): MatrixRow => {
			const scored = cells.find((cell) => cell.kind === 'scored');
			return {
				key,
				suiteName: scored?.cell.suiteName ?? suiteName,
				circuit: scored?.cell.circuit ?? circuitOfName(suiteName),
				inSgScore: !isHu2020Excluded(scored?.cell.suiteName ?? suiteName),
				cells,
			};
		})
		.sort(
			(a, b) =>
				circuitOrder(a.circuit, b.circuit) ||
				a.suiteName.localeCompare(b.suiteName) ||
				a.key.localeCompare(b.key),
		);
}

/** The scored cells of column `index`, in row order. */
export function columnCells(rows: readonly MatrixRow[], index: number): BatterySuiteCell[] {
	return rows.flatMap((row) => {
		const cell = row.cells[index];
		return cell?.kind === 'scored' ? [cell.cell] : [];
	});
}

/**
 * The matrix of `plan` from its runs' suites and outcomes (`loads`, by run id; a run missing
 * from it, or unreadable, is a cell that says why): rows grouped by circuit, each column's SG
 * score and circuit means, and the published columns when the suites are Hu et al.'s set.
 */
export function buildBatteryMatrix(
	plan: MatrixPlan,
	loads: ReadonlyMap<number, MatrixRunLoad>,
): BatteryMatrix {
	const rows = rowsOf(plan, loads);
	const columns = plan.columns.map((column, index): MatrixColumn => ({
		...column,
		sg: sgScore(columnCells(rows, index)),
	}));
	const circuits = [...new Set(rows.map((row) => row.circuit))].map((circuit): MatrixCircuit => ({
		circuit,
		rows: rows.filter((row) => row.circuit === circuit),
		means: columns.map((column) => column.sg.circuits.find((c) => c.circuit === circuit)),
	}));
	const published =
		rows.length > 0 && isHu2020SuiteSet(rows.map((row) => row.suiteName))
			? { source: HU2020_PUBLISHED_SOURCE, scores: HU2020_PUBLISHED_SG_SCORES }
			: undefined;
	return { plan, columns, circuits, rows, published };
}

/**
 * Below this p-value a paired difference is called "beyond noise" (two-sided, 5%); per suite the
 * Holm-adjusted p-value is compared, so the 5% holds for the whole column of suites.
 */
export const DIFFERS_BEYOND_NOISE_P = 0.05;

/** Two columns compared item by item (exact McNemar), per suite and over the battery. */
export interface MatrixComparison {
	readonly rule: ItemRule;
	/**
	 * One per row, in row order; undefined where either column has no scored cell. `adjustedPValue`:
	 * Holm-adjusted over the rows that have a test (a family of that many tests).
	 */
	readonly rows: readonly {
		readonly key: string;
		readonly test: McNemarResult | undefined;
		readonly adjustedPValue: number | undefined;
	}[];
	/** Every item of the rows both columns scored and the SG score counts, pooled (one test, unadjusted). */
	readonly battery: McNemarResult;
}

/**
 * Paired exact McNemar tests of columns `a` and `b` (indices) on the items both scored, per
 * suite row (with Holm-adjusted p-values over the tested rows) and pooled over the suites in the
 * SG score, item results under `rule`.
 */
export function compareMatrixColumns(
	matrix: Pick<BatteryMatrix, 'rows'>,
	a: number,
	b: number,
	rule: ItemRule = DEFAULT_SG_RULE,
): MatrixComparison {
	const pooledA = new Map<string, boolean>();
	const pooledB = new Map<string, boolean>();
	const tests = matrix.rows.map((row) => {
		const cellA = row.cells[a];
		const cellB = row.cells[b];
		if (cellA?.kind !== 'scored' || cellB?.kind !== 'scored') {
			return { key: row.key, test: undefined };
		}
		const resultsA = cellA.cell.itemResults[rule];
		const resultsB = cellB.cell.itemResults[rule];
		if (row.inSgScore) {
			for (const [item, result] of resultsA) pooledA.set(`${row.key}\u0000${item}`, result);
			for (const [item, result] of resultsB) pooledB.set(`${row.key}\u0000${item}`, result);
		}
		return { key: row.key, test: mcnemarTest(resultsA, resultsB) };
	});
	const tested = tests.flatMap((row) => (row.test === undefined ? [] : [row.test.pValue]));
	const adjusted = holmAdjust(tested);
	let next = 0;
	const rows = tests.map((row) => ({
		...row,
		adjustedPValue: row.test === undefined ? undefined : adjusted[next++],
	}));
	return { rule, rows, battery: mcnemarTest(pooledA, pooledB) };
}

/** The matrix as the long-form battery CSV: a model per column (its label), scored cells only. */
export function writeMatrixCsv(matrix: Pick<BatteryMatrix, 'rows' | 'columns'>): string {
	return writeBatteryCsv(
		matrix.columns.map((column, index) => ({
			model: column.label,
			convention: column.convention,
			cells: columnCells(matrix.rows, index),
		})),
	);
}
