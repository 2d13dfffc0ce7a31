// The suggested hub models per job and the fit estimate against the device's memory and the
// WebGPU adapter's buffer limits.
import { describe, expect, it } from 'vitest';
import {
	MEMORY_PER_WEIGHT_BYTE,
	MODEL_SUGGESTIONS,
	fitsDevice,
	recommendedSuggestion,
	suggestionsFor,
	type DeviceFacts,
	type ModelSuggestion,
} from '../../../src/core/model/model-suggestions';

const MB = 1_000_000;

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
		webgpu:
			limit === null ? null : { maxBufferSize: 2 * limit, maxStorageBufferBindingSize: limit },
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

describe('fitsDevice', () => {
	// need = download × MEMORY_PER_WEIGHT_BYTE (2): 300 MB → 0.56 GiB, 1000 MB → 1.86 GiB.
	it.each([
		{ downloadMB: 300, memory: 8, verdict: 'fits' },
		{ downloadMB: 1000, memory: 8, verdict: 'fits' },
		{ downloadMB: 1000, memory: 2, verdict: 'tight' },
		{ downloadMB: 300, memory: 1, verdict: 'tight' },
		{ downloadMB: 1000, memory: 1, verdict: 'will-not-fit' },
		{ downloadMB: 300, memory: 0.5, verdict: 'will-not-fit' },
		{ downloadMB: 5000, memory: null, verdict: 'fits' },
	] as const)('$downloadMB MB on $memory GiB: $verdict', ({ downloadMB, memory, verdict }) => {
		const fit = fitsDevice(model(downloadMB), device(memory));
		expect(fit.verdict).toBe(verdict);
		expect(fit.needBytes).toBe(downloadMB * MB * MEMORY_PER_WEIGHT_BYTE);
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
	it('offers the most capable answer model that fits, a smaller one on a smaller device', () => {
		expect(recommendedSuggestion('answer', device(8))?.suggestion.id).toBe(
			'onnx-community/Qwen2.5-0.5B-Instruct',
		);
		expect(recommendedSuggestion('answer', device(8))?.fit.verdict).toBe('fits');
		// 1.5 GiB: Qwen (about 0.95 GiB needed) is tight, SmolLM2-360M will not fit, SmolLM2-135M fits.
		expect(recommendedSuggestion('answer', device(1.5))?.suggestion.id).toBe(
			'HuggingFaceTB/SmolLM2-135M-Instruct',
		);
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
