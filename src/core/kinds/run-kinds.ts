/**
 * The three run kinds described once (suite, Evals, long-term memory): each kind's bundle reader
 * and writer (the `benchtop-run/2` envelope), results fingerprint (the SHA-256 a bundle is sealed
 * with), share payload encoder and decoder (the one share codec), share route, resume rule and
 * one-line display summary, and the readers of "a bundle or a link of any kind" that pick the
 * kind from the bundle's envelope or the link's route. The pages and storage read and write runs
 * through these. Pure.
 */
import {
	readEvalsRunBundle,
	serializeEvalsRunBundle,
	type EvalsRunBundle,
} from '../evals/evals-run-bundle';
import {
	decodeEvalsShare,
	encodeEvalsShare,
	type EvalsSharePayload,
} from '../evals/evals-share-payload';
import { readLtmRunBundle, serializeLtmRunBundle, type LtmRunBundle } from '../ltm/ltm-run-bundle';
import { decodeLtmShare, encodeLtmShare, type LtmSharePayload } from '../ltm/share-payload';
import { describeModelSpec } from '../model/model-spec';
import { SUITE_RESUME, type ResumeRule } from '../run/resume-plan';
import { LTM_RESUME } from '../ltm/ltm-run-record';
import { EVALS_RESUME } from '../evals/evals-run-record';
import type { EvalsRunRecord, LtmRunRecord } from './run-record';
import type { SuiteRun } from '../run/run-types';
import { ShareLinkError } from '../errors';
import { SHARE_ROUTES, shareFragmentOf, shareKindOf } from '../share/share-codec';
import { decodeShareLink, encodeShareLink, type SharePayload } from '../syntaxgym/share/share-link';
import { decodeBatteryShare, type BatterySharePayload } from '../syntaxgym/share/battery-share';
import { parseRunBundle, serializeRunBundle, type RunBundle } from '../syntaxgym/run/run-bundle';
import {
	parseJsonText,
	readRunBundleEnvelope,
	resultsSha256Of,
	type ReadBundleResult,
	type RunBundleKind,
} from '../run/task-run-json';

/** What the app knows about one kind of run, for code that handles runs of every kind. */
export interface RunKindDescription<K extends RunBundleKind, Bundle, Payload, Run = unknown> {
	readonly kind: K;
	/** The page that shows, imports and opens runs of this kind. */
	readonly page: 'Run' | 'Evals' | 'Memory';
	/** Where its share links open: the fragment's start, without `#`. */
	readonly shareRoute: string;
	/** Reads a bundle of this kind (format 2 or the kind's 0.1.0 format) from untrusted text. */
	readonly readBundle: (text: string) => ReadBundleResult<Bundle>;
	/** The bundle as JSON text in the `benchtop-run/2` envelope, sealed with its fingerprint. */
	readonly writeBundle: (bundle: Bundle) => string;
	/**
	 * The fingerprint of the bundle's results: SHA-256 (hex) of their canonical JSON, as written
	 * in the bundle's `resultsSha256` (a reader refuses results that do not match it).
	 */
	readonly fingerprint: (bundle: Bundle) => string;
	/** When a stored run can be resumed and how far it got; the words of the shared messages. */
	readonly resume: ResumeRule<Run, K>;
	/** The link data after `shareRoute`; throws a ShareLinkError (`too-large`) over the budget. */
	readonly encodeShare: (payload: Payload) => string;
	/** Reads the link data after `shareRoute`; throws an Error that says what is wrong. */
	readonly decodeShare: (text: string) => Payload;
	/** One line for lists and messages: name, model, how far, status. */
	readonly summarize: (bundle: Bundle) => string;
}

/** The fingerprint of a bundle of `kind` written by `write`: the `resultsSha256` it is sealed with. */
function fingerprintOf<Bundle>(kind: RunBundleKind, write: (bundle: Bundle) => string) {
	return (bundle: Bundle): string => resultsSha256Of(kind, JSON.parse(write(bundle)));
}

export const SUITE_RUN_KIND: RunKindDescription<
	'suite',
	RunBundle,
	SharePayload,
	Pick<SuiteRun, 'status' | 'itemsDone' | 'itemCount'>
> = {
	kind: 'suite',
	page: 'Run',
	shareRoute: SHARE_ROUTES.suite,
	readBundle: parseRunBundle,
	writeBundle: serializeRunBundle,
	fingerprint: fingerprintOf('suite', serializeRunBundle),
	resume: SUITE_RESUME,
	encodeShare: (payload) => {
		const encoded = encodeShareLink(payload);
		if (!encoded.ok) throw encoded.error;
		return encoded.fragment.slice(SHARE_ROUTES.suite.length);
	},
	decodeShare: (text) => {
		const decoded = decodeShareLink(`${SHARE_ROUTES.suite}${text}`);
		if (!decoded.ok) throw decoded.error;
		return decoded.payload;
	},
	summarize: ({ run, items }) =>
		`${run.suiteName} · ${describeModelSpec(run.model)} · ${items.length} of ${run.itemCount} items · ${run.status}`,
};

export const EVALS_RUN_KIND: RunKindDescription<
	'evals',
	EvalsRunBundle,
	EvalsSharePayload,
	Pick<EvalsRunRecord, 'status' | 'progress' | 'report'>
> = {
	kind: 'evals',
	page: 'Evals',
	shareRoute: SHARE_ROUTES.evals,
	readBundle: readEvalsRunBundle,
	writeBundle: serializeEvalsRunBundle,
	fingerprint: fingerprintOf('evals', serializeEvalsRunBundle),
	resume: EVALS_RESUME,
	encodeShare: encodeEvalsShare,
	decodeShare: decodeEvalsShare,
	summarize: ({ run, samples }) =>
		`${run.evalName} · ${run.models.policy.map(describeModelSpec).join(', ')} · ${samples.length} of ${run.progress.total} samples · ${run.status}`,
};

export const LTM_RUN_KIND: RunKindDescription<
	'ltm',
	LtmRunBundle,
	LtmSharePayload,
	Pick<LtmRunRecord, 'status' | 'progress'>
> = {
	kind: 'ltm',
	page: 'Memory',
	shareRoute: SHARE_ROUTES.ltm,
	readBundle: readLtmRunBundle,
	writeBundle: serializeLtmRunBundle,
	fingerprint: fingerprintOf('ltm', serializeLtmRunBundle),
	resume: LTM_RESUME,
	encodeShare: encodeLtmShare,
	decodeShare: decodeLtmShare,
	summarize: ({ run }) =>
		`${run.runName} · ${describeModelSpec(run.models.agent)} · ${run.progress.testsDone} of ${run.progress.testsTotal} tests · ${run.status}`,
};

/** Every kind's description, by kind. */
export const RUN_KIND_DESCRIPTIONS = {
	suite: SUITE_RUN_KIND,
	evals: EVALS_RUN_KIND,
	ltm: LTM_RUN_KIND,
} as const;

/** A bundle of any kind, tagged with its kind. */
export type AnyRunBundle =
	| { readonly kind: 'suite'; readonly bundle: RunBundle }
	| { readonly kind: 'evals'; readonly bundle: EvalsRunBundle }
	| { readonly kind: 'ltm'; readonly bundle: LtmRunBundle };

/** A share payload of any kind, tagged with its kind (a battery is several suite runs). */
export type AnySharePayload =
	| { readonly kind: 'suite'; readonly payload: SharePayload }
	| { readonly kind: 'battery'; readonly payload: BatterySharePayload }
	| { readonly kind: 'evals'; readonly payload: EvalsSharePayload }
	| { readonly kind: 'ltm'; readonly payload: LtmSharePayload };

/**
 * Reads a bundle of any kind (its envelope says which); failures say where and what. A sealed
 * bundle's checked `resultsSha256` comes with it.
 */
export function readAnyRunBundle(
	text: string,
):
	| ({ readonly ok: true; readonly resultsSha256?: string } & AnyRunBundle)
	| { readonly ok: false; readonly message: string; readonly pointer: string } {
	const parsed = parseJsonText(text);
	if (!parsed.ok) return parsed;
	const envelope = readRunBundleEnvelope(parsed.json);
	if (!envelope.ok) return envelope;
	switch (envelope.kind) {
		case 'suite': {
			const read = SUITE_RUN_KIND.readBundle(text);
			return read.ok ? { ...read, kind: 'suite' } : read;
		}
		case 'evals': {
			const read = EVALS_RUN_KIND.readBundle(text);
			return read.ok ? { ...read, kind: 'evals' } : read;
		}
		case 'ltm': {
			const read = LTM_RUN_KIND.readBundle(text);
			return read.ok ? { ...read, kind: 'ltm' } : read;
		}
	}
}

/** Opens a share link of any kind (a URL, `#hash` or fragment; its route says which). */
export function decodeAnyShareLink(
	input: string,
): ({ readonly ok: true } & AnySharePayload) | { readonly ok: false; readonly error: Error } {
	const fragment = shareFragmentOf(input);
	const kind = shareKindOf(fragment);
	if (kind === null) {
		return {
			ok: false,
			error: new ShareLinkError('not-a-share-link', 'This is not a Benchtop share link.'),
		};
	}
	const data = fragment.slice(SHARE_ROUTES[kind].length);
	try {
		switch (kind) {
			case 'suite':
				return { ok: true, kind, payload: SUITE_RUN_KIND.decodeShare(data) };
			case 'battery': {
				const decoded = decodeBatteryShare(fragment);
				if (!decoded.ok) throw decoded.error;
				return { ok: true, kind, payload: decoded.payload };
			}
			case 'evals':
				return { ok: true, kind, payload: EVALS_RUN_KIND.decodeShare(data) };
			case 'ltm':
				return { ok: true, kind, payload: LTM_RUN_KIND.decodeShare(data) };
		}
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
	}
}
