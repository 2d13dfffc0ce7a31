/**
 * The rows of database versions 1-5 (a table per kind of run and per kind of piece) and how each
 * becomes a row of the one run store of version 6. Pure: db.ts's upgrade reads and writes.
 */
import type {
	EvalsInputItemRecord,
	EvalsRunRecord,
	EvalsSampleItemRecord,
	LtmLogItemRecord,
	LtmRunRecord,
	LtmStateItemRecord,
	SuiteItemRecord,
	SuiteRunRecord,
	ColumnarSentence,
} from '../../core/kinds/run-record';
import { EVALS_INPUT_KEY, LTM_STATE_KEY } from '../../core/kinds/run-record';
import type { EvalEvent, SampleResult } from '../../core/evals/shared/types';
import type { LogEntry, LtmRunState } from '../../core/ltm/scheduler';

/** A row of `runs` (versions 1-5): a suite run, without `kind` and `title`. */
export type LegacySuiteRunRow = Omit<SuiteRunRecord, 'id' | 'kind' | 'title'> & { id: number };

/** A row of `evalsRuns` (versions 2-5). */
export type LegacyEvalsRunRow = Omit<EvalsRunRecord, 'id' | 'title'> & { id: number };

/** A row of `ltmRuns` (versions 4-5). */
export type LegacyLtmRunRow = Omit<LtmRunRecord, 'id' | 'title'> & { id: number };

/** A row of `itemResults` (versions 1-5), keyed `[runId+itemNumber]`. */
export interface LegacyItemResultRow {
	runId: number;
	itemNumber: number;
	sentences: ColumnarSentence[];
	savedAt: number;
}

/** A row of `evalsSamples` (versions 2-5), keyed `[runId+sampleId]`. */
export interface LegacyEvalsSampleRow {
	runId: number;
	sampleId: string;
	position: number;
	result: SampleResult;
	events: EvalEvent[];
	savedAt: number;
}

/** A row of `ltmStates` (versions 4-5), keyed `runId`: the state, its log inside or kept apart. */
export interface LegacyLtmStateRow {
	runId: number;
	state: LtmRunState;
	savedAt: number;
}

/** A row of `ltmLog` (version 5), keyed `[runId+index]`. */
export interface LegacyLtmLogRow {
	runId: number;
	index: number;
	entry: LogEntry;
}

/** The old tables that version 6 empties into `runs` and `runItems`, then deletes. */
export const LEGACY_TABLES = [
	'itemResults',
	'evalsRuns',
	'evalsSamples',
	'ltmRuns',
	'ltmStates',
	'ltmLog',
] as const;

/** A suite run as version 6 keeps it: the same row and id, marked `kind: 'suite'`. */
export function suiteRunFromLegacy(row: LegacySuiteRunRow): SuiteRunRecord {
	return { ...row, kind: 'suite', title: row.suiteName };
}

/** An Evals run without its old id: the one store gives it a new one. */
export function evalsRunFromLegacy(
	row: LegacyEvalsRunRow,
): Omit<EvalsRunRecord, 'id' | 'spec' | 'replayTexts'> {
	const { id: _id, spec: _spec, replayTexts: _replayTexts, ...rest } = row;
	return { ...rest, kind: 'evals', title: row.evalName };
}

/** An Evals run's input (resolved eval, replay texts) as the item beside its run row. */
export function evalsInputFromLegacy(row: LegacyEvalsRunRow, runId: number): EvalsInputItemRecord {
	return {
		runId,
		kind: 'evals-input',
		key: EVALS_INPUT_KEY,
		spec: row.spec,
		replayTexts: row.replayTexts,
		savedAt: row.updatedAt,
	};
}

/** An LTM run without its old id: the one store gives it a new one. */
export function ltmRunFromLegacy(row: LegacyLtmRunRow): Omit<LtmRunRecord, 'id'> {
	const { id: _id, ...rest } = row;
	return { ...rest, kind: 'ltm', title: row.runName };
}

export function suiteItemFromLegacy(row: LegacyItemResultRow): SuiteItemRecord {
	return {
		runId: row.runId,
		kind: 'suite-item',
		key: row.itemNumber,
		sentences: row.sentences,
		savedAt: row.savedAt,
	};
}

/** An Evals sample under its run's new id. */
export function evalsSampleFromLegacy(
	row: LegacyEvalsSampleRow,
	runId: number,
): EvalsSampleItemRecord {
	const { sampleId, position, result, events, savedAt } = row;
	return { runId, kind: 'evals-sample', key: sampleId, position, result, events, savedAt };
}

/** An LTM state under its run's new id (its log, if inside, stays inside). */
export function ltmStateFromLegacy(row: LegacyLtmStateRow, runId: number): LtmStateItemRecord {
	return { runId, kind: 'ltm-state', key: LTM_STATE_KEY, state: row.state, savedAt: row.savedAt };
}

/** An LTM log entry under its run's new id. */
export function ltmLogFromLegacy(row: LegacyLtmLogRow, runId: number): LtmLogItemRecord {
	return { runId, kind: 'ltm-log', key: row.index, entry: row.entry };
}
