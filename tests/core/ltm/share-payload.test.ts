// Memory share links: a payload round-trips through the link text; damaged, cut or edited links
// are refused with a message that says what to do; scores, their fingerprint and the comparison
// of a re-run with the shared scores.
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
	compareLtmScores,
	decodeLtmShare,
	encodeLtmShare,
	loadLtmSuite,
	ltmScoresFingerprint,
	ltmScoresOf,
	type LtmScores,
	type LtmSharePayload,
	type TestEvaluation,
} from '../../../src/core/ltm';
import { sha256Hex } from '../../../src/core/hash/sha256';
import { encodeBase64Url } from '../../../src/core/share/base64url';

function benchmark() {
	const loaded = loadLtmSuite(
		'share.ltm-suite.json',
		JSON.stringify({
			format: 'ltm-suite/1',
			config: { run_name: 'share', memory_span: 120 },
			datasets: [
				{ name: 'Restaurant', evaluator: 'dynamic', examples: [{ type: 'restaurant' }] },
				{
					name: 'Colours',
					evaluator: 'colours',
					examples: [
						{
							script: ['My favourite colour is red.', 'What is my favourite colour?'],
							is_question: [false, true],
							expected_responses: ['red'],
						},
					],
				},
			],
		}),
	);
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
	return loaded.benchmark;
}

const scores: LtmScores = { 'Colours - 0': 0.5, 'Restaurant - 0': null };

function payload(): LtmSharePayload {
	return {
		v: 1,
		runName: 'share',
		benchmark: benchmark(),
		models: {
			agent: { source: 'openai', model: 'gpt-4o-mini', baseUrl: 'https://api.example.test/v1' },
			judge: { source: 'replay', file: 'judge.jsonl', sha256: 'ab'.repeat(32) },
		},
		agentParams: { max_tokens: 64 },
		maxContextTokens: 380,
		maxMessageTokens: 150,
		replayTexts: { ['ab'.repeat(32)]: '{"when": "", "completion": "{\\"ok\\": true}"}' },
		memorySpan: 120,
		isolated: true,
		scores,
		fingerprint: ltmScoresFingerprint(scores),
	};
}

/** A link's data as the 0.1.0 release wrote it (deflated JSON, no frame): still read. */
const pack = (value: unknown) => encodeBase64Url(deflateSync(strToU8(JSON.stringify(value))));

describe('Memory share links', () => {
	it('round-trip the definitions, specs, span, isolation and scores (no key anywhere)', () => {
		const text = encodeLtmShare(payload());
		expect(text).toMatch(/^2\/[A-Za-z0-9_-]+$/u);
		expect(decodeLtmShare(text)).toEqual(payload());
		expect(JSON.stringify(decodeLtmShare(text))).not.toMatch(/apiKey|sk-/u);
		// A link of the 0.1.0 release (the bare data) reads to the same payload.
		expect(decodeLtmShare(pack(payload()))).toEqual(payload());
	});

	it('refuses to make a link over the budget: the run bundle is the way to share it', () => {
		const big = payload();
		const noise = Array.from({ length: 6000 }, (_, i) => sha256Hex(`x${i}`)).join('');
		expect(() => encodeLtmShare({ ...big, replayTexts: { x: noise } })).toThrow(
			/too large for a link.*Download the run bundle/u,
		);
	});

	it.each<[string, string, RegExp]>([
		['a cut link', encodeLtmShare(payload()).slice(0, -5), /cut off/u],
		['a cut link of 0.1.0', pack(payload()).slice(0, -5), /damaged|cut off/u],
		['a bad character', 'abc$def', /character that no link contains \(position 4/u],
		['a link of another kind', `2/${'A'.repeat(40)}`, /damaged|checksum/u],
		['not deflated', encodeBase64Url(strToU8('{"v":1}')), /does not unpack/u],
		['another version', pack({ ...payload(), v: 2 }), /not a Memory run.*v/u],
		['no tests', pack({ ...payload(), benchmark: { ...benchmark(), tests: [] } }), /tests/u],
		['a zero memory span', pack({ ...payload(), memorySpan: 0 }), /memorySpan/u],
		[
			'a key-less unknown agent',
			pack({ ...payload(), models: { agent: { source: 'x' } } }),
			/models/u,
		],
		[
			'edited scores',
			pack({ ...payload(), scores: { ...scores, 'Colours - 0': 1 } }),
			/fingerprint/u,
		],
	])('refuse %s', (_name, text, message) => {
		expect(() => decodeLtmShare(text)).toThrow(message);
	});
});

describe('ltmScoresOf and ltmScoresFingerprint', () => {
	const scored = (score: number): { evaluation: TestEvaluation } => ({
		evaluation: { status: 'scored', score, reasons: [], flags: [] },
	});
	const skipped = { evaluation: { status: 'skipped', reasons: ['x'] } as TestEvaluation };

	it('reads scores (6 decimals), skipped as null', () => {
		expect(
			ltmScoresOf({
				outcomes: { b: scored(1 / 3), a: skipped, c: scored(1) },
			} as never),
		).toEqual({ a: null, b: 0.333333, c: 1 });
	});

	it.each<[LtmScores, LtmScores, boolean]>([
		[{ a: 1, b: null }, { b: null, a: 1 }, true],
		[{ a: 0.3333333 }, { a: 0.3333334 }, true],
		[{ a: 1 }, { a: 0.5 }, false],
		[{ a: null }, { a: 0 }, false],
		[{ a: 1 }, { a: 1, b: 1 }, false],
	])('%j and %j fingerprint alike: %s', (left, right, same) => {
		expect(ltmScoresFingerprint(left) === ltmScoresFingerprint(right)).toBe(same);
	});
});

describe('compareLtmScores', () => {
	it.each<[LtmScores, LtmScores, boolean, number, string[]]>([
		[{ a: 1, b: null }, { a: 1, b: null }, true, 2, []],
		[{ a: 1, b: 0.5 }, { a: 1, b: 0.25 }, false, 1, ['b']],
		[{ a: 1, b: null }, { a: 1, b: 0 }, false, 1, ['b']],
		[{ a: 1 }, { a: 1, extra: 1 }, false, 1, ['extra']],
		[{ a: 1, missing: 1 }, { a: 1 }, false, 1, ['missing']],
	])('%j vs %j: reproduced %s, %i matching', (shared, rerun, reproduced, matching, ids) => {
		const result = compareLtmScores(shared, rerun);
		expect(result.reproduced).toBe(reproduced);
		expect(result.matching).toBe(matching);
		expect(result.total).toBe(Object.keys(shared).length);
		expect(result.differing.map((entry) => entry.id)).toEqual(ids);
	});

	it('says what each side scored for a differing test', () => {
		expect(compareLtmScores({ b: 0.5 }, { b: 0.25 }).differing).toEqual([
			{ id: 'b', shared: 0.5, rerun: 0.25 },
		]);
		expect(compareLtmScores({}, { x: null }).differing).toEqual([{ id: 'x', rerun: null }]);
	});
});
