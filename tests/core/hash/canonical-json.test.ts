import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/core/hash/canonical-json';

describe('canonicalJson', () => {
	it('sorts keys at every depth and drops undefined', () => {
		expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: undefined } })).toBe(
			'{"a":{"d":[2,{"e":0,"f":1}]},"b":1}',
		);
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
