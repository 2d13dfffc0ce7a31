/**
 * Per-item results of a suite run in IndexedDB (`runItems`, keyed [runId+itemNumber]): every
 * finished item is saved at once, so a reload loses none and a run can resume; an imported run's
 * items are stored many to a row (chunk rows, keyed `suite-items/…`), and every reader here reads
 * both. Token surprisals (and word-boundary values, when scored with them) are kept column-wise.
 */
import type {
	ColumnarSentence,
	SuiteItemChunkRecord,
	SuiteItemRecord,
} from '../../core/kinds/run-record';
import type { ItemResult, ScoredSentence } from '../../core/syntaxgym/run/suite-run';
import { db, type RunItemRow } from '../shared/db';
import { guardQuota } from '../shared/storage-errors';
import {
	CHUNK_KEY_PREFIX,
	itemsOfChunk,
	parseChunkKey,
	suiteItemChunk,
	toScoredToken,
	type ChunkKey,
} from './suite-item-chunks';

/**
 * Saves (or replaces) one item's scored sentences and updates the run's `itemsDone`, in one
 * transaction. Returns the number of items of the run now stored.
 */
export async function saveItemResult(
	runId: number,
	result: ItemResult,
	now = Date.now(),
): Promise<number> {
	const row: SuiteItemRecord = {
		runId,
		kind: 'suite-item',
		key: result.itemNumber,
		sentences: result.sentences.map(toColumnarSentence),
		savedAt: now,
	};
	return guardQuota(() =>
		db.transaction('rw', db.runItems, db.runs, async () => {
			await db.runItems.put(row);
			const itemsDone = await countStoredItems(runId);
			await db.runs.update(runId, (run) => {
				if (run.kind !== 'suite') return;
				run.itemsDone = itemsDone;
				run.updatedAt = now;
			});
			return itemsDone;
		}),
	);
}

/** One finished item of a run, to be saved. */
export interface SuiteItemToSave {
	readonly runId: number;
	readonly result: ItemResult;
}

/**
 * Saves (or replaces) several items, of one run or several, and updates each run's `itemsDone`,
 * in one transaction: while the last save is being written the next finished items wait and go
 * together, so a battery of hundreds of items is not hundreds of transactions.
 */
export async function saveItemResults(
	items: readonly SuiteItemToSave[],
	now = Date.now(),
): Promise<void> {
	if (items.length === 0) return;
	const rows: SuiteItemRecord[] = items.map(({ runId, result }) => ({
		runId,
		kind: 'suite-item',
		key: result.itemNumber,
		sentences: result.sentences.map(toColumnarSentence),
		savedAt: now,
	}));
	const runIds = [...new Set(items.map((item) => item.runId))];
	await guardQuota(() =>
		db.transaction('rw', db.runItems, db.runs, async () => {
			await db.runItems.bulkPut(rows);
			for (const runId of runIds) {
				const itemsDone = await countStoredItems(runId);
				await db.runs.update(runId, (run) => {
					if (run.kind !== 'suite') return;
					run.itemsDone = itemsDone;
					run.updatedAt = now;
				});
			}
		}),
	);
}

/** Every stored item of a run, in item-number order (a single item's row over a chunk's copy). */
export async function listItemResults(runId: number): Promise<ItemResult[]> {
	const rows = await db.runItems.where('runId').equals(runId).toArray();
	const items = new Map<number, ItemResult>();
	for (const row of rows) {
		if (row.kind === 'suite-item-chunk') {
			for (const item of itemsOfChunk(row)) {
				if (!items.has(item.itemNumber)) items.set(item.itemNumber, item);
			}
		} else if (isSuiteItem(row)) {
			items.set(row.key, toItemResult(row));
		}
	}
	return [...items.values()].sort((a, b) => a.itemNumber - b.itemNumber);
}

/** One stored item of a run. */
export async function getItemResult(
	runId: number,
	itemNumber: number,
): Promise<ItemResult | undefined> {
	const row = await db.runItems.get([runId, itemNumber]);
	if (row) return isSuiteItem(row) ? toItemResult(row) : undefined;
	for (const chunk of await listChunkKeys(runId)) {
		if (itemNumber < chunk.first || itemNumber > chunk.last) continue;
		const stored = await db.runItems.get([runId, chunk.key]);
		if (stored?.kind !== 'suite-item-chunk') continue;
		const index = stored.itemNumbers.indexOf(itemNumber);
		if (index >= 0) return itemsOfChunk(stored, index, index + 1)[0];
	}
	return undefined;
}

/** The item numbers of a run that are already stored (what a resume skips), ascending. */
export async function listFinishedItemNumbers(runId: number): Promise<number[]> {
	return [...(await finishedItemNumbers(runId))].sort((a, b) => a - b);
}

/**
 * How many items of a run are stored: a count of rows, unless some are chunks (then each item
 * once, whether in a chunk, its own row or both).
 */
async function countStoredItems(runId: number): Promise<number> {
	const chunks = await listChunkKeys(runId);
	if (chunks.length === 0) return itemNumberRange(runId).count();
	return (await finishedItemNumbers(runId)).size;
}

async function finishedItemNumbers(runId: number): Promise<Set<number>> {
	const keys = await itemNumberRange(runId).primaryKeys();
	const numbers = new Set(keys.flatMap(([, key]) => (typeof key === 'number' ? [key] : [])));
	for (const chunk of await listChunkKeys(runId)) {
		if (chunk.last - chunk.first + 1 === chunk.count) {
			for (let n = chunk.first; n <= chunk.last; n++) numbers.add(n);
			continue;
		}
		// Not a run of consecutive numbers: the row says which.
		const stored = await db.runItems.get([runId, chunk.key]);
		if (stored?.kind === 'suite-item-chunk') for (const n of stored.itemNumbers) numbers.add(n);
	}
	return numbers;
}

/** `[runId+key]` between the run's first and last item number (its single-item rows). */
function itemNumberRange(runId: number) {
	return db.runItems
		.where('[runId+key]')
		.between([runId, -Infinity], [runId, Infinity], true, true);
}

/** One item of a run as its stored row (sentences column-wise). */
export function suiteItemRow(runId: number, result: ItemResult, now: number): SuiteItemRecord {
	return {
		runId,
		kind: 'suite-item',
		key: result.itemNumber,
		sentences: result.sentences.map(toColumnarSentence),
		savedAt: now,
	};
}

/** The chunk rows of a run, by their keys alone (their columns are not read). */
async function listChunkKeys(runId: number): Promise<ChunkKey[]> {
	const keys = await db.runItems
		.where('[runId+key]')
		.between([runId, CHUNK_KEY_PREFIX], [runId, `${CHUNK_KEY_PREFIX}\uffff`])
		.primaryKeys();
	return keys.flatMap(([, key]) => {
		const chunk = typeof key === 'string' ? parseChunkKey(key) : null;
		return chunk ? [chunk] : [];
	});
}

/**
 * Many items of a run as one stored row (their sentences' token columns concatenated), in the
 * order given, which must be ascending by item number.
 * @throws RangeError when `results` is empty or not ascending
 */
export function suiteItemChunkRow(
	runId: number,
	results: readonly ItemResult[],
	now: number,
): SuiteItemChunkRecord {
	return { runId, ...suiteItemChunk(results), savedAt: now };
}

function isSuiteItem(row: RunItemRow): row is SuiteItemRecord {
	return row.kind === 'suite-item';
}

function toColumnarSentence(sentence: ScoredSentence): ColumnarSentence {
	const count = sentence.tokens.length;
	const row: ColumnarSentence = {
		conditionName: sentence.conditionName,
		text: sentence.text,
		tokens: new Array<string>(count),
		surprisalsBits: new Float64Array(count),
		starts: new Int32Array(count),
		ends: new Int32Array(count),
		special: new Uint8Array(count),
	};
	sentence.tokens.forEach((token, index) => {
		row.tokens[index] = token.token;
		row.surprisalsBits[index] = token.surprisalBits;
		row.starts[index] = token.start ?? -1;
		row.ends[index] = token.end ?? -1;
		row.special[index] = token.special ? 1 : 0;
	});
	if (sentence.tokens.some((token) => token.boundarySurprisalBits !== undefined)) {
		row.boundarySurprisalsBits = Float64Array.from(
			sentence.tokens,
			(token) => token.boundarySurprisalBits ?? Number.NaN,
		);
	}
	return row;
}

function toItemResult(row: SuiteItemRecord): ItemResult {
	return {
		itemNumber: row.key,
		sentences: row.sentences.map((sentence) => ({
			conditionName: sentence.conditionName,
			text: sentence.text,
			tokens: sentence.tokens.map((_, index) => toScoredToken(sentence, index)),
		})),
	};
}
