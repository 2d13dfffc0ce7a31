// ModelCatalog over the in-thread FakeEngine: the spec as chosen, problems in words, loading
// with reuse, load failures as messages, and the background warm-up of bundled models only.
import { describe, expect, it } from 'vitest';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

function createCatalog(loadDelayMs = 0): ModelCatalog {
	return new ModelCatalog(createInThreadClient(new FakeEngine({ loadDelayMs })));
}

async function settle(catalog: ModelCatalog): Promise<void> {
	while (catalog.status === 'loading') await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('ModelCatalog', () => {
	it('builds the spec from the chosen source, or says what is missing', () => {
		const catalog = createCatalog();
		expect(catalog.spec).toEqual({
			source: 'bundled',
			id: 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'wasm',
		});
		catalog.source = 'hub';
		expect(catalog.spec).toBeNull();
		expect(catalog.specProblem).toMatch(/Type a model id/);
		catalog.hubId = ' Xenova/distilgpt2 ';
		catalog.hubRevision = '';
		expect(catalog.spec).toEqual({
			source: 'hub',
			id: 'Xenova/distilgpt2',
			revision: 'main',
			dtype: 'fp32',
			backend: 'wasm',
		});
		catalog.source = 'local';
		expect(catalog.specProblem).toMatch(/Pick a model folder/);
		catalog.setLocalFolder([
			{ file: new Blob(['{}']), relativePath: 'my-model/config.json' },
			{ file: new Blob(['{}']), relativePath: 'my-model/tokenizer.json' },
		]);
		expect(catalog.localFolderName).toBe('my-model');
		expect(catalog.specProblem).toMatch(/onnx\/model\.onnx missing/);
	});

	it('loads a model once and reuses it for the same spec', async () => {
		const catalog = createCatalog();
		catalog.bundledId = 'gpt2-random-tiny';
		const first = await catalog.load();
		expect(catalog.status).toBe('ready');
		expect(catalog.loaded?.spec.id).toBe('gpt2-random-tiny');
		expect(await catalog.load()).toBe(first);
	});

	it('turns a load failure into a message, shown while that choice stands', async () => {
		const catalog = createCatalog();
		// FakeEngine fails to load a model named fake-missing-file, as for a missing file.
		catalog.setLocalFolder(
			['config.json', 'tokenizer.json', 'onnx/model.onnx'].map((path) => ({
				file: new Blob(['x']),
				relativePath: `fake-missing-file/${path}`,
			})),
		);
		await expect(catalog.load()).rejects.toThrow();
		expect(catalog.status).toBe('error');
		expect(catalog.error).toMatch(/^Could not load fake-missing-file: /);
		catalog.source = 'bundled';
		expect(catalog.error).toBeNull();
		catalog.source = 'local';
		expect(catalog.error).toMatch(/^Could not load fake-missing-file: /);
		catalog.source = 'bundled';
		await catalog.load();
		expect(catalog.status).toBe('ready');
		expect(catalog.error).toBeNull();
	});

	it('warms up only a bundled model, and a later choice supersedes the warm-up', async () => {
		const hub = createCatalog();
		hub.source = 'hub';
		hub.hubId = 'Xenova/distilgpt2';
		hub.warmUp();
		expect(hub.status).toBe('idle');

		const catalog = createCatalog(50);
		catalog.warmUp();
		expect(catalog.status).toBe('loading');
		catalog.bundledId = 'gpt2-random-tiny';
		const info = await catalog.load();
		await settle(catalog);
		expect(info.spec.id).toBe('gpt2-random-tiny');
		expect(catalog.loaded?.spec.id).toBe('gpt2-random-tiny');
		expect(catalog.status).toBe('ready');
		expect(catalog.error).toBeNull();
	});
});
