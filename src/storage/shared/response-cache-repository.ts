/**
 * The response cache in IndexedDB: the providers' ResponseCacheStore over the `responseCache`
 * table (completions by request key), listed newest first, sized, cleared. Returns the providers'
 * CachedResponse; no Dexie type leaks out.
 */
import type { CachedResponse, ResponseCacheStore } from '../../providers/response-cache';
import { db, type ResponseCacheRow } from './db';
import { guardQuota } from './storage-errors';

function toCachedResponse(row: ResponseCacheRow): CachedResponse {
	const { bytes: _bytes, ...entry } = row;
	return entry;
}

export async function getCachedResponse(key: string): Promise<CachedResponse | undefined> {
	const row = await db.responseCache.get(key);
	return row && toCachedResponse(row);
}

/** Stores (or replaces) the entry under its key. A full quota is a StorageQuotaError. */
export async function putCachedResponse(entry: CachedResponse): Promise<void> {
	const row: ResponseCacheRow = { ...entry, bytes: JSON.stringify(entry).length };
	await guardQuota(() => db.responseCache.put(row));
}

/** Every cached completion, newest first. */
export async function listCachedResponses(): Promise<CachedResponse[]> {
	const rows = await db.responseCache.orderBy('createdAt').reverse().toArray();
	return rows.map(toCachedResponse);
}

/** Entries and the UTF-16 length of their JSON (about their bytes in IndexedDB). */
export async function responseCacheSize(): Promise<{ entries: number; bytes: number }> {
	let entries = 0;
	let bytes = 0;
	await db.responseCache.each((row) => {
		entries += 1;
		bytes += row.bytes;
	});
	return { entries, bytes };
}

export async function deleteCachedResponse(key: string): Promise<void> {
	await db.responseCache.delete(key);
}

export async function clearResponseCache(): Promise<void> {
	await db.responseCache.clear();
}

/** The app's response cache: wrap a model with `withResponseCache(model, responseCacheStore, …)`. */
export const responseCacheStore: ResponseCacheStore = {
	get: getCachedResponse,
	put: putCachedResponse,
	list: listCachedResponses,
	size: responseCacheSize,
	clear: clearResponseCache,
};
