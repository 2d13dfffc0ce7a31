// Battery share links: a battery's runs make a payload (bundled suites by name and SHA-256,
// others inline, one model and convention, each suite's accuracy and fingerprint) that
// round-trips through the one codec under its own route; a link over the budget says by how
// much; every hostile link is refused with a message; a loaded suite must match its SHA-256; a
// reproduction is compared suite by suite.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../../../src/core/kinds/registered-kinds';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import type { EndpointModelSpec } from '../../../../src/core/model/model-spec';
import type { SuiteRun } from '../../../../src/core/run/run-types';
import {
	SHARE_LINK_BUDGET_CHARS,
	packShareFragment,
	shareRouteOf,
	unpackShareLink,
} from '../../../../src/core/share/share-codec';
import {
	MAX_BATTERY_SUITES,
	MAX_INLINE_SUITE_CHARS,
	buildBatterySharePayload,
	compareBatterySuite,
	decodeBatteryShare,
	encodeBatteryShare,
	readBatterySuiteText,
	sharedItemAccuracy,
	type BatteryRunToShare,
	type BatterySharePayload,
} from '../../../../src/core/syntaxgym/share/battery-share';
import { decodeShareLink } from '../../../../src/core/syntaxgym/share/share-link';
import { BUNDLED_MODEL, HUB_MODEL, makeResults, makeSuite } from './fixture-run';
import { BATTERY_SHARE, SUITE_SHARE } from '../../../../src/core/syntaxgym/share/share-routes';

const BUNDLED_FILE = 'garden-path-npz.json';
const BUNDLED_TEXT = readFileSync(`suites/${BUNDLED_FILE}`, 'utf8');
const INLINE_TEXT = '{"meta":{"name":"fixture"},"inline":true}';
const BATTERY_ID = '0b7e2a64-5f0c-4c8e-9a37-2d1f6e8b9c10';

function makeRun(index: number, suiteText: string, overrides: Partial<SuiteRun> = {}): SuiteRun {
	return {
		id: index + 1,
		suiteSha256: sha256Hex(suiteText),
		suiteName: `fixture ${index}`,
		model: BUNDLED_MODEL,
		convention: 'reference',
		itemCount: 2,
		battery: { id: BATTERY_ID, index, size: 2 },
		appVersion: '0.3.0',
		createdAt: 1,
		status: 'done',
		itemsDone: 2,
		updatedAt: 2,
		scoringMs: 3,
		tokenCount: 4,
		...overrides,
	};
}

/** A battery of two runs: one of a bundled suite, one of an inline suite. */
function batteryRuns(overrides: Partial<SuiteRun> = {}): BatteryRunToShare[] {
	return [
		{
			run: makeRun(0, BUNDLED_TEXT, overrides),
			suiteText: BUNDLED_TEXT,
			results: makeResults(),
			bundledFile: BUNDLED_FILE,
		},
		{ run: makeRun(1, INLINE_TEXT, overrides), suiteText: INLINE_TEXT, results: makeResults() },
	];
}

function encodeOrFail(payload: BatterySharePayload, budget?: number) {
	const encoded = encodeBatteryShare(payload, budget);
	if (!encoded.ok) throw encoded.error;
	return encoded;
}

/** The message a link is refused with (fails the test when it opens). */
function refusal(fragment: string, bundledFiles?: readonly string[]): string {
	const decoded = decodeBatteryShare(fragment, bundledFiles ? { bundledFiles } : {});
	if (decoded.ok) throw new Error('expected a refusal');
	return decoded.error.message;
}

/** A battery link of the valid payload with `change` applied to its JSON (a hand-made link). */
function hostile(change: (json: Record<string, unknown>) => void): string {
	const json = JSON.parse(JSON.stringify(buildBatterySharePayload(batteryRuns()))) as Record<
		string,
		unknown
	>;
	change(json);
	return packShareFragment(BATTERY_SHARE, json);
}

describe('battery link round trip', () => {
	it('carries bundled suites by name, others inline, and opens to the same payload', () => {
		const payload = buildBatterySharePayload(batteryRuns({ wordBoundaries: true }));
		expect(payload.suites.map((suite) => suite.source)).toEqual([
			{ kind: 'bundled', file: BUNDLED_FILE },
			{ kind: 'inline', text: INLINE_TEXT },
		]);
		expect(payload.wordBoundaries).toBe(true);
		const encoded = encodeOrFail(payload);
		expect(encoded.fingerprints).toBe(true);
		expect(encoded.fragment.startsWith('/share/battery/2/')).toBe(true);
		// The bundled suite's 16 kB text is not in the link.
		expect(encoded.fragment.length).toBeLessThan(2000);
		expect(
			shareRouteOf(`https://example.org/app/#${encoded.fragment}`, [SUITE_SHARE, BATTERY_SHARE])
				?.kind,
		).toBe('battery');
		const decoded = decodeBatteryShare(`https://example.org/app/#${encoded.fragment}`, {
			bundledFiles: [BUNDLED_FILE],
		});
		expect(decoded).toEqual({ ok: true, payload });
		const any = RUN_KIND_REGISTRY.decodeShareLink(`#${encoded.fragment}`);
		expect(any.ok && any.kind).toBe('battery');
	});

	it('records each suite accuracy as the matrix counts it, and keeps a pinned hub model', () => {
		const runs = batteryRuns({ model: HUB_MODEL, convention: 'bos' });
		const payload = buildBatterySharePayload(runs);
		expect(payload.suites[0]?.accuracy).toEqual(sharedItemAccuracy(makeResults()));
		// Prediction 0 (the SG rule), noun a < noun b: item 1 (7.12 < 9.88) holds, item 2 (11.0 <
		// 10.5) does not.
		expect(payload.suites[0]?.accuracy).toEqual({ correct: 1, items: 2 });
		const decoded = decodeBatteryShare(encodeOrFail(payload).fragment);
		expect(decoded.ok && decoded.payload.model).toEqual(HUB_MODEL);
		expect(decoded.ok && decoded.payload.convention).toBe('bos');
	});

	it('carries an endpoint as its base URL and model, and never a key', () => {
		const endpoint = {
			source: 'openai',
			model: 'gpt2',
			baseUrl: 'http://127.0.0.1:8000/v1',
			apiKey: 'sk-secret',
		} as EndpointModelSpec;
		const encoded = encodeOrFail(buildBatterySharePayload(batteryRuns({ model: endpoint })));
		const unpacked = unpackShareLink(encoded.fragment, BATTERY_SHARE);
		expect(JSON.stringify(unpacked.ok && unpacked.json)).not.toContain('sk-secret');
		const decoded = decodeBatteryShare(encoded.fragment);
		expect(decoded.ok && decoded.payload.model).toEqual({
			source: 'openai',
			model: 'gpt2',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
	});

	it('keeps suite links opening as suite links, and each decoder refuses the other kind', () => {
		const battery = encodeOrFail(buildBatterySharePayload(batteryRuns())).fragment;
		const suite = decodeShareLink(battery);
		expect(suite.ok ? 'opened' : suite.error.message).toBe(
			'This link holds a battery, not a suite run.',
		);
		const suiteLink = packShareFragment(SUITE_SHARE, { appVersion: '0.1.0' });
		expect(shareRouteOf(suiteLink, [SUITE_SHARE, BATTERY_SHARE])?.kind).toBe('suite');
		expect(refusal(suiteLink)).toBe('This is not a battery share link.');
	});

	it('reads a battery link without a version as cut off (no 0.1.0 battery links exist)', () => {
		const decoded = decodeBatteryShare('/share/battery/AAAAAAAA');
		expect(decoded.ok ? 'opened' : decoded.error.message).toBe(
			'This share link is cut off: copy the whole link.',
		);
	});
});

describe('the link budget', () => {
	it('drops the fingerprints before giving up, and then says how far over it is', () => {
		const payload = buildBatterySharePayload(batteryRuns());
		const full = encodeOrFail(payload).fragment.length;
		const lean = encodeOrFail({
			...payload,
			suites: payload.suites.map(({ results: _results, ...suite }) => suite),
		}).fragment.length;
		expect(lean).toBeLessThan(full);
		const dropped = encodeOrFail(payload, lean);
		expect(dropped.fingerprints).toBe(false);
		expect(dropped.fragment.length).toBe(lean);
		const refused = encodeBatteryShare(payload, lean - 10);
		expect(refused.ok ? 'made' : refused.error.message).toMatch(
			/^This battery's suites are too large for a link: 10 characters over the [\d,]+ a link may have \(1 of its 2 suites/,
		);
	});

	it('refuses a battery of large inline suites at the default budget', () => {
		const text = Array.from({ length: 40_000 }, (_, i) => ((i * 7919) % 65_521).toString(36)).join(
			' ',
		);
		const runs = batteryRuns();
		const big = { ...runs[1]!, run: makeRun(1, text), suiteText: text };
		const refused = encodeBatteryShare(buildBatterySharePayload([runs[0]!, big]));
		expect(refused.ok).toBe(false);
		if (refused.ok) return;
		expect(refused.error.kind).toBe('too-large');
		const over = Number(
			/: ([\d,]+) characters over/.exec(refused.error.message)?.[1]?.replace(/,/g, ''),
		);
		expect(over).toBeGreaterThan(0);
		expect(SHARE_LINK_BUDGET_CHARS).toBe(32 * 1024);
	});

	it('refuses to make a link it could not open (a hub model not pinned to a commit)', () => {
		const unpinned = { ...HUB_MODEL, revision: 'main' };
		const refused = encodeBatteryShare(buildBatterySharePayload(batteryRuns({ model: unpinned })));
		expect(refused.ok ? 'made' : refused.error.message).toMatch(
			/^Cannot share this battery: .*model: \/model\/revision a hub model must be pinned/,
		);
	});
});

describe('hostile battery links are refused with a message', () => {
	it.each([
		['suites that are not a list', (json: Record<string, unknown>) => (json['suites'] = 'x')],
		['an unknown convention', (json: Record<string, unknown>) => (json['convention'] = 'eos')],
		['a wrong model', (json: Record<string, unknown>) => (json['model'] = { source: 'exe' })],
		[
			'an accuracy of the wrong type',
			(json: Record<string, unknown>) =>
				((json['suites'] as Record<string, unknown>[])[0]!['accuracy'] = '2/2'),
		],
		[
			'more correct than items',
			(json: Record<string, unknown>) =>
				((json['suites'] as Record<string, unknown>[])[0]!['accuracy'] = {
					correct: 3,
					items: 2,
				}),
		],
		[
			'a SHA-256 that is not hex',
			(json: Record<string, unknown>) =>
				((json['suites'] as Record<string, unknown>[])[0]!['sha256'] = 'x'.repeat(64)),
		],
		[
			'a broken fingerprint',
			(json: Record<string, unknown>) =>
				((json['suites'] as { results: Record<string, unknown> }[])[0]!.results['outcomes'] = 'A'),
		],
		['no suites', (json: Record<string, unknown>) => (json['suites'] = [])],
	])('%s', (_name, change) => {
		expect(refusal(hostile(change))).toMatch(
			/^This share link is not a battery Benchtop can read \(/,
		);
	});

	it('refuses 10,000 suites by their count, before reading them', () => {
		const fragment = hostile((json) => {
			json['suites'] = Array.from({ length: 10_000 }, () => 0);
		});
		expect(refusal(fragment)).toBe(
			`This share link is not a battery Benchtop can read (suites: has more than the ${MAX_BATTERY_SUITES} suites a battery link may have).`,
		);
	});

	it('refuses a bundled name with a folder in it', () => {
		for (const file of ['../secrets.json', 'suites/x.json', '..\\x.json', '.hidden.json']) {
			const fragment = hostile((json) => {
				(json['suites'] as { source: unknown }[])[0]!.source = { kind: 'bundled', file };
			});
			expect(refusal(fragment)).toMatch(
				/\(suites\.0\.source\.file: is not the file name of a bundled suite/,
			);
		}
	});

	it('refuses a bundled suite this app does not have', () => {
		const fragment = hostile((json) => {
			(json['suites'] as { source: unknown }[])[0]!.source = {
				kind: 'bundled',
				file: 'no-such-suite.json',
			};
		});
		expect(refusal(fragment, [BUNDLED_FILE])).toBe(
			'This battery link names a bundled suite this app does not have: no-such-suite.json. Open it in the Benchtop that made it.',
		);
	});

	it('refuses a huge inline suite', () => {
		const fragment = hostile((json) => {
			(json['suites'] as { source: unknown }[])[1]!.source = {
				kind: 'inline',
				text: ' '.repeat(MAX_INLINE_SUITE_CHARS + 1),
			};
		});
		expect(refusal(fragment)).toMatch(
			/\(suites\.1\.source\.text: is longer than the 1,000,000 characters a suite in a link may have\)/,
		);
	});

	it('refuses a long name and a name with control characters', () => {
		for (const name of ['n'.repeat(257), 'a\u0000b']) {
			const fragment = hostile((json) => {
				(json['suites'] as Record<string, unknown>[])[0]!['name'] = name;
			});
			expect(refusal(fragment)).toMatch(/\(suites\.0\.name: /);
		}
	});

	it('refuses a changed byte (the codec checksum)', () => {
		const fragment = encodeOrFail(buildBatterySharePayload(batteryRuns())).fragment;
		const at = fragment.length - 5;
		const changed = `${fragment.slice(0, at)}${fragment[at] === 'A' ? 'B' : 'A'}${fragment.slice(at + 1)}`;
		expect(refusal(changed)).toMatch(/has been changed or damaged|damaged/);
	});
});

describe('readBatterySuiteText', () => {
	const payload = buildBatterySharePayload(batteryRuns());
	const bundled = payload.suites[0]!;

	it('accepts the bundled text whose SHA-256 the link names', () => {
		const read = readBatterySuiteText(bundled, BUNDLED_TEXT);
		expect(read.ok && read.suite.items.length).toBeGreaterThan(0);
	});

	it('refuses a text whose SHA-256 differs, naming the suite', () => {
		expect(readBatterySuiteText(bundled, `${BUNDLED_TEXT} `)).toEqual({
			ok: false,
			message: `Suite "fixture 0" is not the one the link was made with: the SHA-256 of the bundled suite ${BUNDLED_FILE} differs from the link's. The battery was not started.`,
		});
	});

	it('refuses a text that matches but does not parse', () => {
		const read = readBatterySuiteText(payload.suites[1]!, INLINE_TEXT);
		expect(read.ok ? 'parsed' : read.message).toMatch(/^Suite "fixture 1" does not parse \(/);
	});
});

describe('compareBatterySuite', () => {
	const payload = buildBatterySharePayload(batteryRuns());

	it('finds the same results reproduced', () => {
		const comparison = compareBatterySuite(payload, 0, {
			...makeResults(),
			model: BUNDLED_MODEL,
			convention: 'reference',
		});
		expect(comparison.sameAccuracy).toBe(true);
		expect(comparison.reproduced).toEqual(comparison.shared);
		expect(comparison.fingerprint?.reproduced).toBe(true);
	});

	it('finds a flipped outcome in the accuracy and the fingerprint', () => {
		const results = makeResults(makeSuite());
		const flipped = {
			...results,
			outcomes: results.outcomes.map((outcome, index) =>
				index === 0 ? { ...outcome, result: !outcome.result } : outcome,
			),
		};
		const comparison = compareBatterySuite(payload, 0, flipped);
		// Item 1's prediction 0 held; flipped, no item holds.
		expect(comparison.reproduced).toEqual({ correct: 0, items: 2 });
		expect(comparison.sameAccuracy).toBe(false);
		expect(comparison.fingerprint?.reproduced).toBe(false);
	});

	it('compares the accuracy alone when the link had no room for the fingerprint', () => {
		const { results: _results, ...lean } = payload.suites[0]!;
		const comparison = compareBatterySuite({ ...payload, suites: [lean] }, 0, makeResults());
		expect(comparison.fingerprint).toBeNull();
		expect(comparison.sameAccuracy).toBe(true);
	});
});

describe('buildBatterySharePayload refuses what one link cannot reproduce', () => {
	it('a battery with an unfinished suite', () => {
		const runs = batteryRuns();
		runs[1] = { ...runs[1]!, run: { ...runs[1]!.run, status: 'cancelled' } };
		expect(() => buildBatterySharePayload(runs)).toThrow(
			"1 of the battery's 2 suites are not finished: resume the battery, then share it.",
		);
	});

	it('a battery with a suite run missing from this browser', () => {
		expect(() => buildBatterySharePayload(batteryRuns().slice(0, 1))).toThrow(
			"Only 1 of the battery's 2 suite runs are in this browser",
		);
	});

	it('runs with different models', () => {
		const runs = batteryRuns();
		runs[1] = { ...runs[1]!, run: { ...runs[1]!.run, model: HUB_MODEL } };
		expect(() => buildBatterySharePayload(runs)).toThrow('not run with one model and convention');
	});
});
