// SuiteRunComparison: suites with runs, the runs of one suite side by side (accuracy per prediction
// and per item rule, one column per model), choosing runs, and the accuracy chart.
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ItemResult } from '../../../../src/core/syntaxgym/run/suite-run';
import type { ScoredToken } from '../../../../src/core/scoring/scored-token';
import { saveItemResult } from '../../../../src/storage/syntaxgym/suite-results-repository';
import {
	createSuiteRun,
	updateSuiteRun,
} from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { saveSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { SuiteRunComparison } from '../../../../src/ui/state/syntaxgym/suite-run-comparison.svelte';
import { clearDatabase } from '../../../storage/clear-database';

// Mini suite (2 items × good/bad × subject/verb/end); predictions: verb bad > good, total bad > good.
const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

function words(text: string, bits: readonly number[]): ScoredToken[] {
	return text.split(' ').map((token, index) => ({ token, surprisalBits: bits[index] ?? 0 }));
}

/** Item results where the bad verb costs `badVerbBits` (good verbs cost 8). */
function items(badVerbBits: number): ItemResult[] {
	return [
		{
			itemNumber: 1,
			sentences: [
				{
					conditionName: 'good',
					text: 'The dog barks .',
					tokens: words('The dog barks .', [0, 5, 8, 2]),
				},
				{
					conditionName: 'bad',
					text: 'The dog bark .',
					tokens: words('The dog bark .', [0, 5, badVerbBits, 2]),
				},
			],
		},
		{
			itemNumber: 2,
			sentences: [
				{
					conditionName: 'good',
					text: 'A cat meows .',
					tokens: words('A cat meows .', [0, 6, 8, 2]),
				},
				{
					conditionName: 'bad',
					text: 'A cat meow',
					tokens: words('A cat meow', [0, 6, badVerbBits]),
				},
			],
		},
	];
}

async function storeRun(
	sha256: string,
	modelId: string,
	results: readonly ItemResult[],
	createdAt: number,
) {
	const run = await createSuiteRun({
		suiteSha256: sha256,
		suiteName: 'mini',
		model: { source: 'bundled', id: modelId, dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 2,
		appVersion: '0.1.0',
		createdAt,
	});
	for (const item of results) await saveItemResult(run.id, item);
	await updateSuiteRun(run.id, { status: 'done' });
	return run.id;
}

beforeEach(clearDatabase);

describe('SuiteRunComparison', () => {
	it('lists suites with runs when no suite is chosen', async () => {
		const { sha256 } = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		await storeRun(sha256, 'model-a', items(12), 1);
		await storeRun(sha256, 'model-b', items(4), 2);
		const comparison = new SuiteRunComparison();
		await comparison.open();
		expect(comparison.status).toBe('ready');
		expect(comparison.suites).toEqual([
			// model ids newest run first
			{ suiteSha256: sha256, suiteName: 'mini', runCount: 2, modelIds: ['model-b', 'model-a'] },
		]);
		expect(comparison.suite).toBeNull();
		expect(comparison.rows).toEqual([]);
	});

	it('shows the runs of a suite side by side, newest first, and charts them', async () => {
		const { sha256 } = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		// model-a: bad verbs 12 > 8 and bad totals 19 > 15, 18 > 16: every prediction holds.
		const a = await storeRun(sha256, 'model-a', items(12), 1);
		// model-b: bad verbs 4 < 8 and bad totals 11 < 15, 10 < 16: every prediction fails.
		const b = await storeRun(sha256, 'model-b', items(4), 2);
		const comparison = new SuiteRunComparison();
		await comparison.open(sha256);
		expect(comparison.runs.map((r) => [r.run.id, r.label])).toEqual([
			[b, 'model-b'],
			[a, 'model-a'],
		]);
		expect(
			comparison.rows.map((row) => [row.label, row.cells.map((c) => `${c.correct}/${c.total}`)]),
		).toEqual([
			['Prediction 0', ['0/2', '2/2']],
			['Prediction 1', ['0/2', '2/2']],
			['Items: all predictions hold', ['0/2', '2/2']],
			['Items: first prediction only', ['0/2', '2/2']],
		]);
		expect(comparison.rows[0]?.detail).toBe('(2;%bad%) > (2;%good%)');
		const chart = comparison.chart;
		expect(chart?.series.map((s) => [s.label, s.values])).toEqual([
			['model-b', [0, 0, 0, 0]],
			['model-a', [1, 1, 1, 1]],
		]);
		expect([chart?.yMin, chart?.yMax]).toEqual([0, 1]);
	});

	it('adds and removes runs from the comparison', async () => {
		const { sha256 } = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		const a = await storeRun(sha256, 'model-a', items(12), 1);
		const b = await storeRun(sha256, 'model-b', items(4), 2);
		const comparison = new SuiteRunComparison();
		await comparison.open(sha256);
		await comparison.toggleRun(b);
		expect(comparison.isSelected(b)).toBe(false);
		expect(comparison.runs.map((r) => r.run.id)).toEqual([a]);
		await comparison.toggleRun(b);
		expect(comparison.runs.map((r) => r.run.id)).toEqual([b, a]);
	});

	it('says so for a suite that is not stored, and never throws', async () => {
		const comparison = new SuiteRunComparison();
		await comparison.open('f'.repeat(64));
		expect(comparison.status).toBe('failed');
		expect(comparison.message).toMatch(/not stored/);
	});
});
