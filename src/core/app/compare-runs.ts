/**
 * Arranging stored runs for the compare view: suites that have runs, and a short column label
 * per run that tells runs of the same suite apart. Pure; scoring is the core pipeline's.
 */
import type { RunRecord } from '../run/run-types';

/** A suite that has stored runs, for choosing what to compare. */
export interface ComparableSuite {
	readonly suiteSha256: string;
	readonly suiteName: string;
	readonly runCount: number;
	/** Distinct model ids among its runs, in order of first appearance. */
	readonly modelIds: readonly string[];
}

/** Runs grouped by suite text (SHA-256): most runs first, then by name. */
export function groupRunsBySuite(runs: readonly RunRecord[]): ComparableSuite[] {
	const groups = new Map<string, { name: string; runs: RunRecord[] }>();
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
			modelIds: [...new Set(group.runs.map((run) => run.model.id))],
		}))
		.sort((a, b) => b.runCount - a.runCount || a.suiteName.localeCompare(b.suiteName));
}

/**
 * A column label for `run` among `runs`: the model id, plus the revision, dtype or backend
 * where another run of the same model differs in it, plus the run id when that is not enough.
 */
export function labelComparedRun(run: RunRecord, runs: readonly RunRecord[]): string {
	const sameModel = runs.filter((other) => other.model.id === run.model.id);
	const label = labelParts(run, sameModel);
	const clash = sameModel.filter((o) => o.id !== run.id && labelParts(o, sameModel) === label);
	return clash.length > 0 ? `${label} (run ${run.id})` : label;
}

function labelParts(run: RunRecord, sameModel: readonly RunRecord[]): string {
	const parts = [run.model.id];
	if (run.model.revision && sameModel.some((o) => o.model.revision !== run.model.revision)) {
		parts.push(`@${run.model.revision}`);
	}
	if (sameModel.some((o) => o.model.dtype !== run.model.dtype)) parts.push(` ${run.model.dtype}`);
	if (sameModel.some((o) => o.model.backend !== run.model.backend)) {
		parts.push(` ${run.model.backend}`);
	}
	return parts.join('');
}
