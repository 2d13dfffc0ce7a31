// Parity with Hu et al. (2020)'s published data (../shared/peer/syntaxgym, never copied here): the
// per-item results of the five pretrained models, as prediction-0 outcomes of the published
// (master) suites, go through the battery aggregation (core/battery) and must give the SG scores
// of reference-syntaxgym.md §5 (to 3 decimals), the derived per-suite accuracies and SG scores
// (6 decimals), and circuits by the notebook's name patterns.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { describeWithPeer } from './peer-data';
import { PEER_SYNTAXGYM, syntaxgymPeerPaths } from './syntaxgym-peer';
import {
	HU2020_SUITE_NAMES,
	UNGROUPED,
	isHu2020SuiteSet,
} from '../../src/core/syntaxgym/battery/circuits';
import { HU2020_PUBLISHED_SG_SCORES } from '../../src/core/syntaxgym/battery/published-scores';
import { scoreBattery, type BatterySuiteInput } from '../../src/core/syntaxgym/battery/sg-score';
import { readTsvTable } from '../../src/core/formats/tsv-table';
import type { PredictionOutcome } from '../../src/core/syntaxgym/scoring/types';
import { parseSuite } from '../../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../src/core/syntaxgym/suite/types';

const RESULTS = 'outputs/hu2020_item_results/';
const DERIVED_SG = 'outputs/hu2020_sg_scores_derived.csv';
const DERIVED_SUITES = 'outputs/hu2020_suite_accuracy_pretrained_derived.csv';
const resultFile = (id: string) => `${RESULTS}syntaxgym_results_${id}_.csv`;
const suiteFile = (name: string) => `suites/${name}.json`;

const PEER_FILES = syntaxgymPeerPaths(
	...HU2020_PUBLISHED_SG_SCORES.map(({ id }) => resultFile(id)),
	...HU2020_SUITE_NAMES.map(suiteFile),
	DERIVED_SG,
	DERIVED_SUITES,
);

function readCsv(path: string): Record<string, string>[] {
	const table = readTsvTable(readFileSync(`${PEER_SYNTAXGYM}${path}`, 'utf8'), {
		source: path,
		separator: 'comma',
	});
	return table.rows.map((row) =>
		Object.fromEntries(table.header.map((column, i) => [column, row.fields[i] ?? ''])),
	);
}

function readSuite(name: string): Suite {
	const parsed = parseSuite(readFileSync(`${PEER_SYNTAXGYM}${suiteFile(name)}`, 'utf8'));
	if (!parsed.ok) throw new Error(`${name}: the published suite does not parse`);
	return parsed.suite;
}

/**
 * A results CSV (`model, suite, item, correct`; item = 0-based position in the suite file) as
 * the battery's input: prediction-0 outcomes under `sum`, suites in name order.
 */
function batteryInputs(id: string, suites: ReadonlyMap<string, Suite>): BatterySuiteInput[] {
	const outcomes = new Map<string, PredictionOutcome[]>();
	for (const row of readCsv(resultFile(id))) {
		const suite = suites.get(row.suite ?? '');
		const item = suite?.items[Number(row.item)];
		if (suite === undefined || item === undefined) {
			throw new Error(`${id}: no item ${row.item} in suite ${row.suite}`);
		}
		const result = row.correct === 'True';
		const list = outcomes.get(suite.meta.name) ?? [];
		list.push({
			itemNumber: item.itemNumber,
			predictionId: 0,
			metric: 'sum',
			value: result,
			result,
		});
		outcomes.set(suite.meta.name, list);
	}
	return [...suites.values()].map((suite) => ({
		suite,
		outcomes: outcomes.get(suite.meta.name) ?? [],
	}));
}

describeWithPeer('Hu et al. 2020 SG scores from the published per-item results', PEER_FILES, () => {
	const suites = new Map(HU2020_SUITE_NAMES.map((name) => [name, readSuite(name)]));
	const scores = new Map(
		HU2020_PUBLISHED_SG_SCORES.map(({ id }) => [id, scoreBattery(batteryInputs(id, suites))]),
	);
	const battery = (id: string) => {
		const score = scores.get(id);
		if (score === undefined) throw new Error(`no battery for ${id}`);
		return score;
	};

	it('the battery is the Hu et al. suite set: 34 suites, 31 in the SG score, every item counted', () => {
		expect(isHu2020SuiteSet(HU2020_SUITE_NAMES)).toBe(true);
		for (const { id } of HU2020_PUBLISHED_SG_SCORES) {
			const { cells, sg } = battery(id);
			expect(cells.map((cell) => cell.predictions[0]?.items)).toEqual(
				[...suites.values()].map((suite) => suite.items.length),
			);
			expect(sg['first-prediction'].suites).toBe(31);
			expect(sg['first-prediction'].leftOut.map((s) => s.suiteName).sort()).toEqual([
				'fgd-embed3',
				'fgd-embed4',
				'nn-nv-rpl',
			]);
		}
	});

	it.each(HU2020_PUBLISHED_SG_SCORES.map((entry) => [entry.label, entry] as const))(
		'%s: the SG score is the published one to 3 decimals',
		(_label, { id, sgScore }) => {
			const { score } = battery(id).sg['first-prediction'];
			console.info(`SG parity ${id}: ${score.toFixed(6)} (published ${sgScore})`);
			expect(score.toFixed(3)).toBe(sgScore.toFixed(3));
		},
	);

	it('SG scores and per-suite accuracies equal the derived tables (6 decimals)', () => {
		const derivedSg = readCsv(DERIVED_SG).filter((row) => row.branch === 'master');
		const derivedSuites = readCsv(DERIVED_SUITES);
		for (const { id } of HU2020_PUBLISHED_SG_SCORES) {
			const expected = derivedSg.find((row) => row.model === id && row.corpus === '');
			expect(expected?.n_suites).toBe('31');
			expect(battery(id).sg['first-prediction'].score).toBeCloseTo(Number(expected?.sg_score), 6);
			for (const cell of battery(id).cells) {
				const row = derivedSuites.find((r) => r.suite === cell.suiteName);
				expect(row?.n_items).toBe(String(cell.predictions[0]?.items));
				expect(cell.predictions[0]?.accuracy).toBeCloseTo(Number(row?.[`${id}__0`]), 6);
			}
		}
	});

	it("circuits follow the notebook's name patterns; circuit means average their suites", () => {
		const { cells, sg } = battery('gpt-2-pretrained');
		const circuitOf = (name: string) => cells.find((cell) => cell.suiteName === name)?.circuit;
		expect(circuitOf('npi_orc_any')).toBe('Licensing');
		expect(circuitOf('reflexive_src_masc')).toBe('Licensing');
		expect(circuitOf('cleft_modifier')).toBe('Long-Distance Dependencies');
		expect(circuitOf('fgd_hierarchy')).toBe('Long-Distance Dependencies');
		expect(circuitOf('number_prep')).toBe('Agreement');
		expect(circuitOf('mvrr_mod')).toBe('Garden-Path Effects');
		expect(circuitOf('subordination_orc-orc')).toBe('Gross Syntactic State');
		expect(circuitOf('center_embed_mod')).toBe('Center Embedding');
		expect(circuitOf('nn-nv-rpl')).toBe(UNGROUPED);
		const circuits = sg['first-prediction'].circuits;
		expect(circuits.map((c) => [c.circuit, c.suites])).toEqual([
			['Licensing', 10],
			['Long-Distance Dependencies', 6],
			['Agreement', 3],
			['Garden-Path Effects', 6],
			['Gross Syntactic State', 4],
			['Center Embedding', 2],
		]);
		const agreement = cells.filter((cell) => cell.circuit === 'Agreement');
		const mean =
			agreement.reduce((total, cell) => total + (cell.predictions[0]?.accuracy ?? 0), 0) /
			agreement.length;
		expect(circuits.find((c) => c.circuit === 'Agreement')?.mean).toBeCloseTo(mean, 12);
	});
});
