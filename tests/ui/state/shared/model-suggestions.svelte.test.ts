// The pickers' "Suggested" lists with injected device facts: picking fills the hub choice, a model
// that will not fit is refused with its reason (the picker, the catalog's load and the Evals
// choice alike, the worker never asked), the chosen model's time estimate, and Evals remembers the
// last answer model and defaults to it only when the browser's cache holds it. Nothing downloads.
import { describe, expect, it, vi } from 'vitest';
import type { DeviceFacts } from '../../../../src/core/model/model-suggestions';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { TextModelChoice, specOfChoice } from '../../../../src/ui/state/shared/text-models.svelte';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { LAST_ANSWER_MODEL_KEY } from '../../../../src/ui/state/shared/model-suggestions.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

const BIG_DEVICE: DeviceFacts = {
	deviceMemoryGiB: 8,
	hardwareConcurrency: 8,
	crossOriginIsolated: true,
	webgpu: null,
};
const TINY_DEVICE: DeviceFacts = { ...BIG_DEVICE, deviceMemoryGiB: 0.25 };
/** 1 GiB: Xenova/gpt2 fp32 (654 MB, about 1.2 GiB needed) will not fit; its q8 copy fits. */
const SMALL_DEVICE: DeviceFacts = { ...BIG_DEVICE, deviceMemoryGiB: 1, hardwareConcurrency: 2 };

function memoryStorage(): Pick<Storage, 'getItem' | 'setItem'> & { data: Map<string, string> } {
	const data = new Map<string, string>();
	return {
		data,
		getItem: (key) => data.get(key) ?? null,
		setItem: (key, value) => void data.set(key, value),
	};
}

describe('ModelCatalog suggestions', () => {
	it('rates the surprisal models on the injected device; picking one fills the hub id', async () => {
		const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(BIG_DEVICE),
		);
		await catalog.suggestions.refreshDevice();
		const rows = catalog.suggestions.rows();
		expect(rows.every((r) => r.fit.verdict === 'fits')).toBe(true);
		const gpt2 = rows.find((r) => r.suggestion.id === 'Xenova/gpt2' && r.suggestion.dtype === 'q8');
		expect(gpt2).toBeDefined();
		expect(catalog.suggestions.pick(gpt2!)).toBe(true);
		expect(catalog.source).toBe('hub');
		expect(catalog.hubId).toBe('Xenova/gpt2');
		expect(catalog.dtype).toBe('q8');
		expect(catalog.status).toBe('idle');
	});

	it('refuses a suggestion that will not fit and keeps the old choice', async () => {
		const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(TINY_DEVICE),
		);
		await catalog.suggestions.refreshDevice();
		// 0.25 GiB: the fp32 GPT-2 (about 1.2 GiB needed) will not fit.
		const row = catalog.suggestions
			.rows()
			.find((r) => r.suggestion.id === 'Xenova/gpt2' && r.suggestion.dtype === 'fp32')!;
		expect(row.fit.verdict).toBe('will-not-fit');
		expect(catalog.suggestions.pick(row)).toBe(false);
		expect(catalog.suggestions.refused?.suggestion.id).toBe(row.suggestion.id);
		expect(catalog.source).toBe('bundled');
		catalog.suggestions.dismiss();
		expect(catalog.suggestions.refused).toBeNull();
		expect(catalog.source).toBe('bundled');
	});

	it('refuses to load a typed-in model that will not fit, without asking the worker', async () => {
		const client = createInThreadClient(new FakeEngine());
		const call = vi.spyOn(client, 'call');
		const catalog = new ModelCatalog(client, undefined, () => Promise.resolve(SMALL_DEVICE));
		await catalog.suggestions.refreshDevice();
		catalog.source = 'hub';
		catalog.hubId = 'Xenova/gpt2';
		catalog.dtype = 'fp32';
		expect(catalog.fit?.verdict).toBe('will-not-fit');
		expect(catalog.fitProblem).toBe(
			'Xenova/gpt2 (fp32) will not fit this device: needs about 1.2 GiB of memory; the device reports 1 GiB. Loading it could crash the tab, so it is not loaded: pick a smaller model or dtype, or score it with the CLI or through an endpoint.',
		);
		await expect(catalog.load()).rejects.toThrow('will not fit this device');
		expect(catalog.error).toBe(catalog.fitProblem);
		await catalog.warmUp();
		expect(call.mock.calls.filter(([kind]) => kind === 'loadModel')).toEqual([]);

		// Its 8-bit copy (166 MB, about 0.2 GiB) fits; distilgpt2 (about 0.6 GiB) is tight, which
		// is shown but not refused.
		catalog.dtype = 'q8';
		expect(catalog.fit?.verdict).toBe('fits');
		expect(catalog.fitProblem).toBeNull();
		catalog.hubId = 'Xenova/distilgpt2';
		catalog.dtype = 'fp32';
		expect(catalog.fit?.verdict).toBe('tight');
		expect(catalog.fitProblem).toBeNull();
	});

	it('says nothing of the size of a hub model typed by id that is not suggested', async () => {
		const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(TINY_DEVICE),
		);
		await catalog.suggestions.refreshDevice();
		catalog.source = 'hub';
		catalog.hubId = 'someone/gpt2-large';
		expect(catalog.facts).toBeNull();
		expect(catalog.fit).toBeNull();
		expect(catalog.fitProblem).toBeNull();
		expect(catalog.scoringTime(1000)).toBeNull();
	});

	it("estimates the chosen model's time from its parameters and the device's threads", async () => {
		const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(SMALL_DEVICE),
		);
		await catalog.suggestions.refreshDevice();
		// The bundled model on 2 threads: the 34 suites' 55,315 tokens in about 13 s (measured 13.03 s).
		const bundled = catalog.scoringTime(55_315);
		expect(bundled?.kind).toBe('estimate');
		if (bundled?.kind === 'estimate') {
			expect(bundled.threads).toBe(2);
			expect(bundled.seconds).toBeGreaterThan(12);
			expect(bundled.seconds).toBeLessThan(15);
		}
		catalog.backend = 'webgpu';
		expect(catalog.scoringTime(55_315)?.kind).toBe('none');
	});

	it('offers WebGPU for a slow WASM run on a hardware adapter, and names a software one', async () => {
		const limits = { maxBufferSize: 4 * 1024 ** 3, maxStorageBufferBindingSize: 2 * 1024 ** 3 };
		const device = (fallback: boolean): DeviceFacts => ({
			...SMALL_DEVICE,
			deviceMemoryGiB: 8,
			webgpu: { ...limits, fallback },
		});
		const hardware = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(device(false)),
		);
		await hardware.suggestions.refreshDevice();
		// The bundled model: 55,315 tokens in about 13 s on 2 threads, not slow; 20 times as many are.
		expect(hardware.webGpuAdvice(55_315)).toBeNull();
		expect(hardware.webGpuAdvice(20 * 55_315)?.kind).toBe('offer');
		hardware.backend = 'webgpu';
		expect(hardware.webGpuAdvice(20 * 55_315)).toBeNull();

		const software = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(device(true)),
		);
		await software.suggestions.refreshDevice();
		expect(software.webGpuAdvice(20 * 55_315)?.kind).toBe('software-adapter');

		const none = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(SMALL_DEVICE),
		);
		await none.suggestions.refreshDevice();
		expect(none.webGpuAdvice(20 * 55_315)).toBeNull();
	});
});

describe('TextModelChoice suggestions and the remembered answer model', () => {
	const endpoint = new EndpointSettings({ storage: null });

	it('a picked answer model becomes a hub spec at its dtype and is remembered', async () => {
		const storage = memoryStorage();
		const choice = new TextModelChoice({ readDevice: () => Promise.resolve(BIG_DEVICE), storage });
		await choice.suggestions.refreshDevice();
		const row = choice.suggestions.rows().find((r) => r.suggestion.id.includes('SmolLM2-135M'))!;
		choice.suggestions.pick(row);
		expect(specOfChoice(choice, endpoint).spec).toEqual({
			source: 'hub',
			id: 'HuggingFaceTB/SmolLM2-135M-Instruct',
			revision: 'main',
			dtype: 'fp16',
			backend: 'wasm',
		});
		expect(choice.localIds).toContain('HuggingFaceTB/SmolLM2-135M-Instruct');
		expect(JSON.parse(storage.data.get(LAST_ANSWER_MODEL_KEY)!)).toEqual({
			id: 'HuggingFaceTB/SmolLM2-135M-Instruct',
			dtype: 'fp16',
		});
	});

	it('starts on the bundled gpt2-en-small (not the random-weight tiny one, still offered)', async () => {
		const choice = new TextModelChoice({
			readDevice: () => Promise.resolve(BIG_DEVICE),
			storage: null,
		});
		expect(choice.localId).toBe('gpt2-en-small');
		expect(choice.localIds).toEqual(['gpt2-en-small', 'gpt2-random-tiny']);
		expect(specOfChoice(choice, endpoint).spec).toMatchObject({
			source: 'bundled',
			id: 'gpt2-en-small',
		});
		// The one-click offer: the most capable instruction-tuned model that fits, with its size.
		await choice.suggestions.refreshDevice();
		const offer = choice.suggestions.recommended();
		expect(offer?.suggestion.id).toBe('onnx-community/Qwen2.5-0.5B-Instruct');
		expect(offer?.fit.verdict).toBe('fits');
		choice.suggestions.pick(offer!);
		expect(choice.localId).toBe('onnx-community/Qwen2.5-0.5B-Instruct');
		expect(choice.hubDtype).toBe('q8');
	});

	it('defaults to the remembered model only when the cache holds it', () => {
		const storage = memoryStorage();
		storage.setItem(LAST_ANSWER_MODEL_KEY, JSON.stringify({ id: 'o/m-Instruct', dtype: 'q8' }));
		const notCached = new TextModelChoice({ storage });
		notCached.applyRememberedDefault([{ id: 'other/model', source: 'hub', bytes: 1, files: 1 }]);
		expect(notCached.localId).toBe('gpt2-en-small');
		expect(specOfChoice(notCached, endpoint).spec.source).toBe('bundled');

		const cached = new TextModelChoice({ storage });
		cached.applyRememberedDefault([{ id: 'o/m-Instruct', source: 'hub', bytes: 1, files: 1 }]);
		expect(cached.localId).toBe('o/m-Instruct');
		expect(cached.hubDtype).toBe('q8');
	});

	it("refuses an answer model that will not fit as the choice's problem", async () => {
		const choice = new TextModelChoice({
			readDevice: () => Promise.resolve(TINY_DEVICE),
			storage: null,
		});
		await choice.suggestions.refreshDevice();
		expect(choice.problem(endpoint)).toBeNull(); // the bundled gpt2-en-small fits in 0.25 GiB
		// A remembered model from a bigger device: it will not fit here.
		choice.localId = 'onnx-community/Qwen2.5-0.5B-Instruct';
		choice.hubDtype = 'q8';
		expect(choice.fit?.verdict).toBe('will-not-fit');
		expect(choice.problem(endpoint)).toMatch(
			/^onnx-community\/Qwen2\.5-0\.5B-Instruct \(q8\) will not fit this device: needs about 0\.8 GiB of memory; the device reports 0\.25 GiB\./,
		);
		choice.kind = 'endpoint';
		expect(choice.problem(endpoint)).not.toMatch(/will not fit/);
	});

	it('leaves a choice the user already changed', () => {
		const storage = memoryStorage();
		storage.setItem(LAST_ANSWER_MODEL_KEY, JSON.stringify({ id: 'o/m-Instruct', dtype: 'q8' }));
		const choice = new TextModelChoice({ storage });
		choice.localId = 'gpt2-random-tiny';
		choice.applyRememberedDefault([{ id: 'o/m-Instruct', source: 'hub', bytes: 1, files: 1 }]);
		expect(choice.localId).toBe('gpt2-random-tiny');
	});
});
