// When a slow WASM run is offered WebGPU: only past SLOW_ON_WASM_SECONDS, only on a hardware
// adapter the model fits; a software adapter is named and not offered.
import { describe, expect, it } from 'vitest';
import type { DeviceFacts, DeviceFit } from '../../../src/core/model/model-suggestions';
import type { ScoringTimeEstimate } from '../../../src/core/model/scoring-time-estimate';
import {
	adviseWebGpu,
	describeWebGpuAdvice,
	SLOW_ON_WASM_SECONDS,
} from '../../../src/core/model/webgpu-advice';

const GIB = 1024 ** 3;
const HARDWARE: DeviceFacts['webgpu'] = {
	maxBufferSize: 4 * GIB,
	maxStorageBufferBindingSize: 2 * GIB,
	fallback: false,
};
const SOFTWARE: DeviceFacts['webgpu'] = { ...HARDWARE!, fallback: true };
const FITS: DeviceFit = { verdict: 'fits', needBytes: GIB, reason: 'Needs about 1.0 GiB.' };
const TIGHT: DeviceFit = { ...FITS, verdict: 'tight' };
const TOO_BIG: DeviceFit = {
	verdict: 'will-not-fit',
	needBytes: GIB,
	reason: "Its largest tensor (0.5 GiB) is over this GPU's buffer limit (0.1 GiB).",
};

function wasm(seconds: number): ScoringTimeEstimate {
	return { kind: 'estimate', seconds, tokensPerSecond: 100, threads: 2 };
}

describe('adviseWebGpu', () => {
	it('offers WebGPU for a run over the threshold on a hardware adapter the model fits', () => {
		expect(adviseWebGpu(wasm(SLOW_ON_WASM_SECONDS + 1), HARDWARE, FITS)).toEqual({
			kind: 'offer',
			wasmSeconds: SLOW_ON_WASM_SECONDS + 1,
		});
		expect(adviseWebGpu(wasm(600), HARDWARE, TIGHT)?.kind).toBe('offer');
	});

	it('says nothing for a run at or under the threshold, or of unknown length', () => {
		expect(adviseWebGpu(wasm(SLOW_ON_WASM_SECONDS), HARDWARE, FITS)).toBeNull();
		expect(adviseWebGpu(wasm(5), HARDWARE, FITS)).toBeNull();
		expect(adviseWebGpu(null, HARDWARE, FITS)).toBeNull();
		expect(adviseWebGpu({ kind: 'none', reason: 'unknown' }, HARDWARE, FITS)).toBeNull();
		expect(adviseWebGpu(wasm(Number.NaN), HARDWARE, FITS)).toBeNull();
	});

	it('says nothing without an adapter or while the model size is unknown', () => {
		expect(adviseWebGpu(wasm(600), null, FITS)).toBeNull();
		expect(adviseWebGpu(wasm(600), HARDWARE, null)).toBeNull();
	});

	it('names a software adapter instead of offering it', () => {
		const advice = adviseWebGpu(wasm(600), SOFTWARE, FITS);
		expect(advice).toEqual({ kind: 'software-adapter', wasmSeconds: 600 });
		expect(describeWebGpuAdvice(advice!)).toBe(
			"On WASM this takes about 10 min here. This browser's WebGPU adapter is a software one that runs on the CPU, slower than WASM, so WebGPU is not offered.",
		);
	});

	it("gives the adapter's limit when the model does not fit it", () => {
		const advice = adviseWebGpu(wasm(240), HARDWARE, TOO_BIG);
		expect(advice?.kind).toBe('will-not-fit');
		expect(describeWebGpuAdvice(advice!)).toBe(
			"On WASM this takes about 4 min here. WebGPU is there, but this model does not fit it: its largest tensor (0.5 GiB) is over this GPU's buffer limit (0.1 GiB).",
		);
	});

	it('says the WASM time and that WebGPU speed is not measured here when offering', () => {
		const text = describeWebGpuAdvice({ kind: 'offer', wasmSeconds: 3 * 3600 });
		expect(text).toMatch(/^On WASM this takes about 3 h here\. This browser has a WebGPU adapter/);
		expect(text).toContain('not measured');
	});
});
