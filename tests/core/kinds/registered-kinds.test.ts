// The app's kind registry: links and bundles of the 0.1.0 release (tests/fixtures/release-links) still open
// to what that release read from them; today's links and bundles of every kind round-trip, name
// their kind, and a bundle or link of one kind is refused by another with the page to use. A
// bundle is sealed with its results' SHA-256: a changed result is refused, a re-spaced or
// re-ordered file is not.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVALS_RUN_KIND } from '../../../src/core/evals/evals-run-kind';
import type { KindRegistry } from '../../../src/core/kinds/kind-registry';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { LTM_RUN_KIND } from '../../../src/core/ltm/ltm-run-kind';
import { SUITE_RUN_KIND } from '../../../src/core/syntaxgym/suite-run-kind';
import { EDIT_RESULT, SEALED_KINDS, sealedJson } from '../../support/sealed-bundles';

const readAnyRunBundle = (text: string) => RUN_KIND_REGISTRY.readBundle(text);
const decodeAnyShareLink = (input: string) => RUN_KIND_REGISTRY.decodeShareLink(input);
const UNTYPED: KindRegistry = RUN_KIND_REGISTRY;
const kindOf = (name: string) => {
	const kind = UNTYPED.get(name);
	if (kind === undefined) throw new Error(`no kind ${name}`);
	return kind;
};

const FIXTURES = 'tests/fixtures/release-links';
const KINDS = SEALED_KINDS;

const fixture = (name: string) => readFileSync(`${FIXTURES}/${name}`, 'utf8');

/** JSON as the fixtures' `*.decoded.json` were written: non-finite numbers as {"$number": …}. */
function snapshot(value: unknown): unknown {
	return JSON.parse(
		JSON.stringify(value, (_key, item: unknown) =>
			typeof item === 'number' && !Number.isFinite(item) ? { $number: String(item) } : item,
		),
	);
}

/** A bundle as 0.1.0 read it: the same body, without the envelope's `format` and `kind`. */
function body(bundle: object): unknown {
	const { format: _format, kind: _kind, ...rest } = bundle as Record<string, unknown>;
	return snapshot(rest);
}

describe('links and bundles of the 0.1.0 release', () => {
	it.each(KINDS)('the %s link opens to the payload 0.1.0 read from it', (kind, file) => {
		const opened = decodeAnyShareLink(fixture(`${file}.link.txt`));
		if (!opened.ok) throw opened.error;
		expect(opened.kind).toBe(kind);
		expect(snapshot(opened.payload)).toEqual(JSON.parse(fixture(`${file}.link.decoded.json`)));
	});

	it.each(KINDS)('the %s bundle reads to the run 0.1.0 read from it', (kind, file) => {
		const read = readAnyRunBundle(fixture(`${file}.bundle.json`));
		if (!read.ok) throw new Error(`${read.pointer}: ${read.message}`);
		expect(read.kind).toBe(kind);
		expect(body(read.bundle)).toEqual(body(JSON.parse(fixture(`${file}.bundle.decoded.json`))));
	});

	it.each(KINDS)(
		'the %s run, shared and exported again, is the same run in the new formats',
		(kind, file) => {
			const description = kindOf(kind);
			const link = decodeAnyShareLink(fixture(`${file}.link.txt`));
			const read = readAnyRunBundle(fixture(`${file}.bundle.json`));
			if (!link.ok || !read.ok || link.kind !== kind || read.kind !== kind) {
				throw new Error('the release fixtures do not open');
			}
			const encode = (payload: unknown) => description.share.encode(payload);
			const write = (bundle: unknown) => description.bundle.write(bundle);
			const data = encode(link.payload);
			expect(data).toMatch(/^2\/[A-Za-z0-9_-]+$/);
			const again = decodeAnyShareLink(`#${description.share.route}${data}`);
			expect(again).toEqual(link);
			const text = write(read.bundle);
			const fingerprint = RUN_KIND_REGISTRY.fingerprint(kind, read.bundle);
			expect(JSON.parse(text)).toMatchObject({
				format: 'benchtop-run/2',
				kind,
				resultsSha256: fingerprint,
			});
			// The release bundle had no seal; written again it has one, checked on reading.
			expect(read.resultsSha256).toBeUndefined();
			expect(readAnyRunBundle(text)).toEqual({ ...read, resultsSha256: fingerprint });
		},
	);
});

describe('run kinds', () => {
	it('summarize a run in one line: name, model, how far, status', () => {
		const line = (kind: (typeof KINDS)[number][0], file: string) => {
			const read = readAnyRunBundle(fixture(`${file}.bundle.json`));
			if (!read.ok || read.kind !== kind) throw new Error('unreadable fixture');
			return read;
		};
		const suite = line('suite', 'suite');
		const evals = line('evals', 'evals');
		const ltm = line('ltm', 'memory');
		expect(suite.kind === 'suite' && SUITE_RUN_KIND.bundle.summarize(suite.bundle as never)).toBe(
			'tiny · gpt2-random-tiny · 1 of 2 items · cancelled',
		);
		expect(evals.kind === 'evals' && EVALS_RUN_KIND.bundle.summarize(evals.bundle as never)).toBe(
			'capitals · replay:answers.jsonl · 2 of 2 samples · done',
		);
		expect(ltm.kind === 'ltm' && LTM_RUN_KIND.bundle.summarize(ltm.bundle as never)).toBe(
			't · replay:agent.jsonl · 1 of 1 tests · done',
		);
	});

	it.each([
		['a suite link', '#/evals/share/', 'suite', /another kind \("suite"\), not an Evals run/],
		['an Evals link', '#/memory/share/', 'evals', /another kind \("evals"\), not a Memory run/],
		['a Memory link', '#/share/', 'ltm', /another kind \("ltm"\), not a suite run/],
	] as const)('refuse %s opened under another route', (_what, route, kind, message) => {
		const file = KINDS.find(([name]) => name === kind)![1];
		const link = decodeAnyShareLink(fixture(`${file}.link.txt`));
		if (!link.ok) throw link.error;
		const moved = decodeAnyShareLink(`${route}${kindOf(kind).share.encode(link.payload)}`);
		expect(moved.ok).toBe(false);
		expect(!moved.ok && moved.error.message).toMatch(message);
	});

	it.each([
		['not JSON', '{', '', /not JSON/],
		['another format', '{"format": "benchtop-suite"}', '/format', /not a Benchtop run bundle/],
		['a newer envelope', '{"format": "benchtop-run/3"}', '/format', /newer/],
		['an unknown kind', '{"format": "benchtop-run/2", "kind": "chat"}', '/kind', /does not know/],
		['no kind', '{"format": "benchtop-run/2", "kind": 3}', '/kind', /expected the kind/],
	])('refuse a bundle that is %s', (_what, text, pointer, message) => {
		const read = readAnyRunBundle(text);
		expect(read).toMatchObject({ ok: false, pointer });
		expect(!read.ok && read.message).toMatch(message);
	});

	it('refuse a link that is not a share link', () => {
		const opened = decodeAnyShareLink('https://example.org/#/results/3');
		expect(!opened.ok && opened.error.message).toBe('This is not a Benchtop share link.');
	});
});

/** A release fixture of `kind` written again today (sealed), as JSON to edit. */
describe('bundle seal (results SHA-256)', () => {
	it.each(KINDS)('a %s bundle with a changed result is refused at /resultsSha256', (kind, file) => {
		const json = sealedJson(kind, file);
		EDIT_RESULT[kind](json);
		const read = readAnyRunBundle(JSON.stringify(json));
		expect(read).toMatchObject({ ok: false, pointer: '/resultsSha256' });
		expect(!read.ok && read.message).toMatch(/changed after it was written/);
		// The user who edited it on purpose opens it once the seal is taken out.
		delete json['resultsSha256'];
		const opened = readAnyRunBundle(JSON.stringify(json));
		expect(opened.ok && opened.resultsSha256).toBe(undefined);
		expect(opened.ok).toBe(true);
	});

	it.each(KINDS)('a %s bundle re-spaced with its keys re-ordered still opens', (kind, file) => {
		const json = sealedJson(kind, file);
		const reorder = (value: unknown): unknown =>
			Array.isArray(value)
				? value.map(reorder)
				: typeof value === 'object' && value !== null
					? Object.fromEntries(
							Object.entries(value)
								.reverse()
								.map(([k, v]) => [k, reorder(v)]),
						)
					: value;
		const read = readAnyRunBundle(JSON.stringify(reorder(json)));
		expect(read.ok && read.resultsSha256).toBe(json['resultsSha256']);
	});

	it.each(KINDS)('a %s bundle opened in steps is read only once its seal holds', (kind, file) => {
		const text = JSON.stringify(sealedJson(kind, file));
		const opened = RUN_KIND_REGISTRY.openBundle(text);
		if (!opened.ok) throw new Error(opened.message);
		if (opened.kind.bundle.readJson === undefined) {
			// A kind that reads text checks its seal in its reader: nothing is left to check.
			expect(opened.seal).toBeUndefined();
			return;
		}
		const seal = opened.seal;
		if (seal === undefined) throw new Error('a sealed bundle opened without its seal');
		expect(() => RUN_KIND_REGISTRY.readOpenedBundle(opened, undefined)).toThrow(/seal/);
		const other = { resultsSha256: '0'.repeat(64) };
		expect(() => RUN_KIND_REGISTRY.readOpenedBundle(opened, other)).toThrow(/seal/);
		const read = RUN_KIND_REGISTRY.readOpenedBundle(opened, { resultsSha256: seal.claimed });
		expect(read).toEqual(readAnyRunBundle(text));
	});

	it('a seal that is not a SHA-256 is refused, pointing at it', () => {
		const json = { ...sealedJson('ltm', 'memory'), resultsSha256: 'abc' };
		expect(readAnyRunBundle(JSON.stringify(json))).toMatchObject({
			ok: false,
			pointer: '/resultsSha256',
		});
	});

	it('a sealed bundle nested too deeply to check is refused, not thrown', () => {
		const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
		const text = `{"format":"benchtop-run/2","kind":"evals","resultsSha256":"${'0'.repeat(64)}","samples":${deep}}`;
		const read = readAnyRunBundle(text);
		expect(read).toMatchObject({ ok: false, pointer: '' });
		expect(!read.ok && read.message).toMatch(/nested too deeply/);
	});
});
