/**
 * Base64url (RFC 4648 §5, no padding) for bytes, in pure TypeScript: share links live in a URL
 * fragment, and the core has no `btoa`/`atob`. Decoding never throws; bad input gives `null`.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const VALUE_OF_CHAR_CODE = (() => {
	const table = new Int16Array(128).fill(-1);
	for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
	return table;
})();

/** `bytes` as base64url without `=` padding: 4 characters per 3 bytes, rounded up. */
export function encodeBase64Url(bytes: Uint8Array): string {
	let text = '';
	let i = 0;
	for (; i + 2 < bytes.length; i += 3) {
		const chunk = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		text +=
			ALPHABET.charAt(chunk >>> 18) +
			ALPHABET.charAt((chunk >>> 12) & 63) +
			ALPHABET.charAt((chunk >>> 6) & 63) +
			ALPHABET.charAt(chunk & 63);
	}
	const rest = bytes.length - i;
	if (rest === 1) {
		const chunk = (bytes[i] ?? 0) << 16;
		text += ALPHABET.charAt(chunk >>> 18) + ALPHABET.charAt((chunk >>> 12) & 63);
	} else if (rest === 2) {
		const chunk = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8);
		text +=
			ALPHABET.charAt(chunk >>> 18) +
			ALPHABET.charAt((chunk >>> 12) & 63) +
			ALPHABET.charAt((chunk >>> 6) & 63);
	}
	return text;
}

/** Why a text is not base64url: a character outside the alphabet, or a length that no byte
 * string encodes to (`length % 4 === 1`, the sign of a cut-off text). */
export type Base64UrlProblem = 'bad-character' | 'bad-length';

/**
 * The bytes of an unpadded base64url text. Trailing `=` padding is tolerated. Non-zero leftover
 * bits in the last character are ignored, as most decoders do.
 */
export function decodeBase64Url(
	text: string,
): { ok: true; bytes: Uint8Array } | { ok: false; problem: Base64UrlProblem; index: number } {
	const body = text.replace(/=+$/, '');
	for (let i = 0; i < body.length; i++) {
		const code = body.charCodeAt(i);
		if (code >= 128 || (VALUE_OF_CHAR_CODE[code] ?? -1) < 0) {
			return { ok: false, problem: 'bad-character', index: i };
		}
	}
	if (body.length % 4 === 1) return { ok: false, problem: 'bad-length', index: body.length };
	const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
	let out = 0;
	for (let i = 0; i < body.length; i += 4) {
		const a = VALUE_OF_CHAR_CODE[body.charCodeAt(i)] ?? 0;
		const b = VALUE_OF_CHAR_CODE[body.charCodeAt(i + 1)] ?? 0;
		const c = i + 2 < body.length ? (VALUE_OF_CHAR_CODE[body.charCodeAt(i + 2)] ?? 0) : 0;
		const d = i + 3 < body.length ? (VALUE_OF_CHAR_CODE[body.charCodeAt(i + 3)] ?? 0) : 0;
		const chunk = (a << 18) | (b << 12) | (c << 6) | d;
		bytes[out++] = chunk >>> 16;
		if (i + 2 < body.length) bytes[out++] = (chunk >>> 8) & 255;
		if (i + 3 < body.length) bytes[out++] = chunk & 255;
	}
	return { ok: true, bytes };
}
