/**
 * The app's IndexedDB database (Dexie): the only module that imports dexie. Since version 6 one
 * `runs` table holds runs of every kind and one `runItems` table their pieces; repositories map
 * the rows to the core's records. Keep every version block.
 */
import { Dexie, type Table, type Transaction } from 'dexie';
import type { GenerateRequest, TokenUsage } from '../../core/model/generation';
import type {
	EvalsRunRecord,
	LtmRunRecord,
	RunItemRecord,
	SuiteRunRecord,
} from '../../core/kinds/run-record';
import {
	evalsInputFromLegacy,
	evalsRunFromLegacy,
	evalsSampleFromLegacy,
	ltmLogFromLegacy,
	ltmRunFromLegacy,
	ltmStateFromLegacy,
	suiteItemFromLegacy,
	suiteRunFromLegacy,
	type LegacyEvalsRunRow,
	type LegacyEvalsSampleRow,
	type LegacyItemResultRow,
	type LegacyLtmLogRow,
	type LegacyLtmRunRow,
	type LegacyLtmStateRow,
	type LegacySuiteRunRow,
} from './run-store-upgrade';

/** Where a suite in the library came from. */
export type SuiteOrigin = 'bundled' | 'file' | 'paste' | 'url' | 'import';

export interface SuiteRow {
	/** SHA-256 (lowercase hex) of `text`: the primary key, so the same text is stored once. */
	sha256: string;
	name: string;
	text: string;
	origin: SuiteOrigin;
	/** File name, URL or bundled file name the text came from. */
	sourceName?: string;
	/** 1 = shown in the library; 0 = removed from it but kept for the runs that used it. */
	listed: 0 | 1;
	savedAt: number;
}

/** A stored row of `T`: writable, its id absent until the row is added. */
type Row<T> = T extends unknown
	? { -readonly [K in keyof T as K extends 'id' ? never : K]: T[K] } & { id?: number }
	: never;

export type SuiteRunRow = Row<SuiteRunRecord>;
/** An Evals run row: its input (resolved eval, replay texts) is an `evals-input` item. */
export type EvalsRunRow = Row<Omit<EvalsRunRecord, 'spec' | 'replayTexts'>>;
export type LtmRunRow = Row<LtmRunRecord>;
/** A run of any kind as stored in `runs` (one table, told apart by `kind`). */
export type RunRow = SuiteRunRow | EvalsRunRow | LtmRunRow;

/** A stored piece of a run (suite item, Evals sample or input, LTM state or log entry) in `runItems`. */
export type RunItemRow = RunItemRecord;

/** `[runId, key]`: key a number (item number, log index) or a string (sample id, `'state'`). */
export type RunItemKey = [number, number | string];

/** One cached completion (the providers' CachedResponse) and the size of its JSON. */
export interface ResponseCacheRow {
	/** responseCacheKey(): provider, base URL, model, revision, prompt, every parameter. */
	key: string;
	/** The model that answered, as a label (`openai/m @ http://…`, `bundled:gpt2-en-small`). */
	model: string;
	request: GenerateRequest;
	completion: string;
	finishReason: 'stop' | 'length';
	usage?: TokenUsage;
	/** The model name the server answered with, when it gave one. */
	servedModel?: string;
	/** ISO time it was stored. */
	createdAt: string;
	/** UTF-16 length of the entry's JSON: the cache's size without reading every row. */
	bytes: number;
}

export type BenchtopDatabase = Dexie & {
	suites: Table<SuiteRow, string>;
	runs: Table<RunRow, number, RunRow>;
	runItems: Table<RunItemRow, RunItemKey>;
	responseCache: Table<ResponseCacheRow, string>;
};

/** The database name; one per origin. */
export const DATABASE_NAME = 'benchtop';

export const db = new Dexie(DATABASE_NAME) as BenchtopDatabase;

db.version(1).stores({
	suites: '&sha256, name, listed, savedAt',
	runs: '++id, suiteSha256, status, createdAt',
	itemResults: '[runId+itemNumber], runId',
});

// Evals runs (generative): the run record and one row per finished sample.
db.version(2).stores({
	evalsRuns: '++id, status, createdAt, evalName',
	evalsSamples: '[runId+sampleId], runId',
});

// The response cache of generative runs (completions by request key).
db.version(3).stores({
	responseCache: '&key, model, createdAt',
});

// Long-term-memory (LTM) runs: the run record and its scheduler state (saved after every step).
db.version(4).stores({
	ltmRuns: '++id, status, createdAt',
	ltmStates: '&runId',
});

// The LTM log, append-only: one row per entry, so a step saves only its new entries.
db.version(5).stores({
	ltmLog: '[runId+index], runId',
});

// One store for runs of every kind: `runs` holds suite, Evals and LTM runs (told apart by `kind`),
// `runItems` every stored piece of them; the upgrade moves the old tables' rows in, then Dexie
// deletes the old tables (after the upgrade function, so it can still read them).
db.version(6)
	.stores({
		runs: '++id, kind, suiteSha256, status, createdAt, [kind+createdAt]',
		runItems: '[runId+key], runId',
		itemResults: null,
		evalsRuns: null,
		evalsSamples: null,
		ltmRuns: null,
		ltmStates: null,
		ltmLog: null,
	})
	.upgrade(moveRunsIntoOneStore);

/**
 * Version 6's upgrade: suite runs keep their ids (`#/results/<id>` links) and get `kind: 'suite'`;
 * Evals and LTM runs get new ids after them (no link or setting holds those ids), in their old
 * order; every item, sample, state and log entry follows its run. Rows of a deleted run are not
 * copied (nothing reaches them).
 */
async function moveRunsIntoOneStore(tx: Transaction): Promise<void> {
	const runs = tx.table<RunRow | LegacySuiteRunRow, number>('runs');
	const items = tx.table<RunItemRow, RunItemKey>('runItems');
	const suiteIds = await runs.toCollection().primaryKeys();
	await runs.toCollection().modify((row, ref) => {
		if (!('kind' in row)) ref.value = suiteRunFromLegacy(row);
	});
	for (const runId of suiteIds) {
		const rows = await tx
			.table<LegacyItemResultRow>('itemResults')
			.where('runId')
			.equals(runId)
			.toArray();
		await items.bulkPut(rows.map(suiteItemFromLegacy));
	}
	await moveEvalsRuns(tx, runs, items);
	await moveLtmRuns(tx, runs, items);
}

type UpgradeRuns = Table<RunRow | LegacySuiteRunRow, number>;
type UpgradeItems = Table<RunItemRow, RunItemKey>;

async function moveEvalsRuns(
	tx: Transaction,
	runs: UpgradeRuns,
	items: UpgradeItems,
): Promise<void> {
	const oldRuns = tx.table<LegacyEvalsRunRow, number>('evalsRuns');
	const oldSamples = tx.table<LegacyEvalsSampleRow>('evalsSamples');
	for (const oldId of await oldRuns.toCollection().primaryKeys()) {
		const row = await oldRuns.get(oldId);
		if (!row) continue;
		const runId = await runs.add(evalsRunFromLegacy(row));
		await items.put(evalsInputFromLegacy(row, runId));
		const samples = await oldSamples.where('runId').equals(oldId).toArray();
		await items.bulkPut(samples.map((sample) => evalsSampleFromLegacy(sample, runId)));
	}
}

async function moveLtmRuns(tx: Transaction, runs: UpgradeRuns, items: UpgradeItems): Promise<void> {
	const oldRuns = tx.table<LegacyLtmRunRow, number>('ltmRuns');
	const oldStates = tx.table<LegacyLtmStateRow, number>('ltmStates');
	const oldLog = tx.table<LegacyLtmLogRow>('ltmLog');
	for (const oldId of await oldRuns.toCollection().primaryKeys()) {
		const row = await oldRuns.get(oldId);
		if (!row) continue;
		const runId = await runs.add(ltmRunFromLegacy(row));
		const state = await oldStates.get(oldId);
		if (state) await items.put(ltmStateFromLegacy(state, runId));
		const log = await oldLog.where('runId').equals(oldId).toArray();
		await items.bulkPut(log.map((entry) => ltmLogFromLegacy(entry, runId)));
	}
}
