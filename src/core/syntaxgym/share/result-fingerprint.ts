/**
 * A compact fingerprint of a run's results for share links: every prediction outcome, and region
 * values rounded to a fixed quantum (1e-4 bits). Pure; it keeps no token data and no suite text.
 */
import { sha256Hex } from '../../hash/sha256';
import type { FormulaNode } from '../formula/ast';
import type { PredictionOutcome, RegionValue } from '../scoring/types';
import type { MetricName, Suite } from '../suite/types';
import { decodeBase64Url, encodeBase64Url } from '../../share/base64url';

/** Region values are stored as integers `round(valueBits / FINGERPRINT_QUANTUM_BITS)`. */
export const FINGERPRINT_QUANTUM_BITS = 1e-4;

/** One outcome: the prediction held, did not hold, or has no outcome (not scored, or the formula
 * could not be evaluated). */
export type OutcomeCode = 'true' | 'false' | 'missing';

export interface RegionKey {
	readonly conditionName: string;
	readonly regionNumber: number;
}

/**
 * What a share link records about results. Layout: items in suite order; outcomes item-major,
 * then prediction id, then metric (in `metrics` order); an item's values run over its conditions
 * (in the item's order), then regions, then metrics. A value is an integer number of quanta,
 * or `null` for a metric value that is undefined (range/max/min of an empty region) or missing.
 */
export interface ResultFingerprint {
	/** The suite's metrics (`meta.metrics`), in order. */
	readonly metrics: readonly MetricName[];
	/** Item numbers in suite order. */
	readonly itemNumbers: readonly number[];
	readonly predictionCount: number;
	/** The rounding step of the values, in bits. */
	readonly quantumBits: number;
	/** Outcome codes packed 2 bits each (0 missing, 1 false, 2 true), 4 per byte, base64url. */
	readonly outcomes: string;
	/** Per item: the first 8 hex digits of SHA-256 of its rounded values (all regions, metrics). */
	readonly digests: readonly string[];
	/** The regions that the predictions refer to (`*` expanded), the same for every item. */
	readonly keyRegions: readonly RegionKey[];
	/** Per item: rounded values of `keyRegions` × `metrics`. */
	readonly keyValues: readonly (readonly (number | null)[])[];
	/** Per item: every rounded value. Left out when the link must stay small; `digests` and
	 * `keyValues` then stand in for it. */
	readonly values?: readonly (readonly (number | null)[])[];
}

/** The results of one run of a suite, as the scoring pipeline produces them. */
export interface RunResults {
	readonly suite: Suite;
	readonly outcomes: readonly PredictionOutcome[];
	readonly regionValues: readonly RegionValue[];
}

const OUTCOME_BITS: Readonly<Record<OutcomeCode, number>> = { missing: 0, false: 1, true: 2 };
const OUTCOME_OF_BITS: readonly OutcomeCode[] = ['missing', 'false', 'true', 'missing'];

/** Builds the fingerprint of `results` (with every value; share-link.ts may drop `values`). */
export function buildResultFingerprint(
	results: RunResults,
	quantumBits: number = FINGERPRINT_QUANTUM_BITS,
): ResultFingerprint {
	const { suite } = results;
	const metrics = suite.meta.metrics;
	const outcomeByKey = new Map<string, boolean>();
	for (const outcome of results.outcomes) {
		outcomeByKey.set(
			outcomeKey(outcome.itemNumber, outcome.predictionId, outcome.metric),
			outcome.result,
		);
	}
	const regionValueByKey = new Map<string, RegionValue>();
	for (const value of results.regionValues) {
		regionValueByKey.set(
			regionKey(value.itemNumber, value.conditionName, value.regionNumber),
			value,
		);
	}
	const keyRegions = listKeyRegions(suite);
	const quantised = (itemNumber: number, conditionName: string, regionNumber: number) => {
		const value = regionValueByKey.get(regionKey(itemNumber, conditionName, regionNumber));
		return metrics.map((metric) => quantiseBits(value?.values[metric], quantumBits));
	};

	const codes: OutcomeCode[] = [];
	const digests: string[] = [];
	const keyValues: (number | null)[][] = [];
	const values: (number | null)[][] = [];
	for (const item of suite.items) {
		for (const prediction of suite.predictions) {
			for (const metric of metrics) {
				const result = outcomeByKey.get(
					outcomeKey(item.itemNumber, prediction.predictionId, metric),
				);
				codes.push(result === undefined ? 'missing' : result ? 'true' : 'false');
			}
		}
		const itemValues = item.conditions.flatMap((condition) =>
			condition.regions.flatMap((region) =>
				quantised(item.itemNumber, condition.conditionName, region.regionNumber),
			),
		);
		values.push(itemValues);
		digests.push(digestValues(itemValues));
		keyValues.push(
			keyRegions.flatMap((key) => quantised(item.itemNumber, key.conditionName, key.regionNumber)),
		);
	}
	return {
		metrics: [...metrics],
		itemNumbers: suite.items.map((item) => item.itemNumber),
		predictionCount: suite.predictions.length,
		quantumBits,
		outcomes: packOutcomeCodes(codes),
		digests,
		keyRegions,
		keyValues,
		values,
	};
}

/** A value in bits as a whole number of quanta; `null` for null, undefined, NaN or ±Infinity. */
export function quantiseBits(
	valueBits: number | null | undefined,
	quantumBits: number,
): number | null {
	if (valueBits === null || valueBits === undefined || !Number.isFinite(valueBits)) return null;
	const quanta = Math.round(valueBits / quantumBits);
	return quanta === 0 ? 0 : quanta;
}

/** The first 8 hex digits of SHA-256 of the values written as `v1,v2,...` (`n` for null). */
export function digestValues(values: readonly (number | null)[]): string {
	return sha256Hex(values.map((value) => (value === null ? 'n' : String(value))).join(',')).slice(
		0,
		8,
	);
}

/** 2 bits per code, 4 codes per byte (first code in the low bits), as base64url. */
export function packOutcomeCodes(codes: readonly OutcomeCode[]): string {
	const bytes = new Uint8Array(Math.ceil(codes.length / 4));
	codes.forEach((code, index) => {
		bytes[index >> 2] = (bytes[index >> 2] ?? 0) | (OUTCOME_BITS[code] << ((index & 3) * 2));
	});
	return encodeBase64Url(bytes);
}

/** The `count` codes packed in `packed`, or `null` when it is not base64url or too short. */
export function unpackOutcomeCodes(packed: string, count: number): OutcomeCode[] | null {
	const decoded = decodeBase64Url(packed);
	if (!decoded.ok || decoded.bytes.length !== Math.ceil(count / 4)) return null;
	const codes: OutcomeCode[] = [];
	for (let index = 0; index < count; index++) {
		const bits = ((decoded.bytes[index >> 2] ?? 0) >> ((index & 3) * 2)) & 3;
		codes.push(OUTCOME_OF_BITS[bits] ?? 'missing');
	}
	return codes;
}

/**
 * The regions the suite's predictions refer to, in order of first reference, each once.
 * `(*;%c%)` stands for every region of condition c (region numbers of the first item that has c).
 */
export function listKeyRegions(suite: Suite): RegionKey[] {
	const keys: RegionKey[] = [];
	const seen = new Set<string>();
	const add = (conditionName: string, regionNumber: number) => {
		const key = `${conditionName}\u0000${regionNumber}`;
		if (seen.has(key)) return;
		seen.add(key);
		keys.push({ conditionName, regionNumber });
	};
	const visit = (node: FormulaNode): void => {
		if (node.kind === 'binary') {
			visit(node.left);
			visit(node.right);
		} else if (node.kind === 'region') {
			if (node.regionNumber !== '*') {
				add(node.conditionName, node.regionNumber);
				return;
			}
			const condition = suite.items
				.flatMap((item) => item.conditions)
				.find((candidate) => candidate.conditionName === node.conditionName);
			for (const region of condition?.regions ?? []) add(node.conditionName, region.regionNumber);
		}
	};
	for (const prediction of suite.predictions) visit(prediction.ast);
	return keys;
}

function outcomeKey(itemNumber: number, predictionId: number, metric: MetricName): string {
	return `${itemNumber}\u0000${predictionId}\u0000${metric}`;
}

function regionKey(itemNumber: number, conditionName: string, regionNumber: number): string {
	return `${itemNumber}\u0000${conditionName}\u0000${regionNumber}`;
}
