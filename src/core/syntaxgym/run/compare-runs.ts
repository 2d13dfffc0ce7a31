/**
 * Arranging stored runs for the compare view: suites that have runs, and a short column label
 * per run that tells runs of the same suite apart. Pure; scoring is the core pipeline's.
 */
import { runModelDetails, runModelName } from '../../run/run-model';
import type { SuiteRun } from './suite-run';

/** A suite that has stored runs, for choosing what to compare. */
export interface ComparableSuite {
	readonly suiteSha256: string;
	readonly suiteName: string;
	readonly runCount: number;
	/** Distinct model names among its runs (`gpt2-en-small`, `openai/<model>`), in order of
	 * first appearance. */
	readonly modelIds: readonly string[];
}

/** Runs grouped by suite text (SHA-256): most runs first, then by name. */
export function groupRunsBySuite(runs: readonly SuiteRun[]): ComparableSuite[] {
	const groups = new Map<string, { name: string; runs: SuiteRun[] }>();
	for (const run of runs) {
		const group = groups.get(run.suiteSha256) ?? { name: run.suiteName, runs: [] };
		group.runs.push(run);
		groups.set(run.suiteSha256, group);
	}
	return [...groups.entries()]
		.map(([suiteSha256, group]) => ({
			suiteSha256,
			suiteName: group.name,
			runCount: group.runs.length,
			modelIds: [...new Set(group.runs.map((run) => runModelName(run.model)))],
		}))
		.sort((a, b) => b.runCount - a.runCount || a.suiteName.localeCompare(b.suiteName));
}

/**
 * A column label for `run` among `runs`: the model name (a local id or `openai/<model>`), plus
 * the revision, dtype or backend (a local model) or the base URL (an endpoint) where another run
 * of the same name differs in it, plus the run id when that is not enough. Runs of local and
 * endpoint models compare side by side.
 */
export function labelComparedRun(run: SuiteRun, runs: readonly SuiteRun[]): string {
	const name = runModelName(run.model);
	const sameModel = runs.filter((other) => runModelName(other.model) === name);
	const label = labelParts(run, sameModel);
	const clash = sameModel.filter((o) => o.id !== run.id && labelParts(o, sameModel) === label);
	return clash.length > 0 ? `${label} (run ${run.id})` : label;
}

function labelParts(run: SuiteRun, sameModel: readonly SuiteRun[]): string {
	const parts = [runModelName(run.model)];
	for (const detail of runModelDetails(run.model)) {
		const differs = sameModel.some(
			(other) =>
				runModelDetails(other.model).find((d) => d.key === detail.key)?.text !== detail.text,
		);
		if (differs) parts.push(detail.text);
	}
	return parts.join('');
}
