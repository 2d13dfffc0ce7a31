// The default model's prefetch at app open: at an idle moment, never on a data-saving or 2G
// connection, cancellable before it runs; what waits for it (the service worker) is told when it settled.
import { describe, expect, it, vi } from 'vitest';
import {
	PREFETCH_FALLBACK_DELAY_MS,
	PREFETCH_IDLE_TIMEOUT_MS,
	prefetchSkipReason,
	scheduleModelPrefetch,
	type PrefetchEnvironment,
} from '../../../src/ui/io/model-prefetch';

function environment(overrides: Partial<PrefetchEnvironment> = {}) {
	const idle: { callback: () => void; timeout: number | undefined }[] = [];
	const timers: { callback: () => void; ms: number }[] = [];
	const cancelled: unknown[] = [];
	const env: PrefetchEnvironment = {
		requestIdleCallback: (callback, options) => idle.push({ callback, timeout: options?.timeout }),
		cancelIdleCallback: (handle) => cancelled.push(handle),
		setTimeout: (callback, ms) => timers.push({ callback, ms }),
		clearTimeout: (handle) => cancelled.push(handle),
		...overrides,
	};
	return { env, idle, timers, cancelled };
}

describe('prefetchSkipReason', () => {
	it.each([
		[undefined, undefined],
		[{}, undefined],
		[{ saveData: false, effectiveType: '4g' }, undefined],
		[{ saveData: true }, 'the browser asks to save data'],
		[{ effectiveType: '2g' }, 'the connection is 2g'],
		[{ effectiveType: 'slow-2g' }, 'the connection is slow-2g'],
		[{ effectiveType: '3g' }, undefined],
	] as const)('%j → %s', (connection, expected) => {
		expect(prefetchSkipReason(connection)).toBe(expected);
	});
});

describe('scheduleModelPrefetch', () => {
	it('warms up at the next idle moment, at most PREFETCH_IDLE_TIMEOUT_MS away', () => {
		const warmUp = vi.fn();
		const { env, idle } = environment();
		scheduleModelPrefetch(warmUp, env);
		expect(warmUp).not.toHaveBeenCalled();
		expect(idle.map((i) => i.timeout)).toEqual([PREFETCH_IDLE_TIMEOUT_MS]);
		idle[0]?.callback();
		expect(warmUp).toHaveBeenCalledTimes(1);
	});

	it('does nothing when the browser asks to save data, and says it settled at once', () => {
		const warmUp = vi.fn();
		const onSettled = vi.fn();
		const { env, idle, timers } = environment({ connection: { saveData: true } });
		scheduleModelPrefetch(warmUp, env, onSettled);
		expect([idle.length, timers.length]).toEqual([0, 0]);
		expect(onSettled).toHaveBeenCalledTimes(1);
	});

	it('onSettled waits for the warm-up to settle, loaded or failed', async () => {
		for (const outcome of ['loaded', 'failed'] as const) {
			let finish: () => void = () => undefined;
			const warmUp = () =>
				new Promise<void>((resolve, reject) => {
					finish = () => (outcome === 'loaded' ? resolve() : reject(new Error('no model')));
				});
			const onSettled = vi.fn();
			const { env, idle } = environment();
			scheduleModelPrefetch(warmUp, env, onSettled);
			idle[0]?.callback();
			await Promise.resolve();
			expect(onSettled).not.toHaveBeenCalled();
			finish();
			await vi.waitFor(() => expect(onSettled).toHaveBeenCalledTimes(1));
		}
	});

	it('a warm-up that throws still settles', async () => {
		const onSettled = vi.fn();
		const { env, idle } = environment();
		scheduleModelPrefetch(
			() => {
				throw new Error('worker gone');
			},
			env,
			onSettled,
		);
		idle[0]?.callback();
		await vi.waitFor(() => expect(onSettled).toHaveBeenCalledTimes(1));
	});

	it('without requestIdleCallback, waits PREFETCH_FALLBACK_DELAY_MS; cancel clears the timer', () => {
		const warmUp = vi.fn();
		const { env: withIdle, timers, cancelled } = environment();
		const { requestIdleCallback: _idle, ...env } = withIdle;
		const cancel = scheduleModelPrefetch(warmUp, env);
		expect(timers.map((t) => t.ms)).toEqual([PREFETCH_FALLBACK_DELAY_MS]);
		cancel();
		expect(cancelled).toHaveLength(1);
	});

	it('cancel before the idle moment cancels the idle callback', () => {
		const { env, cancelled } = environment({ requestIdleCallback: () => 42 });
		scheduleModelPrefetch(vi.fn(), env)();
		expect(cancelled).toEqual([42]);
	});
});
