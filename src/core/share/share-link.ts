/**
 * Share links: a run's suite, model, convention (and word-boundary option), app version and result
 * fingerprint packed into a URL fragment (`#/share/1/<base64url>`), and read back with a typed error for every bad link.
 * Pure: it compresses with fflate (pure JS) and hashes with our SHA-256; it never fetches.
 *
 * Format 1, bytes before base64url:
 *   [0, 4)   checksum: the first 4 bytes of SHA-256 of bytes [4, end)
 *   [4]      format version (1), repeated from the text so that it is covered by the checksum
 *   [5, 9)   length of the JSON body in UTF-8 bytes, unsigned big-endian
 *   [9, 13)  length of the compressed body, unsigned big-endian (tells "truncated" from "tampered")
 *   [13, …)  the JSON body (a SharePayload), compressed with raw DEFLATE
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { ShareLinkError } from '../errors';
import { sha256HexOfBytes } from '../hash/sha256';
import type { SurprisalConvention } from '../model/model-spec';
import type { RunModelSpec } from '../run/run-types';
import { decodeBase64Url, encodeBase64Url } from './base64url';
import type { ResultFingerprint } from './result-fingerprint';
import { checkSharePayload, readSharePayload } from './read-share-payload';

/** The format this app writes and the newest it reads. */
export const SHARE_FORMAT_VERSION = 1;
/** Fragments longer than this are refused both ways (browsers and chat apps cut long URLs). */
export const MAX_SHARE_FRAGMENT_CHARS = 32 * 1024;
/** The largest JSON body a link may unpack to (guards against decompression bombs). */
export const MAX_SHARE_BODY_BYTES = 4 * 1024 * 1024;
/** The fragment starts with this, then the format version, `/` and the data. */
export const SHARE_FRAGMENT_PREFIX = '/share/';

const HEADER_BYTES = 13;

/** The suite of a link: its text exactly as loaded, or where to fetch it from. */
export type SharedSuite =
	| { readonly kind: 'inline'; readonly text: string }
	| { readonly kind: 'url'; readonly url: string };

/** Everything a share link carries. */
export interface SharePayload {
	/** `version` of the app that made the link. */
	readonly appVersion: string;
	readonly suite: SharedSuite;
	/** SHA-256 (lowercase hex) of the suite text exactly as loaded, as in the run history: a
	 * suite fetched from `suite.url` must hash to it, or it has changed since the link was made. */
	readonly suiteSha256: string;
	/** A hub model's `revision` must be a commit hash (resolve `main` before sharing). An
	 * endpoint is its model id and base URL, never a key. */
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	/**
	 * The run asked for word-boundary values (`RunDraft.wordBoundaries`), so the reproduction asks
	 * too; the values are not in the link. Present only when true: links made before it existed,
	 * and runs without it, leave it out (an older app ignores it: same format 1).
	 */
	readonly wordBoundaries?: true;
	readonly results: ResultFingerprint;
}

export interface EncodeShareLinkOptions {
	/** Where the suite can be fetched, used when the inline suite makes the link too long. */
	readonly suiteUrl?: string;
	/** Default MAX_SHARE_FRAGMENT_CHARS. */
	readonly maxFragmentChars?: number;
}

export type EncodeShareLinkResult =
	| {
			readonly ok: true;
			/** The fragment without `#`: `/share/1/…`. */
			readonly fragment: string;
			/** How the suite went in: inline, or as a URL because inline was too long. */
			readonly suite: SharedSuite['kind'];
			/** Whether every rounded region value went in, or only the key regions and digests. */
			readonly values: 'all-regions' | 'key-regions';
	  }
	| { readonly ok: false; readonly error: ShareLinkError };

/**
 * Packs `payload` into a fragment no longer than the limit. It tries, in order: the payload as
 * given; without the full region values; with the suite as `options.suiteUrl`; and both. When
 * nothing fits, the error (kind `too-large`) says to share the JSON bundle instead.
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
	const maxChars = options.maxFragmentChars ?? MAX_SHARE_FRAGMENT_CHARS;
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
			const fragment = packShareFragment(JSON.stringify({ ...payload, suite, results }));
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
	return {
		ok: false,
		error: new ShareLinkError(
			'too-large',
			`This run is too large for a URL: the link would be ${shortest} characters (limit ${maxChars}). Share the JSON bundle of the run instead.`,
		),
	};
}

/** The page URL with its fragment replaced by the share fragment. */
export function formatShareUrl(pageUrl: string, fragment: string): string {
	const hash = pageUrl.indexOf('#');
	return `${hash < 0 ? pageUrl : pageUrl.slice(0, hash)}#${fragment}`;
}

/** Whether a URL, `#hash` or fragment looks like a share link (before decoding it). */
export function isShareLink(input: string): boolean {
	return fragmentOf(input).startsWith(SHARE_FRAGMENT_PREFIX);
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
 * Reads a share link from a full URL, a `#hash` or a bare fragment. Never throws and never runs
 * anything from the link: every failure is a ShareLinkError whose `kind` says what happened
 * (`not-a-share-link`, `too-large`, `newer-version`, `truncated`, `tampered`, `malformed`).
 * `appVersion` (this app's) adds a note when the link was made by a newer app.
 */
export function decodeShareLink(
	input: string,
	options: { readonly appVersion?: string } = {},
): DecodeShareLinkResult {
	try {
		return decodeOrThrow(input, options.appVersion);
	} catch (error) {
		if (error instanceof ShareLinkError) return { ok: false, error };
		return {
			ok: false,
			error: new ShareLinkError('tampered', 'This share link is damaged: its data cannot be read.'),
		};
	}
}

function decodeOrThrow(input: string, appVersion: string | undefined): DecodeShareLinkResult {
	const fragment = fragmentOf(input);
	if (!fragment.startsWith(SHARE_FRAGMENT_PREFIX)) {
		throw new ShareLinkError('not-a-share-link', 'This is not a Benchtop share link.');
	}
	if (fragment.length > MAX_SHARE_FRAGMENT_CHARS) {
		throw new ShareLinkError(
			'too-large',
			`This share link is ${fragment.length} characters long, more than the ${MAX_SHARE_FRAGMENT_CHARS} a link may have. Ask for the JSON bundle of the run instead.`,
		);
	}
	const rest = fragment.slice(SHARE_FRAGMENT_PREFIX.length);
	const slash = rest.indexOf('/');
	const versionText = slash < 0 ? rest : rest.slice(0, slash);
	if (!/^[1-9]\d{0,8}$/.test(versionText)) {
		throw new ShareLinkError(
			slash < 0 ? 'truncated' : 'tampered',
			slash < 0
				? 'This share link is cut off: copy the whole link.'
				: 'This share link is damaged: its format version cannot be read.',
		);
	}
	const version = Number(versionText);
	if (version > SHARE_FORMAT_VERSION) {
		throw new ShareLinkError(
			'newer-version',
			`This share link was made by a newer version of Benchtop (link format ${version}; this app reads format ${SHARE_FORMAT_VERSION}). Open it in the latest Benchtop.`,
		);
	}
	if (version < SHARE_FORMAT_VERSION || slash < 0) {
		throw new ShareLinkError(
			slash < 0 ? 'truncated' : 'tampered',
			slash < 0
				? 'This share link is cut off: copy the whole link.'
				: `This share link names format ${version}, which no Benchtop wrote.`,
		);
	}
	const decoded = decodeBase64Url(rest.slice(slash + 1));
	if (!decoded.ok) {
		throw decoded.problem === 'bad-length'
			? new ShareLinkError('truncated', 'This share link is cut off: copy the whole link.')
			: new ShareLinkError(
					'tampered',
					`This share link is damaged: it has a character that no link contains (position ${decoded.index + 1} of its data).`,
				);
	}
	const bytes = decoded.bytes;
	if (bytes.length < HEADER_BYTES) {
		throw new ShareLinkError('truncated', 'This share link is cut off: copy the whole link.');
	}
	const compressedLength = readUint32(bytes, 9);
	if (bytes.length < HEADER_BYTES + compressedLength) {
		throw new ShareLinkError(
			'truncated',
			`This share link is cut off (${bytes.length} of ${HEADER_BYTES + compressedLength} bytes): copy the whole link.`,
		);
	}
	if (bytes.length > HEADER_BYTES + compressedLength || !checksumMatches(bytes)) {
		throw new ShareLinkError(
			'tampered',
			'This share link has been changed or damaged: its checksum does not match.',
		);
	}
	if (bytes[4] !== version) {
		throw new ShareLinkError(
			'tampered',
			'This share link has been changed: its versions disagree.',
		);
	}
	const bodyLength = readUint32(bytes, 5);
	if (bodyLength > MAX_SHARE_BODY_BYTES) {
		throw new ShareLinkError(
			'too-large',
			`This share link unpacks to ${bodyLength} bytes, more than the ${MAX_SHARE_BODY_BYTES} allowed.`,
		);
	}
	const body = inflateSync(bytes.subarray(HEADER_BYTES), { out: new Uint8Array(bodyLength) });
	if (body.length !== bodyLength) {
		throw new ShareLinkError('tampered', 'This share link is damaged: its data does not unpack.');
	}
	let json: unknown;
	try {
		json = JSON.parse(strFromU8(body));
	} catch {
		throw new ShareLinkError('malformed', 'This share link holds no readable data.');
	}
	const read = readSharePayload(json);
	if (!read.ok) {
		throw new ShareLinkError(
			'malformed',
			`This share link holds data this app cannot use: ${read.problem.pointer} ${read.problem.problem}.`,
		);
	}
	const notes: string[] = [];
	if (appVersion !== undefined && compareVersions(read.value.appVersion, appVersion) > 0) {
		notes.push(
			`This link was made with Benchtop ${read.value.appVersion}, newer than this app (${appVersion}); results may differ.`,
		);
	}
	return { ok: true, payload: read.value, notes };
}

/** Packs a JSON body into a format-1 fragment, unchecked. encodeShareLink is the way to make a
 * link; this lower level exists for tests and tools that need a well-formed but odd body. */
export function packShareFragment(bodyJson: string): string {
	const body = strToU8(bodyJson);
	const compressed = deflateSync(body, { level: 9 });
	const bytes = new Uint8Array(HEADER_BYTES + compressed.length);
	bytes[4] = SHARE_FORMAT_VERSION;
	writeUint32(bytes, 5, body.length);
	writeUint32(bytes, 9, compressed.length);
	bytes.set(compressed, HEADER_BYTES);
	bytes.set(checksumOf(bytes), 0);
	return `${SHARE_FRAGMENT_PREFIX}${SHARE_FORMAT_VERSION}/${encodeBase64Url(bytes)}`;
}

function checksumOf(bytes: Uint8Array): Uint8Array {
	const hex = sha256HexOfBytes(bytes.subarray(4));
	return Uint8Array.from([0, 2, 4, 6], (offset) => parseInt(hex.slice(offset, offset + 2), 16));
}

function checksumMatches(bytes: Uint8Array): boolean {
	const expected = checksumOf(bytes);
	return expected.every((byte, index) => bytes[index] === byte);
}

function readUint32(bytes: Uint8Array, offset: number): number {
	return (
		(((bytes[offset] ?? 0) << 24) >>> 0) +
		((bytes[offset + 1] ?? 0) << 16) +
		((bytes[offset + 2] ?? 0) << 8) +
		(bytes[offset + 3] ?? 0)
	);
}

function writeUint32(bytes: Uint8Array, offset: number, value: number): void {
	bytes[offset] = (value >>> 24) & 255;
	bytes[offset + 1] = (value >>> 16) & 255;
	bytes[offset + 2] = (value >>> 8) & 255;
	bytes[offset + 3] = value & 255;
}

/** The fragment of a URL or `#hash` (without `#`), or the input itself when it has no `#`. */
function fragmentOf(input: string): string {
	const text = input.trim();
	const hash = text.indexOf('#');
	return hash < 0 ? text : text.slice(hash + 1);
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
