// A run scored with word boundaries, exported as a JSON bundle and imported back: the imported run
// keeps the option and every token's boundary value, and its results offer the correction again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { listItemResults } from '../../../../src/storage/syntaxgym/suite-results-repository';
import { getSuiteRun } from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { RunHistory } from '../../../../src/ui/state/shared/run-history.svelte';
import { SuiteRunResults } from '../../../../src/ui/state/syntaxgym/suite-run-results.svelte';
import { SuiteRunSession } from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';

const TEXT = JSON.stringify({
	meta: { name: 'tiny', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [1, 2].map((item_number) => ({
		item_number,
		conditions: ['good', 'bad'].map((condition_name) => ({
			condition_name,
			regions: [
				{ region_number: 1, content: `The dogs ${item_number}` },
				{ region_number: 2, content: condition_name === 'good' ? 'run' : 'runs' },
			],
		})),
	})),
});
const SPEC = { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' } as const;

async function storeRun(wordBoundaries: boolean): Promise<number> {
	const client = createInThreadClient(new FakeEngine());
	const session = new SuiteRunSession({
		client,
		models: new ModelCatalog(client),
		appVersion: '0.1.0',
	});
	const parsed = parseSuite(TEXT);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	const run = await session.start(
		{ suiteText: TEXT, suite: parsed.suite, origin: 'paste', sourceName: 'test' },
		SPEC,
		'reference',
		{ wordBoundaries },
	);
	if (!run || run.status !== 'done') throw new Error(`fixture run failed: ${session.message}`);
	return run.id;
}

let results: SuiteRunResults;

beforeEach(async () => {
	await clearDatabase();
	results = new SuiteRunResults();
});

afterEach(() => results.close());

describe('run bundle with word boundaries, export → import', () => {
	it.each([true, false])('wordBoundaries %s: the imported run equals the original', async (on) => {
		const runId = await storeRun(on);
		await results.open(runId);
		expect(results.wordBoundaries).toBe(on);
		const exported = results.exportBundle();
		expect(exported).not.toBeNull();

		const history = new RunHistory();
		const imported = await history.importBundle(exported!.text, 'run.json');
		expect(imported, history.message ?? '').not.toBeNull();
		expect(imported!.route).toBe(`#/results/${imported!.runId}`);
		const importedRun = await getSuiteRun(imported!.runId);
		expect(importedRun?.wordBoundaries === true).toBe(on);
		const original = await listItemResults(runId);
		const tokens = original.flatMap((item) => item.sentences.flatMap((s) => s.tokens));
		expect(tokens.length).toBeGreaterThan(0);
		expect(tokens.every((t) => t.boundarySurprisalBits !== undefined)).toBe(on);
		expect(await listItemResults(imported!.runId)).toEqual(original);

		await results.open(imported!.runId);
		expect(results.wordBoundaries).toBe(on);
	});
});
