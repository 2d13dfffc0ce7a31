/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * Registers the service worker built by vite-plugin-pwa (pwa.config.ts) and reports to PwaStatus:
 * app shell cached ("offline ready") and new version waiting ("update available"). Browser only.
 */
import { registerSW } from 'virtual:pwa-register';
import type { PwaStatus } from './pwa-status.svelte';

let registered = false;

/** Registers once per page; later calls do nothing. */
export function registerServiceWorker(status: PwaStatus): void {
	if (registered || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
	registered = true;
	const updateServiceWorker = registerSW({
		onOfflineReady: () => status.setOfflineReady(true),
		onNeedRefresh: () => status.setNeedRefresh(true, () => updateServiceWorker(true)),
		onRegisterError: (error: unknown) => console.warn('[pwa] service worker not registered', error),
	});
}
