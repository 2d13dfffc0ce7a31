/**
 * The app's IndexedDB database (Dexie): the only module that imports dexie. Row types here are
 * storage shapes; repositories map them to the core's domain types. Keep every version block.
 */
import { Dexie, type Table } from 'dexie';
import type { ModelSpec, SurprisalConvention } from '../core/model/model-spec';
import type { RunStatus } from '../core/run/run-types';

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

export interface RunRow {
	id?: number;
	suiteSha256: string;
	suiteName: string;
	model: ModelSpec;
	convention: SurprisalConvention;
	itemCount: number;
	appVersion: string;
	createdAt: number;
	status: RunStatus;
	itemsDone: number;
	updatedAt: number;
	scoringMs: number;
	tokenCount: number;
	errorMessage?: string;
	fallbackReason?: string;
}

/** One scored sentence, column-wise: typed arrays keep big runs small and fast to clone. */
export interface SentenceRow {
	conditionName: string;
	text: string;
	tokens: string[];
	surprisalsBits: Float64Array;
	/** UTF-16 offsets; -1 where the token has none (imported lm-zoo tokens). */
	starts: Int32Array;
	ends: Int32Array;
	/** 1 for special tokens (BOS/EOS), else 0. */
	special: Uint8Array;
}

export interface ItemResultRow {
	runId: number;
	itemNumber: number;
	sentences: SentenceRow[];
	savedAt: number;
}

export type BenchtopDatabase = Dexie & {
	suites: Table<SuiteRow, string>;
	runs: Table<RunRow, number, RunRow>;
	itemResults: Table<ItemResultRow, [number, number]>;
};

/** The database name; one per origin. */
export const DATABASE_NAME = 'benchtop';

export const db = new Dexie(DATABASE_NAME) as BenchtopDatabase;

db.version(1).stores({
	suites: '&sha256, name, listed, savedAt',
	runs: '++id, suiteSha256, status, createdAt',
	itemResults: '[runId+itemNumber], runId',
});
