import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
	EVALS_SHARE_VERSION,
	decodeEvalsShare,
	encodeEvalsShare,
	type EvalsSharePayload,
} from '../../../src/core/evals';
import { encodeBase64Url } from '../../../src/core/share/base64url';
import {
	MAX_SHARE_INFLATED_BYTES,
	SHARE_LINK_BUDGET_CHARS,
	packShareFragment,
} from '../../../src/core/share/share-codec';
import { LTM_SHARE } from '../../../src/core/ltm/share-payload';

/** The data of a well-framed Memory link (after `#/memory/share/2/`). */
function encodeLtmShareData(): string {
	return packShareFragment(LTM_SHARE, { v: 1 }).slice('/memory/share/2/'.length);
}

const PAYLOAD: EvalsSharePayload = {
	v: EVALS_SHARE_VERSION,
	evalName: 'capitals',
	eval: {
		name: 'capitals.dev.v0',
		requestedName: 'capitals',
		className: 'evals.elsuite.basic.match:Match',
		kind: 'match',
		args: { samples_jsonl: 'capitals/samples.jsonl' },
		file: 'evals/capitals.yaml',
		samples: [{ input: [{ role: 'user', content: 'Capital of France?' }], ideal: 'Paris' }],
		fewShot: [],
		ignoreCase: false,
	},
	models: {
		policy: [
			{ source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm' },
			{ source: 'replay', file: 'answers.jsonl', sha256: 'ab'.repeat(32) },
		],
		grader: { source: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:1/v1' },
	},
	overrides: { policy: { max_tokens: 3 }, grader: {} },
	replayTexts: { ['ab'.repeat(32)]: '{"completion":"Paris"}\n' },
	seed: 20220722,
	maxSamples: 1,
	verdicts: { 'capitals.dev.v0.0': 'correct' },
};

/** A link's text for a JSON value, as the 0.1.0 release packed it (no frame): still read. */
function packed(value: unknown): string {
	return encodeBase64Url(deflateSync(strToU8(JSON.stringify(value))));
}

describe('encodeEvalsShare / decodeEvalsShare', () => {
	it('round-trips a payload through URL-safe text', () => {
		const text = encodeEvalsShare(PAYLOAD);
		expect(text).toMatch(/^2\/[A-Za-z0-9_-]+$/);
		expect(decodeEvalsShare(text)).toEqual(PAYLOAD);
		expect(decodeEvalsShare(packed(PAYLOAD))).toEqual(PAYLOAD);
	});

	it('refuses to make a link of a run too large for one (an eval of many samples)', () => {
		const samples = Array.from({ length: 3000 }, (_, i) => ({
			input: `Question ${i} ${i * 7919}?`,
			ideal: String(i * 104729),
		}));
		const big = { ...PAYLOAD, eval: { ...PAYLOAD.eval, samples } };
		expect(() => encodeEvalsShare(big)).toThrow(/too large for a link.*Download the run bundle/);
	});

	it('stops unpacking a link of 0.1.0 that unpacks past the cap', () => {
		const bomb = encodeBase64Url(
			deflateSync(new Uint8Array(MAX_SHARE_INFLATED_BYTES + 1024).fill(32)),
		);
		expect(bomb.length).toBeLessThan(SHARE_LINK_BUDGET_CHARS);
		expect(() => decodeEvalsShare(bomb)).toThrow(/unpacks to more than 16 MiB/);
	});

	it.each([
		['a cut-off link', 'A', /cut off/],
		['a bad character', 'ab$d', /character that no link contains \(position 3/],
		['bytes that do not unpack', encodeBase64Url(strToU8('not deflated')), /does not unpack/],
		['bytes that are not JSON', encodeBase64Url(deflateSync(strToU8('{'))), /no readable data/],
		[
			'a Memory link',
			`2/${encodeLtmShareData()}`,
			/checksum|holds a run of another kind \("ltm"\)/,
		],
		[
			'a payload of another kind',
			packed({ v: 1, evalName: 3 }),
			/not an Evals run Benchtop can read \(evalName: /,
		],
		['another version', packed({ ...PAYLOAD, v: 2 }), /not an Evals run Benchtop can read \(v: /],
		[
			'a template Benchtop does not run',
			packed({ ...PAYLOAD, eval: { ...PAYLOAD.eval, kind: 'multiple_choice' } }),
			/not an Evals run Benchtop can read \(eval\.kind: /,
		],
		[
			'a parameter that is not a number',
			packed({ ...PAYLOAD, overrides: { policy: { temperature: 'hot' }, grader: {} } }),
			/not an Evals run Benchtop can read \(overrides\.policy\.temperature: /,
		],
	])('refuses %s and says why', (_what, text, message) => {
		expect(() => decodeEvalsShare(text)).toThrow(message);
	});
});
