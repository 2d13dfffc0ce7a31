/**
 * SHA-256 and SHA-512 over @noble/hashes (pure JavaScript, the one module that imports it): suite
 * fingerprints and cache keys must be the same in the app (any origin, secure or not), a worker and
 * the CLI, so no Web Crypto here.
 */
import { sha256, sha512 as nobleSha512 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeUtf8 } from '../formats/utf8';

/** UTF-8 bytes of `text` (the core's one encoder, re-exported for the hash's users). */
export { encodeUtf8 };

/** A SHA-256 as this module writes it: 64 lowercase hex digits. */
export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** SHA-256 of `bytes` as 64 lowercase hex digits. */
export function sha256HexOfBytes(bytes: Uint8Array): string {
	return bytesToHex(sha256(bytes));
}

/** SHA-256 of `text`'s UTF-8 bytes as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
	return sha256HexOfBytes(encodeUtf8(text));
}

/** SHA-512 digest (64 bytes) of `message`. */
export function sha512(message: Uint8Array): Uint8Array {
	return nobleSha512(message);
}
