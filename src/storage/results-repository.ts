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
	TokenColumns,
} from '../core/kinds/run-record';
import type { ItemResult, ScoredSentence } from '../core/run/run-types';
import type { ScoredToken } from '../core/syntaxgym/scoring/types';
import { db, type RunItemRow } from './db';
import { guardQuota } from './storage-errors';

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
export interface RunItemToSave {
	readonly runId: number;
	readonly result: ItemResult;
}

/**
 * Saves (or replaces) several items, of one run or several, and updates each run's `itemsDone`,
 * in one transaction: while the last save is being written the next finished items wait and go
 * together, so a battery of hundreds of items is not hundreds of transactions.
 */
export async function saveItemResults(
	items: readonly RunItemToSave[],
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

const CHUNK_KEY_PREFIX = 'suite-items/';

/** A chunk row's key: its first and last item numbers and how many items it holds. */
function chunkKey(first: number, last: number, count: number): string {
	return `${CHUNK_KEY_PREFIX}${first}/${last}/${count}`;
}

interface ChunkKey {
	readonly key: string;
	readonly first: number;
	readonly last: number;
	readonly count: number;
}

/** The chunk rows of a run, by their keys alone (their columns are not read). */
async function listChunkKeys(runId: number): Promise<ChunkKey[]> {
	const keys = await db.runItems
		.where('[runId+key]')
		.between([runId, CHUNK_KEY_PREFIX], [runId, `${CHUNK_KEY_PREFIX}\uffff`])
		.primaryKeys();
	return keys.flatMap(([, key]) => {
		const match =
			typeof key === 'string' ? /^suite-items\/(-?\d+)\/(-?\d+)\/(\d+)$/.exec(key) : null;
		if (!match) return [];
		return [
			{
				key: key as string,
				first: Number(match[1]),
				last: Number(match[2]),
				count: Number(match[3]),
			},
		];
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
	const first = results[0];
	const last = results.at(-1);
	if (first === undefined || last === undefined) throw new RangeError('a chunk of no items');
	let sentenceCount = 0;
	let tokenCount = 0;
	let boundaries = false;
	let previous = -Infinity;
	for (const item of results) {
		if (!(item.itemNumber > previous)) {
			throw new RangeError(`item ${item.itemNumber} is out of order or appears twice`);
		}
		previous = item.itemNumber;
		sentenceCount += item.sentences.length;
		for (const sentence of item.sentences) {
			tokenCount += sentence.tokens.length;
			if (!boundaries)
				boundaries = sentence.tokens.some((t) => t.boundarySurprisalBits !== undefined);
		}
	}
	const columns: TokenColumns = {
		tokens: new Array<string>(tokenCount),
		surprisalsBits: new Float64Array(tokenCount),
		starts: new Int32Array(tokenCount),
		ends: new Int32Array(tokenCount),
		special: new Uint8Array(tokenCount),
		...(boundaries ? { boundarySurprisalsBits: new Float64Array(tokenCount) } : {}),
	};
	const row: SuiteItemChunkRecord = {
		runId,
		kind: 'suite-item-chunk',
		key: chunkKey(first.itemNumber, last.itemNumber, results.length),
		itemNumbers: new Float64Array(results.length),
		sentenceCounts: new Uint32Array(results.length),
		conditionNames: new Array<string>(sentenceCount),
		texts: new Array<string>(sentenceCount),
		tokenCounts: new Uint32Array(sentenceCount),
		columns,
		savedAt: now,
	};
	let s = 0;
	let t = 0;
	results.forEach((item, i) => {
		row.itemNumbers[i] = item.itemNumber;
		row.sentenceCounts[i] = item.sentences.length;
		for (const sentence of item.sentences) {
			row.conditionNames[s] = sentence.conditionName;
			row.texts[s] = sentence.text;
			row.tokenCounts[s] = sentence.tokens.length;
			s++;
			for (const token of sentence.tokens) {
				columns.tokens[t] = token.token;
				columns.surprisalsBits[t] = token.surprisalBits;
				columns.starts[t] = token.start ?? -1;
				columns.ends[t] = token.end ?? -1;
				columns.special[t] = token.special ? 1 : 0;
				if (columns.boundarySurprisalsBits) {
					columns.boundarySurprisalsBits[t] = token.boundarySurprisalBits ?? Number.NaN;
				}
				t++;
			}
		}
	});
	return row;
}

/** The items of a chunk row, those at indices `from` (inclusive) to `to` (exclusive). */
function itemsOfChunk(
	row: SuiteItemChunkRecord,
	from = 0,
	to = row.itemNumbers.length,
): ItemResult[] {
	let s = 0;
	let t = 0;
	for (let i = 0; i < from; i++) {
		const sentences = row.sentenceCounts[i] ?? 0;
		for (let k = 0; k < sentences; k++) t += row.tokenCounts[s + k] ?? 0;
		s += sentences;
	}
	const items: ItemResult[] = [];
	for (let i = from; i < to; i++) {
		const sentences: ScoredSentence[] = [];
		for (let k = 0; k < (row.sentenceCounts[i] ?? 0); k++, s++) {
			const count = row.tokenCounts[s] ?? 0;
			const tokens: ScoredToken[] = new Array<ScoredToken>(count);
			for (let j = 0; j < count; j++, t++) tokens[j] = toScoredToken(row.columns, t);
			sentences.push({
				conditionName: row.conditionNames[s] ?? '',
				text: row.texts[s] ?? '',
				tokens,
			});
		}
		items.push({ itemNumber: row.itemNumbers[i] ?? Number.NaN, sentences });
	}
	return items;
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

function toScoredToken(row: TokenColumns, index: number): ScoredToken {
	const start = row.starts[index] ?? -1;
	const end = row.ends[index] ?? -1;
	const boundary = row.boundarySurprisalsBits?.[index] ?? Number.NaN;
	return {
		token: row.tokens[index] ?? '',
		surprisalBits: row.surprisalsBits[index] ?? Number.NaN,
		...(start >= 0 ? { start } : {}),
		...(end >= 0 ? { end } : {}),
		...(row.special[index] === 1 ? { special: true } : {}),
		...(Number.isNaN(boundary) ? {} : { boundarySurprisalBits: boundary }),
	};
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
