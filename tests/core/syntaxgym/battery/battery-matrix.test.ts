// The model × suite matrix: which runs form which columns (picked runs by model and convention,
// batteries by suite set), the newest run per suite, cells that say when a run is unfinished or
// its suite unreadable, circuit rows, published columns for Hu et al.'s set only, McNemar.
// McNemar p-values: scipy 1.17.1 `binomtest(min(b, c), b + c, 0.5).pvalue` (the numbers of
// mcnemar.test.ts), and by hand: 2 · C(9, 0) / 2⁹ = 0.00390625; for b + c = 21 (odd) and
// min = 10, P(X ≤ 10) = ½ exactly, so p = 1. Holm-adjusted values: statsmodels 0.15.0,
//   python3 -c "from statsmodels.stats.multitest import multipletests;
//   print(multipletests([0.00390625, 0.03857421875, 0.125], method='holm')[1])"
// → [0.01171875 0.0771484375 0.125].
import { describe, expect, it } from 'vitest';
import {
	BATTERY_CSV_COLUMNS,
	writeBatteryCsv,
} from '../../../../src/core/syntaxgym/battery/battery-csv';
import {
	buildBatteryMatrix,
	compareMatrixColumns,
	newestBatteryId,
	planBatteryMatrix,
	planMatrix,
	planPickedRunsMatrix,
	writeMatrixCsv,
	type MatrixPlan,
	type MatrixRunLoad,
} from '../../../../src/core/syntaxgym/battery/battery-matrix';
import { HU2020_SG_SUITE_NAMES } from '../../../../src/core/syntaxgym/battery/circuits';
import { wilsonInterval } from '../../../../src/core/syntaxgym/battery/intervals';
import { HU2020_PUBLISHED_SG_SCORES } from '../../../../src/core/syntaxgym/battery/published-scores';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';
import type { SurprisalConvention } from '../../../../src/core/model/model-spec';
import { fixtureOutcomes, fixtureSuite } from './battery-fixtures';

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 10, 20);

interface RunOptions {
	readonly model?: string;
	readonly convention?: SurprisalConvention;
	readonly createdAt?: number;
	readonly battery?: string;
	readonly sha?: string;
	readonly status?: SuiteRun['status'];
	readonly itemsDone?: number;
	readonly itemCount?: number;
}

function run(id: number, suiteName: string, options: RunOptions = {}): SuiteRun {
	const itemCount = options.itemCount ?? 4;
	return {
		id,
		suiteSha256: options.sha ?? `sha-${suiteName}`,
		suiteName,
		model: {
			source: 'bundled',
			id: options.model ?? 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'wasm',
		},
		convention: options.convention ?? 'reference',
		itemCount,
		...(options.battery === undefined
			? {}
			: { battery: { id: options.battery, index: 0, size: 2 } }),
		appVersion: '0.0.0',
		createdAt: options.createdAt ?? T0 + id,
		status: options.status ?? 'done',
		itemsDone: options.itemsDone ?? itemCount,
		updatedAt: T0,
		scoringMs: 1,
		tokenCount: 1,
	};
}

/** Loads for runs: each run's suite (by its name) with the given results per prediction. */
function loads(
	entries: readonly (readonly [SuiteRun, readonly (readonly (boolean | null)[])[]])[],
): Map<number, MatrixRunLoad> {
	return new Map(
		entries.map(([r, results]) => [
			r.id,
			{
				ok: true,
				suite: fixtureSuite(r.suiteName, {
					items: results[0]?.length ?? 4,
					predictions: results.length,
				}),
				outcomes: fixtureOutcomes(results),
			},
		]),
	);
}

describe('planPickedRunsMatrix', () => {
	it('makes a column per model and convention, in the order models are first picked', () => {
		const runs = [
			run(1, 'a', { model: 'gpt2-random-tiny' }),
			run(2, 'a'),
			run(3, 'b', { model: 'gpt2-random-tiny' }),
			run(4, 'b'),
			run(5, 'b', { convention: 'bos' }),
		];
		const plan = planPickedRunsMatrix([2, 1, 3, 4, 5], runs);
		expect(plan.columns.map((c) => [c.modelName, c.convention, c.runs.map((r) => r.id)])).toEqual([
			['gpt2-en-small', 'reference', [2, 4]],
			['gpt2-random-tiny', 'reference', [1, 3]],
			['gpt2-en-small', 'bos', [5]],
		]);
		expect(plan.columns[0]?.label).toBe('gpt2-en-small · reference · 2026-11-20');
		expect(plan.missingRunIds).toEqual([]);
	});

	it('keeps the newest run of a suite in a column and says which run it replaced', () => {
		const runs = [
			run(1, 'a', { createdAt: T0 + DAY_MS }),
			run(2, 'a', { createdAt: T0 }),
			run(3, 'b'),
		];
		const [column] = planPickedRunsMatrix([2, 1, 3], runs).columns;
		expect(column?.runs.map((r) => r.id)).toEqual([1, 3]);
		expect(column?.replaced).toEqual([{ runId: 2, byRunId: 1 }]);
		expect(column?.label).toBe('gpt2-en-small · reference · 2026-11-21');
	});

	it('lists picked ids that are not stored, and ignores repeats; the input is not mutated', () => {
		const runs = [run(1, 'a'), run(2, 'b')];
		const before = JSON.stringify(runs);
		const plan = planPickedRunsMatrix([1, 1, 99, 2, -3], runs);
		expect(plan.missingRunIds).toEqual([99, -3]);
		expect(plan.columns[0]?.runs.map((r) => r.id)).toEqual([1, 2]);
		expect(JSON.stringify(runs)).toBe(before);
	});

	it('numbers labels that would clash (same model and date, other revision)', () => {
		const a = run(1, 'a');
		const b = { ...run(2, 'a'), model: { ...a.model, revision: 'main' } } as SuiteRun;
		const plan = planPickedRunsMatrix([1, 2], [a, b]);
		expect(plan.columns.map((c) => c.label)).toEqual([
			'gpt2-en-small · reference · 2026-11-20 (1)',
			'gpt2-en-small · reference · 2026-11-20 (2)',
		]);
	});

	it('has no columns when nothing picked is stored', () => {
		expect(planPickedRunsMatrix([5], []).columns).toEqual([]);
	});
});

describe('planBatteryMatrix', () => {
	const runs = [
		run(1, 'a', { battery: 'A', createdAt: T0 }),
		run(2, 'b', { battery: 'A', createdAt: T0 }),
		run(3, 'a', { battery: 'B', model: 'gpt2-random-tiny', createdAt: T0 + DAY_MS }),
		run(4, 'b', { battery: 'B', model: 'gpt2-random-tiny', createdAt: T0 + DAY_MS }),
		run(5, 'a', { battery: 'C', createdAt: T0 + 2 * DAY_MS }),
		run(6, 'a', { battery: 'D', sha: 'other-a', createdAt: T0 + 3 * DAY_MS }),
		run(7, 'b', { battery: 'D', createdAt: T0 + 3 * DAY_MS }),
		run(8, 'a', { createdAt: T0 + 4 * DAY_MS }),
		run(9, 'b', { battery: 'E', createdAt: T0 - DAY_MS }),
		run(10, 'a', { battery: 'E', createdAt: T0 - DAY_MS }),
	];

	it('takes the battery, then other batteries of the same suite texts, newest first', () => {
		const plan = planBatteryMatrix('A', runs);
		expect(plan.columns.map((c) => [c.batteryId, c.runs.map((r) => r.id)])).toEqual([
			['A', [1, 2]],
			['B', [3, 4]],
			['E', [10, 9]],
		]);
		// C has one suite of the two; D has a suite of the same name but another text.
		expect(planBatteryMatrix('D', runs).columns.map((c) => c.batteryId)).toEqual(['D']);
	});

	it('has no columns for an unknown battery', () => {
		expect(planBatteryMatrix('nope', runs).columns).toEqual([]);
	});

	it('finds the newest battery (runs outside batteries do not count)', () => {
		expect(newestBatteryId(runs)).toBe('D');
		expect(newestBatteryId([run(1, 'a')])).toBeUndefined();
	});

	it('plans what a matrix link asks for: a battery, picked runs, else the newest battery', () => {
		expect(planMatrix({ batteryId: 'B' }, runs)?.columns[0]?.batteryId).toBe('B');
		expect(planMatrix({ runIds: [8] }, runs)?.source).toBe('picked');
		expect(planMatrix({}, runs)?.batteryId).toBe('D');
		expect(planMatrix({}, [run(1, 'a')])).toBeUndefined();
	});
});

describe('buildBatteryMatrix', () => {
	it('shows item accuracy (first prediction) with its Wilson interval, and marks unfinished runs', () => {
		const done = run(1, 'a');
		const partial = run(2, 'a', { model: 'gpt2-random-tiny', status: 'cancelled', itemsDone: 2 });
		const plan = planPickedRunsMatrix([1, 2], [done, partial]);
		const matrix = buildBatteryMatrix(
			plan,
			loads([
				[
					done,
					[
						[true, true, true, false],
						[false, false, true, true],
					],
				],
				[
					partial,
					[
						[true, false, null, null],
						[true, true, null, null],
					],
				],
			]),
		);
		const [row] = matrix.rows;
		const [first, second] = row?.cells ?? [];
		if (first?.kind !== 'scored' || second?.kind !== 'scored') throw new Error('not scored');
		expect([first.accuracy.correct, first.accuracy.items, first.accuracy.accuracy]).toEqual([
			3, 4, 0.75,
		]);
		expect(first.accuracy.interval).toEqual(wilsonInterval(3, 4));
		expect(first.cell.predictions.map((p) => p.correct)).toEqual([3, 2]);
		expect(first.finished).toBe(true);
		expect([second.finished, second.itemsDone, second.itemCount]).toEqual([false, 2, 4]);
		expect([second.accuracy.correct, second.accuracy.items]).toEqual([1, 2]);
		expect(matrix.columns.map((c) => c.sg.score)).toEqual([0.75, 0.5]);
	});

	it('groups rows by circuit (Hu et al. order, then others, ungrouped last) with means', () => {
		const names = ['zeta', 'number_src', 'npi_orc_any', 'number_prep', 'mine'];
		const runs = names.map((name, i) => run(i + 1, name));
		const results = [[true, true, false, false]];
		const table = loads(runs.map((r) => [r, results]));
		const mine = table.get(5);
		if (mine?.ok !== true) throw new Error('fixture');
		table.set(5, { ...mine, suite: fixtureSuite('mine', { tags: ['my-circuit'] }) });
		const matrix = buildBatteryMatrix(
			planPickedRunsMatrix(
				runs.map((r) => r.id),
				runs,
			),
			table,
		);
		expect(matrix.circuits.map((c) => [c.circuit, c.rows.map((r) => r.suiteName)])).toEqual([
			['Licensing', ['npi_orc_any']],
			['Agreement', ['number_prep', 'number_src']],
			['my-circuit', ['mine']],
			['ungrouped', ['zeta']],
		]);
		expect(matrix.circuits[1]?.means[0]).toEqual({
			circuit: 'Agreement',
			suites: 2,
			mean: 0.5,
		});
		expect(matrix.published).toBeUndefined();
	});

	it("adds the published columns for Hu et al.'s suite set only", () => {
		const names = [...HU2020_SG_SUITE_NAMES, 'fgd-embed3'];
		const runs = names.map((name, i) => run(i + 1, name));
		const ids = runs.map((r) => r.id);
		const table = loads(runs.map((r) => [r, [[true, false]]]));
		const matrix = buildBatteryMatrix(planPickedRunsMatrix(ids, runs), table);
		expect(matrix.published?.scores).toBe(HU2020_PUBLISHED_SG_SCORES);
		expect(matrix.published?.source.citation).toMatch(/^Hu, J\./);
		expect(matrix.rows.find((r) => r.suiteName === 'fgd-embed3')?.inSgScore).toBe(false);
		expect(matrix.columns[0]?.sg.suites).toBe(31);
		const fewer = planPickedRunsMatrix(ids.slice(1), runs);
		expect(buildBatteryMatrix(fewer, table).published).toBeUndefined();
	});

	it('says so in the cell when a run cannot be read, and scores the rest', () => {
		const runs = [run(1, 'number_src'), run(2, 'b'), run(3, 'c'), run(4, 'b', { model: 'x' })];
		const table = loads([
			[runs[1] as SuiteRun, [[true, true]]],
			[runs[3] as SuiteRun, [[false, false]]],
		]);
		table.set(1, { ok: false, message: 'The suite of run 1 is no longer stored.' });
		const matrix = buildBatteryMatrix(planPickedRunsMatrix([1, 2, 3, 4], runs), table);
		const number = matrix.rows.find((r) => r.suiteName === 'number_src');
		expect(number?.circuit).toBe('Agreement');
		expect(number?.cells).toEqual([
			{ kind: 'unreadable', runId: 1, message: 'The suite of run 1 is no longer stored.' },
			{ kind: 'absent' },
		]);
		expect(matrix.rows.find((r) => r.suiteName === 'c')?.cells[0]).toEqual({
			kind: 'unreadable',
			runId: 3,
			message: 'not read',
		});
		expect(matrix.columns.map((c) => c.sg.score)).toEqual([1, 0]);
		expect(() => compareMatrixColumns(matrix, 0, 1)).not.toThrow();
		expect(writeMatrixCsv(matrix).split('\r\n')).toHaveLength(1 + 2 + 1);
	});

	it('is empty, not broken, for a plan without columns', () => {
		const plan: MatrixPlan = { source: 'picked', columns: [], missingRunIds: [7] };
		const matrix = buildBatteryMatrix(plan, new Map());
		expect([matrix.rows, matrix.circuits, matrix.published]).toEqual([[], [], undefined]);
	});
});

describe('compareMatrixColumns', () => {
	const t = true;
	const f = false;
	const runs = [
		run(1, 'a', { itemCount: 10 }),
		run(2, 'b', { itemCount: 12 }),
		run(3, 'nn-nv-rpl'),
		run(4, 'a', { model: 'm', itemCount: 10 }),
		run(5, 'b', { model: 'm', itemCount: 12 }),
		run(6, 'nn-nv-rpl', { model: 'm' }),
	];
	const matrix = buildBatteryMatrix(
		planPickedRunsMatrix([1, 2, 3, 4, 5, 6], runs),
		loads([
			[runs[0] as SuiteRun, [Array<boolean>(10).fill(t)]],
			[runs[1] as SuiteRun, [[t, t, ...Array<boolean>(10).fill(f)]]],
			[runs[2] as SuiteRun, [[t, t, t, t]]],
			[runs[3] as SuiteRun, [[t, ...Array<boolean>(9).fill(f)]]],
			[runs[4] as SuiteRun, [[f, f, ...Array<boolean>(10).fill(t)]]],
			[runs[5] as SuiteRun, [[f, f, f, f]]],
		]),
	);
	const comparison = compareMatrixColumns(matrix, 0, 1);
	const test = (name: string) =>
		comparison.rows[matrix.rows.findIndex((r) => r.suiteName === name)]?.test;

	it('tests each suite on its paired items (exact McNemar)', () => {
		expect(test('a')).toMatchObject({ pairs: 10, aOnly: 9, bOnly: 0, both: 1, neither: 0 });
		expect(test('a')?.pValue).toBeCloseTo(0.00390625, 15);
		expect(test('b')).toMatchObject({ aOnly: 2, bOnly: 10 });
		expect(test('b')?.pValue).toBeCloseTo(0.03857421875, 14);
		expect(test('nn-nv-rpl')?.pValue).toBeCloseTo(0.125, 15);
	});

	it('Holm-adjusts the per-suite p-values over the suites tested (as statsmodels)', () => {
		const adjusted = (name: string) =>
			comparison.rows[matrix.rows.findIndex((r) => r.suiteName === name)]?.adjustedPValue;
		expect(adjusted('a')).toBeCloseTo(0.01171875, 15);
		// b: raw 0.0386 is below 0.05, adjusted 0.0771 is not: within noise for three suites at once
		expect(adjusted('b')).toBeCloseTo(0.0771484375, 15);
		expect(adjusted('nn-nv-rpl')).toBeCloseTo(0.125, 15);
	});

	it('pools the suites in the SG score over the battery (nn-nv-rpl left out)', () => {
		expect(comparison.battery).toMatchObject({ pairs: 22, aOnly: 11, bOnly: 10 });
		expect(comparison.battery.pValue).toBe(1);
	});

	it('is symmetric: B against A swaps the counts, not the p-values', () => {
		const swapped = compareMatrixColumns(matrix, 1, 0);
		expect(swapped.battery).toMatchObject({ aOnly: 10, bOnly: 11, pValue: 1 });
		expect(swapped.rows.map((r) => r.test?.pValue)).toEqual(
			comparison.rows.map((r) => r.test?.pValue),
		);
	});

	it('has no test where a column lacks the suite', () => {
		const partial = buildBatteryMatrix(
			planPickedRunsMatrix([1, 5], runs),
			loads([
				[runs[0] as SuiteRun, [[t]]],
				[runs[4] as SuiteRun, [[t]]],
			]),
		);
		const result = compareMatrixColumns(partial, 0, 1);
		expect(result.rows.map((r) => r.test)).toEqual([undefined, undefined]);
		expect(result.rows.map((r) => r.adjustedPValue)).toEqual([undefined, undefined]);
		expect(result.battery.pairs).toBe(0);
	});
});

describe('writeMatrixCsv', () => {
	it('writes the long form: a row per column, suite and prediction (plus "all")', () => {
		const runs = [
			run(1, 'a'),
			run(2, 'b'),
			run(3, 'a', { model: 'm' }),
			run(4, 'b', { model: 'm' }),
		];
		const matrix = buildBatteryMatrix(
			planPickedRunsMatrix([1, 2, 3, 4], runs),
			loads([
				[runs[0] as SuiteRun, [[true, false]]],
				[runs[1] as SuiteRun, [[true], [false]]],
				[runs[2] as SuiteRun, [[false, false]]],
				[runs[3] as SuiteRun, [[true], [true]]],
			]),
		);
		const lines = writeMatrixCsv(matrix).split('\r\n').slice(0, -1);
		expect(lines[0]).toBe(BATTERY_CSV_COLUMNS.join(','));
		// Per column: suite a has 1 prediction (1 line), suite b has 2 (2 lines + "all").
		expect(lines).toHaveLength(1 + 2 * (1 + 3));
		// Wilson 1 of 2 by hand: 0.5 ± 1.96·√(0.125 + 1.96²/16) / (1 + 1.96²/2) = 0.5 ± 0.405469.
		expect(lines[1]).toBe(
			'gpt2-en-small · reference · 2026-11-20,reference,a,ungrouped,0,2,1,0.500000,0.094531,0.905469',
		);
		expect(lines.filter((line) => line.startsWith('m · reference'))).toHaveLength(4);
		expect(writeMatrixCsv(matrix)).toBe(
			writeBatteryCsv(
				matrix.columns.map((c, i) => ({
					model: c.label,
					convention: c.convention,
					cells: matrix.rows.flatMap((r) => {
						const cell = r.cells[i];
						return cell?.kind === 'scored' ? [cell.cell] : [];
					}),
				})),
			),
		);
	});
});
