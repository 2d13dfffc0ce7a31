// Parity with syntaxgym-core's test data (../shared/peer/syntaxgym/outputs/syntaxgym-core_test):
// GRNN and Transformer-XL lm-zoo surprisals of data/test and data/test-unk → region values of all
// six metrics and the relation prediction under each metric, through the core and the CLI.
import { describe, expect, it } from 'vitest';
import { describeWithPeer } from './peer-data';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { regionsCommand } from '../../src/cli/commands/regions';
import { readLmZooSurprisals } from '../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { scoreSuite } from '../../src/core/syntaxgym/scoring/score-suite';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import { METRIC_NAMES, type MetricName } from '../../src/core/syntaxgym/suite/types';
import { runCliCommand } from '../cli/run-cli-command';
import {
	PEER_SYNTAXGYM,
	syntaxgymPeerPaths,
	maxDifferences,
	metricDifference,
	parseTsvRecords,
	readMetricField,
	readPeerText,
	recordRegionKey,
	regionKey,
} from './syntaxgym-peer';

const TOLERANCE = 1e-9;
const ROOT = 'outputs/syntaxgym-core_test/';
const MODELS = ['grnn', 'transformer-xl'] as const;
const CASES = [
	{ dataset: 'test', suite: `${ROOT}test/test_in.json`, surprisals: `${ROOT}test/test_surp_` },
	{ dataset: 'test-unk', suite: `${ROOT}test-unk/in.json`, surprisals: `${ROOT}test-unk/surp_` },
].flatMap(({ dataset, suite, surprisals }) =>
	MODELS.map((model) => ({ dataset, model, suite, surprisals: `${surprisals}${model}.txt` })),
);

const PEER_FILES = syntaxgymPeerPaths(
	`${ROOT}expected_regions.tsv`,
	`${ROOT}expected_predictions.tsv`,
	...CASES.flatMap(({ suite, surprisals }) => [suite, surprisals]),
);

describeWithPeer('parity: syntaxgym-core test data', PEER_FILES, () => {
	const expectedRegions = parseTsvRecords(readPeerText(`${ROOT}expected_regions.tsv`));
	const expectedPredictions = parseTsvRecords(readPeerText(`${ROOT}expected_predictions.tsv`));

	describe.each(CASES)('$dataset / $model', ({ dataset, model, suite, surprisals }) => {
		const regionRows = () =>
			expectedRegions.filter((row) => row.dataset === dataset && row.model === model);
		const predictionRows = () =>
			expectedPredictions.filter((row) => row.dataset === dataset && row.model === model);

		it('core: tokens per region and all six metrics within 1e-9 of expected_regions.tsv; every expected prediction', () => {
			const parsed = parseSuite(readPeerText(suite));
			if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
			const sentences = readLmZooSurprisals(readPeerText(surprisals), surprisals);
			const score = scoreSuite(
				parsed.suite,
				sentences.map((sentence) => sentence.tokens),
				{ alignment: 'strings', regionMetrics: METRIC_NAMES },
			);
			const ours = new Map(
				score.regionValues.map((v) => [
					regionKey(v.itemNumber, v.conditionName, v.regionNumber),
					v,
				]),
			);
			const expected = regionRows();
			expect(expected).toHaveLength(24);
			expect(score.regionValues).toHaveLength(expected.length);
			const differences = expected.map((row) => {
				const value = ours.get(recordRegionKey(row));
				const where = `item ${row.item_number} ${row.condition_name} region ${row.region_number}`;
				expect(value, where).toBeDefined();
				expect(value?.content, where).toBe(row.content);
				expect(value?.tokens.join(' '), where).toBe(row.tokens);
				expect(value?.tokens.length, where).toBe(Number(row.n_tokens));
				return Object.fromEntries(
					METRIC_NAMES.map((m) => [m, metricDifference(row[m] ?? '', value?.values[m])]),
				) as Record<MetricName, number>;
			});
			const max = maxDifferences(differences);
			console.info(`syntaxgym-core ${dataset}/${model} (core): max |Δ| ${JSON.stringify(max)}`);
			for (const metric of METRIC_NAMES) expect(max[metric], metric).toBeLessThanOrEqual(TOLERANCE);

			const outcomes = new Map(
				score.outcomes.map((o) => [`${o.metric} ${o.itemNumber} ${o.predictionId}`, o]),
			);
			const predictions = predictionRows();
			expect(predictions).toHaveLength(12);
			expect(score.outcomes).toHaveLength(predictions.length);
			for (const row of predictions) {
				const key = `${row.metric} ${row.item_number} ${row.prediction_id}`;
				expect(outcomes.get(key)?.result, key).toBe(row.result === 'True');
				expect(parsed.suite.predictions[Number(row.prediction_id)]?.formula, key).toBe(row.formula);
			}
		});

		it('CLI: `regions` reproduces expected_regions.tsv and `evaluate` expected_predictions.tsv', async () => {
			const suitePath = `${PEER_SYNTAXGYM}${suite}`;
			const surprisalsPath = `${PEER_SYNTAXGYM}${surprisals}`;
			const regions = await runCliCommand(
				regionsCommand,
				[suitePath, '--surprisals', surprisalsPath],
				'disk',
			);
			expect(regions.exitCode, regions.stderr).toBe(0);
			const printed = new Map(parseTsvRecords(regions.stdout).map((r) => [recordRegionKey(r), r]));
			const expected = regionRows();
			expect(printed.size).toBe(expected.length);
			const differences = expected.map((row) => {
				const where = `item ${row.item_number} ${row.condition_name} region ${row.region_number}`;
				const ours = printed.get(recordRegionKey(row));
				expect(ours?.content, where).toBe(row.content);
				expect(ours?.tokens, where).toBe(row.tokens);
				return Object.fromEntries(
					METRIC_NAMES.map((m) => [
						m,
						metricDifference(row[m] ?? '', readMetricField(ours?.[m] ?? '')),
					]),
				) as Record<MetricName, number>;
			});
			const max = maxDifferences(differences);
			console.info(
				`syntaxgym-core ${dataset}/${model} (CLI regions): max |Δ| ${JSON.stringify(max)}`,
			);
			for (const metric of METRIC_NAMES) expect(max[metric], metric).toBeLessThanOrEqual(TOLERANCE);

			const evaluated = await runCliCommand(
				evaluateCommand,
				[suitePath, '--surprisals', surprisalsPath],
				'disk',
			);
			expect(evaluated.exitCode, evaluated.stderr).toBe(0);
			const results = parseTsvRecords(evaluated.stdout);
			const predictions = predictionRows();
			expect(results).toHaveLength(predictions.length);
			const byKey = new Map(
				results.map((r) => [`${r.metric} ${r.item_number} ${r.prediction_id}`, r.result]),
			);
			for (const row of predictions) {
				const key = `${row.metric} ${row.item_number} ${row.prediction_id}`;
				expect(byKey.get(key), key).toBe(row.result);
			}
		});
	});
});
