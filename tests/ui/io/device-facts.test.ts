// What the browser says about the device, read through a navigator of the test's own: the
// adapter's limits and whether it is a software (fallback) one, in the ways browsers say it;
// facts the browser does not give, and an adapter request that throws, read as null.
import { describe, expect, it } from 'vitest';
import { readDeviceFacts, type NavigatorLike } from '../../../src/ui/io/device-facts';

const LIMITS = { maxBufferSize: 1 << 30, maxStorageBufferBindingSize: 1 << 28 };

function withAdapter(adapter: unknown): NavigatorLike {
	return {
		deviceMemory: 8,
		hardwareConcurrency: 4,
		gpu: { requestAdapter: () => Promise.resolve(adapter as never) },
	};
}

describe('readDeviceFacts', () => {
	it('reads a hardware adapter as not a fallback', async () => {
		const facts = await readDeviceFacts(
			withAdapter({ limits: LIMITS, info: { architecture: 'ampere', isFallbackAdapter: false } }),
			true,
		);
		expect(facts).toEqual({
			deviceMemoryGiB: 8,
			hardwareConcurrency: 4,
			crossOriginIsolated: true,
			webgpu: { ...LIMITS, fallback: false },
		});
	});

	it('reads a software adapter from GPUAdapterInfo, the older adapter flag, or its name', async () => {
		const cases = [
			{ limits: LIMITS, info: { architecture: 'swiftshader', isFallbackAdapter: true } },
			{ limits: LIMITS, info: { architecture: '' }, isFallbackAdapter: true },
			{ limits: LIMITS, info: { architecture: 'SwiftShader' } },
		];
		for (const adapter of cases) {
			const facts = await readDeviceFacts(withAdapter(adapter), true);
			expect(facts.webgpu?.fallback).toBe(true);
		}
	});

	it('reads no adapter, a failing request and missing facts as null', async () => {
		expect((await readDeviceFacts(withAdapter(null), false)).webgpu).toBeNull();
		const failing: NavigatorLike = {
			gpu: { requestAdapter: () => Promise.reject(new Error('no GPU process')) },
		};
		expect(await readDeviceFacts(failing, false)).toEqual({
			deviceMemoryGiB: null,
			hardwareConcurrency: null,
			crossOriginIsolated: false,
			webgpu: null,
		});
	});
});
