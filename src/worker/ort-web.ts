/**
 * onnxruntime-web for the browser worker: the only module importing it. The same instance as
 * transformers.js's (`onnxruntime-web/webgpu`), with self-hosted wasm assets (no CDN), WASM
 * threads when the page is cross-origin isolated, and WebGPU when an adapter exists.
 */
import * as ort from 'onnxruntime-web/webgpu';
import wasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import mjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import type { InferenceBackend } from '../core/model/model-spec';
import { identityModelBytes } from '../core/onnx/identity-model';
import { wasmThreadCount } from '../core/model/scoring-time-estimate';
import type { OrtRuntime, OrtSessionClass, OrtTensorConstructor } from './ort-runtime';

/** Minimal WebGPU shapes (no @webgpu/types dependency). */
interface GpuLike {
	requestAdapter(): Promise<unknown>;
}
interface GpuDeviceLike {
	readonly lost: Promise<{ readonly reason: string; readonly message: string }>;
}

/** Threads for WASM: every core the browser reports (at most 8), 1 without cross-origin isolation. */
function chooseThreads(): number {
	return wasmThreadCount(
		globalThis.navigator?.hardwareConcurrency,
		globalThis.crossOriginIsolated === true,
	);
}

/**
 * Configures onnxruntime-web (wasm paths, threads) and returns it as an OrtRuntime. Call before
 * the first session is created; `threads` overrides the default.
 */
export function createWebOrtRuntime(threads = chooseThreads()): OrtRuntime {
	ort.env.wasm.wasmPaths = {
		wasm: new URL(wasmUrl, self.location.href).href,
		mjs: new URL(mjsUrl, self.location.href).href,
	};
	ort.env.wasm.numThreads = threads;
	ort.env.wasm.proxy = false;
	let adapterProbe: Promise<string | undefined> | undefined;
	const probeWebGpu = (): Promise<string | undefined> => {
		adapterProbe ??= (async () => {
			const gpu = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
			if (!gpu) return 'this browser has no WebGPU (navigator.gpu is missing)';
			try {
				const adapter = await gpu.requestAdapter();
				return adapter ? undefined : 'no WebGPU adapter is available';
			} catch (error) {
				return `WebGPU adapter request failed: ${(error as Error).message}`;
			}
		})();
		return adapterProbe;
	};
	// The engine wraps `InferenceSession.create` while it loads a model (to add the log-prob
	// tail): the warm-up keeps the original.
	const createSession = ort.InferenceSession.create.bind(ort.InferenceSession);
	let warming: Promise<void> | undefined;
	const warmUp = (): Promise<void> => {
		warming ??= createSession(identityModelBytes(), { executionProviders: ['wasm'] }).then(
			(session) => session.release(),
			() => undefined,
		);
		return warming;
	};
	return {
		kind: 'web',
		warmUp,
		InferenceSession: ort.InferenceSession as unknown as OrtSessionClass,
		Tensor: ort.Tensor as unknown as OrtTensorConstructor,
		fallbackBackend: 'wasm',
		threads,
		weightsAsExternalData: true,
		readModelFile: async (path) => {
			throw new Error(`Cannot read ${path}: the browser receives model bytes, not paths.`);
		},
		unavailableReason: async (backend: InferenceBackend) => {
			if (backend === 'wasm') return undefined;
			if (backend === 'webgpu') return probeWebGpu();
			return `${backend} is not available in the browser`;
		},
		sessionOptions: (backend) => ({
			executionProviders: [backend === 'webgpu' ? 'webgpu' : 'wasm'],
			graphOptimizationLevel: 'all',
		}),
		deviceName: (backend) => (backend === 'webgpu' ? 'webgpu' : 'wasm'),
		onDeviceLost: (listener) => {
			// NOTE: `env.webgpu.device` is the GPUDevice once a WebGPU session exists (older ORT
			// builds gave a promise of it): accept either.
			void Promise.resolve(ort.env.webgpu.device as unknown as GpuDeviceLike | undefined).then(
				(device) =>
					device?.lost?.then((info) =>
						listener(`WebGPU device lost (${info.reason}): ${info.message}`),
					),
				() => undefined,
			);
		},
	};
}
