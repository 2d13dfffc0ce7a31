/**
 * The suite library in IndexedDB: save (keyed by the SHA-256 of the text), list, get, delete.
 * Suites used by a stored run are kept (unlisted) until their last run is deleted.
 */
import { sha256Hex } from '../../core/hash/sha256';
import { db, type SuiteOrigin, type SuiteRow } from '../shared/db';
import { guardQuota } from '../shared/storage-errors';

export type { SuiteOrigin };

export interface SavedSuite {
	/** SHA-256 (lowercase hex) of `text`. */
	readonly sha256: string;
	readonly name: string;
	readonly text: string;
	readonly origin: SuiteOrigin;
	readonly sourceName?: string;
	/** Milliseconds since the Unix epoch. */
	readonly savedAt: number;
}

export interface SuiteToSave {
	readonly text: string;
	readonly name: string;
	readonly origin: SuiteOrigin;
	readonly sourceName?: string;
}

/**
 * Saves a suite to the library (or lists it again). The same text is stored once: saving it
 * again updates its name, origin and date and returns the same `sha256`.
 */
export async function saveSuite(suite: SuiteToSave, now = Date.now()): Promise<SavedSuite> {
	const row: SuiteRow = {
		sha256: sha256Hex(suite.text),
		name: suite.name,
		text: suite.text,
		origin: suite.origin,
		listed: 1,
		savedAt: now,
		...(suite.sourceName === undefined ? {} : { sourceName: suite.sourceName }),
	};
	await guardQuota(() => db.suites.put(row));
	return toSavedSuite(row);
}

/** The suites shown in the library, newest first. */
export async function listSuites(): Promise<SavedSuite[]> {
	const rows = await db.suites.where('listed').equals(1).toArray();
	return rows.sort((a, b) => b.savedAt - a.savedAt).map(toSavedSuite);
}

/** A stored suite by the SHA-256 of its text, listed or kept for a run. */
export async function getSuite(sha256: string): Promise<SavedSuite | undefined> {
	const row = await db.suites.get(sha256);
	return row && toSavedSuite(row);
}

/** Removes a suite from the library; its text stays while a stored run still uses it. */
export async function deleteSuite(sha256: string): Promise<void> {
	await db.transaction('rw', db.suites, db.runs, async () => {
		const used = await db.runs.where('suiteSha256').equals(sha256).count();
		if (used > 0) await db.suites.update(sha256, { listed: 0 });
		else await db.suites.delete(sha256);
	});
}

function toSavedSuite(row: SuiteRow): SavedSuite {
	return {
		sha256: row.sha256,
		name: row.name,
		text: row.text,
		origin: row.origin,
		savedAt: row.savedAt,
		...(row.sourceName === undefined ? {} : { sourceName: row.sourceName }),
	};
}
