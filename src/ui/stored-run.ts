/**
 * A stored run read back for share links: its record, exact suite text, parsed suite, and its
 * item results scored by the core pipeline into region values and outcomes. Reads storage only.
 */
import {
	EMPTY_RUN_SCORES,
	addScoredItems,
	assembleStoredRunScore,
} from '../core/app/stored-run-scores';
import type { ItemResult, RunRecord } from '../core/run/run-types';
import type { RunResults } from '../core/share/result-fingerprint';
import { parseSuite } from '../core/suite/parse-suite';
import type { Suite } from '../core/suite/types';
import { listItemResults } from '../storage/results-repository';
import { getRun } from '../storage/runs-repository';
import { getSuite } from '../storage/suites-repository';

/**
 * Region values (under the suite's metrics) and outcomes of the stored items of a run; items
 * that are not stored, or cannot be scored, have none (they count as missing in a fingerprint).
 */
export function scoreStoredItems(suite: Suite, items: readonly ItemResult[]): RunResults {
	const scores = addScoredItems(suite, EMPTY_RUN_SCORES, items, suite.meta.metrics);
	const score = assembleStoredRunScore(suite, scores);
	return { suite, outcomes: score.outcomes, regionValues: score.regionValues };
}

/** A run of this browser with its suite text, parsed suite and scored results. */
export interface StoredRun {
	readonly run: RunRecord;
	readonly suiteText: string;
	readonly suite: Suite;
	readonly results: RunResults;
}

/** Loads a run with its suite and item results from this browser. */
export async function loadStoredRun(runId: number): Promise<StoredRun> {
	const run = await getRun(runId);
	if (!run) throw new Error(`run ${runId} is not stored in this browser`);
	const stored = await getSuite(run.suiteSha256);
	if (!stored) throw new Error(`the suite of run ${runId} is no longer stored`);
	const parsed = parseSuite(stored.text);
	if (!parsed.ok) throw new Error(`the stored suite of run ${runId} no longer parses`);
	const items = await listItemResults(runId);
	return {
		run,
		suiteText: stored.text,
		suite: parsed.suite,
		results: scoreStoredItems(parsed.suite, items),
	};
}
