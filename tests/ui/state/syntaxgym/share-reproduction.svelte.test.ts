// ShareReproduction: a link made from a stored FakeEngine run is reproduced by running it again
// (same engine: identical); a different engine setting is reported; bad links and changed
// suites give their message without running anything.
import { beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import { buildResultFingerprint } from '../../../../src/core/syntaxgym/share/result-fingerprint';
import {
	encodeShareLink,
	type SharePayload,
} from '../../../../src/core/syntaxgym/share/share-link';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import { listItemResults } from '../../../../src/storage/syntaxgym/suite-results-repository';
import { getSuiteRun } from '../../../../src/storage/syntaxgym/suite-runs-repository';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { SuiteRunSession } from '../../../../src/ui/state/syntaxgym/suite-run-session.svelte';
import {
	ShareReproduction,
	browserSpecOf,
} from '../../../../src/ui/state/syntaxgym/share-reproduction.svelte';
import { loadStoredRun } from '../../../../src/ui/io/stored-run';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';
import { clearDatabase } from '../../../storage/clear-database';

const TEXT = JSON.stringify({
	meta: { name: 'tiny', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [1, 2, 3].map((item_number) => ({
		item_number,
		conditions: ['good', 'bad'].map((condition_name) => ({
			condition_name,
			regions: [
				{ region_number: 1, content: `The dog ${item_number}` },
				{ region_number: 2, content: condition_name === 'good' ? 'runs' : 'run' },
			],
		})),
	})),
});
const SPEC = { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' } as const;

function fakeAccess() {
	const client = createInThreadClient(new FakeEngine());
	return { client, models: new ModelCatalog(client) };
}

async function linkOfFakeRun(edit: (p: SharePayload) => SharePayload = (p) => p): Promise<string> {
	const { client, models } = fakeAccess();
	const parsed = parseSuite(TEXT);
	if (!parsed.ok) throw new Error('fixture does not parse');
	const session = new SuiteRunSession({ client, models, appVersion: '0.1.0' });
	const run = await session.start(
		{ suiteText: TEXT, suite: parsed.suite, origin: 'paste', sourceName: 't' },
		SPEC,
		'reference',
	);
	const { results } = await loadStoredRun(run!.id);
	const encoded = encodeShareLink(
		edit({
			appVersion: '0.1.0',
			suite: { kind: 'inline', text: TEXT },
			suiteSha256: sha256Hex(TEXT),
			model: SPEC,
			convention: 'reference',
			results: buildResultFingerprint(results),
		}),
	);
	if (!encoded.ok) throw encoded.error;
	return encoded.fragment;
}

beforeEach(clearDatabase);

describe('ShareReproduction', () => {
	it('reproduces a link made from the same engine exactly', async () => {
		const reproduction = new ShareReproduction(await linkOfFakeRun(), '0.1.0');
		expect(reproduction.suite?.meta.name).toBe('tiny');
		const { client, models } = fakeAccess();
		await reproduction.reproduce(client, models);
		expect(reproduction.status).toBe('compared');
		expect(reproduction.comparison).toMatchObject({
			reproduced: true,
			identicalOutcomes: 3,
			totalOutcomes: 3,
			maxRegionDifferenceBits: 0,
			differingItems: [],
			settingDifferences: [],
		});
		expect(reproduction.runId).not.toBeNull();
	});

	it.each([
		[true, 'asks for word boundaries when the link carries the option'],
		[false, 'does not ask for them for a link without it (older links)'],
	])('word boundaries %s: %s', async (wordBoundaries) => {
		const fragment = await linkOfFakeRun((p) => (wordBoundaries ? { ...p, wordBoundaries } : p));
		const reproduction = new ShareReproduction(fragment, '0.1.0');
		const { client, models } = fakeAccess();
		await reproduction.reproduce(client, models);
		expect(reproduction.status).toBe('compared');
		expect(reproduction.comparison?.reproduced).toBe(true);
		const run = await getSuiteRun(reproduction.runId!);
		expect(run?.wordBoundaries === true).toBe(wordBoundaries);
		const items = await listItemResults(reproduction.runId!);
		const tokens = items.flatMap((item) => item.sentences.flatMap((s) => s.tokens));
		expect(tokens.length).toBeGreaterThan(0);
		expect(tokens.every((t) => t.boundarySurprisalBits !== undefined)).toBe(wordBoundaries);
		expect(tokens.some((t) => t.boundarySurprisalBits !== undefined)).toBe(wordBoundaries);
	});

	it('names the setting that differs (the link says WebGPU, this run is WASM)', async () => {
		const fragment = await linkOfFakeRun((p) => ({
			...p,
			model: { ...p.model, backend: 'webgpu' },
		}));
		const reproduction = new ShareReproduction(fragment, '0.1.0');
		const { client, models } = fakeAccess();
		// The fake engine runs what it is asked; ask for WASM as a browser without WebGPU would.
		await reproduction.reproduce(client, {
			load: (spec, signal) => models.load({ ...spec, backend: 'wasm' }, signal),
		});
		expect(reproduction.comparison?.settingDifferences).toEqual([
			{ setting: 'model.backend', linked: 'webgpu', reproduced: 'wasm' },
		]);
	});

	it('refuses a suite that does not match the SHA-256 of the link', async () => {
		const fragment = await linkOfFakeRun((p) => ({ ...p, suiteSha256: 'a'.repeat(64) }));
		const reproduction = new ShareReproduction(fragment, '0.1.0');
		expect(reproduction.suite).toBeNull();
		expect(reproduction.suiteProblem).toMatch(/SHA-256 differs/);
	});

	it.each([
		['/share/1/AAAA', 'truncated'],
		['/share/7/AAAA', 'newer-version'],
		['/results/1', 'not-a-share-link'],
	])('%s → %s', (fragment, kind) => {
		const reproduction = new ShareReproduction(fragment, '0.1.0');
		expect(reproduction.decoded.ok).toBe(false);
		if (!reproduction.decoded.ok) expect(reproduction.decoded.error.kind).toBe(kind);
	});

	it('runs a CLI-made (node-cpu) link on WASM', () => {
		expect(browserSpecOf({ ...SPEC, backend: 'node-cpu' })).toMatchObject({ backend: 'wasm' });
		expect(browserSpecOf({ ...SPEC, backend: 'webgpu' })).toMatchObject({ backend: 'webgpu' });
		const endpoint = { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:8000/v1' } as const;
		expect(browserSpecOf(endpoint)).toEqual(endpoint);
	});
});
