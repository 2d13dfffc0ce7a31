/**
 * Compares the fingerprint carried by a share link with the results of running it again: which
 * outcomes are identical, how far rounded region values moved, and which settings differ. Pure.
 */
import type { SurprisalConvention } from '../../model/model-spec';
import type { RunModelSpec } from '../../run/run-types';
import type { MetricName } from '../suite/types';
import {
	buildResultFingerprint,
	unpackOutcomeCodes,
	type OutcomeCode,
	type ResultFingerprint,
	type RunResults,
} from './result-fingerprint';

/** What the link recorded about the run besides its results (a SharePayload satisfies it). */
export interface LinkedRun {
	readonly results: ResultFingerprint;
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	readonly appVersion: string;
}

/** The new run: its results, and (to explain differences) how it was made. */
export interface ReproducedRun extends RunResults {
	readonly model?: RunModelSpec;
	readonly convention?: SurprisalConvention;
	readonly appVersion?: string;
}

export interface OutcomeDifference {
	readonly predictionId: number;
	readonly metric: MetricName;
	readonly linked: OutcomeCode;
	readonly reproduced: OutcomeCode;
}

export interface RegionDifference {
	readonly conditionName: string;
	readonly regionNumber: number;
	readonly metric: MetricName;
	/** Rounded to the link's quantum; `null`: undefined or missing. */
	readonly linkedBits: number | null;
	readonly reproducedBits: number | null;
	/** |linked − reproduced| in bits; `null` when one side is null and the other is not. */
	readonly differenceBits: number | null;
}

export interface ItemDifference {
	readonly itemNumber: number;
	/** The new results have no such item (or no suite item with that number). */
	readonly missing: boolean;
	readonly outcomes: readonly OutcomeDifference[];
	/** Carried values that differ, largest difference first (null mismatches first of all). */
	readonly regions: readonly RegionDifference[];
	/** The digest of all the item's rounded values differs. With `values` in the link this agrees
	 * with `regions`; without, it is the only sign of a change outside the key regions. */
	readonly digestDiffers: boolean;
	readonly maxRegionDifferenceBits: number;
}

/** A setting of the run that differs between the link and the new run: a likely cause. */
export interface SettingDifference {
	readonly setting:
		| 'model.source'
		| 'model.id'
		| 'model.revision'
		| 'model.dtype'
		| 'model.backend'
		| 'model.model'
		| 'model.baseUrl'
		| 'convention'
		| 'appVersion';
	readonly linked: string;
	readonly reproduced: string;
}

/**
 * "Reproduced" means: every outcome (item × prediction × metric, missing counts as a value) is
 * identical, and every carried region value is identical after rounding both to the link's
 * quantum (1e-4 bits), and every item's digest of all its rounded values is identical.
 */
export interface FingerprintComparison {
	readonly reproduced: boolean;
	readonly identicalOutcomes: number;
	/** Items × predictions × metrics of the link. */
	readonly totalOutcomes: number;
	/** Largest |difference| over the carried values (all regions when the link has `values`, else
	 * the key regions), in bits; 0 when all are identical. Null-vs-number pairs are not counted
	 * here; they appear in `differingItems`. */
	readonly maxRegionDifferenceBits: number;
	/** Which values were compared one by one. */
	readonly valuesCompared: 'all-regions' | 'key-regions';
	readonly differingItems: readonly ItemDifference[];
	readonly settingDifferences: readonly SettingDifference[];
}

/** Compares the link's fingerprint with `run` (which must be a run of the link's suite). */
export function compareFingerprint(link: LinkedRun, run: ReproducedRun): FingerprintComparison {
	const linked = link.results;
	const fresh = buildResultFingerprint(run, linked.quantumBits);
	const totalOutcomes = linked.itemNumbers.length * linked.predictionCount * linked.metrics.length;
	const codes: OutcomeCodes = {
		linked: unpackOutcomeCodes(linked.outcomes, totalOutcomes) ?? [],
		fresh:
			unpackOutcomeCodes(
				fresh.outcomes,
				fresh.itemNumbers.length * fresh.predictionCount * fresh.metrics.length,
			) ?? [],
	};
	const freshIndexOfItem = new Map(
		fresh.itemNumbers.map((itemNumber, index) => [itemNumber, index]),
	);
	const valuesCompared = linked.values !== undefined ? 'all-regions' : 'key-regions';
	const layouts = valueLayouts(run, linked);

	let identicalOutcomes = 0;
	let maxRegionDifferenceBits = 0;
	const differingItems: ItemDifference[] = [];
	linked.itemNumbers.forEach((itemNumber, itemIndex) => {
		const freshIndex = freshIndexOfItem.get(itemNumber);
		const compared = compareItemOutcomes(linked, fresh, codes, itemIndex, freshIndex);
		identicalOutcomes += compared.identical;
		const { outcomes } = compared;
		if (freshIndex === undefined) {
			differingItems.push({
				itemNumber,
				missing: true,
				outcomes,
				regions: [],
				digestDiffers: true,
				maxRegionDifferenceBits: 0,
			});
			return;
		}
		const linkedValues = linked.values?.[itemIndex] ?? linked.keyValues[itemIndex] ?? [];
		const freshValues =
			(linked.values !== undefined ? fresh.values?.[freshIndex] : fresh.keyValues[freshIndex]) ??
			[];
		const keys =
			(linked.values !== undefined ? layouts.get(itemNumber) : undefined) ??
			layouts.get(-Infinity) ??
			[];
		const { regions, itemMax } = compareItemValues(linked, linkedValues, freshValues, keys);
		maxRegionDifferenceBits = Math.max(maxRegionDifferenceBits, itemMax);
		const digestDiffers = linked.digests[itemIndex] !== fresh.digests[freshIndex];
		if (outcomes.length > 0 || regions.length > 0 || digestDiffers) {
			differingItems.push({
				itemNumber,
				missing: false,
				outcomes,
				regions,
				digestDiffers,
				maxRegionDifferenceBits: itemMax,
			});
		}
	});
	return {
		reproduced: identicalOutcomes === totalOutcomes && differingItems.length === 0,
		identicalOutcomes,
		totalOutcomes,
		maxRegionDifferenceBits,
		valuesCompared,
		differingItems,
		settingDifferences: compareRunSettings(link, run),
	};
}

/** Both sides' outcome codes, unpacked (empty when the link's do not unpack). */
interface OutcomeCodes {
	readonly linked: readonly OutcomeCode[];
	readonly fresh: readonly OutcomeCode[];
}

/**
 * One item's outcomes, prediction by prediction and metric by metric of the link: how many are
 * identical, and those that differ (missing on either side counts as a value).
 */
function compareItemOutcomes(
	linked: ResultFingerprint,
	fresh: ResultFingerprint,
	codes: OutcomeCodes,
	itemIndex: number,
	freshIndex: number | undefined,
): { identical: number; outcomes: OutcomeDifference[] } {
	const perItem = linked.predictionCount * linked.metrics.length;
	const freshPerItem = fresh.predictionCount * fresh.metrics.length;
	let identical = 0;
	const outcomes: OutcomeDifference[] = [];
	for (let predictionId = 0; predictionId < linked.predictionCount; predictionId++) {
		linked.metrics.forEach((metric, metricIndex) => {
			const linkedCode =
				codes.linked[itemIndex * perItem + predictionId * linked.metrics.length + metricIndex] ??
				'missing';
			const freshMetricIndex = fresh.metrics.indexOf(metric);
			const freshCode =
				freshIndex === undefined || freshMetricIndex < 0 || predictionId >= fresh.predictionCount
					? 'missing'
					: (codes.fresh[
							freshIndex * freshPerItem + predictionId * fresh.metrics.length + freshMetricIndex
						] ?? 'missing');
			if (linkedCode === freshCode) identical++;
			else outcomes.push({ predictionId, metric, linked: linkedCode, reproduced: freshCode });
		});
	}
	return { identical, outcomes };
}

/**
 * One item's carried values that differ (in units of the link's quantum), named by `keys`,
 * largest difference first with null mismatches before all; and the largest difference in bits.
 */
function compareItemValues(
	linked: ResultFingerprint,
	linkedValues: readonly (number | null)[],
	freshValues: readonly (number | null)[],
	keys: readonly ValueKey[],
): { regions: RegionDifference[]; itemMax: number } {
	const regions: RegionDifference[] = [];
	let itemMax = 0;
	const count = Math.max(linkedValues.length, freshValues.length);
	for (let index = 0; index < count; index++) {
		const a = linkedValues[index] ?? null;
		const b = freshValues[index] ?? null;
		if (a === b) continue;
		const key = keys[index];
		const differenceBits = a === null || b === null ? null : Math.abs(a - b) * linked.quantumBits;
		if (differenceBits !== null) itemMax = Math.max(itemMax, differenceBits);
		regions.push({
			conditionName: key?.conditionName ?? '?',
			regionNumber: key?.regionNumber ?? 0,
			metric: key?.metric ?? linked.metrics[0] ?? 'sum',
			linkedBits: a === null ? null : a * linked.quantumBits,
			reproducedBits: b === null ? null : b * linked.quantumBits,
			differenceBits,
		});
	}
	regions.sort((x, y) => (y.differenceBits ?? Infinity) - (x.differenceBits ?? Infinity));
	return { regions, itemMax };
}

/** The settings that differ between the link and the new run (only those the run states). */
export function compareRunSettings(link: LinkedRun, run: ReproducedRun): SettingDifference[] {
	const differences: SettingDifference[] = [];
	const check = (
		setting: SettingDifference['setting'],
		linked: string | undefined,
		reproduced: string | undefined,
	) => {
		if (reproduced !== undefined && linked !== reproduced) {
			differences.push({ setting, linked: linked ?? '', reproduced });
		}
	};
	if (run.model !== undefined) {
		check('model.source', link.model.source, run.model.source);
		// A local model and an endpoint share no field but the source: that says it all.
		const sameKind = (link.model.source === 'openai') === (run.model.source === 'openai');
		const linked = modelFields(link.model);
		const reproduced = modelFields(run.model);
		for (const field of sameKind ? MODEL_FIELDS : []) {
			check(`model.${field}`, linked[field], reproduced[field]);
		}
	}
	check('convention', link.convention, run.convention);
	check('appVersion', link.appVersion, run.appVersion);
	return differences;
}

/** The fields a model spec can have besides its source, in the order differences are listed. */
const MODEL_FIELDS = ['id', 'revision', 'dtype', 'backend', 'model', 'baseUrl'] as const;

/** A spec's fields by name: a local model's id, revision, dtype, backend; an endpoint's model
 * and base URL. A field the spec does not have is absent. */
function modelFields(
	spec: RunModelSpec,
): Partial<Record<(typeof MODEL_FIELDS)[number], string | undefined>> {
	return spec.source === 'openai'
		? { model: spec.model, baseUrl: spec.baseUrl }
		: { id: spec.id, revision: spec.revision, dtype: spec.dtype, backend: spec.backend };
}

interface ValueKey {
	readonly conditionName: string;
	readonly regionNumber: number;
	readonly metric: MetricName;
}

/** For naming differences: per item number, what each position of `values` is; under the key
 * `-Infinity`, what each position of `keyValues` is. */
function valueLayouts(run: RunResults, linked: ResultFingerprint): Map<number, ValueKey[]> {
	const layouts = new Map<number, ValueKey[]>();
	const expand = (conditionName: string, regionNumber: number) =>
		linked.metrics.map((metric) => ({ conditionName, regionNumber, metric }));
	for (const item of run.suite.items) {
		layouts.set(
			item.itemNumber,
			item.conditions.flatMap((condition) =>
				condition.regions.flatMap((region) => expand(condition.conditionName, region.regionNumber)),
			),
		);
	}
	layouts.set(
		-Infinity,
		linked.keyRegions.flatMap((key) => expand(key.conditionName, key.regionNumber)),
	);
	return layouts;
}
