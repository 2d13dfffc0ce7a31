/**
 * `serve`'s API key: read from a key file under a size cap, and compared with a request's
 * `Authorization: Bearer <key>` in constant time (over SHA-256 digests, so lengths leak nothing).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Largest key file read (bytes): a key is a line, not a document. */
export const MAX_API_KEY_FILE_BYTES = 4096;

function digest(text: string): Buffer {
	return createHash('sha256').update(text, 'utf8').digest();
}

/** Whether an `Authorization` header carries exactly `Bearer <key>` (constant time). */
export function authorizationMatches(header: string | undefined, key: string): boolean {
	const match = /^Bearer (.*)$/i.exec(header ?? '');
	const given = match?.[1] ?? '';
	// Both digests are computed either way, so a missing header takes the same path.
	return timingSafeEqual(digest(given), digest(key)) && match !== null;
}

/**
 * The key in a key file: its text without one final newline (`\n` or `\r\n`).
 * @throws RangeError when the file is over {@link MAX_API_KEY_FILE_BYTES}, holds more than one
 * line, or the key is empty (the message names the file, never the key).
 */
export async function readApiKeyFile(path: string): Promise<string> {
	const file = await open(path, 'r');
	let bytes: Buffer;
	try {
		const buffer = Buffer.alloc(MAX_API_KEY_FILE_BYTES + 1);
		const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
		if (bytesRead > MAX_API_KEY_FILE_BYTES) {
			throw new RangeError(`${path}: a key file holds at most ${MAX_API_KEY_FILE_BYTES} bytes.`);
		}
		bytes = buffer.subarray(0, bytesRead);
	} finally {
		await file.close();
	}
	const key = bytes.toString('utf8').replace(/\r?\n$/, '');
	if (key === '') throw new RangeError(`${path}: the key file is empty.`);
	if (/[\r\n]/.test(key)) throw new RangeError(`${path}: a key file holds one line.`);
	return key;
}
