// The battery's cells (accuracy per prediction with counts and Wilson intervals, the two item
// rules), circuit means and the SG score, on small hand-counted batteries.
import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../../../src/core/syntaxgym/battery/intervals';
import {
	batterySuiteCell,
	itemAccuracy,
	scoreBattery,
	sgScore,
} from '../../../../src/core/syntaxgym/battery/sg-score';
import { fixtureOutcomes, fixtureSuite } from './battery-fixtures';

const T = true;
const F = false;

describe('batterySuiteCell', () => {
	it('counts each prediction over the items that have its outcome, and all predictions jointly', () => {
		const suite = fixtureSuite('two', { predictions: 2 });
		const cell = batterySuiteCell({
			suite,
			outcomes: fixtureOutcomes([
				[T, T, F, T],
				[T, F, F, null],
			]),
		});
		expect(cell.predictions.map((p) => [p.prediction, p.correct, p.items])).toEqual([
			[0, 3, 4],
			[1, 1, 3],
		]);
		expect(cell.allPredictions).toMatchObject({ prediction: 'all', correct: 1, items: 3 });
		expect(cell.predictions[0]?.accuracy).toBe(0.75);
		expect(cell.predictions[0]?.interval).toEqual(wilsonInterval(3, 4));
		expect(itemAccuracy(cell, 'first-prediction').correct).toBe(3);
		expect(itemAccuracy(cell, 'all-predictions').correct).toBe(1);
	});

	it("reads outcomes under the suite's first metric only", () => {
		const suite = fixtureSuite('metrics', { metric: ['mean', 'sum'], items: 2 });
		const outcomes = [...fixtureOutcomes([[T, T]], 'mean'), ...fixtureOutcomes([[F, F]], 'sum')];
		const cell = batterySuiteCell({ suite, outcomes });
		expect(cell.metric).toBe('mean');
		expect(cell.predictions[0]).toMatchObject({ correct: 2, items: 2 });
	});

	it('has NaN accuracy and no interval when nothing was scored', () => {
		const cell = batterySuiteCell({ suite: fixtureSuite('empty'), outcomes: [] });
		expect(cell.predictions[0]?.items).toBe(0);
		expect(cell.predictions[0]?.accuracy).toBeNaN();
		expect(cell.predictions[0]?.interval).toBeUndefined();
	});
});

describe('sgScore', () => {
	const battery = scoreBattery([
		// Licensing: 3/4 and 1/4 -> mean 0.5
		{ suite: fixtureSuite('npi_orc_any'), outcomes: fixtureOutcomes([[T, T, T, F]]) },
		{ suite: fixtureSuite('reflexive_src_fem'), outcomes: fixtureOutcomes([[T, F, F, F]]) },
		// Agreement: 4/4
		{ suite: fixtureSuite('number_src'), outcomes: fixtureOutcomes([[T, T, T, T]]) },
		// Left out by the master notebook, whatever its accuracy.
		{ suite: fixtureSuite('fgd-embed3'), outcomes: fixtureOutcomes([[F, F, F, F]]) },
		// A suite of the user's, two predictions: first 2/4, all 0/4.
		{
			suite: fixtureSuite('mine', { predictions: 2, tags: ['binding'] }),
			outcomes: fixtureOutcomes([
				[T, T, F, F],
				[F, F, F, F],
			]),
		},
		// Nothing scored: left out.
		{ suite: fixtureSuite('subordination'), outcomes: [] },
	]);

	it('is the unweighted mean over suites of item accuracy (first prediction only by default)', () => {
		const sg = battery.sg['first-prediction'];
		expect(sg.suites).toBe(4);
		expect(sg.score).toBeCloseTo((0.75 + 0.25 + 1 + 0.5) / 4, 15);
		expect(sg.leftOut).toEqual([
			{ suiteName: 'fgd-embed3', reason: 'hu2020-excluded' },
			{ suiteName: 'subordination', reason: 'no-items' },
		]);
		expect(sgScore(battery.cells).score).toBe(sg.score);
	});

	it('under "all predictions hold" a suite with several predictions counts the conjunction', () => {
		expect(battery.sg['all-predictions'].score).toBeCloseTo((0.75 + 0.25 + 1 + 0) / 4, 15);
	});

	it("gives circuit means in Hu et al.'s order, then the suites' own circuits", () => {
		expect(battery.sg['first-prediction'].circuits).toEqual([
			{ circuit: 'Licensing', suites: 2, mean: 0.5 },
			{ circuit: 'Agreement', suites: 1, mean: 1 },
			{ circuit: 'binding', suites: 1, mean: 0.5 },
		]);
	});

	it('is NaN for a battery with no suite counted', () => {
		expect(sgScore([]).score).toBeNaN();
	});
});
