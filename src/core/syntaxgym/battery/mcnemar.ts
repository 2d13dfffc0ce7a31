/**
 * The exact McNemar test for two models scored on the same items: a two-sided binomial test on
 * the discordant pairs (items one model gets right and the other wrong), per suite and over a
 * battery. Pure; exact with BigInt.
 */
import type { ItemRule } from '../scoring/summarize-outcomes';
import { DEFAULT_SG_RULE, type BatterySuiteCell } from './sg-score';

/** The outcome of a paired comparison of two models on the items both scored. */
export interface McNemarResult {
	/** Items both models scored. */
	readonly pairs: number;
	/** Items model A gets right and model B wrong. */
	readonly aOnly: number;
	/** Items model B gets right and model A wrong. */
	readonly bOnly: number;
	/** Items both get right. */
	readonly both: number;
	/** Items both get wrong. */
	readonly neither: number;
	/** Exact two-sided p-value (1 when there are no discordant pairs). */
	readonly pValue: number;
}

/** A BigInt ratio as a float, keeping ~60 significant bits of each side. */
function ratioToNumber(numerator: bigint, denominator: bigint): number {
	const shift = (value: bigint) => Math.max(0, value.toString(2).length - 60);
	const sn = shift(numerator);
	const sd = shift(denominator);
	const n = Number(numerator >> BigInt(sn));
	const d = Number(denominator >> BigInt(sd));
	return (n / d) * 2 ** (sn - sd);
}

/**
 * The exact two-sided McNemar p-value for `b` and `c` discordant pairs: twice the binomial
 * (n = b + c, p = ½) probability of at most min(b, c), capped at 1 (statsmodels
 * `mcnemar(exact=True)`, scipy `binomtest(min(b, c), b + c, 0.5)`). Computed exactly.
 * @throws RangeError for counts that are not whole numbers ≥ 0.
 */
export function mcnemarExactPValue(b: number, c: number): number {
	if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
		throw new RangeError(`mcnemarExactPValue: need whole counts ≥ 0 (got ${b}, ${c}).`);
	}
	const n = b + c;
	const k = Math.min(b, c);
	if (2 * k >= n) return 1;
	let term = 1n; // C(n, 0)
	let tail = 1n;
	for (let i = 1; i <= k; i += 1) {
		term = (term * BigInt(n - i + 1)) / BigInt(i);
		tail += term;
	}
	return Math.min(1, ratioToNumber(2n * tail, 1n << BigInt(n)));
}

/**
 * Pairs two models' item results (item key → correct) on the keys both have and tests them.
 * `a` and `b` are any maps whose keys name the same items (e.g. `suite\u0000itemNumber` over a battery).
 */
export function mcnemarTest<K>(
	a: ReadonlyMap<K, boolean>,
	b: ReadonlyMap<K, boolean>,
): McNemarResult {
	let aOnly = 0;
	let bOnly = 0;
	let both = 0;
	let neither = 0;
	for (const [key, resultA] of a) {
		const resultB = b.get(key);
		if (resultB === undefined) continue;
		if (resultA && resultB) both += 1;
		else if (resultA) aOnly += 1;
		else if (resultB) bOnly += 1;
		else neither += 1;
	}
	return {
		pairs: aOnly + bOnly + both + neither,
		aOnly,
		bOnly,
		both,
		neither,
		pValue: mcnemarExactPValue(aOnly, bOnly),
	};
}

/**
 * Holm's step-down adjustment of p-values tested together (Holm 1979; statsmodels
 * `multipletests(p, method='holm')`): the i-th smallest of m becomes (m − i + 1) · p, made
 * non-decreasing in that order and capped at 1. Controls the chance of any false "differs" across
 * the family at the nominal level. Returns the adjusted values in the input's order.
 * @throws RangeError for a p-value that is not a number in [0, 1].
 */
export function holmAdjust(pValues: readonly number[]): number[] {
	for (const p of pValues) {
		if (!(p >= 0 && p <= 1))
			throw new RangeError(`holmAdjust: need p-values in [0, 1] (got ${p}).`);
	}
	const m = pValues.length;
	const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p);
	const adjusted = new Array<number>(m);
	let running = 0;
	order.forEach(({ p, index }, rank) => {
		running = Math.max(running, Math.min(1, (m - rank) * p));
		adjusted[index] = running;
	});
	return adjusted;
}

/** Two battery runs compared item by item. */
export interface BatteryComparison {
	readonly rule: ItemRule;
	/** Suites both runs have (by name), in the order of run A. */
	readonly suites: readonly {
		readonly suiteName: string;
		readonly test: McNemarResult;
		/** Holm-adjusted over the per-suite tests (see {@link holmAdjust}). */
		readonly adjustedPValue: number;
	}[];
	/**
	 * Every item of the suites both runs have and the SG score counts, pooled (so suites weigh by
	 * their items here, while the SG score weighs them equally).
	 */
	readonly battery: McNemarResult;
}

/**
 * Paired exact McNemar tests of runs A and B: per suite, on the items both scored (item results
 * under `rule`, default the SG score's), Holm-adjusted over the suites, and over the battery.
 */
export function compareBatteryRuns(
	a: readonly BatterySuiteCell[],
	b: readonly BatterySuiteCell[],
	rule: ItemRule = DEFAULT_SG_RULE,
): BatteryComparison {
	const cellsB = new Map(b.map((cell) => [cell.suiteName, cell]));
	const suites: { suiteName: string; test: McNemarResult }[] = [];
	const pooledA = new Map<string, boolean>();
	const pooledB = new Map<string, boolean>();
	for (const cellA of a) {
		const cellB = cellsB.get(cellA.suiteName);
		if (cellB === undefined) continue;
		const resultsA = cellA.itemResults[rule];
		const resultsB = cellB.itemResults[rule];
		suites.push({ suiteName: cellA.suiteName, test: mcnemarTest(resultsA, resultsB) });
		if (!cellA.inSgScore || !cellB.inSgScore) continue;
		const key = (itemNumber: number) => `${cellA.suiteName}\u0000${itemNumber}`;
		for (const [itemNumber, result] of resultsA) pooledA.set(key(itemNumber), result);
		for (const [itemNumber, result] of resultsB) pooledB.set(key(itemNumber), result);
	}
	const adjusted = holmAdjust(suites.map((suite) => suite.test.pValue));
	return {
		rule,
		suites: suites.map((suite, index) => ({ ...suite, adjustedPValue: adjusted[index] ?? 1 })),
		battery: mcnemarTest(pooledA, pooledB),
	};
}
