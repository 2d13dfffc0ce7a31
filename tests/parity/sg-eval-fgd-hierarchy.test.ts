// Parity with pqian11/sg-eval's example (../shared/peer/syntaxgym/outputs/sg-eval_fgd_hierarchy):
// a word-level model's surprisals on the Hu 2020 fgd_hierarchy suite, aligned with its lm-zoo
// spec → region values, both predictions, and accuracies 17/24 (first prediction) and 0/24 (all).
import { expect, it } from 'vitest';
import { describeWithPeer } from './peer-data';
import { evaluateCommand } from '../../src/cli/commands/evaluate';
import { regionsCommand } from '../../src/cli/commands/regions';
import { parseLmZooSpec } from '../../src/core/syntaxgym/formats/lm-zoo-spec';
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
const ROOT = 'outputs/sg-eval_fgd_hierarchy/';
const SUITE = 'suites/nextflow/fgd_hierarchy.json';
const SURPRISALS = `${ROOT}surprisals_fgd_hierarchy.txt`;
const SPEC = `${ROOT}spec.template.json`;
const EXPECTED_REGIONS = `${ROOT}expected_regions.tsv`;
const EXPECTED_PREDICTIONS = `${ROOT}expected_predictions.tsv`;

const PEER_FILES = syntaxgymPeerPaths(
	SUITE,
	SURPRISALS,
	SPEC,
	EXPECTED_REGIONS,
	EXPECTED_PREDICTIONS,
);

describeWithPeer('parity: sg-eval fgd_hierarchy', PEER_FILES, () => {
	const expectedRegions = parseTsvRecords(readPeerText(EXPECTED_REGIONS));
	const expectedPredictions = parseTsvRecords(readPeerText(EXPECTED_PREDICTIONS));

	it('core: tokens and all six metrics within 1e-9 of expected_regions.tsv, every prediction, 17/24 and 0/24', () => {
		const parsed = parseSuite(readPeerText(SUITE));
		if (!parsed.ok) throw new Error(JSON.stringify(parsed.diagnostics));
		const sentences = readLmZooSurprisals(readPeerText(SURPRISALS), SURPRISALS);
		expect(sentences).toHaveLength(144);
		const score = scoreSuite(
			parsed.suite,
			sentences.map((sentence) => sentence.tokens),
			{
				alignment: 'strings',
				tokenizationSpec: parseLmZooSpec(readPeerText(SPEC), SPEC),
				regionMetrics: METRIC_NAMES,
			},
		);
		const ours = new Map(
			score.regionValues.map((v) => [regionKey(v.itemNumber, v.conditionName, v.regionNumber), v]),
		);
		expect(expectedRegions).toHaveLength(1296);
		expect(score.regionValues).toHaveLength(expectedRegions.length);
		const differences = expectedRegions.map((row) => {
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
		console.info(`sg-eval fgd_hierarchy (core): max |Δ| ${JSON.stringify(max)}`);
		for (const metric of METRIC_NAMES) expect(max[metric], metric).toBeLessThanOrEqual(TOLERANCE);

		const outcomes = new Map(score.outcomes.map((o) => [`${o.itemNumber} ${o.predictionId}`, o]));
		expect(expectedPredictions).toHaveLength(48);
		expect(score.outcomes).toHaveLength(expectedPredictions.length);
		for (const row of expectedPredictions) {
			const where = `item ${row.item_number} prediction ${row.prediction_id}`;
			expect(outcomes.get(`${row.item_number} ${row.prediction_id}`)?.result, where).toBe(
				row.result === 'True',
			);
		}
		const { summary } = score;
		expect(summary.predictions.map((p) => [p.predictionId, p.correct, p.total])).toEqual([
			[0, 17, 24],
			[1, 0, 24],
		]);
		expect(summary.items.map((i) => [i.rule, i.correct, i.total])).toEqual([
			['all-predictions', 0, 24],
			['first-prediction', 17, 24],
		]);
	});

	it('CLI: `regions --spec` reproduces expected_regions.tsv and `evaluate --spec` the predictions and accuracies', async () => {
		const files = [SUITE, '--surprisals', SURPRISALS, '--spec', SPEC];
		const args = files.map((arg) => (arg.startsWith('--') ? arg : `${PEER_SYNTAXGYM}${arg}`));
		const regions = await runCliCommand(regionsCommand, args, 'disk');
		expect(regions.exitCode, regions.stderr).toBe(0);
		const printed = new Map(
			parseTsvRecords(regions.stdout).map((row) => [recordRegionKey(row), row]),
		);
		expect(printed.size).toBe(expectedRegions.length);
		const differences = expectedRegions.map((row) => {
			const ours = printed.get(recordRegionKey(row));
			const where = `item ${row.item_number} ${row.condition_name} region ${row.region_number}`;
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
		console.info(`sg-eval fgd_hierarchy (CLI regions): max |Δ| ${JSON.stringify(max)}`);
		for (const metric of METRIC_NAMES) expect(max[metric], metric).toBeLessThanOrEqual(TOLERANCE);

		const evaluated = await runCliCommand(evaluateCommand, args, 'disk');
		expect(evaluated.exitCode, evaluated.stderr).toBe(0);
		const results = parseTsvRecords(evaluated.stdout);
		expect(results).toHaveLength(expectedPredictions.length);
		const byKey = new Map(results.map((r) => [`${r.item_number} ${r.prediction_id}`, r]));
		for (const row of expectedPredictions) {
			const ours = byKey.get(`${row.item_number} ${row.prediction_id}`);
			expect(ours?.suite).toBe('fgd_hierarchy');
			expect(ours?.result, `item ${row.item_number} prediction ${row.prediction_id}`).toBe(
				row.result,
			);
		}
		expect(evaluated.stderr).toContain('items, all predictions hold: 0/24 = 0.000000\n');
		expect(evaluated.stderr).toContain('items, first prediction only: 17/24 = 0.708333\n');
	});
});
