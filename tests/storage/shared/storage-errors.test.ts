import { describe, expect, it } from 'vitest';
import {
	StorageQuotaError,
	guardQuota,
	isQuotaExceeded,
} from '../../../src/storage/shared/storage-errors';

describe('isQuotaExceeded', () => {
	it.each([
		[new DOMException('full', 'QuotaExceededError'), true],
		[{ name: 'AbortError', inner: { name: 'QuotaExceededError' } }, true],
		[{ name: 'NS_ERROR_DOM_QUOTA_REACHED' }, true],
		[new Error('disk on fire'), false],
		[{ name: 'ConstraintError' }, false],
		['QuotaExceededError', false],
		[null, false],
	])('%o -> %s', (error, expected) => {
		expect(isQuotaExceeded(error)).toBe(expected);
	});
});

describe('guardQuota', () => {
	it('returns the write result', async () => {
		expect(await guardQuota(async () => 7)).toBe(7);
	});

	it('names a quota failure and keeps the cause', async () => {
		const cause = new DOMException('full', 'QuotaExceededError');
		const error = await guardQuota(() => Promise.reject(cause)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(StorageQuotaError);
		expect((error as StorageQuotaError).cause).toBe(cause);
		expect((error as StorageQuotaError).message).toMatch(/storage is full/);
	});

	it('passes other failures through', async () => {
		const other = new Error('other');
		await expect(guardQuota(() => Promise.reject(other))).rejects.toBe(other);
	});
});
