import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
	EVALS_SHARE_VERSION,
	decodeEvalsShare,
	encodeEvalsShare,
	type EvalsSharePayload,
} from '../../../src/core/evals';
import { encodeBase64Url } from '../../../src/core/share/base64url';

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

/** A link's text for a JSON value, as `encodeEvalsShare` packs it. */
function packed(value: unknown): string {
	return encodeBase64Url(deflateSync(strToU8(JSON.stringify(value))));
}

describe('encodeEvalsShare / decodeEvalsShare', () => {
	it('round-trips a payload through URL-safe text', () => {
		const text = encodeEvalsShare(PAYLOAD);
		expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(decodeEvalsShare(text)).toEqual(PAYLOAD);
	});

	it.each([
		['a cut-off link', 'A', /cut off/],
		['a bad character', 'ab$d', /bad character at 2/],
		['bytes that do not unpack', encodeBase64Url(strToU8('not deflated')), /does not unpack/],
		['bytes that are not JSON', encodeBase64Url(deflateSync(strToU8('{'))), /does not unpack/],
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
