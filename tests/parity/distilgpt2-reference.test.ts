// Parity with brain-score's distilgpt2 reference (../shared/peer/syntaxgym/outputs/
// distilgpt2_reference): region totals computed with syntaxgym-core → every expected prediction,
// and the published all-predictions accuracies of the two complete suites.
import { describe, expect, it } from 'vitest';
import { describeWithPeer } from './peer-data';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { readRegionsTsv } from '../../src/core/syntaxgym/formats/regions-tsv';
import { scoreRegionRows } from '../../src/core/syntaxgym/scoring/score-region-rows';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { runCliCommand } from '../cli/run-cli-command';
import {
	PEER_SYNTAXGYM,
	syntaxgymPeerPaths,
	parseTsvRecords,
	readPeerText,
} from './syntaxgym-peer';

const ROOT = 'outputs/distilgpt2_reference/';
const TOTALS = `${ROOT}region_totals.tsv`;
const EXPECTED_PREDICTIONS = `${ROOT}expected_predictions.tsv`;
const PUBLISHED_ACCURACIES = `${ROOT}suite_accuracies.tsv`;

/** The suites with totals: [name, items with totals, all-predictions accuracy (complete suites)]. */
const SUITES = [
	{ suite: 'subordination_src-src', items: 23, correct: 13, accuracy: '0.565217' },
	{ suite: 'number_prep', items: 19, correct: 11, accuracy: '0.578947' },
	{ suite: 'cleft_modifier', items: 1 },
	{ suite: 'npz_ambig', items: 1 },
	{ suite: 'number_orc', items: 1 },
] as const;

const suitePath = (suite: string) => `suites/nextflow/${suite}.json`;

const PEER_FILES = syntaxgymPeerPaths(
	TOTALS,
	EXPECTED_PREDICTIONS,
	PUBLISHED_ACCURACIES,
	...SUITES.map(({ suite }) => suitePath(suite)),
);

describeWithPeer('parity: distilgpt2 reference region totals', PEER_FILES, () => {
	const expectedPredictions = parseTsvRecords(readPeerText(EXPECTED_PREDICTIONS));
	const published = parseTsvRecords(readPeerText(PUBLISHED_ACCURACIES));

	it('covers every row of expected_predictions.tsv', () => {
		expect(expectedPredictions.length).toBe(SUITES.reduce((n, { items }) => n + items, 0));
		expect(new Set(expectedPredictions.map((row) => row.suite))).toEqual(
			new Set(SUITES.map(({ suite }) => suite)),
		);
	});

	describe.each(SUITES)('$suite', (example) => {
		const expected = () => expectedPredictions.filter((row) => row.suite === example.suite);

		it('core: the totals give every expected prediction (and the published accuracy)', () => {
			const parsed = parseSuite(readPeerText(suitePath(example.suite)));
			if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
			const { suite } = parsed;
			const rows = readRegionsTsv(readPeerText(TOTALS), {
				source: TOTALS,
				metrics: suite.meta.metrics,
				suiteName: suite.meta.name,
			});
			const score = scoreRegionRows(suite, rows, TOTALS);
			const rowsExpected = expected();
			expect(rowsExpected).toHaveLength(example.items);
			expect(score.outcomes).toHaveLength(rowsExpected.length);
			const outcomes = new Map(score.outcomes.map((o) => [`${o.itemNumber} ${o.predictionId}`, o]));
			for (const row of rowsExpected) {
				const where = `item ${row.item_number} prediction ${row.prediction_id}`;
				expect(outcomes.get(`${row.item_number} ${row.prediction_id}`)?.result, where).toBe(
					row.result === 'True',
				);
				expect(suite.predictions[Number(row.prediction_id)]?.formula, where).toBe(row.formula);
			}
			expect(score.itemsWithoutValues).toHaveLength(suite.items.length - example.items);
			if ('accuracy' in example) {
				const all = score.summary.items.find((i) => i.rule === 'all-predictions');
				expect([all?.correct, all?.total]).toEqual([example.correct, example.items]);
				expect(all?.accuracy.toFixed(6)).toBe(example.accuracy);
				const publishedAccuracy = published.find((row) => row.suite === example.suite)?.accuracy;
				expect(Number(publishedAccuracy)).toBeCloseTo(all?.accuracy ?? Number.NaN, 6);
			}
		});

		it('CLI: `evaluate --regions region_totals.tsv` prints every expected row', async () => {
			const run = await runCliCommand(
				evaluateCommand,
				[`${PEER_SYNTAXGYM}${suitePath(example.suite)}`, '--regions', `${PEER_SYNTAXGYM}${TOTALS}`],
				'disk',
			);
			expect(run.exitCode, run.stderr).toBe(0);
			const results = parseTsvRecords(run.stdout);
			const rowsExpected = expected();
			expect(results.map((r) => [r.suite, r.item_number, r.prediction_id, r.result])).toEqual(
				rowsExpected.map((r) => [r.suite, r.item_number, r.prediction_id, r.result]),
			);
			if ('accuracy' in example) {
				expect(run.stderr).toContain(
					`items, all predictions hold: ${example.correct}/${example.items} = ${example.accuracy}\n`,
				);
			}
		});
	});
});
