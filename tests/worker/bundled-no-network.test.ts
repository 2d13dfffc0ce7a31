// A bundled model never reaches the network: fetch is replaced (before transformers.js is
// imported), then a bundled load + score must not call it. Hub loads in the same process do call
// it, which shows the spy sees transformers.js's requests; they fail with named errors: a hub that
// answers 404 means a missing file, a request that gets no answer means no network.
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { ModelSpec } from '../../src/core/model/model-spec';

// Real models on a shared 2-core machine: seconds per test, not milliseconds.
vi.setConfig({ testTimeout: 60_000 });

const requests: string[] = [];
let offline = false;
vi.stubGlobal('fetch', async (input: string | URL | Request) => {
	requests.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
	if (offline) throw new TypeError('fetch failed');
	return new Response('not here', { status: 404 });
});
const { createNodeEngine } = await import('../../src/worker/node-engine');
afterAll(() => {
	vi.unstubAllGlobals();
});

const HUB: ModelSpec = {
	source: 'hub',
	id: 'Xenova/distilgpt2',
	revision: 'main',
	dtype: 'fp32',
	backend: 'node-cpu',
};

describe('bundled models and the network', () => {
	it('loads and scores a bundled model with no fetch at all', async () => {
		const engine = createNodeEngine({ threads: 1 });
		const { modelKey } = await engine.loadModel({
			spec: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'node-cpu' },
		});
		await engine.scoreTexts({ modelKey, texts: ['The dog barks.'], convention: 'bos' });
		expect(requests).toEqual([]);
	});

	it('a hub model goes through fetch (to huggingface.co); a 404 is a missing file', async () => {
		requests.length = 0;
		offline = false;
		const engine = createNodeEngine({ threads: 1 });
		const error = await engine.loadModel({ spec: HUB }).catch((e: unknown) => e);
		expect(requests.length).toBeGreaterThan(0);
		expect(requests.every((url) => url.startsWith('https://huggingface.co/'))).toBe(true);
		expect((error as Error).name).toBe('ModelFileMissingError');
		expect((error as Error).message).toMatch(/config\.json/);
	});

	it('a hub model with no network fails with NetworkUnavailableError', async () => {
		requests.length = 0;
		offline = true;
		const engine = createNodeEngine({ threads: 1 });
		const error = await engine.loadModel({ spec: HUB }).catch((e: unknown) => e);
		expect(requests.length).toBeGreaterThan(0);
		expect((error as Error).name).toBe('NetworkUnavailableError');
		expect((error as Error).message).toMatch(/network/);
	});
});
