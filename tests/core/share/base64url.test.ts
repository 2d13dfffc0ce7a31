import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from '../../../src/core/share/base64url';

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

describe('encodeBase64Url', () => {
	// RFC 4648 §10 test vectors, unpadded, plus the two characters that differ from base64.
	it.each([
		['', ''],
		['f', 'Zg'],
		['fo', 'Zm8'],
		['foo', 'Zm9v'],
		['foob', 'Zm9vYg'],
		['fooba', 'Zm9vYmE'],
		['foobar', 'Zm9vYmFy'],
	])('%j → %j', (input, expected) => {
		expect(encodeBase64Url(ascii(input))).toBe(expected);
	});

	it('uses - and _ instead of + and /', () => {
		expect(encodeBase64Url(Uint8Array.from([0xfb, 0xff, 0xbf]))).toBe('-_-_');
		expect(encodeBase64Url(Uint8Array.from([0xfb, 0xff]))).toBe('-_8');
	});
});

describe('decodeBase64Url', () => {
	it.each([
		['', ''],
		['Zg', 'f'],
		['Zg==', 'f'],
		['Zm8', 'fo'],
		['Zm9vYmFy', 'foobar'],
	])('%j → %j', (input, expected) => {
		const decoded = decodeBase64Url(input);
		expect(decoded).toEqual({ ok: true, bytes: ascii(expected) });
	});

	it.each([
		['Zm9v!', 'bad-character', 4],
		['Zm9v+A', 'bad-character', 4],
		['Zm 9v', 'bad-character', 2],
		['Zm9vé', 'bad-character', 4],
		['Z', 'bad-length', 1],
		['Zm9vY', 'bad-length', 5],
	])('%j is refused (%s at %d)', (input, problem, index) => {
		expect(decodeBase64Url(input)).toEqual({ ok: false, problem, index });
	});

	it('round-trips every length from 0 to 64 bytes and every byte value', () => {
		for (let length = 0; length <= 64; length++) {
			const bytes = Uint8Array.from({ length }, (_, index) => (index * 37 + length * 11) & 255);
			expect(decodeBase64Url(encodeBase64Url(bytes))).toEqual({ ok: true, bytes });
		}
		const all = Uint8Array.from({ length: 256 }, (_, index) => index);
		expect(decodeBase64Url(encodeBase64Url(all))).toEqual({ ok: true, bytes: all });
	});
});
