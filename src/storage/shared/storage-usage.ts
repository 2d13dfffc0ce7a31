/**
 * Browser storage bookkeeping: how much this origin uses (IndexedDB and model caches share the
 * quota) and the request for persistent storage. Never throws: unsupported means null/'unsupported'.
 */

export interface StorageUsage {
	readonly usageBytes: number;
	readonly quotaBytes: number;
}

/** `granted`: the browser will not evict our data; `denied`: it may; `unsupported`: no API. */
export type PersistenceState = 'granted' | 'denied' | 'unsupported';

function storageManager(): StorageManager | undefined {
	return typeof navigator !== 'undefined' && 'storage' in navigator ? navigator.storage : undefined;
}

/** `navigator.storage.estimate()` in bytes, or null where the browser has no estimate. */
export async function estimateStorageUsage(): Promise<StorageUsage | null> {
	const manager = storageManager();
	if (!manager?.estimate) return null;
	try {
		const { usage, quota } = await manager.estimate();
		return { usageBytes: usage ?? 0, quotaBytes: quota ?? 0 };
	} catch {
		return null;
	}
}

/** Whether storage is already persistent, without asking. */
export async function readPersistence(): Promise<PersistenceState> {
	const manager = storageManager();
	if (!manager?.persisted) return 'unsupported';
	try {
		return (await manager.persisted()) ? 'granted' : 'denied';
	} catch {
		return 'unsupported';
	}
}

/** Asks for persistent storage (browsers decide by heuristics; Firefox may prompt). */
export async function requestPersistentStorage(): Promise<PersistenceState> {
	const manager = storageManager();
	if (!manager?.persist) return 'unsupported';
	try {
		return (await manager.persist()) ? 'granted' : 'denied';
	} catch {
		return 'unsupported';
	}
}
