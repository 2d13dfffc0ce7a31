// ResponseCacheView over the providers' memory store: list (newest first as the store gives),
// size, clear with a message, read failures in words, prompts in one line.
import { describe, expect, it } from 'vitest';
import {
	createMemoryResponseCache,
	type CachedResponse,
} from '../../../../src/providers/response-cache';
import {
	ResponseCacheView,
	SHOWN_CACHE_ENTRIES,
	describeCachedPrompt,
} from '../../../../src/ui/state/shared/endpoint-response-cache.svelte';

function entry(key: string, text = 'Say hi'): CachedResponse {
	return {
		key,
		model: 'openai/tiny @ http://127.0.0.1:8000/v1',
		request: { prompt: { kind: 'text', text }, params: {} },
		completion: ' hi',
		finishReason: 'stop',
		createdAt: '2026-01-01T00:00:00.000Z',
	};
}

describe('ResponseCacheView', () => {
	it('shows the entries and their size, and clears them', async () => {
		const store = createMemoryResponseCache();
		await store.put(entry('a'));
		await store.put(entry('b'));
		const view = new ResponseCacheView(store);
		await view.refresh();
		expect(view.entries.map((e) => e.key)).toEqual(['a', 'b']);
		expect(view.size).toEqual(await store.size());
		expect(view.size.entries).toBe(2);
		await view.clear();
		expect(view.message).toBe('Deleted 2 cached completions.');
		expect(view.entries).toEqual([]);
		expect(view.size).toEqual({ entries: 0, bytes: 0 });
	});

	it(`lists at most ${SHOWN_CACHE_ENTRIES} entries but counts all`, async () => {
		const store = createMemoryResponseCache();
		for (let i = 0; i < SHOWN_CACHE_ENTRIES + 5; i++) await store.put(entry(`k${i}`));
		const view = new ResponseCacheView(store);
		await view.refresh();
		expect(view.entries).toHaveLength(SHOWN_CACHE_ENTRIES);
		expect(view.size.entries).toBe(SHOWN_CACHE_ENTRIES + 5);
	});

	it('says when the cache cannot be read', async () => {
		const view = new ResponseCacheView({
			list: () => Promise.reject(new Error('IndexedDB is disabled')),
			size: async () => ({ entries: 0, bytes: 0 }),
			clear: async () => undefined,
		});
		await view.refresh();
		expect(view.message).toBe('The response cache could not be read: IndexedDB is disabled');
		expect(view.busy).toBe(false);
	});

	it('describes a prompt in one line: the text, or the last chat message', () => {
		expect(describeCachedPrompt(entry('x', 'Hello'))).toBe('Hello');
		const chat: CachedResponse = {
			...entry('y'),
			request: {
				prompt: {
					kind: 'chat',
					messages: [
						{ role: 'system', content: 'Be brief.' },
						{ role: 'user', content: 'Capital of France?' },
					],
				},
				params: {},
			},
		};
		expect(describeCachedPrompt(chat)).toBe('user: Capital of France?');
	});
});
