/**
 * Collects a run's scored sentences into items: an item is complete when its last pending
 * sentence is scored, with its sentences in the order they were pending (the suite's condition
 * order). Pure bookkeeping: no I/O, no clock; the run session stores what it returns.
 */
import type { ScoredToken } from '../scoring/types';
import type { ItemResult, ScoredSentence } from './suite-run';

/** A sentence still to be scored: which item and condition it belongs to, and its text. */
export interface PendingSentence {
	readonly itemNumber: number;
	readonly conditionName: string;
	readonly text: string;
}

interface OpenItem {
	readonly expected: number;
	/** Scored sentences by their index in the pending list. */
	readonly scored: Map<number, ScoredSentence>;
}

export class ItemAssembly {
	readonly #pending: readonly PendingSentence[];
	readonly #open = new Map<number, OpenItem>();
	readonly #seen = new Set<number>();
	readonly #scoredByItem = new Map<number, number>();
	#tokenCount = 0;

	/** `pending`: the sentences of this session, in scoring-request order (indices refer to it). */
	constructor(pending: readonly PendingSentence[]) {
		this.#pending = pending;
		const expected = new Map<number, number>();
		for (const sentence of pending) {
			expected.set(sentence.itemNumber, (expected.get(sentence.itemNumber) ?? 0) + 1);
		}
		for (const [itemNumber, count] of expected) {
			this.#open.set(itemNumber, { expected: count, scored: new Map() });
		}
	}

	/**
	 * Records pending sentence `index` as scored with `tokens`. Returns the item when this was
	 * its last missing sentence, else null; a repeated or unknown index is ignored (null).
	 */
	accept(index: number, tokens: readonly ScoredToken[]): ItemResult | null {
		const sentence = this.#pending[index];
		if (!sentence || this.#seen.has(index)) return null;
		this.#seen.add(index);
		this.#tokenCount += tokens.length;
		this.#scoredByItem.set(sentence.itemNumber, this.scoredOf(sentence.itemNumber) + 1);
		const open = this.#open.get(sentence.itemNumber);
		if (!open) return null;
		open.scored.set(index, {
			conditionName: sentence.conditionName,
			text: sentence.text,
			tokens,
		});
		if (open.scored.size < open.expected) return null;
		this.#open.delete(sentence.itemNumber);
		return {
			itemNumber: sentence.itemNumber,
			sentences: [...open.scored.entries()].sort(([a], [b]) => a - b).map(([, s]) => s),
		};
	}

	/** Sentences scored so far (distinct indices). */
	get scoredCount(): number {
		return this.#seen.size;
	}

	/** Tokens of the sentences scored so far, special tokens included. */
	get tokenCount(): number {
		return this.#tokenCount;
	}

	/** Sentences of `itemNumber` scored so far. */
	scoredOf(itemNumber: number): number {
		return this.#scoredByItem.get(itemNumber) ?? 0;
	}
}
