// The one share-link codec: every kind's payload round-trips with its kind; the inflated size is
// capped while inflating (a lying header or a headerless 0.1.0 link cannot get past it); the
// link's characters are capped on reading and budgeted on making; errors say what to do.
import { deflateSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sha256HexOfBytes } from '../../../src/core/hash/sha256';
import { encodeBase64Url } from '../../../src/core/share/base64url';
import {
	MAX_SHARE_INFLATED_BYTES,
	MAX_SHARE_LINK_CHARS,
	SHARE_LINK_BUDGET_CHARS,
	encodeShareFragment,
	inflateCapped,
	packShareBody,
	packShareFragment,
	shareRouteOf,
	unpackShareLink,
	type ShareRoute,
} from '../../../src/core/share/share-codec';
import { EVALS_SHARE } from '../../../src/core/evals/evals-share-payload';
import { LTM_SHARE } from '../../../src/core/ltm/share-payload';
import { BATTERY_SHARE, SUITE_SHARE } from '../../../src/core/syntaxgym/share/share-routes';

/** Each family's link route, as its folder declares it. */
const ROUTES: Readonly<Record<'suite' | 'battery' | 'evals' | 'ltm', ShareRoute>> = {
	suite: SUITE_SHARE,
	battery: BATTERY_SHARE,
	evals: EVALS_SHARE,
	ltm: LTM_SHARE,
};
const ALL_ROUTES = Object.values(ROUTES);

const KINDS = [
	['suite', '/share/'],
	['evals', '/evals/share/'],
	['ltm', '/memory/share/'],
] as const;

/** `length` bytes of one value: the best case for DEFLATE (about 1,000 to 1). */
const zeros = (length: number) => new Uint8Array(length).fill(48);

let bombBytes: Uint8Array | undefined;
/** Raw DEFLATE of one byte more than the cap (made once: about 16 KiB). */
function bomb(): Uint8Array {
	bombBytes ??= deflateSync(zeros(MAX_SHARE_INFLATED_BYTES + 1));
	return bombBytes;
}

function errorOf(input: string, expected?: 'suite' | 'evals' | 'ltm') {
	const unpacked = unpackShareLink(
		input,
		expected === undefined ? ALL_ROUTES : ROUTES[expected],
		ALL_ROUTES,
	);
	if (unpacked.ok) throw new Error('expected a refusal');
	return unpacked.error;
}

describe('packShareFragment → unpackShareLink', () => {
	it.each(KINDS)('round-trips a %s payload under its route, kind first', (kind, route) => {
		const payload = { name: 'naïve — ü 😀', values: [1, null, 0.1 + 0.2] };
		const fragment = packShareFragment(ROUTES[kind], payload);
		expect(fragment.startsWith(`${route}2/`)).toBe(true);
		expect(shareRouteOf(`https://example.org/app/#${fragment}`, ALL_ROUTES)?.kind).toBe(kind);
		const unpacked = unpackShareLink(`#${fragment}`, ROUTES[kind]);
		expect(unpacked).toEqual({ ok: true, kind, version: 2, json: { kind, ...payload } });
		expect(Object.keys(unpacked.ok ? (unpacked.json as object) : {})[0]).toBe('kind');
	});

	it('reads the links of 0.1.0: suite format 1, and Evals and Memory data without a frame', () => {
		const body = { v: 1, name: 'x' };
		expect(
			unpackShareLink(packShareBody(ROUTES.suite, 1, JSON.stringify(body)), ALL_ROUTES),
		).toEqual({
			ok: true,
			kind: 'suite',
			version: 1,
			json: body,
		});
		const bare = encodeBase64Url(deflateSync(new TextEncoder().encode(JSON.stringify(body))));
		for (const [kind, route] of KINDS.slice(1)) {
			expect(unpackShareLink(`${route}${bare}`, ALL_ROUTES)).toEqual({
				ok: true,
				kind,
				version: 0,
				json: body,
			});
		}
	});

	it('refuses a format-2 body that names no kind, or another kind', () => {
		expect(errorOf(packShareBody(ROUTES.evals, 2, '{"v":1}')).message).toMatch(
			/\/kind is not "evals"/,
		);
		expect(errorOf(packShareBody(ROUTES.evals, 2, '{"kind":"ltm"}')).message).toBe(
			'This link holds a Memory run, not an Evals run: open it as it was shared.',
		);
		expect(errorOf(packShareBody(ROUTES.evals, 2, '[1]')).message).toMatch(/\/ is not an object/);
	});
});

describe('the inflated-size cap', () => {
	it('is checked while inflating: up to the cap unpacks, one byte more stops', () => {
		const compressed = deflateSync(zeros(100_000));
		const body = inflateCapped(compressed, 100_000);
		expect([body.length, body.every((byte) => byte === 48)]).toEqual([100_000, true]);
		expect(() => inflateCapped(compressed, 99_999)).toThrow(/unpacks to more than/);
	});

	it('stops a framed link whose header lies about its size at the size it states', () => {
		// A frame around the bomb that claims a 2-byte body, checksum fixed, as a hostile link would.
		const compressed = bomb();
		const bytes = new Uint8Array(13 + compressed.length);
		bytes[4] = 2;
		bytes.set([0, 0, 0, 2], 5);
		bytes.set(
			[24, 16, 8, 0].map((shift) => (compressed.length >>> shift) & 255),
			9,
		);
		bytes.set(compressed, 13);
		const hex = sha256HexOfBytes(bytes.subarray(4));
		bytes.set(
			[0, 2, 4, 6].map((at) => parseInt(hex.slice(at, at + 2), 16)),
			0,
		);
		const lying = `/evals/share/2/${encodeBase64Url(bytes)}`;
		expect(lying.length).toBeLessThan(SHARE_LINK_BUDGET_CHARS);
		// Inflating stops just past the 2 bytes it claims: the link was changed.
		const error = errorOf(lying);
		expect([error.kind, error.message]).toEqual([
			'tampered',
			'This share link is damaged: its data does not unpack.',
		]);
	});

	it('stops a headerless (0.1.0) Memory link that unpacks past the cap', () => {
		const data = encodeBase64Url(bomb());
		const error = errorOf(`#/memory/share/${data}`, 'ltm');
		expect([error.kind, data.length < SHARE_LINK_BUDGET_CHARS]).toEqual(['too-large', true]);
	});

	it('refuses a header that claims more than the cap before inflating anything', () => {
		const error = errorOf(packShareBody(ROUTES.suite, 2, 'x'.repeat(MAX_SHARE_INFLATED_BYTES + 1)));
		expect([error.kind, error.message]).toEqual([
			'too-large',
			'This link unpacks to more than 16 MiB, more than a share link may hold, so it was not opened. Ask for the run bundle instead.',
		]);
	});
});

describe('the link size budget and the read cap', () => {
	it('makes links up to the budget and refuses longer ones, saying to share the run bundle', () => {
		const small = encodeShareFragment(ROUTES.evals, { text: 'a' });
		expect(small.ok).toBe(true);
		const noisy = Array.from({ length: 4000 }, (_, i) => (i * 2654435761) % 1e9);
		const big = encodeShareFragment(ROUTES.evals, { noisy }, 1000);
		expect(big.ok).toBe(false);
		if (big.ok) return;
		expect(big.error.kind).toBe('too-large');
		expect(big.error.message).toMatch(
			/^This run is too large for a link: the link would be [\d,]+ characters, more than the 1,000 a link may have\. Download the run bundle and share the file instead\.$/,
		);
	});

	it('refuses to read a link longer than the read cap, before decoding it', () => {
		const error = errorOf(`/evals/share/${'A'.repeat(MAX_SHARE_LINK_CHARS)}`);
		expect(error.kind).toBe('too-large');
		expect(error.message).toMatch(/characters long, more than the 2,097,152 a link may have/);
	});

	it.each([
		['', 'not-a-share-link'],
		['#/results/3', 'not-a-share-link'],
		['/evals/share/', 'truncated'],
		['/evals/share/2', 'truncated'],
		['/evals/share/3/AAAA', 'newer-version'],
		[packShareBody(ROUTES.evals, 1, '{"v":1}'), 'tampered'],
		['/memory/share/2/AAAA', 'truncated'],
		[`/memory/share/2/${'A'.repeat(40)}`, 'tampered'],
		['/memory/share/ab$d', 'tampered'],
	])('%j → %s', (input, kind) => {
		expect(errorOf(input).kind).toBe(kind);
	});
});
