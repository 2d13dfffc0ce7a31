import { describe, expect, it } from 'vitest';
import { decodeUtf8, encodeUtf8, encodeUtf8ByHand } from '../../../src/core/formats/utf8';

describe('encodeUtf8 / decodeUtf8', () => {
	it.each([
		['logits', [0x6c, 0x6f, 0x67, 0x69, 0x74, 0x73]],
		['é', [0xc3, 0xa9]],
		['€', [0xe2, 0x82, 0xac]],
		['😀', [0xf0, 0x9f, 0x98, 0x80]],
		['', []],
	])('%j ↔ %j', (text, bytes) => {
		expect([...encodeUtf8(text)]).toEqual(bytes);
		expect([...encodeUtf8ByHand(text)]).toEqual(bytes);
		expect(decodeUtf8(Uint8Array.from(bytes))).toBe(text);
	});

	it.each([['\ud800'], ['a\udc00b'], ['\ud83d']])(
		'a lone surrogate in %j becomes U+FFFD',
		(text) => {
			expect([...encodeUtf8(text)]).toEqual([...new TextEncoder().encode(text)]);
			expect([...encodeUtf8ByHand(text)]).toEqual([...new TextEncoder().encode(text)]);
			expect(decodeUtf8(encodeUtf8(text))).toBe(text.replace(/[\ud800-\udfff]/g, '\uFFFD'));
		},
	);

	it('agrees with TextEncoder / TextDecoder on every code point class', () => {
		const text = 'ASCII \u007f \u0080 \u07ff \u0800 \uffff \u{10000} \u{10ffff} Ġthe 日本語 🙂';
		expect([...encodeUtf8(text)]).toEqual([...new TextEncoder().encode(text)]);
		expect([...encodeUtf8ByHand(text)]).toEqual([...new TextEncoder().encode(text)]);
		expect(decodeUtf8(new TextEncoder().encode(text))).toBe(text);
	});

	it.each([
		[[0x61, 0xff, 0x62], 'a\uFFFDb'],
		[[0xc3], '\uFFFD'],
		[[0xe2, 0x82], '\uFFFD\uFFFD'],
	])('decodes the malformed bytes %j as %j', (bytes, text) => {
		expect(decodeUtf8(Uint8Array.from(bytes))).toBe(text);
	});

	it('the hand encoder agrees with the runtime one on random text of every plane', () => {
		let seed = 7;
		const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
		const units: number[] = [];
		for (let i = 0; i < 20_000; i++) {
			const pick = next() % 4;
			units.push(pick === 0 ? next() % 0x80 : pick === 1 ? next() % 0x800 : next() % 0x10000);
		}
		const text = String.fromCharCode(...units) + String.fromCodePoint(0x1f642, 0x10ffff);
		expect(encodeUtf8ByHand(text)).toEqual(new TextEncoder().encode(text));
	});
});
