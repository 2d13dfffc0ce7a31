// An IndexedDB database as JSON, both ways, through a Playwright page: every object store with its
// key path, key generator, indexes and rows, values that JSON cannot hold (typed arrays, NaN,
// undefined, dates) written as `{ $type }` markers. Used by the captured release profile.
import type { Page } from '@playwright/test';

/** One index of an object store, as IndexedDB describes it. */
export interface IndexDump {
	name: string;
	keyPath: string | string[];
	unique: boolean;
	multiEntry: boolean;
}

/** One object store: its shape and every row (`key` only where the key is out of line). */
export interface StoreDump {
	name: string;
	keyPath: string | string[] | null;
	autoIncrement: boolean;
	indexes: IndexDump[];
	rows: { key?: unknown; value: unknown }[];
}

/** A whole database: its IndexedDB version (Dexie's version × 10) and its stores. */
export interface DatabaseDump {
	name: string;
	version: number;
	stores: StoreDump[];
}

/** A captured browser profile, as stored in tests/fixtures/release-profile/. */
export interface ReleaseProfile {
	/** The release's commit and when the profile was made. */
	capturedFrom: { commit: string; capturedAt: string };
	/** Rows per store when captured. */
	counts: Record<string, number>;
	/** The localStorage entries the app had set (none: the app keeps everything in IndexedDB). */
	localStorage: Record<string, string>;
	database: DatabaseDump;
}

/** Rows per store of a dump. */
export function countRows(database: DatabaseDump): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const store of database.stores) counts[store.name] = store.rows.length;
	return counts;
}

/**
 * Reads every store of the database `name` in the page, rows encoded (JSON-safe). Opens it
 * without a version, so it must exist; closes it after.
 */
export async function dumpDatabase(page: Page, name: string): Promise<DatabaseDump> {
	const text = await page.evaluate(
		(databaseName) =>
			new Promise<string>((resolve, reject) => {
				const base64 = (bytes: Uint8Array): string => {
					let binary = '';
					for (const byte of bytes) binary += String.fromCharCode(byte);
					return btoa(binary);
				};
				// `this[key]` is the value before its toJSON (a Date's), so a `function`, not an arrow.
				const replacer = function (this: Record<string, unknown>, key: string, value: unknown) {
					const raw = key === '' ? value : this[key];
					if (raw === undefined) return { $type: 'undefined' };
					if (typeof raw === 'number') {
						if (Number.isNaN(raw)) return { $type: 'number', value: 'NaN' };
						if (!Number.isFinite(raw)) return { $type: 'number', value: String(raw) };
						if (Object.is(raw, -0)) return { $type: 'number', value: '-0' };
						return raw;
					}
					if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return value;
					if (raw instanceof Date) return { $type: 'Date', value: raw.toISOString() };
					if (raw instanceof ArrayBuffer) {
						return { $type: 'ArrayBuffer', base64: base64(new Uint8Array(raw)) };
					}
					if (ArrayBuffer.isView(raw)) {
						const bytes = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
						return { $type: raw.constructor.name, base64: base64(bytes) };
					}
					const prototype = Object.getPrototypeOf(raw) as unknown;
					if (prototype !== Object.prototype && prototype !== null) {
						throw new Error(`cannot write a ${raw.constructor.name} as JSON (key ${key})`);
					}
					return value;
				};
				const request = indexedDB.open(databaseName);
				request.onerror = () => reject(request.error ?? new Error('open failed'));
				request.onupgradeneeded = () => {
					request.transaction?.abort();
					reject(new Error(`no database ${databaseName} in this origin`));
				};
				request.onsuccess = () => {
					const database = request.result;
					const names = Array.from(database.objectStoreNames);
					const stores: StoreDump[] = [];
					const transaction = database.transaction(names, 'readonly');
					for (const storeName of names) {
						const store = transaction.objectStore(storeName);
						const dump: StoreDump = {
							name: storeName,
							keyPath: store.keyPath,
							autoIncrement: store.autoIncrement,
							indexes: Array.from(store.indexNames).map((indexName) => {
								const index = store.index(indexName);
								return {
									name: indexName,
									keyPath: index.keyPath,
									unique: index.unique,
									multiEntry: index.multiEntry,
								};
							}),
							rows: [],
						};
						stores.push(dump);
						const cursor = store.openCursor();
						cursor.onsuccess = () => {
							const current = cursor.result;
							if (!current) return;
							dump.rows.push(
								store.keyPath === null
									? { key: current.primaryKey, value: current.value as unknown }
									: { value: current.value as unknown },
							);
							current.continue();
						};
					}
					transaction.onerror = () => reject(transaction.error ?? new Error('read failed'));
					transaction.oncomplete = () => {
						const version = database.version;
						database.close();
						try {
							resolve(JSON.stringify({ name: databaseName, version, stores }, replacer));
						} catch (error) {
							reject(error instanceof Error ? error : new Error(String(error)));
						}
					};
				};
			}),
		name,
	);
	return JSON.parse(text) as DatabaseDump;
}

/**
 * Creates the database of `dump` in the page's origin at its version, with its stores, indexes
 * and rows (markers decoded back to typed arrays, NaN, …). The database must not exist yet.
 */
export async function restoreDatabase(page: Page, dump: DatabaseDump): Promise<void> {
	await page.evaluate(
		(text) =>
			new Promise<void>((resolve, reject) => {
				const fromBase64 = (value: string): Uint8Array =>
					Uint8Array.from(atob(value), (character) => character.charCodeAt(0));
				const typed: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = {
					Int8Array,
					Uint8Array,
					Uint8ClampedArray,
					Int16Array,
					Uint16Array,
					Int32Array,
					Uint32Array,
					Float32Array,
					Float64Array,
					BigInt64Array,
					BigUint64Array,
					DataView,
				};
				const decode = (value: unknown): unknown => {
					if (Array.isArray(value)) return value.map(decode);
					if (typeof value !== 'object' || value === null) return value;
					const marked = value as { $type?: string; value?: string; base64?: string };
					if (marked.$type === 'undefined') return undefined;
					if (marked.$type === 'number') return marked.value === '-0' ? -0 : Number(marked.value);
					if (marked.$type === 'Date') return new Date(marked.value ?? '');
					if (marked.$type !== undefined && marked.base64 !== undefined) {
						const bytes = fromBase64(marked.base64);
						const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
						if (marked.$type === 'ArrayBuffer') return buffer;
						const View = typed[marked.$type];
						if (!View) throw new Error(`unknown typed array ${marked.$type}`);
						return new View(buffer as ArrayBuffer);
					}
					const decoded: Record<string, unknown> = {};
					for (const [key, field] of Object.entries(value)) decoded[key] = decode(field);
					return decoded;
				};
				const database = JSON.parse(text) as DatabaseDump;
				const request = indexedDB.open(database.name, database.version);
				request.onerror = () => reject(request.error ?? new Error('open failed'));
				request.onupgradeneeded = (event) => {
					if (event.oldVersion !== 0) {
						request.transaction?.abort();
						reject(new Error(`${database.name} exists already (version ${event.oldVersion})`));
						return;
					}
					for (const store of database.stores) {
						const created = request.result.createObjectStore(store.name, {
							keyPath: store.keyPath,
							autoIncrement: store.autoIncrement,
						});
						for (const index of store.indexes) {
							created.createIndex(index.name, index.keyPath, {
								unique: index.unique,
								multiEntry: index.multiEntry,
							});
						}
						for (const row of store.rows) {
							if (store.keyPath === null)
								created.add(decode(row.value), decode(row.key) as IDBValidKey);
							else created.add(decode(row.value));
						}
					}
				};
				request.onsuccess = () => {
					request.result.close();
					resolve();
				};
			}),
		JSON.stringify(dump),
	);
}
