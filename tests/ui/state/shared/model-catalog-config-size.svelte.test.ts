// ModelCatalog and a hub model typed by hand (not a suggestion): its size is estimated from the
// config.json read with its tokenizer files, and then shown, fitted, timed and, when it will not
// fit, refused before the worker is asked, like a suggestion. Until then, or for an architecture
// the app cannot size, nothing is estimated (and nothing refused).
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { DeviceFacts } from '../../../../src/core/model/model-suggestions';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

type ReadHubFacts = NonNullable<ConstructorParameters<typeof ModelCatalog>[3]>;

// Llama-3.2-1B's config.json fields: 1,235,814,400 parameters, embedding tied.
const LLAMA_1B = JSON.parse(
	readFileSync('tests/fixtures/hub-configs/llama-3.2-1b.config.json', 'utf8'),
) as Record<string, unknown>;

function device(deviceMemoryGiB: number): DeviceFacts {
	return { deviceMemoryGiB, hardwareConcurrency: 2, crossOriginIsolated: true, webgpu: null };
}

async function createCatalog(memoryGiB: number, readHubFacts: ReadHubFacts) {
	const client = createInThreadClient(new FakeEngine());
	const call = vi.spyOn(client, 'call');
	const catalog = new ModelCatalog(
		client,
		undefined,
		() => Promise.resolve(device(memoryGiB)),
		readHubFacts,
	);
	await catalog.suggestions.refreshDevice();
	const loads = () => call.mock.calls.filter(([kind]) => kind === 'loadModel').length;
	return { catalog, loads };
}

describe('ModelCatalog size of a typed hub model', () => {
	it('is read from its config.json, then fitted, timed and refused before the worker is asked', async () => {
		const asked: string[] = [];
		const { catalog, loads } = await createCatalog(4, async (id, revision) => {
			asked.push(`${id}@${revision}`);
			return { config: LLAMA_1B };
		});
		catalog.source = 'hub';
		catalog.hubId = 'someone/llama-1b';
		catalog.dtype = 'fp32';
		expect(catalog.facts).toBeNull();
		expect(catalog.sizePending).toBe(true);
		// The user's own convention pick leaves the size still to read.
		catalog.convention = 'bos';
		expect(catalog.conventionPending).toBe(false);
		expect(catalog.sizePending).toBe(true);

		await catalog.readConventionFacts();
		expect(asked).toEqual(['someone/llama-1b@main']);
		expect(catalog.sizePending).toBe(false);
		expect(catalog.facts).toEqual({
			parameters: 1_235_814_400,
			dtype: 'fp32',
			downloadBytes: (1_235_814_400 + 128256 * 2048) * 4,
			largestTensorBytes: 128256 * 2048 * 4,
			estimatedFrom: 'config.json',
		});
		// 6.0 GB × 2.0 is about 11.2 GiB, over the 4 GiB the device reports.
		expect(catalog.fit?.verdict).toBe('will-not-fit');
		expect(catalog.fitProblem).toBe(
			'someone/llama-1b (fp32) will not fit this device: needs about 11.2 GiB of memory (estimated from its config.json); the device reports 4 GiB. Loading it could crash the tab, so it is not loaded: pick a smaller model or dtype, or score it with the CLI or through an endpoint.',
		);
		await expect(catalog.load()).rejects.toThrow('will not fit this device');
		expect(catalog.error).toBe(catalog.fitProblem);
		expect(loads()).toBe(0);

		// 8-bit: 1.5 GB × 1.6 is about 2.2 GiB, tight on 4 GiB (shown, not refused), and timed.
		catalog.dtype = 'q8';
		expect(catalog.sizePending).toBe(false);
		expect(catalog.fit?.verdict).toBe('tight');
		expect(catalog.fitProblem).toBeNull();
		expect(catalog.scoringTime(1000)?.kind).toBe('estimate');
		await catalog.load();
		expect(loads()).toBe(1);
	});

	it('makes a load wait for the read under way, then refuses', async () => {
		let release: (() => void) | undefined;
		const { catalog, loads } = await createCatalog(
			1,
			() =>
				new Promise((resolve) => {
					release = () => resolve({ config: LLAMA_1B });
				}),
		);
		catalog.source = 'hub';
		catalog.hubId = 'someone/llama-1b';
		catalog.dtype = 'q8';
		const reading = catalog.readConventionFacts();
		const loading = catalog.load();
		release?.();
		await reading;
		await expect(loading).rejects.toThrow(
			'someone/llama-1b (q8) will not fit this device: needs about 2.2 GiB of memory (estimated from its config.json); the device reports 1 GiB.',
		);
		expect(loads()).toBe(0);
	});

	it('keeps an estimate to its own model and revision', async () => {
		const { catalog } = await createCatalog(4, async (id) =>
			id === 'someone/llama-1b' ? { config: LLAMA_1B } : {},
		);
		catalog.source = 'hub';
		catalog.hubId = 'someone/llama-1b';
		await catalog.readConventionFacts();
		expect(catalog.facts?.parameters).toBe(1_235_814_400);
		catalog.hubRevision = 'v2';
		expect(catalog.facts).toBeNull();
		expect(catalog.sizePending).toBe(true);
		catalog.hubRevision = 'main';
		catalog.hubId = 'someone/other';
		await catalog.readConventionFacts();
		// Nothing read (offline, or no config.json): no size, no refusal, nothing pending.
		expect(catalog.facts).toBeNull();
		expect(catalog.fitProblem).toBeNull();
		expect(catalog.sizePending).toBe(false);
	});

	it('estimates nothing for an architecture it cannot size, or a malformed config', async () => {
		for (const config of [
			{ ...LLAMA_1B, model_type: 'bert' },
			{ ...LLAMA_1B, num_hidden_layers: 1e12 },
			{ ...LLAMA_1B, hidden_size: '2048' },
		]) {
			const { catalog, loads } = await createCatalog(1, async () => ({ config }));
			catalog.source = 'hub';
			catalog.hubId = 'someone/model';
			await catalog.readConventionFacts();
			expect(catalog.sizePending).toBe(false);
			expect(catalog.facts).toBeNull();
			expect(catalog.fit).toBeNull();
			expect(catalog.scoringTime(1000)).toBeNull();
			// Not refused: the worker is asked, as before.
			await catalog.load();
			expect(loads()).toBe(1);
		}
	});

	it('keeps a suggestion’s measured size over its config’s estimate', async () => {
		const { catalog } = await createCatalog(8, async () => ({ config: LLAMA_1B }));
		catalog.source = 'hub';
		catalog.hubId = 'Xenova/gpt2';
		catalog.dtype = 'q8';
		expect(catalog.sizePending).toBe(false);
		await catalog.readConventionFacts();
		expect(catalog.facts?.downloadBytes).toBe(166_000_000);
		expect(catalog.facts?.estimatedFrom).toBeUndefined();
	});
});

describe('ModelCatalog size of a local folder', () => {
	const json = (value: unknown) => new Blob([JSON.stringify(value)]);
	function folder(name: string, config: unknown) {
		return [
			{ relativePath: `${name}/config.json`, file: json(config) },
			{ relativePath: `${name}/tokenizer.json`, file: json({}) },
			{ relativePath: `${name}/onnx/model.onnx`, file: new Blob(['x']) },
		];
	}

	it('is read from its config.json, then fitted and refused before the worker is asked', async () => {
		const { catalog, loads } = await createCatalog(4, async () => {
			throw new Error('a folder never asks the hub');
		});
		catalog.dtype = 'fp32';
		catalog.setLocalFolder(folder('llama-1b', LLAMA_1B));
		expect(catalog.sizePending).toBe(true);
		await catalog.readConventionFacts();
		expect(catalog.sizePending).toBe(false);
		expect(catalog.facts?.parameters).toBe(1_235_814_400);
		expect(catalog.facts?.estimatedFrom).toBe('config.json');
		expect(catalog.fit?.verdict).toBe('will-not-fit');
		expect(catalog.fitProblem).toMatch(/^llama-1b \(fp32\) will not fit this device: needs about/);
		await expect(catalog.load()).rejects.toThrow(/will not fit/);
		expect(loads()).toBe(0);
		// Its 8-bit weights fit: timed, not refused.
		catalog.dtype = 'q8';
		expect(catalog.fitProblem).toBeNull();
		expect(catalog.scoringTime(1000)?.kind).toBe('estimate');
	});

	it('another folder of the same name is read again; one without a usable config is not sized', async () => {
		const { catalog } = await createCatalog(4, async () => ({}));
		catalog.setLocalFolder(folder('model', LLAMA_1B));
		await catalog.readConventionFacts();
		expect(catalog.facts).not.toBeNull();
		catalog.setLocalFolder(folder('model', { model_type: 'bert' }));
		expect(catalog.facts).toBeNull();
		await catalog.readConventionFacts();
		expect(catalog.sizePending).toBe(false);
		expect(catalog.facts).toBeNull();
		expect(catalog.fitProblem).toBeNull();
	});
});
