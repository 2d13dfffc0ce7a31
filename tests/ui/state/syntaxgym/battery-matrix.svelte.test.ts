// BatteryMatrixState: reads the runs a matrix link names from storage (fake IndexedDB), scores
// them through the core, says in the cell when a run's suite is gone, and compares two columns.
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
import { BatteryMatrixState } from '../../../../src/ui/state/syntaxgym/battery-matrix.svelte';
import { clearDatabase } from '../../../storage/clear-database';

// Mini suite (2 items × good/bad × subject/verb/end); predictions: verb bad > good, total bad > good.
const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

function sentence(conditionName: string, text: string, bits: readonly number[]) {
	const tokens: ScoredToken[] = text
		.split(' ')
		.map((token, index) => ({ token, surprisalBits: bits[index] ?? 0 }));
	return { conditionName, text, tokens };
}

/** Item results where the bad verb costs `badVerbBits` (good verbs cost 8). */
function items(badVerbBits: number): ItemResult[] {
	return [
		{
			itemNumber: 1,
			sentences: [
				sentence('good', 'The dog barks .', [0, 5, 8, 2]),
				sentence('bad', 'The dog bark .', [0, 5, badVerbBits, 2]),
			],
		},
		{
			itemNumber: 2,
			sentences: [
				sentence('good', 'A cat meows .', [0, 6, 8, 2]),
				sentence('bad', 'A cat meow', [0, 6, badVerbBits]),
			],
		},
	];
}

async function storeRun(sha256: string, modelId: string, results: readonly ItemResult[]) {
	const run = await createSuiteRun({
		suiteSha256: sha256,
		suiteName: 'mini',
		model: { source: 'bundled', id: modelId, dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 2,
		appVersion: '0.1.0',
		createdAt: 1,
	});
	for (const item of results) await saveItemResult(run.id, item);
	await updateSuiteRun(run.id, { status: 'done' });
	return run.id;
}

beforeEach(clearDatabase);

describe('BatteryMatrixState', () => {
	it('builds the matrix of picked runs and compares the two model columns', async () => {
		const { sha256 } = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		const a = await storeRun(sha256, 'model-a', items(12));
		const b = await storeRun(sha256, 'model-b', items(4));
		const state = new BatteryMatrixState();
		await state.open({ runIds: [a, b, 404] });
		expect(state.status).toBe('ready');
		const matrix = state.matrix;
		expect(matrix?.plan.missingRunIds).toEqual([404]);
		expect(matrix?.columns.map((c) => c.modelName)).toEqual(['model-a', 'model-b']);
		const cells = matrix?.rows[0]?.cells.map((cell) =>
			cell.kind === 'scored' ? `${cell.accuracy.correct}/${cell.accuracy.items}` : cell.kind,
		);
		expect(cells).toEqual(['2/2', '0/2']);
		expect([state.columnA, state.columnB]).toEqual([0, 1]);
		expect(state.comparison?.battery).toMatchObject({ pairs: 2, aOnly: 2, bOnly: 0, pValue: 0.5 }); // 2 · C(2, 0) / 2²
		expect(state.csv().split('\r\n')[0]).toBe(
			'model,convention,suite,circuit,prediction,items,correct,accuracy,interval_low,interval_high',
		);
	});

	it('says in the cell when a run’s suite is no longer stored, and scores the others', async () => {
		const { sha256 } = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		const a = await storeRun(sha256, 'model-a', items(12));
		const gone = await storeRun('f'.repeat(64), 'model-b', items(4));
		const state = new BatteryMatrixState();
		await state.open({ runIds: [a, gone] });
		expect(state.status).toBe('ready');
		const goneCell = state.matrix?.rows
			.flatMap((row) => row.cells)
			.find((cell) => cell.kind === 'unreadable');
		expect(goneCell).toEqual({
			kind: 'unreadable',
			runId: gone,
			message: expect.stringContaining(`The suite of run ${gone} is no longer stored`),
		});
		expect(state.matrix?.columns[0]?.sg.score).toBe(1);
	});

	it('is empty when the link names nothing stored (no battery, unknown runs)', async () => {
		const state = new BatteryMatrixState();
		await state.open({});
		expect([state.status, state.matrix]).toEqual(['empty', null]);
		await state.open({ runIds: [1, 2] });
		expect(state.status).toBe('empty');
		await state.open({ batteryId: '00000000-0000-4000-8000-000000000000' });
		expect(state.status).toBe('empty');
	});
});
