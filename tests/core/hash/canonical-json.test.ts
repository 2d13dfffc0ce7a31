import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/hash/canonical-json';

describe('canonicalJson', () => {
	it('sorts keys at every depth and drops undefined', () => {
		expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe(
			'{"a":{"d":[2,{"e":0,"f":1}]},"b":1}',
		);
	});

	it('sorts array-index keys as strings too ("10" before "9"), at any depth', () => {
		// JavaScript lists such keys first, numerically: the text must not follow that order.
		expect(canonicalJson({ b: { 9: 'x', 10: 'y', a: 1 }, a: [undefined, { 2: 0, 1: 0 }] })).toBe(
			'{"a":[null,{"1":0,"2":0}],"b":{"10":"y","9":"x","a":1}}',
		);
		expect(canonicalJson({ '01': 1, 1: 2, Z: 3, _: 4 })).toBe('{"01":1,"1":2,"Z":3,"_":4}');
	});

	it('writes what JSON.stringify writes for values without keys to sort', () => {
		for (const value of [null, 0, -0, 1e21, 'é\u2028"', true, [], {}, [1, 'a', null]]) {
			expect(canonicalJson(value)).toBe(JSON.stringify(value));
		}
		expect(canonicalJson(undefined)).toBe('null');
		expect(canonicalJson(Number.NaN)).toBe('null');
	});
});

describe('canonicalJson of parsed JSON', () => {
	it('gives the same text for the same values whatever the key order or spacing', () => {
		const a = JSON.parse('{"b": [1.5, 2e-7, {"y": null, "x": "é"}], "a": true}') as unknown;
		const b = JSON.parse('{"a":true,"b":[1.50,0.0000002,{"x":"\\u00e9","y":null}]}') as unknown;
		expect(canonicalJson(a)).toBe(canonicalJson(b));
		expect(canonicalJson(a)).not.toBe(
			canonicalJson({ a: true, b: [1.5, 2e-7, { x: 'e', y: null }] }),
		);
	});
});
