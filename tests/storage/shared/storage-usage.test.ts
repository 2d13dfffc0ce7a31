import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	estimateStorageUsage,
	readPersistence,
	requestPersistentStorage,
} from '../../../src/storage/shared/storage-usage';

afterEach(() => {
	vi.unstubAllGlobals();
});

describe('storage usage', () => {
	it('reports usage and quota in bytes', async () => {
		vi.stubGlobal('navigator', {
			storage: { estimate: async () => ({ usage: 1234, quota: 5_000_000 }) },
		});
		expect(await estimateStorageUsage()).toEqual({ usageBytes: 1234, quotaBytes: 5_000_000 });
	});

	it('is null or unsupported where the browser has no StorageManager', async () => {
		vi.stubGlobal('navigator', {});
		expect(await estimateStorageUsage()).toBeNull();
		expect(await readPersistence()).toBe('unsupported');
		expect(await requestPersistentStorage()).toBe('unsupported');
	});

	it('reports the answer to a persistence request', async () => {
		vi.stubGlobal('navigator', {
			storage: { persist: async () => false, persisted: async () => true },
		});
		expect(await requestPersistentStorage()).toBe('denied');
		expect(await readPersistence()).toBe('granted');
	});

	it('never throws when the browser does', async () => {
		vi.stubGlobal('navigator', {
			storage: {
				estimate: () => Promise.reject(new Error('no')),
				persist: () => Promise.reject(new Error('no')),
			},
		});
		expect(await estimateStorageUsage()).toBeNull();
		expect(await requestPersistentStorage()).toBe('unsupported');
	});
});
