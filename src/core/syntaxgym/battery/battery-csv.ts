/**
 * The battery matrix as a long-form CSV (RFC 4180, CRLF): one row per model, suite and
 * prediction, with the items counted, the correct ones, the accuracy and its 95% Wilson
 * interval. Model labels and suite names are outside text: a formula-like one is made inert
 * ({@link writeCsvTable}). Writer only; pure.
 */
import { writeCsvTable } from '../../formats/tsv-table';
import type { BatterySuiteCell, CellAccuracy } from './sg-score';

/** The header of {@link writeBatteryCsv}. */
export const BATTERY_CSV_COLUMNS = [
	'model',
	'convention',
	'suite',
	'circuit',
	'prediction',
	'items',
	'correct',
	'accuracy',
	'interval_low',
	'interval_high',
] as const;

/** One model's column of the matrix: a label, its convention and its suites' cells. */
export interface BatteryCsvRun {
	readonly model: string;
	/** The surprisal convention the column was scored under (empty when not known). */
	readonly convention?: string;
	readonly cells: readonly BatterySuiteCell[];
}

function decimal(value: number | undefined): string {
	return value === undefined || Number.isNaN(value) ? '' : value.toFixed(6);
}

function rowOf(run: BatteryCsvRun, cell: BatterySuiteCell, accuracy: CellAccuracy): string[] {
	return [
		run.model,
		run.convention ?? '',
		cell.suiteName,
		cell.circuit,
		String(accuracy.prediction),
		String(accuracy.items),
		String(accuracy.correct),
		decimal(accuracy.accuracy),
		decimal(accuracy.interval?.low),
		decimal(accuracy.interval?.high),
	];
}

/**
 * Header, then per run and suite (in the given order) a row per prediction (`prediction` = its
 * 0-based id) and, for a suite with several predictions, a row `all` (items on which every
 * prediction holds). Accuracy and interval bounds with 6 decimals; empty when no item counts.
 */
export function writeBatteryCsv(runs: readonly BatteryCsvRun[]): string {
	const rows: string[][] = [[...BATTERY_CSV_COLUMNS]];
	for (const run of runs) {
		for (const cell of run.cells) {
			for (const accuracy of cell.predictions) rows.push(rowOf(run, cell, accuracy));
			if (cell.predictions.length > 1) rows.push(rowOf(run, cell, cell.allPredictions));
		}
	}
	return writeCsvTable(rows);
}
