import { describe, expect, it } from 'vitest';
import { sha256Hex, sha256HexOfBytes, sha512 } from '../../../src/core/hash/sha256';

describe('sha256Hex', () => {
	// FIPS 180-4 / NIST example vectors, plus multi-block and non-ASCII inputs.
	it.each([
		['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
		['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
		[
			'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
			'248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
		],
		[
			'The quick brown fox jumps over the lazy dog',
			'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
		],
		['a'.repeat(1000), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3'],
	])('hashes %j', (text, expected) => {
		expect(sha256Hex(text)).toBe(expected);
	});

	it('hashes the UTF-8 bytes, as Node crypto does', async () => {
		const { createHash } = await import('node:crypto');
		for (const text of ['naïve café', '日本語の文', '🙂 emoji', 'x'.repeat(55), 'y'.repeat(64)]) {
			expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
		}
	});
});

describe('sha256HexOfBytes', () => {
	it('agrees with sha256HexOfBytes on raw bytes', () => {
		expect(sha256HexOfBytes(new Uint8Array([0x61, 0x62, 0x63]))).toBe(sha256Hex('abc'));
	});
});

describe('sha512', () => {
	it('FIPS 180-4 test vector "abc"', () => {
		const hex = Array.from(sha512(new Uint8Array([0x61, 0x62, 0x63])), (b) =>
			b.toString(16).padStart(2, '0'),
		).join('');
		expect(hex).toBe(
			'ddaf35a193617abacc417349ae204131' +
				'12e6fa4e89a97ea20a9eeee64b55d39a' +
				'2192992a274fc1a836ba3c23a3feebbd' +
				'454d4423643ce80e2a9ac94fa54ca49f',
		);
	});

	it('a 200-byte message spans two blocks', () => {
		// Expected: Python's hashlib.sha512(b'x' * 200).hexdigest().
		const hex = Array.from(sha512(new TextEncoder().encode('x'.repeat(200))), (b) =>
			b.toString(16).padStart(2, '0'),
		).join('');
		expect(hex).toBe(
			'ef978e23dc520404ae16fd17bde9ee5945610d671551d6863a5ffbc99433fc726726e51f989b886191be9325b8f8b03b1a63fe3e5eff23d126c2f41f07d2bf87',
		);
	});
});
