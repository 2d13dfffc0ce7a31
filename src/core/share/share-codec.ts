/**
 * The one share-link codec of every run kind: a payload's JSON, with its `kind`, deflated and
 * framed, in base64url after the kind's route (each kind declares its {@link ShareRoute}, e.g.
 * `#/share/2/…`, `#/share/battery/2/…`, `#/evals/share/2/…`), read back under one cap
 * on the link's characters and one on the unpacked bytes, counted while inflating. It also
 * reads the links of the 0.1.0 release (suite format 1; Evals and Memory links without a frame).
 * The only module that compresses links (fflate). Pure: it never fetches and never runs anything
 * from a link.
 *
 * Formats 1 and 2, bytes before base64url:
 *   [0, 4)   checksum: the first 4 bytes of SHA-256 of bytes [4, end)
 *   [4]      format version, repeated from the text so that it is covered by the checksum
 *   [5, 9)   length of the JSON body in UTF-8 bytes, unsigned big-endian
 *   [9, 13)  length of the compressed body, unsigned big-endian (tells "truncated" from "tampered")
 *   [13, …)  the JSON body, compressed with raw DEFLATE; in format 2 it names its `kind`
 */
import { Inflate, deflateSync, strFromU8, strToU8 } from 'fflate';
import * as v from 'valibot';
import { ShareLinkError } from '../errors';
import { sha256HexOfBytes } from '../hash/sha256';
import { decodeBase64Url, encodeBase64Url } from './base64url';

/**
 * Where one kind's links live and what the codec must know of them; each family declares its
 * own (the kind registry lists them all).
 */
export interface ShareRoute {
	/** The payload's `kind` (format 2 writes it first), as the run record names the kind. */
	readonly kind: string;
	/** The link's start, the fragment without `#`: `/share/`, `/evals/share/`. */
	readonly route: string;
	/** The link's content in words, with its article: "a suite run". */
	readonly what: string;
	/** The oldest framed format read: 1 for the suite links of 0.1.0, else 2. */
	readonly oldestVersion: number;
	/** Whether 0.1.0 wrote these links as the bare data (no version, no frame): Evals, Memory. */
	readonly bareRelease?: boolean;
}

/** The format this app writes and the newest it reads. */
export const SHARE_FORMAT_VERSION = 2;

/**
 * The longest link fragment this app makes (characters after `#`). 32 KiB: chat apps, mail and
 * issue trackers pass links of this size whole (Slack allows 40,000 characters a message), and
 * it stays far below every browser's URL limit; a longer run is offered as a run bundle instead.
 */
export const SHARE_LINK_BUDGET_CHARS = 32 * 1024;

/**
 * The longest link fragment this app opens. Larger than the budget because the 0.1.0 release
 * made Evals and Memory links of any length (a 5-sample run of an 80,959-sample eval made a
 * 1,144,351-character link); still bounded, like what it unpacks to.
 */
export const MAX_SHARE_LINK_CHARS = 2 * 1024 * 1024;

/** The most bytes a link may unpack to; inflating stops as soon as it is passed (inflate bombs). */
export const MAX_SHARE_INFLATED_BYTES = 16 * 1024 * 1024;

/** `routes`, longest route first, so that `/share/battery/` is not read as a suite link. */
function byLongestRoute(routes: readonly ShareRoute[]): readonly ShareRoute[] {
	return [...routes].sort((a, b) => b.route.length - a.route.length);
}

const HEADER_BYTES = 13;
/** Compressed bytes fed to the inflater at a time: DEFLATE expands at most ~1,032×, so each step
 * adds at most about 1 MiB before the running count is checked. */
const INFLATE_STEP_BYTES = 1024;

/** A link's data as read: its kind, the format version it was written in, and its parsed JSON. */
export interface UnpackedShareLink {
	readonly kind: string;
	/** 2 (this app), 1 (a suite link of 0.1.0) or 0 (an Evals or Memory link of 0.1.0). */
	readonly version: number;
	readonly json: unknown;
}

export type UnpackShareLinkResult =
	| ({ readonly ok: true } & UnpackedShareLink)
	| { readonly ok: false; readonly error: ShareLinkError };

/** The fragment of `payload` at `route` (format 2, `kind` written first), whatever its length. */
export function packShareFragment(route: ShareRoute, payload: object): string {
	return packShareBody(
		route,
		SHARE_FORMAT_VERSION,
		JSON.stringify({ kind: route.kind, ...payload }),
	);
}

/**
 * The fragment of any body text framed as format `version`, unchecked. packShareFragment and
 * encodeShareFragment are the way to make a link; this lower level is for tests and tools.
 */
export function packShareBody(route: ShareRoute, version: number, bodyJson: string): string {
	const body = strToU8(bodyJson);
	const compressed = deflateSync(body, { level: 9 });
	const bytes = new Uint8Array(HEADER_BYTES + compressed.length);
	bytes[4] = version;
	writeUint32(bytes, 5, body.length);
	writeUint32(bytes, 9, compressed.length);
	bytes.set(compressed, HEADER_BYTES);
	bytes.set(checksumOf(bytes), 0);
	return `${route.route}${version}/${encodeBase64Url(bytes)}`;
}

/** The error of a link that would be longer than `budget`: it says to share the run bundle. */
export function shareLinkTooLargeError(chars: number, budget = SHARE_LINK_BUDGET_CHARS) {
	return new ShareLinkError(
		'too-large',
		`This run is too large for a link: the link would be ${chars.toLocaleString('en-US')} characters, more than the ${budget.toLocaleString('en-US')} a link may have. Download the run bundle and share the file instead.`,
	);
}

/** Packs `payload` at `route`; a link over `budget` characters is refused (kind `too-large`). */
export function encodeShareFragment(
	route: ShareRoute,
	payload: object,
	budget = SHARE_LINK_BUDGET_CHARS,
):
	| { readonly ok: true; readonly fragment: string }
	| { readonly ok: false; readonly error: ShareLinkError } {
	const fragment = packShareFragment(route, payload);
	return fragment.length <= budget
		? { ok: true, fragment }
		: { ok: false, error: shareLinkTooLargeError(fragment.length, budget) };
}

/** The fragment of a URL or `#hash` (without `#`), or the input itself when it has no `#`. */
export function shareFragmentOf(input: string): string {
	const text = input.trim();
	const hash = text.indexOf('#');
	return hash < 0 ? text : text.slice(hash + 1);
}

/** The one of `routes` that a URL, `#hash` or fragment starts with, or null (not a share link). */
export function shareRouteOf(input: string, routes: readonly ShareRoute[]): ShareRoute | null {
	const fragment = shareFragmentOf(input);
	return byLongestRoute(routes).find(({ route }) => fragment.startsWith(route)) ?? null;
}

/**
 * Reads a link of any kind (a full URL, a `#hash` or a bare fragment) to its JSON. Never throws:
 * every failure is a ShareLinkError whose `kind` says what happened (`not-a-share-link`,
 * `too-large`, `newer-version`, `truncated`, `tampered`, `malformed`). `routes` are the kinds the
 * caller reads (one kind's reader gives its own; the registry gives every kind's); a link at
 * another of `known` is named as such. The JSON is not checked beyond its kind: each kind reads
 * its own.
 */
export function unpackShareLink(
	input: string,
	routes: ShareRoute | readonly ShareRoute[],
	known: readonly ShareRoute[] = [],
): UnpackShareLinkResult {
	try {
		return { ok: true, ...unpackOrThrow(input, 'route' in routes ? [routes] : routes, known) };
	} catch (error) {
		if (error instanceof ShareLinkError) return { ok: false, error };
		return {
			ok: false,
			error: new ShareLinkError('tampered', 'This share link is damaged: its data cannot be read.'),
		};
	}
}

function unpackOrThrow(
	input: string,
	routes: readonly ShareRoute[],
	known: readonly ShareRoute[],
): UnpackedShareLink {
	const fragment = shareFragmentOf(input);
	// Matched among the known routes too: a battery link (`/share/battery/`) starts with the suite
	// link's route, and must not be read as one.
	const found = shareRouteOf(fragment, [...routes, ...known]);
	if (found === null || !routes.includes(found)) {
		throw new ShareLinkError(
			'not-a-share-link',
			found === null || routes.length !== 1
				? 'This is not a Benchtop share link.'
				: `This link holds ${found.what}, not ${routes[0]?.what ?? ''}.`,
		);
	}
	const { kind } = found;
	if (fragment.length > MAX_SHARE_LINK_CHARS) {
		throw new ShareLinkError(
			'too-large',
			`This share link is ${fragment.length.toLocaleString('en-US')} characters long, more than the ${MAX_SHARE_LINK_CHARS.toLocaleString('en-US')} a link may have. Ask for the run bundle instead.`,
		);
	}
	const rest = fragment.slice(found.route.length);
	const slash = rest.indexOf('/');
	// An Evals or Memory link of 0.1.0 is the bare data: no version, no slash.
	if (found.bareRelease === true && slash < 0 && rest !== '') {
		return { kind, version: 0, json: parseBody(inflateCapped(dataBytes(rest))) };
	}
	const version = readVersion(rest, slash);
	if (version < found.oldestVersion) {
		throw new ShareLinkError(
			'tampered',
			`This share link names format ${version}, which no Benchtop wrote for ${found.what}.`,
		);
	}
	const bytes = dataBytes(rest.slice(slash + 1));
	const body = unframe(bytes, version);
	const json = parseBody(body);
	if (version >= 2) checkKind(json, found, [...routes, ...known]);
	return { kind, version, json };
}

/** The version number before the first `/`; throws for an unknown or missing one. */
function readVersion(rest: string, slash: number): number {
	const versionText = slash < 0 ? rest : rest.slice(0, slash);
	if (!/^[1-9]\d{0,8}$/.test(versionText)) {
		throw slash < 0
			? cutOff()
			: new ShareLinkError(
					'tampered',
					'This share link is damaged: its format version cannot be read.',
				);
	}
	const version = Number(versionText);
	if (version > SHARE_FORMAT_VERSION) {
		throw new ShareLinkError(
			'newer-version',
			`This share link was made by a newer version of Benchtop (link format ${version}; this app reads format ${SHARE_FORMAT_VERSION}). Open it in the latest Benchtop.`,
		);
	}
	if (slash < 0) throw cutOff();
	return version;
}

function cutOff(detail = ''): ShareLinkError {
	return new ShareLinkError(
		'truncated',
		`This share link is cut off${detail}: copy the whole link.`,
	);
}

function dataBytes(text: string): Uint8Array {
	const decoded = decodeBase64Url(text);
	if (decoded.ok) return decoded.bytes;
	throw decoded.problem === 'bad-length'
		? cutOff()
		: new ShareLinkError(
				'tampered',
				`This share link is damaged: it has a character that no link contains (position ${decoded.index + 1} of its data).`,
			);
}

/** The inflated body of framed bytes, after the checksum, version and length checks. */
function unframe(bytes: Uint8Array, version: number): Uint8Array {
	if (bytes.length < HEADER_BYTES) throw cutOff();
	const compressedLength = readUint32(bytes, 9);
	if (bytes.length < HEADER_BYTES + compressedLength) {
		throw cutOff(` (${bytes.length} of ${HEADER_BYTES + compressedLength} bytes)`);
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
	if (bodyLength > MAX_SHARE_INFLATED_BYTES) throw unpacksTooLarge();
	// The header's length is the cap here: a body that unpacks to more was changed.
	let body: Uint8Array | null = null;
	try {
		body = inflateCapped(bytes.subarray(HEADER_BYTES), bodyLength);
	} catch (error) {
		if (!(error instanceof ShareLinkError) || error.kind !== 'too-large') throw error;
	}
	if (body === null || body.length !== bodyLength) {
		throw new ShareLinkError('tampered', 'This share link is damaged: its data does not unpack.');
	}
	return body;
}

function unpacksTooLarge(): ShareLinkError {
	return new ShareLinkError(
		'too-large',
		`This link unpacks to more than ${MAX_SHARE_INFLATED_BYTES / 1024 / 1024} MiB, more than a share link may hold, so it was not opened. Ask for the run bundle instead.`,
	);
}

/**
 * The payload of a generative kind's link (the part after its address, `2/<data>`): unpacked
 * within the caps and checked against `schema`. Throws the link's ShareLinkError, or an Error
 * naming the first field that is wrong ("This share link is not an Evals run Benchtop can read").
 */
export function readSharePayload(
	route: ShareRoute,
	text: string,
	schema: v.GenericSchema<unknown>,
): unknown {
	const unpacked = unpackShareLink(`${route.route}${text}`, route);
	if (!unpacked.ok) throw unpacked.error;
	const result = v.safeParse(schema, unpacked.json);
	if (!result.success) {
		const issue = result.issues[0];
		const path = v.getDotPath(issue) ?? '(top)';
		throw new Error(
			`This share link is not ${route.what} Benchtop can read (${path}: ${issue.message}).`,
		);
	}
	return result.output;
}

/**
 * Inflates raw DEFLATE data a step at a time, counting the bytes it yields, and stops as soon as
 * they pass `maxBytes` (a framed link's stated length, else MAX_SHARE_INFLATED_BYTES): a bomb
 * costs at most the cap plus one step of memory.
 */
export function inflateCapped(
	compressed: Uint8Array,
	maxBytes = MAX_SHARE_INFLATED_BYTES,
): Uint8Array {
	const chunks: Uint8Array[] = [];
	let total = 0;
	const inflater = new Inflate((chunk) => {
		total += chunk.length;
		if (total <= maxBytes) chunks.push(chunk);
	});
	try {
		for (let offset = 0; offset < compressed.length && total <= maxBytes;) {
			const end = Math.min(offset + INFLATE_STEP_BYTES, compressed.length);
			inflater.push(compressed.subarray(offset, end), end === compressed.length);
			offset = end;
		}
	} catch {
		throw new ShareLinkError('tampered', 'This share link is damaged: its data does not unpack.');
	}
	if (total > maxBytes) throw unpacksTooLarge();
	if (compressed.length === 0) {
		throw new ShareLinkError('tampered', 'This share link is damaged: its data does not unpack.');
	}
	const body = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		body.set(chunk, at);
		at += chunk.length;
	}
	return body;
}

function parseBody(body: Uint8Array): unknown {
	try {
		return JSON.parse(strFromU8(body)) as unknown;
	} catch {
		throw new ShareLinkError('malformed', 'This share link holds no readable data.');
	}
}

function checkKind(json: unknown, route: ShareRoute, known: readonly ShareRoute[]): void {
	const { kind } = route;
	if (typeof json !== 'object' || json === null || Array.isArray(json)) {
		throw new ShareLinkError(
			'malformed',
			'This share link holds data this app cannot use: / is not an object.',
		);
	}
	const named = (json as { kind?: unknown }).kind;
	if (named === kind) return;
	const other = known.find((candidate) => candidate.kind === named);
	throw new ShareLinkError(
		'malformed',
		other !== undefined
			? `This link holds ${other.what}, not ${route.what}: open it as it was shared.`
			: typeof named === 'string' && /^[a-z][a-z0-9-]{0,39}$/.test(named)
				? `This link holds a run of another kind ("${named}"), not ${route.what}: open it as it was shared.`
				: `This share link holds data this app cannot use: /kind is not "${kind}".`,
	);
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
