/**
 * The typed suite model: what parse-suite.ts makes of a standard or legacy SyntaxGym JSON suite.
 * Pure, structured-cloneable data with the field's words in camelCase. No parsing here.
 */
import type { FormulaNode } from '../formula/ast';

/** The six region metrics of syntaxgym-core (`syntaxgym/utils.py` METRICS), in reference order. */
export const METRIC_NAMES = ['sum', 'mean', 'median', 'range', 'max', 'min'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

export interface SuiteMeta {
	readonly name: string;
	/**
	 * `meta.metric` normalised: `"sum"` → `['sum']`, `"all"` → all six in METRIC_NAMES order,
	 * a list → that list in file order. Never empty.
	 */
	readonly metrics: readonly MetricName[];
	/** `meta.metric` exactly as written (kept to re-serialise the suite as it was). */
	readonly metricAsWritten: string | readonly string[];
	readonly author?: string;
	readonly reference?: string;
	readonly comment?: string;
	readonly tags?: readonly string[];
	/** Any other `meta` fields, as plain data (own properties only, never a prototype). */
	readonly extra: Readonly<Record<string, unknown>>;
}

export interface Region {
	/** 1-based, equal to the region's position in its condition. */
	readonly regionNumber: number;
	/** Content as used for the sentence (legacy mode strips stray spaces, with a warning). */
	readonly content: string;
}

export interface Condition {
	readonly conditionName: string;
	readonly regions: readonly Region[];
}

export interface Item {
	readonly itemNumber: number;
	/** In file order: sentences are built and scored in this order. */
	readonly conditions: readonly Condition[];
}

export interface Prediction {
	/** 0-based position in the suite's `predictions` list (syntaxgym-core's `prediction_id`). */
	readonly predictionId: number;
	/** The formula as written; for a legacy relation prediction, the formula it converts to. */
	readonly formula: string;
	/** `formula` for `{"type":"formula"}` predictions, `relation` for the legacy relation form. */
	readonly source: 'formula' | 'relation';
	readonly ast: FormulaNode;
}

export interface Suite {
	readonly meta: SuiteMeta;
	/** `region_meta` in region order: `regionNames[k - 1]` names region k. */
	readonly regionNames: readonly string[];
	/** Condition names in the order of the first item (every item has the same set). */
	readonly conditionNames: readonly string[];
	readonly predictions: readonly Prediction[];
	readonly items: readonly Item[];
}

import type { Diagnostic } from '../../errors';

export type { Diagnostic };

export interface ParseSuiteOptions {
	/**
	 * `strict`: what current syntaxgym-core rejects is an error ([ ] brackets, padded region
	 * content). `compatible` (default): the legacy 2019/2020 forms are accepted with a warning.
	 */
	readonly mode?: 'strict' | 'compatible';
	/**
	 * `error` (default): `a < b < c` is a syntax error. `first-only`: keep only the first
	 * comparison, as syntaxgym-core silently does, and warn.
	 */
	readonly chainedComparisons?: 'error' | 'first-only';
}

export type ParseSuiteResult =
	| { readonly ok: true; readonly suite: Suite; readonly diagnostics: readonly Diagnostic[] }
	| { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };
