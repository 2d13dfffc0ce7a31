/**
 * Two runs of an eval compared sample by sample: matched by sample id, with whether the verdicts
 * and the completions differ.
 */
import { verdictOf, type EvalsSampleRowView } from './sample-rows';

/** One sample of two runs side by side. */
export interface EvalsComparedSample {
	readonly sampleId: string;
	readonly a: EvalsSampleRowView | null;
	readonly b: EvalsSampleRowView | null;
	/** The verdicts (or grader choices) differ, or the sample is in one run only. */
	readonly verdictDiffers: boolean;
	readonly completionDiffers: boolean;
}

/** Two runs' samples matched by sample id, in run A's order, then samples only B has. */
export function compareEvalsRuns(
	a: readonly EvalsSampleRowView[],
	b: readonly EvalsSampleRowView[],
): EvalsComparedSample[] {
	const inB = new Map(b.map((row) => [row.sampleId, row]));
	const compared: EvalsComparedSample[] = [];
	const pair = (left: EvalsSampleRowView | null, right: EvalsSampleRowView | null): void => {
		compared.push({
			sampleId: (left ?? right)?.sampleId ?? '',
			a: left,
			b: right,
			verdictDiffers: !left || !right || verdictOf(left) !== verdictOf(right),
			completionDiffers: !left || !right || left.completion !== right.completion,
		});
	};
	for (const row of a) {
		pair(row, inB.get(row.sampleId) ?? null);
		inB.delete(row.sampleId);
	}
	for (const row of inB.values()) pair(null, row);
	return compared;
}

/** Sample id → verdict (`correct`, `wrong`, the grader's choice), as a share link carries them. */
export function verdictsBySample(rows: readonly EvalsSampleRowView[]): Record<string, string> {
	const verdicts: Record<string, string> = {};
	for (const row of rows) verdicts[row.sampleId] = verdictOf(row);
	return verdicts;
}

/** How many of a shared run's verdicts a re-run's rows repeat, out of the shared ones. */
export function reproducedVerdicts(
	shared: Readonly<Record<string, string>>,
	rows: readonly EvalsSampleRowView[],
): { identical: number; shared: number } {
	return {
		identical: rows.filter((row) => shared[row.sampleId] === verdictOf(row)).length,
		shared: Object.keys(shared).length,
	};
}
