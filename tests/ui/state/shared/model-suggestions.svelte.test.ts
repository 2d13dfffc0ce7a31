// The pickers' "Suggested" lists with injected device facts: picking fills the hub choice, a model
// that will not fit waits for a confirmation, and Evals remembers the last answer model and
// defaults to it only when the browser's cache holds it. Nothing loads or downloads here.
import { describe, expect, it } from 'vitest';
import type { DeviceFacts } from '../../../../src/core/model/model-suggestions';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { TextModelChoice, specOfChoice } from '../../../../src/ui/state/shared/text-models.svelte';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { LAST_ANSWER_MODEL_KEY } from '../../../../src/ui/state/shared/model-suggestions.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

const BIG_DEVICE: DeviceFacts = { deviceMemoryGiB: 8, webgpu: null };
const TINY_DEVICE: DeviceFacts = { deviceMemoryGiB: 0.25, webgpu: null };

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

	it('asks before choosing a model that will not fit; cancel keeps the old choice', async () => {
		const catalog = new ModelCatalog(createInThreadClient(new FakeEngine()), undefined, () =>
			Promise.resolve(TINY_DEVICE),
		);
		await catalog.suggestions.refreshDevice();
		const row = catalog.suggestions.rows()[0]!;
		expect(row.fit.verdict).toBe('will-not-fit');
		expect(catalog.suggestions.pick(row)).toBe(false);
		expect(catalog.suggestions.pending?.suggestion.id).toBe(row.suggestion.id);
		expect(catalog.source).toBe('bundled');
		catalog.suggestions.cancel();
		expect(catalog.suggestions.pending).toBeNull();
		expect(catalog.source).toBe('bundled');
		catalog.suggestions.pick(row);
		catalog.suggestions.confirm();
		expect(catalog.hubId).toBe(row.suggestion.id);
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

	it('leaves a choice the user already changed', () => {
		const storage = memoryStorage();
		storage.setItem(LAST_ANSWER_MODEL_KEY, JSON.stringify({ id: 'o/m-Instruct', dtype: 'q8' }));
		const choice = new TextModelChoice({ storage });
		choice.localId = 'gpt2-random-tiny';
		choice.applyRememberedDefault([{ id: 'o/m-Instruct', source: 'hub', bytes: 1, files: 1 }]);
		expect(choice.localId).toBe('gpt2-random-tiny');
	});
});
