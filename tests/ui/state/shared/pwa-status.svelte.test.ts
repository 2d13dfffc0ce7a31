// PwaStatus: online state follows the browser's events; hub models that are not cached are
// unavailable offline with a reason; the update prompt calls the service worker's update.
import { describe, expect, it, vi } from 'vitest';
import { PwaStatus } from '../../../../src/ui/state/shared/pwa-status.svelte';

describe('PwaStatus', () => {
	it('follows online and offline events', () => {
		const status = new PwaStatus();
		dispatchEvent(new Event('offline'));
		expect(status.online).toBe(false);
		dispatchEvent(new Event('online'));
		expect(status.online).toBe(true);
	});

	it.each([
		[true, 'hub', 'Xenova/distilgpt2', [], null],
		[false, 'hub', 'Xenova/distilgpt2', ['Xenova/distilgpt2'], null],
		[false, 'bundled', 'gpt2-random-tiny', [], null],
		[false, 'local', 'my-model', [], null],
		[false, 'hub', 'Xenova/distilgpt2', ['other/model'], /Offline: Xenova\/distilgpt2 is not in/],
	])('online=%s %s %s cached=%j', (online, source, id, cached, expected) => {
		const status = new PwaStatus();
		dispatchEvent(new Event(online ? 'online' : 'offline'));
		const reason = status.modelUnavailableReason({ source, id }, cached);
		if (expected === null) expect(reason).toBeNull();
		else expect(reason).toMatch(expected);
	});

	it('applies a waiting update once, then hides the prompt', async () => {
		const status = new PwaStatus();
		const update = vi.fn(async () => {});
		status.setNeedRefresh(true, update);
		expect(status.needRefresh).toBe(true);
		await status.applyUpdate();
		expect(update).toHaveBeenCalledOnce();
		expect(status.needRefresh).toBe(false);
	});

	it.each([
		['reachable', async () => new Response(null, { status: 200 }), true],
		['network error', async () => Promise.reject(new TypeError('Failed to fetch')), false],
		['server error', async () => new Response(null, { status: 503 }), false],
	])('connectivity check: %s', async (_name, fetcher, online) => {
		const status = new PwaStatus();
		dispatchEvent(new Event('online'));
		await status.checkConnectivity(fetcher as typeof fetch, 1);
		expect(status.online).toBe(online);
	});
});
