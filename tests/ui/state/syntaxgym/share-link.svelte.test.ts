// Share links of stored runs: a run scored with the FakeEngine gives a link that decodes to the
// same suite and model, and whose fingerprint the same results reproduce exactly.
import { beforeEach, describe, expect, it } from 'vitest';
import { compareFingerprint } from '../../../../src/core/syntaxgym/share/compare-fingerprint';
import { decodeShareLink } from '../../../../src/core/syntaxgym/share/share-link';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import {
	SuiteRunSession,
	type SuiteRunStartOptions,
} from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import { buildSuiteShareLink } from '../../../../src/ui/state/syntaxgym/share-link.svelte';
import { loadStoredRun } from '../../../../src/ui/io/stored-run';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';

function suiteText(items: number, padding = ''): string {
	return JSON.stringify({
		meta: { name: 'tiny agreement', metric: 'sum', comment: padding },
		region_meta: { '1': 'subject', '2': 'verb' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: Array.from({ length: items }, (_, index) => ({
			item_number: index + 1,
			conditions: ['good', 'bad'].map((condition_name) => ({
				condition_name,
				regions: [
					{ region_number: 1, content: `The dog ${index}` },
					{ region_number: 2, content: condition_name === 'good' ? 'runs' : 'run' },
				],
			})),
		})),
	});
}

const SPEC = { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' } as const;

async function storeRun(text: string, options: SuiteRunStartOptions = {}): Promise<number> {
	const client = createInThreadClient(new FakeEngine());
	const session = new SuiteRunSession({
		client,
		models: new ModelCatalog(client),
		appVersion: '0.1.0',
	});
	const parsed = parseSuite(text);
	if (!parsed.ok) throw new Error('fixture suite does not parse');
	const run = await session.start(
		{ suiteText: text, suite: parsed.suite, origin: 'paste', sourceName: 'test' },
		SPEC,
		'reference',
		options,
	);
	if (!run || run.status !== 'done') throw new Error(`fixture run failed: ${session.message}`);
	return run.id;
}

beforeEach(clearDatabase);

describe('buildSuiteShareLink', () => {
	it('builds a link that decodes to the run and reproduces its own results', async () => {
		const text = suiteText(4);
		const runId = await storeRun(text);
		const link = await buildSuiteShareLink(runId, 'https://example.org/app/#/results/1');
		if (!link.ok) throw new Error(link.message);
		expect(link.url.startsWith('https://example.org/app/#/share/2/')).toBe(true);
		// A small suite goes in whole, with every region's values: nothing to say about it.
		expect(link.detail).toBeUndefined();

		const decoded = decodeShareLink(link.url);
		expect(decoded.ok).toBe(true);
		if (!decoded.ok) return;
		expect(decoded.payload.suite).toEqual({ kind: 'inline', text });
		expect(decoded.payload.model).toEqual(SPEC);
		expect(decoded.payload.results.itemNumbers).toEqual([1, 2, 3, 4]);
		expect(decoded.payload).not.toHaveProperty('wordBoundaries');

		const { results } = await loadStoredRun(runId);
		expect(results.outcomes).toHaveLength(4);
		const comparison = compareFingerprint(decoded.payload, results);
		expect(comparison.reproduced).toBe(true);
		expect(comparison.identicalOutcomes).toBe(4);
		expect(comparison.maxRegionDifferenceBits).toBe(0);
	});

	it('carries the word-boundary option of a run scored with it', async () => {
		const runId = await storeRun(suiteText(2), { wordBoundaries: true });
		const link = await buildSuiteShareLink(runId, 'https://example.org/');
		if (!link.ok) throw new Error(link.message);
		const decoded = decodeShareLink(link.url);
		expect(decoded.ok && decoded.payload.wordBoundaries).toBe(true);
	});

	it('offers the run bundle when the run is too large for a link', async () => {
		// Incompressible padding: random-looking text that DEFLATE cannot shrink below the limit.
		let seed = 2463534242;
		const padding = Array.from({ length: 60_000 }, () => {
			seed ^= seed << 13;
			seed ^= seed >>> 17;
			seed ^= seed << 5;
			return String.fromCharCode(97 + ((seed >>> 0) % 26));
		}).join('');
		const runId = await storeRun(suiteText(2, padding));
		const link = await buildSuiteShareLink(runId, 'https://example.org/');
		expect(link.ok).toBe(false);
		expect(!link.ok && link.tooLarge).toBe(true);
		expect(!link.ok && link.message).toMatch(/too large for a link.*Download the run bundle/);
	});

	it('says so when the run does not exist', async () => {
		const link = await buildSuiteShareLink(999, 'https://example.org/');
		expect(link.ok).toBe(false);
		expect(!link.ok && link.tooLarge).toBe(false);
		expect(!link.ok && link.message).toMatch(/could not be made.*run 999/);
	});
});
