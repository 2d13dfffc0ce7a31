/**
 * An imported suite run's items many to a stored row (chunk rows: IndexedDB's cost is per row, so
 * one row per item cannot import tens of thousands of items a second): building chunks from items
 * and items back from chunks, and their keys. Pure (no Dexie), so the parse worker builds them too.
 */
import type { SuiteItemChunkRecord, TokenColumns } from '../../core/kinds/run-record';
import type { ItemResult, ScoredSentence } from '../../core/syntaxgym/run/suite-run';
import type { ScoredToken } from '../../core/scoring/scored-token';

/** A chunk row before it is stored: without its run id and save time. */
export type SuiteItemChunk = Omit<SuiteItemChunkRecord, 'runId' | 'savedAt'>;

/**
 * Items stored per row of an import: IndexedDB costs about as much per row as a small item's
 * bytes (~0.1 ms), so an imported run's items go many to a row; few enough that progress moves
 * several times a second and that one item is read quickly.
 */
export const IMPORT_CHUNK_ITEMS = 2000;

export const CHUNK_KEY_PREFIX = 'suite-items/';

/** What a chunk row's key says: its first and last item numbers and how many items it holds. */
export interface ChunkKey {
	readonly key: string;
	readonly first: number;
	readonly last: number;
	readonly count: number;
}

/** A chunk row's key (`suite-items/<first>/<last>/<count>`). */
function chunkKey(first: number, last: number, count: number): string {
	return `${CHUNK_KEY_PREFIX}${first}/${last}/${count}`;
}

/** A chunk row's key read back; null for any other key. */
export function parseChunkKey(key: string): ChunkKey | null {
	const match = /^suite-items\/(-?\d+)\/(-?\d+)\/(\d+)$/.exec(key);
	if (!match) return null;
	return { key, first: Number(match[1]), last: Number(match[2]), count: Number(match[3]) };
}

/**
 * `items` as chunks of `chunkItems`, in ascending item-number order (the order given need not be).
 * @throws RangeError for an item number that appears twice
 */
export function suiteItemChunks(
	items: readonly ItemResult[],
	chunkItems = IMPORT_CHUNK_ITEMS,
): SuiteItemChunk[] {
	const sorted = [...items].sort((a, b) => a.itemNumber - b.itemNumber);
	sorted.forEach((item, index) => {
		if (index > 0 && sorted[index - 1]?.itemNumber === item.itemNumber) {
			throw new RangeError(`item ${item.itemNumber} appears twice; nothing was imported`);
		}
	});
	const step = Math.max(1, Math.floor(chunkItems));
	const chunks: SuiteItemChunk[] = [];
	for (let start = 0; start < sorted.length; start += step) {
		chunks.push(suiteItemChunk(sorted.slice(start, start + step)));
	}
	return chunks;
}

/**
 * Many items of a run as one chunk (their sentences' token columns concatenated), in the order
 * given, which must be ascending by item number.
 * @throws RangeError when `results` is empty or not ascending
 */
export function suiteItemChunk(results: readonly ItemResult[]): SuiteItemChunk {
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
	const row: SuiteItemChunk = {
		kind: 'suite-item-chunk',
		key: chunkKey(first.itemNumber, last.itemNumber, results.length),
		itemNumbers: new Float64Array(results.length),
		sentenceCounts: new Uint32Array(results.length),
		conditionNames: new Array<string>(sentenceCount),
		texts: new Array<string>(sentenceCount),
		tokenCounts: new Uint32Array(sentenceCount),
		columns,
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
export function itemsOfChunk(
	row: SuiteItemChunk,
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

/** Token `index` of the columns as a scored token (fields it has none of left out). */
export function toScoredToken(row: TokenColumns, index: number): ScoredToken {
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
