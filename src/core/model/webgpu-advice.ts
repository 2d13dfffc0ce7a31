/**
 * Whether to offer WebGPU for a model that is slow on WASM. Pure: the WASM time estimate, the
 * adapter the browser gives and the model's fit on it come in as data. A run estimated longer
 * than SLOW_ON_WASM_SECONDS is offered WebGPU where the device has a hardware adapter; a software
 * (fallback) adapter, such as Chromium's SwiftShader, runs on the CPU and is far slower than WASM,
 * so it is named and not offered.
 */
import type { DeviceFacts, DeviceFit } from './model-suggestions';
import { formatEstimatedDuration, type ScoringTimeEstimate } from './scoring-time-estimate';

/** A WASM run estimated longer than this (seconds) gets the advice. */
export const SLOW_ON_WASM_SECONDS = 120;

export type WebGpuAdvice =
	/** A hardware adapter the model fits: offer to switch. */
	| { readonly kind: 'offer'; readonly wasmSeconds: number }
	/** The adapter is a software one: WebGPU would be slower still. */
	| { readonly kind: 'software-adapter'; readonly wasmSeconds: number }
	/** A hardware adapter the model does not fit (its buffer limits). */
	| { readonly kind: 'will-not-fit'; readonly wasmSeconds: number; readonly reason: string };

/**
 * The advice for a run on WASM estimated at `wasm`, or null: none when the run is not slow, its
 * time is unknown, or the browser gives no adapter. `webgpuFit` is the model's fit on the
 * adapter (fitsDevice with backend `webgpu`), null when its size is unknown.
 */
export function adviseWebGpu(
	wasm: ScoringTimeEstimate | null,
	adapter: DeviceFacts['webgpu'],
	webgpuFit: DeviceFit | null,
): WebGpuAdvice | null {
	if (wasm?.kind !== 'estimate' || !(wasm.seconds > SLOW_ON_WASM_SECONDS) || !adapter) return null;
	const wasmSeconds = wasm.seconds;
	if (adapter.fallback) return { kind: 'software-adapter', wasmSeconds };
	if (webgpuFit === null) return null;
	if (webgpuFit.verdict === 'will-not-fit') {
		return { kind: 'will-not-fit', wasmSeconds, reason: webgpuFit.reason };
	}
	return { kind: 'offer', wasmSeconds };
}

/** The advice in sentences for the model picker (the offer's button is the picker's). */
export function describeWebGpuAdvice(advice: WebGpuAdvice): string {
	const slow = `On WASM this takes ${formatEstimatedDuration(advice.wasmSeconds)} here.`;
	switch (advice.kind) {
		case 'offer':
			return `${slow} This browser has a WebGPU adapter, which runs the model on the graphics processor and is usually much faster for a model this size (its speed here is not measured; WebGPU results agree with WASM's within 0.001 bits).`;
		case 'software-adapter':
			return `${slow} This browser's WebGPU adapter is a software one that runs on the CPU, slower than WASM, so WebGPU is not offered.`;
		case 'will-not-fit':
			return `${slow} WebGPU is there, but this model does not fit it: ${advice.reason.charAt(0).toLowerCase()}${advice.reason.slice(1)}`;
	}
}
