import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import { buildResultFingerprint } from '../../../../src/core/syntaxgym/share/result-fingerprint';
import {
	MAX_SHARE_INFLATED_BYTES,
	MAX_SHARE_LINK_CHARS,
	SHARE_LINK_BUDGET_CHARS,
	packShareBody,
} from '../../../../src/core/share/share-codec';
import {
	compareVersions,
	decodeShareLink,
	encodeShareLink,
	formatShareUrl,
	isShareLink,
	type SharePayload,
} from '../../../../src/core/syntaxgym/share/share-link';
import { BUNDLED_MODEL, HUB_MODEL, SUITE_TEXT, makeResults } from './fixture-run';
import { SUITE_SHARE } from '../../../../src/core/syntaxgym/share/share-routes';

function makePayload(suiteText = SUITE_TEXT): SharePayload {
	return {
		appVersion: '0.1.0',
		suite: { kind: 'inline', text: suiteText },
		suiteSha256: sha256Hex(suiteText),
		model: BUNDLED_MODEL,
		convention: 'reference',
		results: buildResultFingerprint(makeResults()),
	};
}

/** Deterministic text that does not compress (xorshift32 over 75 printable characters). */
function noise(length: number, seed = 1): string {
	let state = seed;
	let text = '';
	for (let i = 0; i < length; i++) {
		state ^= state << 13;
		state ^= state >>> 17;
		state ^= state << 5;
		text += String.fromCharCode(48 + ((state >>> 8) % 75));
	}
	return text;
}

function encodeOrFail(payload: SharePayload, options = {}) {
	const encoded = encodeShareLink(payload, options);
	if (!encoded.ok) throw encoded.error;
	return encoded;
}

/** A format-2 suite link of any body text; an object body gets the codec's `kind` first. */
function packShareFragment(bodyJson: string): string {
	const body = bodyJson.startsWith('{') ? `{"kind":"suite",${bodyJson.slice(1)}` : bodyJson;
	return packShareBody(SUITE_SHARE, 2, body);
}

function kindOf(input: string): string {
	const decoded = decodeShareLink(input);
	return decoded.ok ? 'ok' : decoded.error.kind;
}

describe('encodeShareLink → decodeShareLink', () => {
	it('round-trips a payload exactly', () => {
		const payload = makePayload();
		const encoded = encodeOrFail(payload);
		expect(encoded).toMatchObject({ suite: 'inline', values: 'all-regions' });
		expect(encoded.fragment).toMatch(/^\/share\/2\/[A-Za-z0-9_-]+$/);
		expect(decodeShareLink(encoded.fragment)).toEqual({ ok: true, payload, notes: [] });
	});

	it('carries the word-boundary option; a link without it (older links) reads without it', () => {
		const payload: SharePayload = { ...makePayload(), wordBoundaries: true };
		const decoded = decodeShareLink(encodeOrFail(payload).fragment);
		expect(decoded).toEqual({ ok: true, payload, notes: [] });
		// A body written as format 1 was before the option existed: no field at all.
		const { wordBoundaries: _option, ...older } = payload;
		const olderDecoded = decodeShareLink(packShareBody(SUITE_SHARE, 1, JSON.stringify(older)));
		expect(olderDecoded).toEqual({ ok: true, payload: makePayload(), notes: [] });
	});

	it('reads a full URL, a #hash and a bare fragment alike', () => {
		const payload = { ...makePayload(), model: HUB_MODEL, convention: 'bos+eos' as const };
		const { fragment } = encodeOrFail(payload);
		const url = formatShareUrl('https://example.org/benchtop/?x=1#/results/3', fragment);
		expect(url).toBe(`https://example.org/benchtop/?x=1#${fragment}`);
		for (const input of [url, `#${fragment}`, fragment, `  ${url}\n`]) {
			expect(decodeShareLink(input)).toEqual({ ok: true, payload, notes: [] });
		}
	});

	it('carries suite text as plain data, whatever it contains', () => {
		const text = '{"meta":{"name":"<script>alert(1)</script> naïve — ü 😀"},"x":"${1+1}"}';
		const payload = makePayload(text);
		const decoded = decodeShareLink(encodeOrFail(payload).fragment);
		expect(decoded.ok && decoded.payload.suite).toEqual({ kind: 'inline', text });
	});

	it('drops the full region values first when the link would be too long', () => {
		const payload = makePayload();
		const full = encodeOrFail(payload).fragment.length;
		const encoded = encodeOrFail(payload, { maxFragmentChars: full - 1 });
		expect(encoded).toMatchObject({ suite: 'inline', values: 'key-regions' });
		const decoded = decodeShareLink(encoded.fragment);
		expect(decoded.ok && decoded.payload.results.values).toBeUndefined();
		expect(decoded.ok && decoded.payload.results.keyValues).toEqual(payload.results.keyValues);
	});

	it('puts the suite in as its URL when the inline suite is too long', () => {
		const payload = makePayload(noise(40_000));
		const encoded = encodeOrFail(payload, { suiteUrl: 'https://example.org/suites/big.json' });
		expect(encoded).toMatchObject({ suite: 'url', values: 'all-regions' });
		expect(encoded.fragment.length).toBeLessThanOrEqual(SHARE_LINK_BUDGET_CHARS);
		const decoded = decodeShareLink(encoded.fragment);
		expect(decoded.ok && decoded.payload.suite).toEqual({
			kind: 'url',
			url: 'https://example.org/suites/big.json',
		});
		expect(decoded.ok && decoded.payload.suiteSha256).toBe(payload.suiteSha256);
	});

	it.each([
		['no suite URL', {}],
		['a suite URL that is not http(s)', { suiteUrl: 'javascript:alert(1)' }],
	])('says "too large, download the run bundle" when nothing fits (%s)', (_, options) => {
		const encoded = encodeShareLink(makePayload(noise(40_000)), options);
		expect(encoded.ok).toBe(false);
		if (encoded.ok) return;
		expect(encoded.error.kind).toBe('too-large');
		expect(encoded.error.message).toMatch(/too large for a link.*Download the run bundle/);
	});

	it.each<[string, Partial<SharePayload>, RegExp]>([
		[
			'an unpinned hub revision',
			{ model: { ...HUB_MODEL, revision: 'main' } },
			/\/model\/revision/,
		],
		[
			'a hub model without revision',
			{ model: { source: 'hub', id: 'x/y', dtype: 'fp32', backend: 'wasm' } },
			/commit hash/,
		],
		['a bad suite hash', { suiteSha256: 'abc' }, /\/suiteSha256/],
		[
			'a suite URL that is not http(s)',
			{ suite: { kind: 'url', url: 'file:///etc/passwd' } },
			/\/suite\/url/,
		],
	])('refuses to encode %s', (_, change, message) => {
		const encoded = encodeShareLink({ ...makePayload(), ...change });
		expect(encoded.ok).toBe(false);
		expect(!encoded.ok && encoded.error.kind).toBe('invalid-payload');
		expect(!encoded.ok && encoded.error.message).toMatch(message);
	});
});

describe('decodeShareLink errors', () => {
	const { fragment } = encodeOrFail(makePayload());
	const prefix = '/share/2/';
	const data = fragment.slice(prefix.length);

	it.each([
		['', 'not-a-share-link'],
		['https://example.org/#/results/3', 'not-a-share-link'],
		['https://example.org/', 'not-a-share-link'],
		['/share/', 'truncated'],
		['/share/1', 'truncated'],
		['/share/1/', 'truncated'],
		['/share/2/', 'truncated'],
		['/share/x/AAAA', 'tampered'],
		['/share/3/AAAA', 'newer-version'],
		['/share/17/anything', 'newer-version'],
		['/share/2/abc!def', 'tampered'],
		['#/evals/share/2/AAAA', 'not-a-share-link'],
		[`/share/2/${'A'.repeat(MAX_SHARE_LINK_CHARS)}`, 'too-large'],
	])('%j → %s', (input, kind) => {
		expect(kindOf(input)).toBe(kind);
	});

	it('says "truncated" for every cut-off prefix of a link', () => {
		for (let length = prefix.length; length < fragment.length; length++) {
			expect([length, kindOf(fragment.slice(0, length))]).toEqual([length, 'truncated']);
		}
	});

	it('says "tampered" when a character of the data is changed', () => {
		for (const share of [0, 0.1, 0.25, 0.5, 0.75, 0.9]) {
			const index = Math.floor(share * (data.length - 2));
			const replacement = data[index] === 'Q' ? 'R' : 'Q';
			const changed = prefix + data.slice(0, index) + replacement + data.slice(index + 1);
			expect([share, kindOf(changed)]).toEqual([share, 'tampered']);
		}
	});

	it('says "tampered" when data is appended', () => {
		expect(kindOf(`${fragment}AAAA`)).toBe('tampered');
	});

	it('says "newer-version" with both format numbers in the message', () => {
		const decoded = decodeShareLink('https://example.org/#/share/3/AAAA');
		expect(!decoded.ok && decoded.error.message).toMatch(
			/newer version of Benchtop.*format 3.*format 2/,
		);
	});

	it.each<[string, string, RegExp]>([
		['not JSON', 'not json', /no readable data/],
		['a list', '[]', /\/ is not an object/],
		[
			'an unknown model source',
			JSON.stringify({ ...makePayload(), model: { ...BUNDLED_MODEL, source: 'ftp' } }),
			/\/model\/source/,
		],
		[
			'an unknown convention',
			JSON.stringify({ ...makePayload(), convention: 'eval' }),
			/\/convention/,
		],
		[
			'outcomes that do not match the items',
			JSON.stringify({
				...makePayload(),
				results: { ...makePayload().results, predictionCount: 9 },
			}),
			/\/results\/outcomes/,
		],
		[
			'a fractional value',
			JSON.stringify({
				...makePayload(),
				results: {
					...makePayload().results,
					keyValues: [
						[1.5, 0, 0, 0, 0, 0],
						[0, 0, 0, 0, 0, 0],
					],
				},
			}),
			/\/results\/keyValues\/0\/0/,
		],
	])('says "malformed" for a well-packed body with %s', (_, body, message) => {
		const decoded = decodeShareLink(packShareFragment(body));
		expect(!decoded.ok && decoded.error.kind).toBe('malformed');
		expect(!decoded.ok && decoded.error.message).toMatch(message);
	});

	it('does not let a __proto__ key reach any prototype', () => {
		const body = JSON.stringify(makePayload()).replace('{', '{"__proto__":{"polluted":true},');
		const decoded = decodeShareLink(packShareFragment(body));
		expect(decoded.ok).toBe(true);
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
		expect(decoded.ok && Object.getPrototypeOf(decoded.payload)).toBe(Object.prototype);
	});

	it('says "too-large" for a small link that unpacks to more than the cap', () => {
		const bomb = packShareFragment(JSON.stringify({ pad: 'a'.repeat(MAX_SHARE_INFLATED_BYTES) }));
		expect(bomb.length).toBeLessThan(SHARE_LINK_BUDGET_CHARS);
		expect(kindOf(bomb)).toBe('too-large');
	});

	it('never throws, whatever is changed in a link', () => {
		let state = 7;
		const next = (n: number) => {
			state ^= state << 13;
			state ^= state >>> 17;
			state ^= state << 5;
			return (state >>> 8) % n;
		};
		const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/#%!';
		for (let trial = 0; trial < 300; trial++) {
			const chars = [...fragment];
			for (let edits = 1 + next(3); edits > 0; edits--) {
				chars[next(chars.length)] = alphabet[next(alphabet.length)] ?? 'A';
			}
			const changed = chars.join('');
			expect(() => decodeShareLink(changed)).not.toThrow();
		}
	});
});

describe('decodeShareLink notes', () => {
	const { fragment } = encodeOrFail(makePayload());
	it.each([
		['0.0.9', 1],
		['0.1.0', 0],
		['0.2.0', 0],
		[undefined, 0],
	])('with this app at %s: %d note(s)', (appVersion, count) => {
		const decoded = decodeShareLink(fragment, appVersion === undefined ? {} : { appVersion });
		expect(decoded.ok && decoded.notes.length).toBe(count);
	});
});

describe('compareVersions', () => {
	it.each([
		['0.1.0', '0.1.0', 0],
		['0.10.0', '0.9.1', 1],
		['1.0.0', '1.0.1', -1],
		['1.2', '1.2.0', 0],
		['2.0.0-beta.1', '2.0.0', 0],
	])('%s vs %s → %d', (a, b, expected) => {
		expect(compareVersions(a, b)).toBe(expected);
	});
});

describe('isShareLink', () => {
	it.each([
		['https://x.org/#/share/1/abc', true],
		['#/share/1/abc', true],
		['/share/1/abc', true],
		['#/results/1', false],
		['https://x.org/share/1/abc', false],
	])('%j → %s', (input, expected) => {
		expect(isShareLink(input)).toBe(expected);
	});
});
