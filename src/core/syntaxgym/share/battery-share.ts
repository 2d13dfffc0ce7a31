/**
 * Battery share links: `#/share/battery/2/…` (the one share codec, share-codec.ts) carrying a
 * battery's suites (a bundled suite by its file name and SHA-256, any other suite inline), its
 * model (an endpoint as base URL and model, never a key), convention and word-boundary option,
 * and per suite the sharer's item accuracy and, when the link has room, the suite's result
 * fingerprint (the suite link's, without the full region values). Read back under caps and a
 * valibot schema; the model and fingerprints by the suite link's own rules. Pure: loading a
 * bundled suite is the caller's; nothing from a link is executed.
 */
import * as v from 'valibot';
import { ShareLinkError } from '../../errors';
import { SHA256_HEX, sha256Hex } from '../../hash/sha256';
import { SURPRISAL_CONVENTIONS, type SurprisalConvention } from '../../model/model-spec';
import type { RunModelSpec } from '../../run/run-types';
import type { SuiteRun } from '../run/suite-run';
import {
	SHARE_LINK_BUDGET_CHARS,
	packShareFragment,
	readSharePayload as readCodecPayload,
	shareFragmentOf,
} from '../../share/share-codec';
import { BATTERY_SHARE } from './share-routes';
import { DEFAULT_SG_RULE, batterySuiteCell, itemAccuracy } from '../battery/sg-score';
import { parseSuite } from '../suite/parse-suite';
import type { Suite } from '../suite/types';
import {
	compareFingerprint,
	type FingerprintComparison,
	type ReproducedRun,
} from './compare-fingerprint';
import { readShareModel, readShareResults, type PayloadProblem } from './read-share-payload';
import {
	buildResultFingerprint,
	type ResultFingerprint,
	type RunResults,
} from './result-fingerprint';

/** Most suites a battery link carries (a link of more is refused before any suite is read). */
export const MAX_BATTERY_SUITES = 500;
/** Longest inline suite text a link may carry (the biggest published suites are under 1 MB). */
export const MAX_INLINE_SUITE_CHARS = 1_000_000;
/** Longest suite name, bundled file name, condition name. */
const MAX_NAME_CHARS = 256;
/** Most items a suite's accuracy may count. */
const MAX_ITEMS = 1_000_000;

/** A bundled suite's file name: one plain name in `suites/` (no folder, no `..`). */
const BUNDLED_FILE = /^[a-z0-9][a-z0-9_-]{0,120}\.json$/i;
const APP_VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
/** Printable text without control characters. */
const PLAIN_TEXT = /^[^\p{Cc}]*$/u;

/** Where a battery link's suite comes from: the app's bundled file, or the text itself. */
export type BatterySuiteSource =
	| { readonly kind: 'bundled'; readonly file: string }
	| { readonly kind: 'inline'; readonly text: string };

/** Items on which the suite's rule held, of the items counted. */
export interface SharedItemAccuracy {
	readonly correct: number;
	readonly items: number;
}

/** One suite of a battery link. */
export interface BatteryShareSuite {
	readonly source: BatterySuiteSource;
	/** SHA-256 (lowercase hex) of the suite text exactly as run: a loaded text must hash to it. */
	readonly sha256: string;
	/** `meta.name` of the suite, shown before it is loaded. */
	readonly name: string;
	/** The sharer's item accuracy under BATTERY_ACCURACY_RULE. */
	readonly accuracy: SharedItemAccuracy;
	/** The suite run's fingerprint (key regions and digests, no full values); absent when the
	 * link had no room for fingerprints. */
	readonly results?: ResultFingerprint;
}

/** Everything a battery link carries. */
export interface BatterySharePayload {
	/** `version` of the app that made the runs. */
	readonly appVersion: string;
	/** As the runs recorded it; an endpoint is its base URL and model, never a key. */
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	/** The runs asked for word-boundary values; present only when true. */
	readonly wordBoundaries?: true;
	/** In the battery's order. */
	readonly suites: readonly BatteryShareSuite[];
}

/** The item rule of a link's accuracies: the matrix's SG-score rule (prediction 0). */
export const BATTERY_ACCURACY_RULE = DEFAULT_SG_RULE;

type PartRead<T> =
	| { readonly ok: true; readonly value: T }
	| { readonly ok: false; readonly problem: PayloadProblem };

/** A schema that reads its input by one of the suite link's readers (the same rules). */
function readWith<T>(read: (json: unknown) => PartRead<T>) {
	return v.pipe(
		v.unknown(),
		v.rawTransform<unknown, T>(({ dataset, addIssue, NEVER }) => {
			const result = read(dataset.value);
			if (result.ok) return result.value;
			addIssue({ message: `${result.problem.pointer} ${result.problem.problem}` });
			return NEVER;
		}),
	);
}

const ResultsSchema = v.pipe(
	readWith<ResultFingerprint>(readShareResults),
	v.check(
		(results) =>
			results.keyRegions.every((region) => region.conditionName.length <= MAX_NAME_CHARS) &&
			results.itemNumbers.length <= MAX_ITEMS,
		'has a condition name or item count over the caps',
	),
);

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(MAX_ITEMS));

const SuiteSchema = v.object({
	source: v.variant('kind', [
		v.object({
			kind: v.literal('bundled'),
			file: v.pipe(
				v.string(),
				v.maxLength(MAX_NAME_CHARS),
				v.regex(
					BUNDLED_FILE,
					'is not the file name of a bundled suite (like garden-path-npz.json)',
				),
			),
		}),
		v.object({
			kind: v.literal('inline'),
			text: v.pipe(
				v.string(),
				v.maxLength(
					MAX_INLINE_SUITE_CHARS,
					`is longer than the ${MAX_INLINE_SUITE_CHARS.toLocaleString('en-US')} characters a suite in a link may have`,
				),
			),
		}),
	]),
	sha256: v.pipe(v.string(), v.regex(SHA256_HEX, 'is not 64 lowercase hex digits')),
	name: v.pipe(
		v.string(),
		v.maxLength(MAX_NAME_CHARS),
		v.regex(PLAIN_TEXT, 'has control characters'),
	),
	accuracy: v.pipe(
		v.object({ correct: Count, items: Count }),
		v.check((accuracy) => accuracy.correct <= accuracy.items, 'counts more correct than items'),
	),
	results: v.optional(ResultsSchema),
});

const BatteryPayloadSchema = v.object({
	appVersion: v.pipe(v.string(), v.regex(APP_VERSION, 'is not a version like 0.1.0')),
	model: readWith<RunModelSpec>(readShareModel),
	convention: v.picklist(SURPRISAL_CONVENTIONS),
	wordBoundaries: v.optional(v.boolean()),
	// The count is checked before any suite is read.
	suites: v.pipe(
		v.array(v.unknown()),
		v.minLength(1, 'has no suite'),
		v.maxLength(
			MAX_BATTERY_SUITES,
			`has more than the ${MAX_BATTERY_SUITES} suites a battery link may have`,
		),
		v.array(SuiteSchema),
	),
});

/** Reads a payload from parsed JSON by the link's rules; throws an Error naming the wrong field. */
function parsePayload(json: unknown): BatterySharePayload {
	const result = v.safeParse(BatteryPayloadSchema, json);
	if (!result.success) {
		const issue = result.issues[0];
		throw new Error(
			`This share link is not a battery Benchtop can read (${v.getDotPath(issue) ?? '(top)'}: ${issue.message}).`,
		);
	}
	const { wordBoundaries, suites, ...rest } = result.output;
	return {
		...rest,
		...(wordBoundaries === true ? { wordBoundaries: true as const } : {}),
		suites: suites.map(({ results, ...suite }) => ({
			...suite,
			...(results === undefined ? {} : { results }),
		})),
	};
}

export interface DecodeBatteryShareOptions {
	/** The bundled suite files of this app: a link naming another is refused. */
	readonly bundledFiles?: readonly string[];
}

export type DecodeBatteryShareResult =
	| { readonly ok: true; readonly payload: BatterySharePayload }
	| { readonly ok: false; readonly error: Error };

/**
 * Reads a battery link (a URL, `#hash` or fragment). Never throws and never runs anything: the
 * error is the codec's ShareLinkError (cut off, damaged, too large…) or an Error naming the field
 * that is wrong, or the bundled suite this app does not have.
 */
export function decodeBatteryShare(
	input: string,
	options: DecodeBatteryShareOptions = {},
): DecodeBatteryShareResult {
	const fragment = shareFragmentOf(input);
	const { route } = BATTERY_SHARE;
	try {
		if (!fragment.startsWith(route)) {
			throw new ShareLinkError('not-a-share-link', 'This is not a battery share link.');
		}
		const json = readCodecPayload(BATTERY_SHARE, fragment.slice(route.length), v.unknown());
		const payload = parsePayload(json);
		for (const { source } of options.bundledFiles === undefined ? [] : payload.suites) {
			if (source.kind === 'bundled' && !options.bundledFiles?.includes(source.file)) {
				throw new Error(
					`This battery link names a bundled suite this app does not have: ${source.file}. Open it in the Benchtop that made it.`,
				);
			}
		}
		return { ok: true, payload };
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
	}
}

export type EncodeBatteryShareResult =
	| {
			readonly ok: true;
			/** The fragment without `#`: `/share/battery/2/…`. */
			readonly fragment: string;
			/** Whether the suites' fingerprints went in, or only their accuracies. */
			readonly fingerprints: boolean;
	  }
	| { readonly ok: false; readonly error: ShareLinkError };

/**
 * Packs `payload` into a fragment no longer than `budget`: as given, else without the suites'
 * fingerprints. When even that is too long the error says by how much (the inline suites are
 * what makes it long), rather than making a link that would be cut off.
 */
export function encodeBatteryShare(
	payload: BatterySharePayload,
	budget = SHARE_LINK_BUDGET_CHARS,
): EncodeBatteryShareResult {
	// What goes in is the payload as a link is read back: a field the link does not carry (a key
	// on a model spec, say) is left out, and a payload no link could hold is refused.
	let checked: BatterySharePayload;
	try {
		checked = parsePayload(JSON.parse(JSON.stringify(payload)) as unknown);
	} catch (error) {
		return {
			ok: false,
			error: new ShareLinkError(
				'invalid-payload',
				`Cannot share this battery: ${(error as Error).message}`,
			),
		};
	}
	const withFingerprints = checked.suites.some((suite) => suite.results !== undefined);
	let chars = Infinity;
	for (const fingerprints of withFingerprints ? [true, false] : [false]) {
		const suites = fingerprints
			? checked.suites
			: checked.suites.map(({ results: _results, ...suite }) => suite);
		const fragment = packShareFragment(BATTERY_SHARE, { ...checked, suites });
		if (fragment.length <= budget) return { ok: true, fragment, fingerprints };
		chars = fragment.length;
	}
	return { ok: false, error: batteryTooLargeError(checked, chars, budget) };
}

function batteryTooLargeError(
	payload: BatterySharePayload,
	chars: number,
	budget: number,
): ShareLinkError {
	const inline = payload.suites.filter((suite) => suite.source.kind === 'inline').length;
	const over = (chars - budget).toLocaleString('en-US');
	const limit = `the ${budget.toLocaleString('en-US')} a link may have`;
	return new ShareLinkError(
		'too-large',
		inline > 0
			? `This battery's suites are too large for a link: ${over} characters over ${limit} (${inline} of its ${payload.suites.length} suites are not bundled with the app, so their text goes in the link). Share the suite files instead.`
			: `This battery is too large for a link: ${over} characters over ${limit}.`,
	);
}

/** One finished suite run of a battery, as the builder reads it back from storage. */
export interface BatteryRunToShare {
	readonly run: SuiteRun;
	readonly suiteText: string;
	readonly results: RunResults;
	/** The bundled file whose text is the run's suite (same SHA-256), if any. */
	readonly bundledFile?: string;
}

/** The sharer's item accuracy of a run's results (under BATTERY_ACCURACY_RULE). */
export function sharedItemAccuracy(results: RunResults): SharedItemAccuracy {
	const cell = batterySuiteCell({ suite: results.suite, outcomes: results.outcomes });
	const { correct, items } = itemAccuracy(cell, BATTERY_ACCURACY_RULE);
	return { correct, items };
}

/**
 * The payload of a battery's runs (in battery order). Throws an Error for the user when the
 * runs cannot make one battery link: none, not all finished, or not one model and convention.
 */
export function buildBatterySharePayload(runs: readonly BatteryRunToShare[]): BatterySharePayload {
	const first = runs[0]?.run;
	if (first === undefined) throw new Error('This battery has no suite runs in this browser.');
	const expected = first.battery?.size ?? runs.length;
	if (runs.length !== expected) {
		throw new Error(
			`Only ${runs.length} of the battery's ${expected} suite runs are in this browser: a link must reproduce them all.`,
		);
	}
	const unfinished = runs.filter(({ run }) => run.status !== 'done').length;
	if (unfinished > 0) {
		throw new Error(
			`${unfinished} of the battery's ${runs.length} suites are not finished: resume the battery, then share it.`,
		);
	}
	const settings = (run: SuiteRun) =>
		JSON.stringify([run.model, run.convention, run.wordBoundaries === true]);
	if (runs.some(({ run }) => settings(run) !== settings(first))) {
		throw new Error('The suites of this battery were not run with one model and convention.');
	}
	return {
		appVersion: first.appVersion,
		model: first.model,
		convention: first.convention,
		...(first.wordBoundaries ? { wordBoundaries: true as const } : {}),
		suites: runs.map(({ run, suiteText, results, bundledFile }) => {
			const { values: _values, ...fingerprint } = buildResultFingerprint(results);
			return {
				source:
					bundledFile === undefined
						? { kind: 'inline' as const, text: suiteText }
						: { kind: 'bundled' as const, file: bundledFile },
				sha256: run.suiteSha256,
				name: run.suiteName,
				accuracy: sharedItemAccuracy(results),
				results: fingerprint,
			};
		}),
	};
}

/**
 * The suite of a link's entry from its loaded text (a bundled file's, or the inline text): it
 * must hash to the link's SHA-256 and parse. The message names the suite and says what is wrong.
 */
export function readBatterySuiteText(
	shared: BatteryShareSuite,
	text: string,
): { readonly ok: true; readonly suite: Suite } | { readonly ok: false; readonly message: string } {
	const where =
		shared.source.kind === 'bundled' ? `the bundled suite ${shared.source.file}` : 'its text';
	if (sha256Hex(text) !== shared.sha256) {
		return {
			ok: false,
			message: `Suite "${shared.name}" is not the one the link was made with: the SHA-256 of ${where} differs from the link's. The battery was not started.`,
		};
	}
	const parsed = parseSuite(text);
	if (!parsed.ok) {
		return {
			ok: false,
			message: `Suite "${shared.name}" does not parse (${parsed.diagnostics.length} problem${parsed.diagnostics.length === 1 ? '' : 's'}). The battery was not started.`,
		};
	}
	return { ok: true, suite: parsed.suite };
}

/** One suite's reproduction: its accuracy against the link's, and its fingerprint comparison. */
export interface BatterySuiteComparison {
	readonly shared: SharedItemAccuracy;
	readonly reproduced: SharedItemAccuracy;
	/** Same correct and same items counted. */
	readonly sameAccuracy: boolean;
	/** Null when the link carried no fingerprint for the suite. */
	readonly fingerprint: FingerprintComparison | null;
}

/** Compares the new run of `payload.suites[index]` with what the link recorded. */
export function compareBatterySuite(
	payload: BatterySharePayload,
	index: number,
	run: ReproducedRun,
): BatterySuiteComparison {
	const shared = payload.suites[index];
	if (shared === undefined) throw new RangeError(`The link has no suite ${index + 1}.`);
	const reproduced = sharedItemAccuracy(run);
	return {
		shared: shared.accuracy,
		reproduced,
		sameAccuracy:
			reproduced.correct === shared.accuracy.correct && reproduced.items === shared.accuracy.items,
		fingerprint:
			shared.results === undefined
				? null
				: compareFingerprint(
						{
							results: shared.results,
							model: payload.model,
							convention: payload.convention,
							appVersion: payload.appVersion,
						},
						run,
					),
	};
}
