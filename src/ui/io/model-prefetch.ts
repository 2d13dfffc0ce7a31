/**
 * Loads the default model in the background when the app opens, so a first Run scores at once:
 * when the page is idle (low priority, never before the page has settled), and not at all where
 * the user asked to save data (`navigator.connection.saveData`) or the connection is 2G.
 */

/** What the prefetch reads from the browser (injectable for tests). */
export interface PrefetchEnvironment {
	readonly connection?: { readonly saveData?: boolean; readonly effectiveType?: string };
	readonly requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
	readonly cancelIdleCallback?: (handle: number) => void;
	readonly setTimeout: (callback: () => void, ms: number) => unknown;
	readonly clearTimeout: (handle: unknown) => void;
}

/** Longest wait for an idle moment before the prefetch starts anyway. */
export const PREFETCH_IDLE_TIMEOUT_MS = 2000;
/** Without requestIdleCallback (Safari): start after this delay. */
export const PREFETCH_FALLBACK_DELAY_MS = 300;

/** Why the prefetch should not run on this connection, or undefined if it may. */
export function prefetchSkipReason(
	connection: PrefetchEnvironment['connection'],
): string | undefined {
	if (connection?.saveData === true) return 'the browser asks to save data';
	if (connection?.effectiveType === 'slow-2g' || connection?.effectiveType === '2g')
		return `the connection is ${connection.effectiveType}`;
	return undefined;
}

function browserEnvironment(): PrefetchEnvironment {
	const nav = (typeof navigator === 'undefined' ? undefined : navigator) as
		{ connection?: PrefetchEnvironment['connection'] } | undefined;
	const idle = globalThis as {
		requestIdleCallback?: PrefetchEnvironment['requestIdleCallback'];
		cancelIdleCallback?: PrefetchEnvironment['cancelIdleCallback'];
	};
	return {
		...(nav?.connection ? { connection: nav.connection } : {}),
		...(idle.requestIdleCallback
			? { requestIdleCallback: idle.requestIdleCallback.bind(globalThis) }
			: {}),
		...(idle.cancelIdleCallback
			? { cancelIdleCallback: idle.cancelIdleCallback.bind(globalThis) }
			: {}),
		setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
		clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
	};
}

/**
 * Calls `warmUp` once, at the next idle moment (at most PREFETCH_IDLE_TIMEOUT_MS away), unless
 * the connection says not to. `onSettled` runs once the warm-up's promise has settled, or at once
 * when the connection rules the prefetch out: the app registers its service worker there, whose
 * first install downloads every bundled model and would compete with the default model's load.
 * Returns a function that cancels the prefetch if it has not run yet.
 */
export function scheduleModelPrefetch(
	warmUp: () => Promise<void> | void,
	environment: PrefetchEnvironment = browserEnvironment(),
	onSettled: () => void = () => undefined,
): () => void {
	if (prefetchSkipReason(environment.connection) !== undefined) {
		onSettled();
		return () => undefined;
	}
	const run = (): void => {
		let warming: Promise<void> | void;
		try {
			warming = warmUp();
		} catch {
			warming = undefined;
		}
		void Promise.resolve(warming)
			.catch(() => undefined)
			.then(onSettled);
	};
	const { requestIdleCallback, cancelIdleCallback } = environment;
	if (requestIdleCallback) {
		const handle = requestIdleCallback(run, { timeout: PREFETCH_IDLE_TIMEOUT_MS });
		return () => cancelIdleCallback?.(handle);
	}
	const handle = environment.setTimeout(run, PREFETCH_FALLBACK_DELAY_MS);
	return () => environment.clearTimeout(handle);
}
