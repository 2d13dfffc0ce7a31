/**
 * Suite runs grouped into batteries (the runs that share a battery id): what the app offers to
 * resume after a reload, one entry per battery. Pure.
 */
import { SUITE_RESUME } from './suite-run';
import type { SuiteRun } from './suite-run';

/** A battery with runs left `running` (the tab closed or reloaded while it was scored). */
export interface InterruptedBattery {
	readonly id: string;
	/** Suites in the battery (as recorded in its runs). */
	readonly size: number;
	/** Every stored run of the battery, in the battery's suite order. */
	readonly runs: readonly SuiteRun[];
	/** Items stored, over every suite of the battery. */
	readonly itemsDone: number;
	/** Items of every suite of the battery. */
	readonly itemCount: number;
}

/**
 * The batteries among `runs` that have a run left `running` with items missing, in the order
 * their first run appears in `runs` (newest first for the history's order). Runs of one suite
 * (no battery) are left out.
 */
export function findInterruptedBatteries(runs: readonly SuiteRun[]): InterruptedBattery[] {
	const groups = new Map<string, SuiteRun[]>();
	for (const run of runs) {
		if (!run.battery) continue;
		const group = groups.get(run.battery.id) ?? [];
		group.push(run);
		groups.set(run.battery.id, group);
	}
	const batteries: InterruptedBattery[] = [];
	for (const [id, group] of groups) {
		if (!group.some((run) => SUITE_RESUME.resumePlan(run)?.interrupted)) continue;
		const ordered = [...group].sort((a, b) => (a.battery?.index ?? 0) - (b.battery?.index ?? 0));
		batteries.push({
			id,
			size: Math.max(group.length, ...group.map((run) => run.battery?.size ?? 0)),
			runs: ordered,
			itemsDone: group.reduce((sum, run) => sum + Math.min(run.itemsDone, run.itemCount), 0),
			itemCount: group.reduce((sum, run) => sum + run.itemCount, 0),
		});
	}
	return batteries;
}
