// The platform's SHA-256 of a text (Web Crypto where the page has it) is the core's digest, with
// Web Crypto and without it (an insecure origin has none): ASCII, 2-, 3- and 4-byte UTF-8, a lone
// surrogate (U+FFFD, as TextEncoder writes it) and the empty text.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sha256Hex } from '../../../src/core/hash/sha256';
import { sha256HexOfText } from '../../../src/ui/io/platform-sha256';

const TEXTS = [
	'',
	'abc',
	'Ġword ▁mot ünïcödé',
	'漢字 🙂 emoji',
	'lone \ud800 surrogate',
	'x'.repeat(100_000),
];

describe('sha256HexOfText', () => {
	afterEach(() => vi.unstubAllGlobals());

	it('is the core sha256Hex by Web Crypto', async () => {
		expect(globalThis.crypto?.subtle).toBeDefined();
		for (const text of TEXTS) expect(await sha256HexOfText(text)).toBe(sha256Hex(text));
	});

	it('is the core sha256Hex where there is no Web Crypto', async () => {
		vi.stubGlobal('crypto', undefined);
		expect(globalThis.crypto).toBeUndefined();
		for (const text of TEXTS) expect(await sha256HexOfText(text)).toBe(sha256Hex(text));
	});
});
