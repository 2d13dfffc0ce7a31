/**
 * A stored run read back (results view, resume, share links): its record, exact suite text,
 * parsed suite, and its item results scored by the core pipeline. Reads storage only.
 */
import type { ReproducedRun } from '../../core/syntaxgym/share/compare-fingerprint';
import {
	EMPTY_RUN_SCORES,
	addScoredItems,
	assembleStoredRunScore,
} from '../../core/syntaxgym/run/stored-run-scores';
import type { ItemResult, SuiteRun } from '../../core/syntaxgym/run/suite-run';
import type { RunResults } from '../../core/syntaxgym/share/result-fingerprint';
import { parseSuite } from '../../core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../core/syntaxgym/suite/types';
import { listItemResults } from '../../storage/syntaxgym/suite-results-repository';
import { getSuiteRun } from '../../storage/syntaxgym/suite-runs-repository';
import { getSuite } from '../../storage/syntaxgym/suites-repository';

/**
 * Region values (under the suite's metrics) and outcomes of the stored items of a run; items
 * that are not stored, or cannot be scored, have none (they count as missing in a fingerprint).
 */
export function scoreStoredItems(suite: Suite, items: readonly ItemResult[]): RunResults {
	const scores = addScoredItems(suite, EMPTY_RUN_SCORES, items, suite.meta.metrics);
	const score = assembleStoredRunScore(suite, scores);
	return { suite, outcomes: score.outcomes, regionValues: score.regionValues };
}

/** A run of this browser with its exact suite text and parsed suite. */
export interface StoredRunWithSuite {
	readonly run: SuiteRun;
	readonly suiteText: string;
	readonly suite: Suite;
}

/** A run of this browser with its suite text, parsed suite and scored results. */
export interface StoredRun extends StoredRunWithSuite {
	readonly results: RunResults;
}

/**
 * Loads a run's record and its suite (the one way the app reads a stored run back: results,
 * resume, share links).
 * @throws Error saying what is missing: the run, its suite, or why the suite no longer parses.
 */
export async function loadRunWithSuite(runId: number): Promise<StoredRunWithSuite> {
	const run = await getSuiteRun(runId);
	if (!run) throw new Error(`There is no run ${runId} in this browser (deleted?).`);
	const saved = await getSuite(run.suiteSha256);
	if (!saved) throw new Error(`The suite of run ${runId} is no longer stored.`);
	const parsed = parseSuite(saved.text);
	if (!parsed.ok) {
		const first = parsed.diagnostics.find((d) => d.severity === 'error');
		throw new Error(
			`The suite of run ${runId} no longer parses${first ? `: ${first.message}` : ''}.`,
		);
	}
	return { run, suiteText: saved.text, suite: parsed.suite };
}

/** Loads a run with its suite and item results from this browser, scored. */
export async function loadStoredRun(runId: number): Promise<StoredRun> {
	const loaded = await loadRunWithSuite(runId);
	const items = await listItemResults(runId);
	return { ...loaded, results: scoreStoredItems(loaded.suite, items) };
}

/** A stored run as a link's reproduction is compared with it: its scores and settings. */
export async function loadReproducedRun(runId: number): Promise<ReproducedRun> {
	const stored = await loadStoredRun(runId);
	return {
		...stored.results,
		model: stored.run.model,
		convention: stored.run.convention,
		appVersion: stored.run.appVersion,
	};
}
