/**
 * Online/offline state and the service worker's news (offline ready, update available) for the
 * whole app: one module instance, read by the header indicator and by model choice. No fetching.
 */

export class PwaStatus {
	#online = $state(typeof navigator === 'undefined' ? true : navigator.onLine);
	/** The last connectivity check reached the server (navigator.onLine alone can say "online"
	 * with no network, e.g. on a LAN without internet or under DevTools offline emulation). */
	#reachable = $state(true);
	#offlineReady = $state(false);
	#needRefresh = $state(false);
	#update: (() => Promise<void>) | null = null;

	constructor() {
		if (typeof addEventListener === 'function') {
			addEventListener('online', () => {
				this.#online = true;
				this.#reachable = true;
			});
			addEventListener('offline', () => (this.#online = false));
		}
	}

	/** Whether the app is online: the browser says so (`navigator.onLine`, kept up to date) and
	 * the last connectivity check reached the server. */
	get online(): boolean {
		return this.#online && this.#reachable;
	}

	/**
	 * Asks the server for a file the service worker does not answer (a query string the precache
	 * does not match, no HTTP cache): a failure means the network is not there.
	 */
	async checkConnectivity(fetcher: typeof fetch = fetch, now = Date.now()): Promise<boolean> {
		try {
			const response = await fetcher(`./manifest.webmanifest?connectivity=${now}`, {
				method: 'HEAD',
				cache: 'no-store',
			});
			this.#reachable = response.ok;
		} catch {
			this.#reachable = false;
		}
		return this.#reachable;
	}

	/** The app shell is cached: the app now opens without a network. */
	get offlineReady(): boolean {
		return this.#offlineReady;
	}

	/** A new version of the app is waiting; `applyUpdate()` reloads into it. */
	get needRefresh(): boolean {
		return this.#needRefresh;
	}

	/** Called by the service worker registration. */
	setOfflineReady(ready: boolean): void {
		this.#offlineReady = ready;
	}

	/** Called by the service worker registration when a new version is waiting. */
	setNeedRefresh(needRefresh: boolean, update?: () => Promise<void>): void {
		this.#needRefresh = needRefresh;
		if (update) this.#update = update;
	}

	async applyUpdate(): Promise<void> {
		this.#needRefresh = false;
		await this.#update?.();
	}

	dismiss(): void {
		this.#needRefresh = false;
		this.#offlineReady = false;
	}

	/**
	 * Why a model cannot be used now, or null: hub models need the network unless their files
	 * are in the browser's cache (`cachedIds`); bundled and local models always work.
	 */
	modelUnavailableReason(
		spec: { readonly source: string; readonly id: string },
		cachedIds: readonly string[],
	): string | null {
		if (this.online || spec.source !== 'hub' || cachedIds.includes(spec.id)) return null;
		return `Offline: ${spec.id} is not in this browser's cache, so it cannot be downloaded now. Use a bundled model or reconnect.`;
	}
}

/** The app's one PwaStatus (online state is a true global, like the theme). */
export const pwaStatus = new PwaStatus();
