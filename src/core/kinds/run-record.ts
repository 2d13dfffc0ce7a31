/**
 * The app's own kinds' run records (re-exported; a record of any registered kind is
 * `RegisteredRunRecord`, derived from the registry in registered-kinds.ts) and one record for each
 * stored piece of a run (a suite item, an Evals sample, the LTM state or one LTM
 * log entry): what storage keeps. Plain, structured-cloneable data (typed arrays included).
 */
import type { EvalsInputItemRecord, EvalsSampleItemRecord } from '../evals/evals-run-record';
import type { LtmLogItemRecord, LtmStateItemRecord } from '../ltm/ltm-run-record';

export { EVALS_INPUT_KEY } from '../evals/evals-run-record';
export type {
	EvalsInputItemRecord,
	EvalsRunRecord,
	EvalsSampleItemRecord,
} from '../evals/evals-run-record';
export { LTM_STATE_KEY } from '../ltm/ltm-run-record';
export type { LtmLogItemRecord, LtmRunRecord, LtmStateItemRecord } from '../ltm/ltm-run-record';
export type { RunRecordBase } from '../run/run-types';
export type { SuiteRunRecord } from '../syntaxgym/suite-run-kind';

/** One scored sentence, column-wise: typed arrays keep big runs small and fast to clone. */
export interface ColumnarSentence {
	conditionName: string;
	text: string;
	tokens: string[];
	surprisalsBits: Float64Array;
	/** UTF-16 offsets; -1 where the token has none (imported lm-zoo tokens). */
	starts: Int32Array;
	ends: Int32Array;
	/** 1 for special tokens (BOS/EOS), else 0. */
	special: Uint8Array;
	/**
	 * Each token's `boundarySurprisalBits`, NaN where it has none; absent when no token has one
	 * (runs without word boundaries, older rows).
	 */
	boundarySurprisalsBits?: Float64Array;
}

/** Every condition of one finished suite item; `key` is the item number. */
export interface SuiteItemRecord {
	runId: number;
	kind: 'suite-item';
	key: number;
	sentences: ColumnarSentence[];
	savedAt: number;
}

/** The token columns of a {@link ColumnarSentence}, without its condition name and text. */
export type TokenColumns = Omit<ColumnarSentence, 'conditionName' | 'text'>;

/**
 * Many items of a suite run in one stored piece (an imported run's items: IndexedDB's cost is per
 * piece, not per byte): the items in ascending item-number order, their sentences in order, and
 * every sentence's token columns concatenated (the ColumnarSentence layout), with the counts that
 * split them. `key` is `suite-items/<first>/<last>/<count>` (first and last item numbers, items).
 */
export interface SuiteItemChunkRecord {
	runId: number;
	kind: 'suite-item-chunk';
	key: string;
	/** Ascending. */
	itemNumbers: Float64Array;
	/** Sentences of each item. */
	sentenceCounts: Uint32Array;
	/** One per sentence. */
	conditionNames: string[];
	/** One per sentence. */
	texts: string[];
	/** Tokens of each sentence. */
	tokenCounts: Uint32Array;
	/** Every sentence's tokens, one after the other. */
	columns: TokenColumns;
	savedAt: number;
}

/**
 * One stored piece of a run, keyed by `[runId, key]`: a suite item (key: item number), many suite
 * items (key: a `suite-items/…` string), an Evals sample (key: sample id), the LTM state (key:
 * `'state'`) or an LTM log entry (key: index).
 */
export type RunItemRecord =
	| SuiteItemRecord
	| SuiteItemChunkRecord
	| EvalsSampleItemRecord
	| EvalsInputItemRecord
	| LtmStateItemRecord
	| LtmLogItemRecord;
