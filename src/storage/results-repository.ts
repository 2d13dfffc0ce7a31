/**
 * Per-item results of a suite run in IndexedDB (`runItems`, keyed [runId+itemNumber]): every
 * finished item is saved at once, so a reload loses none and a run can resume. Token surprisals
 * (and word-boundary values, when scored with them) are kept column-wise.
 */
import type { ColumnarSentence, SuiteItemRecord } from '../core/kinds/run-record';
import type { ItemResult, ScoredSentence } from '../core/syntaxgym/run/suite-run';
import type { ScoredToken } from '../core/scoring/scored-token';
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
			const itemsDone = await db.runItems.where('runId').equals(runId).count();
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
				const itemsDone = await db.runItems.where('runId').equals(runId).count();
				await db.runs.update(runId, (run) => {
					if (run.kind !== 'suite') return;
					run.itemsDone = itemsDone;
					run.updatedAt = now;
				});
			}
		}),
	);
}

/** Every stored item of a run, in item-number order. */
export async function listItemResults(runId: number): Promise<ItemResult[]> {
	const rows = await db.runItems
		.where('[runId+key]')
		.between([runId, -Infinity], [runId, Infinity])
		.toArray();
	return rows.filter(isSuiteItem).map(toItemResult);
}

/** One stored item of a run. */
export async function getItemResult(
	runId: number,
	itemNumber: number,
): Promise<ItemResult | undefined> {
	const row = await db.runItems.get([runId, itemNumber]);
	return row && isSuiteItem(row) ? toItemResult(row) : undefined;
}

/** The item numbers of a run that are already stored (what a resume skips), ascending. */
export async function listFinishedItemNumbers(runId: number): Promise<number[]> {
	const keys = await db.runItems
		.where('[runId+key]')
		.between([runId, -Infinity], [runId, Infinity])
		.primaryKeys();
	return keys.flatMap(([, key]) => (typeof key === 'number' ? [key] : []));
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

function toScoredToken(row: ColumnarSentence, index: number): ScoredToken {
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
