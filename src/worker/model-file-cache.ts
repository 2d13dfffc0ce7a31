/**
 * The browser's store of downloaded model files (Cache Storage, written by transformers.js):
 * which models have files there, how many bytes, and deleting a model's files. Empty in Node.
 */
import type { CachedModel } from './protocol';

/** Hub files are cached by transformers.js under this Cache Storage name (browser). */
export const MODEL_CACHE_NAME = 'transformers-cache';
const HUB_HOST = 'https://huggingface.co/';

async function openModelCache(): Promise<Cache | undefined> {
	if (typeof caches === 'undefined') return undefined;
	try {
		return await caches.open(MODEL_CACHE_NAME);
	} catch {
		return undefined;
	}
}

/**
 * Which model a cached URL belongs to: hub `https://huggingface.co/<id>/resolve/...`, or a
 * bundled `<bundledModelsPath><id>/...`. Other entries (ORT wasm) belong to none.
 */
export function cachedFileOwner(
	url: string,
	bundledModelsPath: string,
): { id: string; source: CachedModel['source'] } | undefined {
	if (url.startsWith(HUB_HOST)) {
		const rest = url.slice(HUB_HOST.length);
		const at = rest.indexOf('/resolve/');
		return at > 0 ? { id: decodeURIComponent(rest.slice(0, at)), source: 'hub' } : undefined;
	}
	const base = new URL(bundledModelsPath, globalThis.location?.href ?? 'http://localhost/')
		.pathname;
	const path = new URL(url, 'http://localhost/').pathname;
	if (!path.startsWith(base)) return undefined;
	const id = path.slice(base.length).split('/')[0];
	return id ? { id, source: 'bundled' } : undefined;
}

/** Models with files in the cache, with their bytes (by content-length) and file counts. */
export async function listCachedModels(bundledModelsPath: string): Promise<CachedModel[]> {
	const cache = await openModelCache();
	if (!cache) return [];
	const byId = new Map<string, { source: CachedModel['source']; bytes: number; files: number }>();
	for (const request of await cache.keys()) {
		const owner = cachedFileOwner(request.url, bundledModelsPath);
		if (!owner) continue;
		const response = await cache.match(request);
		const bytes = Number(response?.headers.get('content-length') ?? 0) || 0;
		const entry = byId.get(owner.id) ?? { source: owner.source, bytes: 0, files: 0 };
		entry.bytes += bytes;
		entry.files += 1;
		byId.set(owner.id, entry);
	}
	return [...byId].map(([id, e]) => ({ id, source: e.source, bytes: e.bytes, files: e.files }));
}

/** Deletes every cached file of model `id`. */
export async function deleteCachedModel(
	bundledModelsPath: string,
	id: string,
): Promise<{ readonly filesDeleted: number }> {
	const cache = await openModelCache();
	if (!cache) return { filesDeleted: 0 };
	let filesDeleted = 0;
	for (const request of await cache.keys()) {
		if (cachedFileOwner(request.url, bundledModelsPath)?.id === id && (await cache.delete(request)))
			filesDeleted++;
	}
	return { filesDeleted };
}
