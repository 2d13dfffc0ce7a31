/**
 * Reads what the browser says about the device for the model picker's fit and time estimates:
 * `navigator.deviceMemory`, `navigator.hardwareConcurrency`, `crossOriginIsolated` and, when
 * `navigator.gpu` exists, the WebGPU adapter's buffer limits and whether it is a software one. Never throws; a fact the browser
 * does not give is null.
 */
import type { DeviceFacts } from '../../core/model/model-suggestions';

interface GpuAdapterLike {
	readonly limits: { readonly maxBufferSize: number; readonly maxStorageBufferBindingSize: number };
	/** GPUAdapterInfo; `isFallbackAdapter` there in current browsers, on the adapter in older ones. */
	readonly info?: { readonly isFallbackAdapter?: boolean; readonly architecture?: string };
	readonly isFallbackAdapter?: boolean;
}

/** A software adapter: flagged as the fallback one, or SwiftShader by name. */
function isSoftwareAdapter(adapter: GpuAdapterLike): boolean {
	return (
		adapter.info?.isFallbackAdapter === true ||
		adapter.isFallbackAdapter === true ||
		adapter.info?.architecture?.toLowerCase() === 'swiftshader'
	);
}

/** The parts of `navigator` read here (tests pass their own). */
export interface NavigatorLike {
	readonly deviceMemory?: number;
	readonly hardwareConcurrency?: number;
	readonly gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> };
}

export async function readDeviceFacts(
	nav: NavigatorLike | undefined = globalThis.navigator as NavigatorLike | undefined,
	crossOriginIsolated: boolean = globalThis.crossOriginIsolated === true,
): Promise<DeviceFacts> {
	const memory = nav?.deviceMemory;
	const deviceMemoryGiB = typeof memory === 'number' && memory > 0 ? memory : null;
	const cores = nav?.hardwareConcurrency;
	const hardwareConcurrency = typeof cores === 'number' && cores > 0 ? cores : null;
	let webgpu: DeviceFacts['webgpu'] = null;
	try {
		const adapter = nav?.gpu ? await nav.gpu.requestAdapter() : null;
		if (adapter) {
			const { maxBufferSize, maxStorageBufferBindingSize } = adapter.limits;
			webgpu = { maxBufferSize, maxStorageBufferBindingSize, fallback: isSoftwareAdapter(adapter) };
		}
	} catch {
		webgpu = null;
	}
	return { deviceMemoryGiB, hardwareConcurrency, crossOriginIsolated, webgpu };
}
