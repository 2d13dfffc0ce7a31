/**
 * The CLI's response cache: one JSON file per completion in a folder
 * (`<dir>/<key[0..2]>/<key>.json`). Node only.
 */
import { mkdir, readdir, readFile, rm, stat, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { CachedResponse, ResponseCacheStore } from './response-cache';

async function walkJsonFiles(dir: string): Promise<string[]> {
	const files: string[] = [];
	let entries;
	try {
		entries = await readdir(dir, { withFileTypes: true });
	} catch {
		return files;
	}
	for (const entry of entries) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) files.push(...(await walkJsonFiles(path)));
		else if (entry.name.endsWith('.json')) files.push(path);
	}
	return files;
}

/** A response cache stored under `dir` (created on the first write). */
export function createNodeFileCache(dir: string): ResponseCacheStore {
	const pathOf = (key: string): string => join(dir, key.slice(0, 2), `${key}.json`);
	return {
		async get(key) {
			try {
				return JSON.parse(await readFile(pathOf(key), 'utf8')) as CachedResponse;
			} catch {
				return undefined;
			}
		},
		async put(entry) {
			const path = pathOf(entry.key);
			await mkdir(join(dir, entry.key.slice(0, 2)), { recursive: true });
			// Written aside then renamed: an interrupted run never leaves half a file.
			const temporary = `${path}.${process.pid}.tmp`;
			await writeFile(temporary, JSON.stringify(entry), 'utf8');
			await rename(temporary, path);
		},
		async list() {
			const entries: CachedResponse[] = [];
			for (const file of await walkJsonFiles(dir)) {
				try {
					entries.push(JSON.parse(await readFile(file, 'utf8')) as CachedResponse);
				} catch {
					// A foreign or damaged file is not an entry.
				}
			}
			return entries;
		},
		async size() {
			const files = await walkJsonFiles(dir);
			let bytes = 0;
			for (const file of files) bytes += (await stat(file)).size;
			return { entries: files.length, bytes };
		},
		async clear() {
			for (const file of await walkJsonFiles(dir)) await rm(file, { force: true });
		},
	};
}
