import { beforeEach, describe, expect, it, vi } from 'vitest';
import { generateCompletion, type TextModel } from '../../../src/core/model/generation';
import type { CachedResponse } from '../../../src/providers/response-cache';
import { withResponseCache } from '../../../src/providers/response-cache';
import { db } from '../../../src/storage/shared/db';
import {
	clearResponseCache,
	deleteCachedResponse,
	getCachedResponse,
	listCachedResponses,
	putCachedResponse,
	responseCacheSize,
	responseCacheStore,
} from '../../../src/storage/shared/response-cache-repository';
import { StorageQuotaError } from '../../../src/storage/shared/storage-errors';
import { clearDatabase } from '../clear-database';

beforeEach(clearDatabase);

function entry(key: string, createdAt: string, completion = ' a reply'): CachedResponse {
	return {
		key,
		model: 'openai/tiny @ http://127.0.0.1:8000/v1',
		request: { prompt: { kind: 'text', text: 'Say hi' }, params: { max_tokens: 4 } },
		completion,
		finishReason: 'length',
		usage: { promptTokens: 2, completionTokens: 4 },
		createdAt,
	};
}

describe('response cache repository', () => {
	it('sits beside the suites and the one run store', () => {
		expect(db.tables.map((t) => t.name).sort()).toEqual([
			'responseCache',
			'runItems',
			'runs',
			'suites',
		]);
		expect(db.verno).toBeGreaterThanOrEqual(6);
	});

	it('stores an entry under its key and gives it back unchanged', async () => {
		const stored = entry('k1', '2026-01-01T00:00:00.000Z');
		await putCachedResponse(stored);
		expect(await getCachedResponse('k1')).toEqual(stored);
		expect(await getCachedResponse('missing')).toBeUndefined();
		await putCachedResponse({ ...stored, completion: ' replaced' });
		expect((await getCachedResponse('k1'))?.completion).toBe(' replaced');
	});

	it('lists newest first and sizes entries by their JSON', async () => {
		const older = entry('old', '2026-01-01T00:00:00.000Z');
		const newer = entry('new', '2026-02-01T00:00:00.000Z', ' a longer reply than before');
		await putCachedResponse(older);
		await putCachedResponse(newer);
		expect((await listCachedResponses()).map((e) => e.key)).toEqual(['new', 'old']);
		expect(await responseCacheSize()).toEqual({
			entries: 2,
			bytes: JSON.stringify(older).length + JSON.stringify(newer).length,
		});
	});

	it('deletes one entry or clears them all', async () => {
		await putCachedResponse(entry('a', '2026-01-01T00:00:00.000Z'));
		await putCachedResponse(entry('b', '2026-01-02T00:00:00.000Z'));
		await deleteCachedResponse('a');
		expect((await listCachedResponses()).map((e) => e.key)).toEqual(['b']);
		await clearResponseCache();
		expect(await responseCacheSize()).toEqual({ entries: 0, bytes: 0 });
	});

	it('turns a full quota into StorageQuotaError', async () => {
		const spy = vi
			.spyOn(db.responseCache, 'put')
			.mockRejectedValueOnce(Object.assign(new Error('full'), { name: 'QuotaExceededError' }));
		await expect(putCachedResponse(entry('q', '2026-01-01T00:00:00.000Z'))).rejects.toBeInstanceOf(
			StorageQuotaError,
		);
		spy.mockRestore();
	});

	it('keeps the usage details and the served model name through IndexedDB', async () => {
		const live = {
			type: 'done',
			completion: ' hello',
			finishReason: 'stop',
			usage: {
				promptTokens: 3,
				completionTokens: 1,
				completionTokensDetails: { reasoning_tokens: 0 },
				promptTokensDetails: { cached_tokens: null },
			},
			model: 'tiny-0425',
		} as const;
		const model: TextModel = {
			label: 'openai/tiny @ http://127.0.0.1:8000/v1',
			abilities: { score: false, generate: true, chat: true },
			async *generate() {
				yield live;
			},
			countTokens: () => 1,
		};
		const cached = withResponseCache(model, responseCacheStore, {
			spec: { source: 'openai', model: 'tiny', baseUrl: 'http://127.0.0.1:8000/v1' },
		});
		const request = { prompt: { kind: 'text', text: 'Hi' }, params: { temperature: 0 } } as const;
		const call = { runId: 'r1', sampleId: 's1', role: 'policy' } as const;
		await generateCompletion(cached, request, call);
		const [stored] = await listCachedResponses();
		expect(stored).toMatchObject({ usage: live.usage, servedModel: 'tiny-0425' });
		expect(await generateCompletion(cached, request, call)).toEqual({ ...live, cached: true });
	});

	it('is the store of withResponseCache: a repeated call is answered from IndexedDB', async () => {
		let calls = 0;
		const model: TextModel = {
			label: 'openai/tiny @ http://127.0.0.1:8000/v1',
			abilities: { score: false, generate: true, chat: true },
			async *generate() {
				calls++;
				yield { type: 'token', text: ' hello' };
				yield { type: 'done', completion: ' hello', finishReason: 'stop' };
			},
			countTokens: () => 1,
		};
		const cached = withResponseCache(model, responseCacheStore, {
			spec: { source: 'openai', model: 'tiny', baseUrl: 'http://127.0.0.1:8000/v1' },
		});
		const request = { prompt: { kind: 'text', text: 'Hi' }, params: { temperature: 0 } } as const;
		const call = { runId: 'r1', sampleId: 's1', role: 'policy' } as const;
		expect(await generateCompletion(cached, request, call)).not.toHaveProperty('cached');
		const again = await generateCompletion(cached, request, { ...call, runId: 'r2' });
		expect(again).toMatchObject({ completion: ' hello', cached: true });
		expect(calls).toBe(1);
		expect(await responseCacheSize()).toMatchObject({ entries: 1 });
	});
});
