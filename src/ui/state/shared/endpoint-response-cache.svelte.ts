/**
 * The response cache panel's state: cached completions (newest first), their count and size,
 * clear. Reads and clears through the storage repository only; no caching logic here.
 */
import { describeError } from '../../../core/messages/describe-error';
import type { CachedResponse } from '../../../providers/response-cache';
import {
	clearResponseCache,
	listCachedResponses,
	responseCacheSize,
} from '../../../storage/shared/response-cache-repository';

/** Entries shown in the list (the size counts all). */
export const SHOWN_CACHE_ENTRIES = 100;

/** The storage functions used (the repository in the app). */
export interface ResponseCacheAccess {
	readonly list: () => Promise<readonly CachedResponse[]>;
	readonly size: () => Promise<{ readonly entries: number; readonly bytes: number }>;
	readonly clear: () => Promise<void>;
}

const REPOSITORY: ResponseCacheAccess = {
	list: listCachedResponses,
	size: responseCacheSize,
	clear: clearResponseCache,
};

/** The prompt of a cached request in one line: the text, or the last chat message. */
export function describeCachedPrompt(entry: CachedResponse): string {
	const { prompt } = entry.request;
	if (prompt.kind === 'text') return prompt.text;
	const last = prompt.messages.at(-1);
	return last ? `${last.role}: ${last.content}` : '(empty chat)';
}

export class ResponseCacheView {
	readonly #access: ResponseCacheAccess;
	#entries = $state.raw<readonly CachedResponse[]>([]);
	#size = $state.raw<{ readonly entries: number; readonly bytes: number }>({
		entries: 0,
		bytes: 0,
	});
	#message = $state<string | null>(null);
	#busy = $state(false);

	constructor(access: ResponseCacheAccess = REPOSITORY) {
		this.#access = access;
	}

	/** The newest {@link SHOWN_CACHE_ENTRIES} entries. */
	get entries(): readonly CachedResponse[] {
		return this.#entries;
	}

	get size(): { readonly entries: number; readonly bytes: number } {
		return this.#size;
	}

	get message(): string | null {
		return this.#message;
	}

	get busy(): boolean {
		return this.#busy;
	}

	async refresh(): Promise<void> {
		this.#busy = true;
		try {
			const [entries, size] = await Promise.all([this.#access.list(), this.#access.size()]);
			this.#entries = entries.slice(0, SHOWN_CACHE_ENTRIES);
			this.#size = size;
			this.#message = null;
		} catch (error) {
			this.#message = `The response cache could not be read: ${describeError(error)}`;
		} finally {
			this.#busy = false;
		}
	}

	/** Deletes every cached completion (the next run asks the models again). */
	async clear(): Promise<void> {
		this.#busy = true;
		try {
			const { entries } = this.#size;
			await this.#access.clear();
			this.#message = `Deleted ${entries} cached completion${entries === 1 ? '' : 's'}.`;
		} catch (error) {
			this.#message = `The response cache could not be cleared: ${describeError(error)}`;
		} finally {
			this.#busy = false;
		}
		const message = this.#message;
		await this.refresh();
		this.#message ??= message;
	}
}
