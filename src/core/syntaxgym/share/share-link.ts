/**
 * Suite run share links: a run's suite, model, convention (and word-boundary option), app version
 * and result fingerprint as a `#/share/2/…` link of the one share codec (share-codec.ts), made to
 * fit the link budget, and read back (format 2, and format 1 of the 0.1.0 release) with a typed
 * error for every bad link. Pure: it never fetches.
 */
import { ShareLinkError } from '../../errors';
import {
	checkSharePayload,
	readSharePayload,
	type SharePayload,
	type SharedSuite,
} from './read-share-payload';
import {
	SHARE_LINK_BUDGET_CHARS,
	packShareFragment,
	shareRouteOf,
	shareLinkTooLargeError,
	unpackShareLink,
} from '../../share/share-codec';
import { BATTERY_SHARE, SUITE_SHARE } from './share-routes';

export type { SharePayload, SharedSuite } from './read-share-payload';

export interface EncodeShareLinkOptions {
	/** Where the suite can be fetched, used when the inline suite makes the link too long. */
	readonly suiteUrl?: string;
	/** Default SHARE_LINK_BUDGET_CHARS. */
	readonly maxFragmentChars?: number;
}

export type EncodeShareLinkResult =
	| {
			readonly ok: true;
			/** The fragment without `#`: `/share/2/…`. */
			readonly fragment: string;
			/** How the suite went in: inline, or as a URL because inline was too long. */
			readonly suite: SharedSuite['kind'];
			/** Whether every rounded region value went in, or only the key regions and digests. */
			readonly values: 'all-regions' | 'key-regions';
	  }
	| { readonly ok: false; readonly error: ShareLinkError };

/**
 * Packs `payload` into a fragment no longer than the budget. It tries, in order: the payload as
 * given; without the full region values; with the suite as `options.suiteUrl`; and both. When
 * nothing fits, the error (kind `too-large`) says to share the run bundle instead.
 */
export function encodeShareLink(
	payload: SharePayload,
	options: EncodeShareLinkOptions = {},
): EncodeShareLinkResult {
	const problem = checkSharePayload(payload);
	if (problem !== null) {
		return {
			ok: false,
			error: new ShareLinkError(
				'invalid-payload',
				`Cannot share this run: ${problem.pointer} ${problem.problem}.`,
			),
		};
	}
	const maxChars = options.maxFragmentChars ?? SHARE_LINK_BUDGET_CHARS;
	const suites: SharedSuite[] = [payload.suite];
	if (options.suiteUrl !== undefined && payload.suite.kind === 'inline') {
		suites.push({ kind: 'url', url: options.suiteUrl });
	}
	let shortest = Infinity;
	for (const suite of suites) {
		if (suite.kind === 'url' && checkSharePayload({ ...payload, suite }) !== null) continue;
		for (const withValues of payload.results.values === undefined ? [false] : [true, false]) {
			const { values: _values, ...withoutValues } = payload.results;
			const results = withValues ? payload.results : withoutValues;
			const fragment = packShareFragment(SUITE_SHARE, { ...payload, suite, results });
			shortest = Math.min(shortest, fragment.length);
			if (fragment.length <= maxChars) {
				return {
					ok: true,
					fragment,
					suite: suite.kind,
					values: withValues ? 'all-regions' : 'key-regions',
				};
			}
		}
	}
	return { ok: false, error: shareLinkTooLargeError(shortest, maxChars) };
}

/** The page URL with its fragment replaced by the share fragment. */
export function formatShareUrl(pageUrl: string, fragment: string): string {
	const hash = pageUrl.indexOf('#');
	return `${hash < 0 ? pageUrl : pageUrl.slice(0, hash)}#${fragment}`;
}

/** Whether a URL, `#hash` or fragment looks like a share link (before decoding it). */
export function isShareLink(input: string): boolean {
	return shareRouteOf(input, [SUITE_SHARE, BATTERY_SHARE]) === SUITE_SHARE;
}

export type DecodeShareLinkResult =
	| {
			readonly ok: true;
			readonly payload: SharePayload;
			/** Things to tell the user that do not stop the link, e.g. a newer app made it. */
			readonly notes: readonly string[];
	  }
	| { readonly ok: false; readonly error: ShareLinkError };

/**
 * Reads a suite run's share link from a full URL, a `#hash` or a bare fragment. Never throws and
 * never runs anything from the link: every failure is a ShareLinkError whose `kind` says what
 * happened (`not-a-share-link`, `too-large`, `newer-version`, `truncated`, `tampered`,
 * `malformed`). `appVersion` (this app's) adds a note when the link was made by a newer app.
 */
export function decodeShareLink(
	input: string,
	options: { readonly appVersion?: string } = {},
): DecodeShareLinkResult {
	const unpacked = unpackShareLink(input, SUITE_SHARE, [BATTERY_SHARE]);
	if (!unpacked.ok) return unpacked;
	const read = readSharePayload(unpacked.json);
	if (!read.ok) {
		return {
			ok: false,
			error: new ShareLinkError(
				'malformed',
				`This share link holds data this app cannot use: ${read.problem.pointer} ${read.problem.problem}.`,
			),
		};
	}
	const notes: string[] = [];
	const { appVersion } = options;
	if (appVersion !== undefined && compareVersions(read.value.appVersion, appVersion) > 0) {
		notes.push(
			`This link was made with Benchtop ${read.value.appVersion}, newer than this app (${appVersion}); results may differ.`,
		);
	}
	return { ok: true, payload: read.value, notes };
}

/** Compares dotted numeric versions (`0.10.0` > `0.9.1`); a pre-release suffix is ignored. */
export function compareVersions(a: string, b: string): number {
	const parts = (version: string) =>
		version
			.split(/[+-]/)[0]
			?.split('.')
			.map((part) => Number(part) || 0) ?? [];
	const left = parts(a);
	const right = parts(b);
	for (let index = 0; index < Math.max(left.length, right.length); index++) {
		const difference = (left[index] ?? 0) - (right[index] ?? 0);
		if (difference !== 0) return Math.sign(difference);
	}
	return 0;
}
