/**
 * The suite family as a kind of run: SyntaxGym-style suite runs (a battery is several of them),
 * for the kind registry. Pure.
 */
import * as v from 'valibot';
import { describeModelSpec } from '../model/model-spec';
import { SUITE_RESUME } from './run/suite-run';
import type { RunKindDefinition, ShareFacet } from '../run/run-kind';
import type { RunRecordBase } from '../run/run-types';
import type { SuiteRun } from './run/suite-run';
import {
	decodeBatteryShare,
	encodeBatteryShare,
	type BatterySharePayload,
} from './share/battery-share';
import { decodeShareLink, encodeShareLink, type SharePayload } from './share/share-link';
import { BATTERY_SHARE, SUITE_SHARE } from './share/share-routes';
import { SUITE_GLOSSARY } from './suite-glossary';
import {
	SUITE_BUNDLE,
	parseRunBundle,
	readRunBundleJson,
	serializeRunBundle,
	type RunBundle,
} from './run/run-bundle';

/** A suite run as stored: the suite (by SHA-256), the model, the convention and the counters. */
export type SuiteRunRecord = RunRecordBase<'suite'> & Omit<SuiteRun, keyof RunRecordBase<'suite'>>;

const Count = v.pipe(v.number(), v.minValue(0));

/** A battery's link: several suite runs with one model (it opens on the share page). */
export const BATTERY_SHARE_FACET: ShareFacet<BatterySharePayload> = {
	...BATTERY_SHARE,
	encode: (payload) => {
		const encoded = encodeBatteryShare(payload);
		if (!encoded.ok) throw encoded.error;
		return encoded.fragment.slice(BATTERY_SHARE.route.length);
	},
	decode: (data) => {
		const decoded = decodeBatteryShare(`${BATTERY_SHARE.route}${data}`);
		if (!decoded.ok) throw decoded.error;
		return decoded.payload;
	},
};

export const SUITE_RUN_KIND: RunKindDefinition<
	SuiteRunRecord,
	RunBundle,
	SharePayload,
	(typeof SUITE_GLOSSARY)[number]['id']
> & {
	readonly moreShares: readonly ShareFacet<unknown>[];
} = {
	kind: 'suite',
	label: 'Suite',
	page: { name: 'Run', route: '#/' },
	storedEntries: {
		suiteName: v.string(),
		suiteSha256: v.string(),
		model: v.looseObject({ source: v.string() }),
		convention: v.string(),
		itemCount: Count,
		itemsDone: Count,
		appVersion: v.string(),
		scoringMs: v.number(),
		tokenCount: Count,
	},
	resume: SUITE_RESUME,
	models: (run) => [run.model],
	libraryFacts: (run) => ({
		...(run.battery
			? { detail: `suite ${run.battery.index + 1} of ${run.battery.size} of a battery` }
			: {}),
		fingerprint: run.suiteSha256,
		modelDetail: `${run.convention}${run.wordBoundaries ? ' · word boundaries' : ''}`,
		links: [
			{
				label: 'Compare',
				ariaLabel: `Compare models on the suite of run ${run.id}`,
				route: `#/compare/${run.suiteSha256}`,
			},
			...(run.battery
				? [
						{
							label: 'Matrix',
							ariaLabel: `Matrix of the battery of run ${run.id}`,
							route: `#/matrix/${run.battery.id}`,
						},
					]
				: []),
		],
	}),
	libraryPick: {
		label: 'Matrix of picked runs',
		purpose: 'the matrix',
		hint: 'suite runs make a matrix (one column per model, one row per suite)',
		route: (runIds) => (runIds.length === 0 ? '#/matrix' : `#/matrix?runs=${runIds.join(',')}`),
	},
	progress: (run) => ({ done: run.itemsDone, total: run.itemCount }),
	openRoute: (runId) => `#/results/${runId}`,
	bundle: {
		...SUITE_BUNDLE,
		read: parseRunBundle,
		readJson: readRunBundleJson,
		write: serializeRunBundle,
		summarize: ({ run, items }) =>
			`${run.suiteName} · ${describeModelSpec(run.model)} · ${items.length} of ${run.itemCount} items · ${run.status}`,
	},
	share: {
		...SUITE_SHARE,
		encode: (payload) => {
			const encoded = encodeShareLink(payload);
			if (!encoded.ok) throw encoded.error;
			return encoded.fragment.slice(SUITE_SHARE.route.length);
		},
		decode: (data) => {
			const decoded = decodeShareLink(`${SUITE_SHARE.route}${data}`);
			if (!decoded.ok) throw decoded.error;
			return decoded.payload;
		},
	},
	moreShares: [BATTERY_SHARE_FACET as ShareFacet<unknown>],
	glossary: SUITE_GLOSSARY,
};
