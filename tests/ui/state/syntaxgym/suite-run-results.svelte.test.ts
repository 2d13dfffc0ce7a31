// SuiteRunResults: a stored run read back and scored (accuracies under both item rules, item grid,
// region chart, drill-down), items picked up as the session stores them, exports that import
// back and show identically, and clear messages for runs that cannot be shown.
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeResultsTsv } from '../../../../src/core/syntaxgym/formats/results-tsv';
import { readLmZooSurprisals } from '../../../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import { parseRunBundle } from '../../../../src/core/syntaxgym/run/run-bundle';
import type { ItemResult } from '../../../../src/core/syntaxgym/run/suite-run';
import { scoreSuite } from '../../../../src/core/syntaxgym/scoring/score-suite';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { saveItemResult } from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	deleteSuiteRun,
	importSuiteRun,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { saveSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { SuiteRunResults } from '../../../../src/ui/state/syntaxgym/suite-run-results.svelte';
import { clearDatabase } from '../../../storage/clear-database';

// Mini suite: 1 good "The dog barks ." · 1 bad "The dog bark ." · 2 good "A cat meows ." ·
// 2 bad "A cat meow" (region 3 empty); predictions (2;%bad%) > (2;%good%), (*;%bad%) > (*;%good%).
// happy-dom gives import.meta.url an http scheme; vitest runs from the repository root.
const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

function offsets(text: string, bits: readonly number[]): ScoredToken[] {
	// GPT-2-style word tokens: the joining space belongs to the next token.
	const tokens: ScoredToken[] = [];
	let start = 0;
	text.split(' ').forEach((word, index) => {
		const spaced = index === 0 ? word : ` ${word}`;
		tokens.push({
			token: spaced.replace(' ', 'Ġ'),
			surprisalBits: bits[index] ?? 0,
			start,
			end: start + spaced.length,
		});
		start += spaced.length;
	});
	return tokens;
}

const ITEMS: ItemResult[] = [
	{
		itemNumber: 1,
		sentences: [
			{
				conditionName: 'good',
				text: 'The dog barks .',
				tokens: offsets('The dog barks .', [0, 5, 8, 2]),
			},
			{
				conditionName: 'bad',
				text: 'The dog bark .',
				tokens: offsets('The dog bark .', [0, 5, 12, 3]),
			},
		],
	},
	{
		itemNumber: 2,
		sentences: [
			{
				conditionName: 'good',
				text: 'A cat meows .',
				tokens: offsets('A cat meows .', [0, 6, 9, 2]),
			},
			{ conditionName: 'bad', text: 'A cat meow', tokens: offsets('A cat meow', [0, 6, 7]) },
		],
	},
];

async function storeRun(items: readonly ItemResult[], status: 'running' | 'done' = 'done') {
	const suite = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
	const run = await createSuiteRun({
		suiteSha256: suite.sha256,
		suiteName: 'mini',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 2,
		appVersion: '0.1.0',
		createdAt: 1_700_000_000_000,
	});
	for (const item of items) await saveItemResult(run.id, item);
	if (status === 'done') await updateSuiteRun(run.id, { status: 'done', scoringMs: 1234 });
	return run.id;
}

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > timeoutMs) throw new Error('timed out');
		await new Promise((resolve) => setTimeout(resolve, 5));
	}
}

let results: SuiteRunResults;

beforeEach(async () => {
	await clearDatabase();
	results = new SuiteRunResults();
});

afterEach(() => results.close());

describe('SuiteRunResults', () => {
	it('shows accuracies per prediction and under both named item rules', async () => {
		await results.open(await storeRun(ITEMS));
		expect(results.status).toBe('ready');
		expect(results.metric).toBe('sum');
		expect(results.predictionRows).toEqual([
			{ predictionId: 0, formula: '(2;%bad%) > (2;%good%)', correct: 1, total: 2, accuracy: 0.5 },
			{ predictionId: 1, formula: '(*;%bad%) > (*;%good%)', correct: 1, total: 2, accuracy: 0.5 },
		]);
		expect(results.itemRuleRows.map((r) => [r.label, r.correct, r.total])).toEqual([
			['all predictions hold', 1, 2],
			['first prediction only', 1, 2],
		]);
	});

	it('gives the item grid with sentences and a region chart with one series per condition', async () => {
		await results.open(await storeRun(ITEMS));
		expect(results.itemGrid.map((row) => [row.itemNumber, row.results, row.allHold])).toEqual([
			[1, [true, true], true],
			[2, [false, false], false],
		]);
		expect(results.itemGrid[1]?.sentences[1]).toEqual({ conditionName: 'bad', text: 'A cat meow' });
		const chart = results.chart;
		expect(chart?.labels).toEqual(['1: subject', '2: verb', '3: end']);
		expect(chart?.series.map((s) => s.label)).toEqual(['good', 'bad']);
		// verb region, good: (8 + 9) / 2
		expect(chart?.series[0]?.values[1]).toBe(8.5);
		results.chartMetric = 'max';
		expect(results.chart?.title).toMatch(/max/);
	});

	it('drills into one item: tokens grouped by region, one colour scale', async () => {
		await results.open(await storeRun(ITEMS));
		expect(results.drillDown).toBeNull();
		results.selectItem(1);
		const drill = results.drillDown;
		expect(drill?.itemNumber).toBe(1);
		expect(drill?.scaleBits).toBe(12);
		expect(
			drill?.sentences.map((s) => [
				s.conditionName,
				s.regions.map((r) => r.tokens.map((t) => t.text)),
			]),
		).toEqual([
			['good', [['The', ' dog'], [' barks'], [' .']]],
			['bad', [['The', ' dog'], [' bark'], [' .']]],
		]);
		results.selectItem(7);
		expect(results.drillDown).toBeNull();
	});

	it('picks up items stored while the run is running', async () => {
		const runId = await storeRun(ITEMS.slice(0, 1), 'running');
		results.pollIntervalMs = 10;
		await results.open(runId);
		expect(results.itemsDone).toBe(1);
		expect(results.itemGrid[1]?.allHold).toBeNull();
		await saveItemResult(runId, ITEMS[1]!);
		await updateSuiteRun(runId, { status: 'done' });
		await waitFor(() => results.itemsDone === 2 && results.run?.status === 'done');
		expect(results.itemGrid[1]?.allHold).toBe(false);
	});

	it('keeps watching a cancelled run, which may be resumed elsewhere', async () => {
		const runId = await storeRun(ITEMS.slice(0, 1), 'running');
		await updateSuiteRun(runId, { status: 'cancelled' });
		results.idlePollIntervalMs = 10;
		await results.open(runId);
		expect(results.run?.status).toBe('cancelled');
		await updateSuiteRun(runId, { status: 'running' });
		await saveItemResult(runId, ITEMS[1]!);
		await updateSuiteRun(runId, { status: 'done' });
		await waitFor(() => results.itemsDone === 2 && results.run?.status === 'done');
	});

	it('takes an item at once when the session says it was saved', async () => {
		const runId = await storeRun(ITEMS.slice(0, 1), 'running');
		results.pollIntervalMs = 60_000;
		await results.open(runId);
		await saveItemResult(runId, ITEMS[1]!);
		await results.notifyItemSaved(runId + 1, 2);
		expect(results.itemsDone).toBe(1);
		await results.notifyItemSaved(runId, 2);
		expect(results.itemsDone).toBe(2);
	});

	it("exports the result TSV the core pipeline gives for the same tokens (the CLI's path)", async () => {
		await results.open(await storeRun(ITEMS));
		const parsed = parseSuite(SUITE_TEXT);
		if (!parsed.ok) throw new Error('mini suite does not parse');
		const expected = writeResultsTsv(
			'mini',
			scoreSuite(
				parsed.suite,
				ITEMS.flatMap((item) => item.sentences.map((s) => s.tokens)),
			).outcomes,
			['sum'],
		);
		const file = results.exportResultsTsv();
		expect(file?.text).toBe(expected);
		expect(file?.text).toBe(
			'suite\tprediction_id\titem_number\tresult\n' +
				'mini\t0\t1\tTrue\nmini\t1\t1\tTrue\nmini\t0\t2\tFalse\nmini\t1\t2\tFalse\n',
		);
		expect(file?.fileName).toMatch(/^mini-run\d+-results\.tsv$/);
	});

	it('reads every stored item before an export, even ones not picked up yet', async () => {
		// No poll and no push: the run's last item and its end are stored behind the page's back,
		// as when Done shows before the page has read them.
		results.pollIntervalMs = 60_000;
		const runId = await storeRun([ITEMS[0]!], 'running');
		await results.open(runId);
		expect(results.itemsDone).toBe(1);
		await saveItemResult(runId, ITEMS[1]!);
		await updateSuiteRun(runId, { status: 'done', scoringMs: 99 });
		expect(results.exportResultsTsv()?.text.split('\n')).toHaveLength(1 + 2 + 1);

		expect(await results.readStored()).toBe(true);
		const items = (results.exportResultsTsv()?.text ?? '')
			.trim()
			.split('\n')
			.slice(1)
			.map((line) => line.split('\t')[2]);
		expect(new Set(items)).toEqual(new Set(['1', '2']));
		const bundle = parseRunBundle(results.exportBundle()?.text ?? '');
		if (!bundle.ok) throw new Error(bundle.message);
		expect(bundle.bundle.run.status).toBe('done');
		expect(bundle.bundle.items.map((item) => item.itemNumber)).toEqual([1, 2]);

		await deleteSuiteRun(runId);
		expect(await results.readStored()).toBe(false);
		expect(results.message).toBe(`Run ${runId} was deleted.`);
	});

	it('exports the region table CSV and lm-zoo surprisals in suite order', async () => {
		await results.open(await storeRun(ITEMS));
		const csv = results.exportRegionTableCsv()?.text ?? '';
		const lines = csv.split('\r\n');
		expect(lines[0]).toBe(
			'item_number,condition_name,region_number,content,tokens,sum,mean,median,range,max,min',
		);
		expect(lines[2]).toBe('1,good,2,barks,Ġbarks,8.0,8.0,8.0,0.0,8.0,8.0');
		expect(lines).toHaveLength(1 + 12 + 1);
		const sentences = readLmZooSurprisals(results.exportSurprisalsTsv()?.text ?? '');
		expect(sentences.map((s) => s.tokens.map((t) => t.token).join(' '))).toEqual([
			'The Ġdog Ġbarks Ġ.',
			'The Ġdog Ġbark Ġ.',
			'A Ġcat Ġmeows Ġ.',
			'A Ġcat Ġmeow',
		]);
	});

	it('exports word surprisals next to the token TSV, with item and condition', async () => {
		await results.open(await storeRun(ITEMS));
		const file = results.exportWordSurprisalsTsv();
		expect(file?.fileName).toMatch(/^mini-run\d+-word-surprisals\.tsv$/);
		const lines = (file?.text ?? '').trimEnd().split('\n');
		expect(lines[0]).toBe(
			'sentence_id\tword_id\tword\tsurprisal\ttoken_count\titem_number\tcondition_name',
		);
		expect(lines.slice(1, 5)).toEqual([
			'1\t1\tThe\t0.0\t1\t1\tgood',
			'1\t2\tdog\t5.0\t1\t1\tgood',
			'1\t3\tbarks\t8.0\t1\t1\tgood',
			'1\t4\t.\t2.0\t1\t1\tgood',
		]);
		expect(lines).toHaveLength(1 + 4 + 4 + 4 + 3);
		expect(lines.at(-1)).toBe('4\t3\tmeow\t7.0\t1\t2\tbad');
	});

	it('exports a bundle that imports back as a run that shows identically', async () => {
		await results.open(await storeRun(ITEMS));
		const before = {
			predictions: results.predictionRows,
			rules: results.itemRuleRows,
			grid: results.itemGrid,
			chart: results.chart,
			tsv: results.exportResultsTsv()?.text,
			csv: results.exportRegionTableCsv()?.text,
			surprisals: results.exportSurprisalsTsv()?.text,
		};
		const bundleText = results.exportBundle()?.text ?? '';
		// Another machine: an empty database.
		await clearDatabase();
		const parsed = parseRunBundle(bundleText);
		if (!parsed.ok) throw new Error(parsed.message);
		const imported = await importSuiteRun({
			run: parsed.bundle.run,
			suite: { text: parsed.bundle.suiteText, name: 'mini', origin: 'import' },
			items: parsed.bundle.items,
		});
		const reopened = new SuiteRunResults();
		await reopened.open(imported.id);
		expect(reopened.run?.suiteSha256).toBe(sha256Hex(SUITE_TEXT));
		expect(reopened.run?.scoringMs).toBe(1234);
		expect({
			predictions: reopened.predictionRows,
			rules: reopened.itemRuleRows,
			grid: reopened.itemGrid,
			chart: reopened.chart,
			tsv: reopened.exportResultsTsv()?.text,
			csv: reopened.exportRegionTableCsv()?.text,
			surprisals: reopened.exportSurprisalsTsv()?.text,
		}).toEqual(before);
		reopened.close();
	});

	it('names an item that cannot be scored and still shows the others', async () => {
		const broken: ItemResult = {
			itemNumber: 2,
			sentences: [{ conditionName: 'good', text: 'A cat meows .', tokens: [] }],
		};
		await results.open(await storeRun([ITEMS[0]!, broken]));
		expect(results.problems.get(2)).toMatch(/item 2/);
		expect(results.itemGrid[1]?.problem).toMatch(/item 2/);
		expect(results.predictionRows[0]?.total).toBe(1);
	});

	it('says so when the run does not exist, and never throws', async () => {
		await results.open(4242);
		expect(results.status).toBe('failed');
		expect(results.message).toMatch(/no run 4242/);
		expect(results.exportResultsTsv()).toBeNull();
	});
});
