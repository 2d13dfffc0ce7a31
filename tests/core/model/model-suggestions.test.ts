// The suggested hub models per job, the bundled models' sizes, and the fit estimate against the
// device's memory and the WebGPU adapter's buffer limits, with its refusal wording.
import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUNDLED_MODEL_IDS } from '../../../src/core/model/model-spec';
import {
	MEMORY_PER_WEIGHT_BYTE,
	MODEL_SUGGESTIONS,
	describeFit,
	fitRefusal,
	fitsDevice,
	knownModelFacts,
	recommendedSuggestion,
	suggestionsFor,
	type DeviceFacts,
	type ModelSuggestion,
} from '../../../src/core/model/model-suggestions';

const MB = 1_000_000;
const MODELS_DIR = fileURLToPath(new URL('../../../public/models/', import.meta.url));

function model(downloadMB: number, largestTensorMB = 10): ModelSuggestion {
	return {
		id: 'owner/model',
		job: 'answer',
		dtype: 'fp16',
		downloadBytes: downloadMB * MB,
		largestTensorBytes: largestTensorMB * MB,
		parameters: downloadMB * 500_000,
		note: '',
	};
}

function device(deviceMemoryGiB: number | null, bufferLimitMiB?: number): DeviceFacts {
	const limit = bufferLimitMiB === undefined ? null : bufferLimitMiB * 1024 * 1024;
	return {
		deviceMemoryGiB,
		hardwareConcurrency: 4,
		crossOriginIsolated: true,
		webgpu:
			limit === null
				? null
				: { maxBufferSize: 2 * limit, maxStorageBufferBindingSize: limit, fallback: false },
	};
}

describe('suggestionsFor', () => {
	it('lists GPT-2-family models for surprisal and instruction-tuned ones for answering', () => {
		const surprisal = suggestionsFor('surprisal').map((m) => m.id);
		const answer = suggestionsFor('answer').map((m) => m.id);
		expect(surprisal.every((id) => /gpt2/i.test(id))).toBe(true);
		expect(answer.every((id) => /instruct/i.test(id))).toBe(true);
		expect(surprisal.length).toBeGreaterThanOrEqual(2);
		expect(answer.length).toBeGreaterThanOrEqual(2);
	});

	it('orders them by download size, smallest first', () => {
		const sizes = suggestionsFor('answer').map((m) => m.downloadBytes);
		expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
	});

	it('gives every suggestion a hub id, a size and a tensor no bigger than the file', () => {
		for (const m of MODEL_SUGGESTIONS) {
			expect(m.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
			expect(m.downloadBytes).toBeGreaterThan(0);
			expect(m.largestTensorBytes).toBeLessThan(m.downloadBytes);
		}
	});
});

describe('MEMORY_PER_WEIGHT_BYTE', () => {
	it('is the tab peak measured for the GPT-2-sized model per byte of weights, rounded up', () => {
		// README, "What to expect from a GPT-2-sized model": the largest peak of 3 runs in MiB
		// against the MiB of weights (the bench's q8 weights are 156.6 MiB).
		const measured = { fp32: 1242 / 622, fp16: 992 / 311, q8: 237 / 156.6 } as const;
		for (const dtype of ['fp32', 'fp16', 'q8'] as const) {
			expect(MEMORY_PER_WEIGHT_BYTE[dtype]).toBeGreaterThanOrEqual(measured[dtype]);
			expect(MEMORY_PER_WEIGHT_BYTE[dtype] - measured[dtype]).toBeLessThan(0.1);
		}
	});
});

describe('fitsDevice', () => {
	// need = download × MEMORY_PER_WEIGHT_BYTE.fp16 (3.2): 300 MB → 0.89 GiB, 1000 MB → 2.98 GiB.
	it.each([
		{ downloadMB: 300, memory: 8, verdict: 'fits' },
		{ downloadMB: 1000, memory: 8, verdict: 'fits' },
		{ downloadMB: 1000, memory: 4, verdict: 'tight' },
		{ downloadMB: 1000, memory: 2, verdict: 'will-not-fit' },
		{ downloadMB: 300, memory: 1, verdict: 'tight' },
		{ downloadMB: 1000, memory: 1, verdict: 'will-not-fit' },
		{ downloadMB: 300, memory: 0.5, verdict: 'will-not-fit' },
		{ downloadMB: 5000, memory: null, verdict: 'fits' },
	] as const)('$downloadMB MB on $memory GiB: $verdict', ({ downloadMB, memory, verdict }) => {
		const fit = fitsDevice(model(downloadMB), device(memory));
		expect(fit.verdict).toBe(verdict);
		expect(fit.needBytes).toBe(downloadMB * MB * MEMORY_PER_WEIGHT_BYTE.fp16);
		expect(fit.reason).not.toContain('\n');
	});

	it('says when the browser does not report its memory', () => {
		expect(fitsDevice(model(300), device(null)).reason).toContain('does not report');
	});

	it('on WebGPU, a tensor over the smaller buffer limit will not fit', () => {
		// 154 MB embedding (GPT-2 fp32) against the 128 MiB default binding limit.
		const big = model(650, 154);
		expect(fitsDevice(big, device(8, 128), 'webgpu').verdict).toBe('will-not-fit');
		expect(fitsDevice(big, device(8, 128), 'webgpu').reason).toContain('buffer limit');
		expect(fitsDevice(big, device(8, 1024), 'webgpu').verdict).toBe('fits');
		// On WASM the GPU limits do not apply.
		expect(fitsDevice(big, device(8, 128), 'wasm').verdict).toBe('fits');
	});

	it('does not change the model or the device facts', () => {
		const m = model(300);
		const d = device(4, 256);
		const before = JSON.stringify([m, d]);
		fitsDevice(m, d, 'webgpu');
		expect(JSON.stringify([m, d])).toBe(before);
	});
});

describe('recommendedSuggestion', () => {
	it('offers the most capable answer model that fits, none where every one is tight', () => {
		expect(recommendedSuggestion('answer', device(8))?.suggestion.id).toBe(
			'onnx-community/Qwen2.5-0.5B-Instruct',
		);
		expect(recommendedSuggestion('answer', device(8))?.fit.verdict).toBe('fits');
		// 2 GiB: Qwen at 8 bits (about 0.8 GiB needed) still fits, where SmolLM2-360M at fp16
		// (2.4 GiB) will not fit and SmolLM2-135M at fp16 (1.0 GiB) is tight.
		expect(recommendedSuggestion('answer', device(2))?.suggestion.id).toBe(
			'onnx-community/Qwen2.5-0.5B-Instruct',
		);
		expect(recommendedSuggestion('answer', device(1.5))).toBeNull();
		// 1 GiB: every one is tight or will not fit: nothing is offered first.
		expect(recommendedSuggestion('answer', device(1))).toBeNull();
		expect(recommendedSuggestion('answer', device(0.25))).toBeNull();
	});

	it('for surprisal prefers GPT-2 fp32 over its 8-bit copy', () => {
		expect(recommendedSuggestion('surprisal', device(8))?.suggestion).toMatchObject({
			id: 'Xenova/gpt2',
			dtype: 'fp32',
		});
	});
});

describe('knownModelFacts', () => {
	it('gives the bundled models the sizes of their files in public/models', () => {
		for (const id of BUNDLED_MODEL_IDS) {
			for (const [dtype, file] of [
				['fp32', 'model.onnx'],
				['q8', 'model_quantized.onnx'],
			] as const) {
				const onDisk = statSync(`${MODELS_DIR}${id}/onnx/${file}`).size;
				expect(knownModelFacts('bundled', id, dtype)?.downloadBytes).toBe(onDisk);
			}
			// No fp16 file is bundled.
			expect(knownModelFacts('bundled', id, 'fp16')).toBeNull();
		}
		expect(knownModelFacts('bundled', 'gpt2-en-small', 'fp32')?.parameters).toBe(8_546_816);
	});

	it('knows a suggested hub model only at its suggested dtype, and no typed id', () => {
		expect(knownModelFacts('hub', 'Xenova/gpt2', 'q8')?.downloadBytes).toBe(166_000_000);
		expect(knownModelFacts('hub', 'Xenova/gpt2', 'fp16')).toBeNull();
		expect(knownModelFacts('hub', 'someone/gpt2-large', 'fp32')).toBeNull();
		expect(knownModelFacts('local', 'Xenova/gpt2', 'q8')).toBeNull();
	});
});

describe('fitRefusal and describeFit', () => {
	it('refuses only a model that will not fit, saying why and what to do instead', () => {
		const tooBig = fitsDevice(model(1000), device(1));
		expect(fitRefusal('owner/model (fp16)', tooBig)).toBe(
			'owner/model (fp16) will not fit this device: needs about 3.0 GiB of memory; the device reports 1 GiB. Loading it could crash the tab, so it is not loaded: pick a smaller model or dtype, or score it with the CLI or through an endpoint.',
		);
		expect(fitRefusal('owner/model (fp16)', tooBig, false)).toBe(
			'owner/model (fp16) will not fit this device: needs about 3.0 GiB of memory; the device reports 1 GiB.',
		);
		expect(fitRefusal('m', fitsDevice(model(1000), device(4)))).toBeNull(); // tight
		expect(fitRefusal('m', fitsDevice(model(300), device(8)))).toBeNull();
		expect(fitRefusal('m', null)).toBeNull();
	});

	it('says the verdict in words after the need, or the need alone when memory is unknown', () => {
		expect(describeFit(fitsDevice(model(300), device(8)), device(8))).toBe(
			'Needs about 0.9 GiB of memory; the device reports 8 GiB: fits.',
		);
		expect(describeFit(fitsDevice(model(1000), device(4)), device(4))).toBe(
			'Needs about 3.0 GiB of memory, over half of the 4 GiB the device reports: tight.',
		);
		expect(describeFit(fitsDevice(model(300), device(null)), device(null))).toBe(
			"Needs about 0.9 GiB of memory; this browser does not report the device's.",
		);
	});
});
