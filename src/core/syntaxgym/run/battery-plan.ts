/**
 * The pending sentences of a battery (several suites scored in one pooled request): which
 * sentences of which suite still need scoring, their order in the request, and the way back
 * from a request index to (suite, sentence). A run of one suite is a battery of one. Pure.
 */
import type { PendingSentence } from './item-assembly';

/** One suite of a battery: its sentences (item-major) and the items already stored. */
export interface BatterySuiteInput<S extends PendingSentence> {
	readonly sentences: readonly S[];
	readonly finished: ReadonlySet<number>;
}

/** A suite's share of the pooled request. */
export interface BatterySuitePlan<S extends PendingSentence> {
	/** The suite's sentences not stored yet, in suite order. */
	readonly pending: readonly S[];
	/** Request index of `pending[0]`. */
	readonly offset: number;
}

/** Where a request index points: the suite (its index in the battery) and its pending sentence. */
export interface BatteryLocation {
	readonly suiteIndex: number;
	readonly index: number;
}

export interface BatteryPlan<S extends PendingSentence> {
	readonly suites: readonly BatterySuitePlan<S>[];
	/** Every pending sentence, suite after suite: the pooled request's texts, in order. */
	readonly pending: readonly S[];
	/**
	 * The request ranges `[from, to)`: the first pending item alone (so its result is stored and
	 * shown early), then the rest in one request. Empty ranges are left out.
	 */
	readonly requests: readonly (readonly [number, number])[];
}

/** Plans the pooled request of `suites` (finished items are not scored again). */
export function planBattery<S extends PendingSentence>(
	suites: readonly BatterySuiteInput<S>[],
): BatteryPlan<S> {
	const plans: BatterySuitePlan<S>[] = [];
	const pending: S[] = [];
	for (const suite of suites) {
		const own = suite.sentences.filter((sentence) => !suite.finished.has(sentence.itemNumber));
		plans.push({ pending: own, offset: pending.length });
		pending.push(...own);
	}
	return { suites: plans, pending, requests: splitFirstItem(plans, pending.length) };
}

/** The first pending item's sentences (all in one suite), then the rest. */
function splitFirstItem<S extends PendingSentence>(
	plans: readonly BatterySuitePlan<S>[],
	total: number,
): readonly (readonly [number, number])[] {
	const first = plans.find((plan) => plan.pending.length > 0);
	if (!first) return [];
	const firstItem = first.pending[0]?.itemNumber;
	const ownEnd = first.pending.findIndex((sentence) => sentence.itemNumber !== firstItem);
	const end = first.offset + (ownEnd < 0 ? first.pending.length : ownEnd);
	return end < total
		? [
				[0, end],
				[end, total],
			]
		: [[0, total]];
}

/** The suite and pending sentence of request index `index`; null outside the request. */
export function locateInBattery<S extends PendingSentence>(
	plan: BatteryPlan<S>,
	index: number,
): BatteryLocation | null {
	if (!Number.isInteger(index) || index < 0 || index >= plan.pending.length) return null;
	// The last suite that starts at or before `index` and has sentences there.
	for (let suiteIndex = plan.suites.length - 1; suiteIndex >= 0; suiteIndex -= 1) {
		const suite = plan.suites[suiteIndex];
		if (suite && suite.offset <= index && index < suite.offset + suite.pending.length) {
			return { suiteIndex, index: index - suite.offset };
		}
	}
	return null;
}

/**
 * Splits `total` (e.g. the battery's scoring time) in proportion to `weights` (each suite's
 * tokens), so each suite's run shows the battery's pace; equal shares when no weight is
 * positive. Negative weights count as 0.
 */
export function splitByWeight(total: number, weights: readonly number[]): number[] {
	const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
	return weights.map((weight) =>
		sum > 0 ? (total * Math.max(0, weight)) / sum : total / weights.length,
	);
}
