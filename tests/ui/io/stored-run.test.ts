import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { saveItemResult } from '../../../src/storage/syntaxgym/suite-results-repository';
import { createSuiteRun } from '../../../src/storage/syntaxgym/suite-runs-repository';
import { saveSuite } from '../../../src/storage/syntaxgym/suites-repository';
import { loadRunWithSuite, loadStoredRun } from '../../../src/ui/io/stored-run';
import { clearDatabase } from '../../storage/clear-database';

const SUITE_TEXT = readFileSync('tests/fixtures/scoring/mini-suite.json', 'utf8');

async function storeRun(suiteSha256: string): Promise<number> {
	const run = await createSuiteRun({
		suiteSha256,
		suiteName: 'mini',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
		convention: 'reference',
		itemCount: 2,
		appVersion: '0.1.0',
		createdAt: 1_700_000_000_000,
	});
	return run.id;
}

beforeEach(async () => {
	await clearDatabase();
});

describe('loadRunWithSuite (the one reader of a stored run)', () => {
	it('gives the run, its exact suite text and the parsed suite', async () => {
		const suite = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		const runId = await storeRun(suite.sha256);
		const loaded = await loadRunWithSuite(runId);
		expect(loaded.run.id).toBe(runId);
		expect(loaded.suiteText).toBe(SUITE_TEXT);
		expect(loaded.suite.meta.name).toBe('mini');
	});

	it.each([
		['a run that is not stored', 'none', 'There is no run 999 in this browser (deleted?).'],
		['a run whose suite is gone', 'missing', 'The suite of run'],
		['a suite that no longer parses', 'broken', 'no longer parses: '],
	])('%s: says what is missing', async (_, kind, message) => {
		let runId = 999;
		if (kind === 'missing') runId = await storeRun('0'.repeat(64));
		if (kind === 'broken') {
			const broken = await saveSuite({ text: '{"meta": {}}', name: 'broken', origin: 'paste' });
			runId = await storeRun(broken.sha256);
		}
		await expect(loadRunWithSuite(runId)).rejects.toThrow(message);
	});

	it('loadStoredRun adds the scored items', async () => {
		const suite = await saveSuite({ text: SUITE_TEXT, name: 'mini', origin: 'paste' });
		const runId = await storeRun(suite.sha256);
		const tokens = (words: string[]) =>
			words.map((token, index) => ({ token, surprisalBits: index + 1 }));
		await saveItemResult(runId, {
			itemNumber: 1,
			sentences: [
				{
					conditionName: 'good',
					text: 'The dog barks .',
					tokens: tokens(['The', 'dog', 'barks', '.']),
				},
				{
					conditionName: 'bad',
					text: 'The dog bark .',
					tokens: tokens(['The', 'dog', 'bark', '.']),
				},
			],
		});
		const stored = await loadStoredRun(runId);
		expect(new Set(stored.results.outcomes.map((outcome) => outcome.itemNumber))).toEqual(
			new Set([1]),
		);
	});
});
