/**
 * A JSON value packed for a link fragment (deflate, then base64url), and back. Used by the Evals
 * and Memory share links; suite share links add a versioned header of their own (share-link.ts).
 */
import { deflateSync, inflateSync, strFromU8, strToU8 } from 'fflate';
import { decodeBase64Url, encodeBase64Url } from './base64url';

/** Deflates `value`'s JSON and writes it in base64url. */
export function packJson(value: unknown): string {
	return encodeBase64Url(deflateSync(strToU8(JSON.stringify(value)), { level: 9 }));
}

/** Reads what `packJson` wrote; throws an Error that says what is wrong with the link. */
export function unpackJson(text: string): unknown {
	const decoded = decodeBase64Url(text);
	if (!decoded.ok) {
		throw new Error(
			`This share link is damaged (${decoded.problem === 'bad-length' ? 'it was cut off' : `a bad character at ${decoded.index}`}): copy the whole link again.`,
		);
	}
	try {
		return JSON.parse(strFromU8(inflateSync(decoded.bytes)));
	} catch {
		throw new Error('This share link is damaged (it does not unpack): copy the whole link again.');
	}
}
