import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../../src/core/hash/sha256';
import { buildResultFingerprint } from '../../../../src/core/syntaxgym/share/result-fingerprint';
import {
	checkSharePayload,
	readShareModel,
	readSharePayload,
	readShareResults,
} from '../../../../src/core/syntaxgym/share/read-share-payload';
import type { SharePayload } from '../../../../src/core/syntaxgym/share/share-link';
import { BUNDLED_MODEL, HUB_MODEL, SUITE_TEXT, makeResults } from './fixture-run';

const PAYLOAD: SharePayload = {
	appVersion: '0.1.0',
	suite: { kind: 'inline', text: SUITE_TEXT },
	suiteSha256: sha256Hex(SUITE_TEXT),
	model: BUNDLED_MODEL,
	convention: 'reference',
	results: buildResultFingerprint(makeResults()),
};

/** The payload as decoded JSON with one change at `path` (undefined deletes the field). */
function changed(path: readonly (string | number)[], value: unknown): unknown {
	const json = JSON.parse(JSON.stringify(PAYLOAD)) as Record<string, unknown>;
	let target: Record<string | number, unknown> = json;
	for (const segment of path.slice(0, -1)) target = target[segment] as Record<string, unknown>;
	const last = path.at(-1) as string | number;
	if (value === undefined) delete target[last];
	else target[last] = value;
	return json;
}

describe('readSharePayload', () => {
	it('reads a valid payload back as it was', () => {
		expect(readSharePayload(JSON.parse(JSON.stringify(PAYLOAD)))).toEqual({
			ok: true,
			value: PAYLOAD,
		});
		expect(checkSharePayload(PAYLOAD)).toBeNull();
	});

	it('a pinned hub model and a suite URL are accepted', () => {
		const payload = {
			...PAYLOAD,
			model: HUB_MODEL,
			suite: { kind: 'url', url: 'https://x.org/s.json' },
		};
		expect(readSharePayload(payload)).toEqual({ ok: true, value: payload });
	});

	it('an endpoint model is its model id and base URL; a key in the link is dropped', () => {
		const model = {
			source: 'openai',
			model: 'meta-llama/Llama-3-70B',
			baseUrl: 'https://gpu.example.org/v1',
		} as const;
		const payload = { ...PAYLOAD, model };
		expect(checkSharePayload(payload)).toBeNull();
		expect(readSharePayload({ ...payload, model: { ...model, apiKey: 'sk-secret' } })).toEqual({
			ok: true,
			value: payload,
		});
	});

	it.each([
		[{ model: '', baseUrl: 'http://h/v1' }, '/model/model', 'is not a model name'],
		[{ baseUrl: 'http://h/v1' }, '/model/model', 'is not a string'],
		[{ model: 'm', baseUrl: 'file:///etc/passwd' }, '/model/baseUrl', 'is not an http(s) URL'],
		[{ model: 'm' }, '/model/baseUrl', 'is not a string'],
	])('an endpoint model %j is refused at %s', (fields, pointer, problem) => {
		expect(readSharePayload({ ...PAYLOAD, model: { source: 'openai', ...fields } })).toEqual({
			ok: false,
			problem: { pointer, problem },
		});
	});

	it('keeps the word-boundary option when true; false and absent (older links) read as absent', () => {
		const withBoundaries: SharePayload = { ...PAYLOAD, wordBoundaries: true };
		expect(checkSharePayload(withBoundaries)).toBeNull();
		expect(readSharePayload(JSON.parse(JSON.stringify(withBoundaries)))).toEqual({
			ok: true,
			value: withBoundaries,
		});
		expect(readSharePayload({ ...PAYLOAD, wordBoundaries: false })).toEqual({
			ok: true,
			value: PAYLOAD,
		});
		const read = readSharePayload(JSON.parse(JSON.stringify(PAYLOAD)));
		expect(read.ok && read.value).not.toHaveProperty('wordBoundaries');
	});

	it('unknown fields are dropped', () => {
		const read = readSharePayload({
			...PAYLOAD,
			script: 'alert(1)',
			model: { ...BUNDLED_MODEL, x: 1 },
		});
		expect(read).toEqual({ ok: true, value: PAYLOAD });
	});

	it.each([
		[[], null, '/', 'is not an object'],
		[['appVersion'], 7, '/appVersion', 'is not a string'],
		[['appVersion'], '0.1 beta', '/appVersion', 'is not a version like 0.1.0'],
		[['suiteSha256'], 'ABC', '/suiteSha256', 'is not 64 lowercase hex digits'],
		[['convention'], 'eos', '/convention', 'is not one of reference, bos, bos+eos'],
		[['wordBoundaries'], 'yes', '/wordBoundaries', 'is not true or false'],
		[['wordBoundaries'], 1, '/wordBoundaries', 'is not true or false'],
		[['suite', 'kind'], 'file', '/suite/kind', "is neither 'inline' nor 'url'"],
		[['suite'], { kind: 'url', url: 'javascript:alert(1)' }, '/suite/url', 'is not an http(s) URL'],
		[['model', 'source'], 'disk', '/model/source', 'is not one of bundled, hub, local'],
		[['model', 'id'], '', '/model/id', 'is not a model name'],
		[['model', 'id'], 'a\u0000b', '/model/id', 'is not a model name'],
		[['model', 'dtype'], 'int4', '/model/dtype', 'is not one of fp32, fp16, q8'],
		[['model', 'backend'], 'cuda', '/model/backend', 'is not one of webgpu, wasm, node-cpu'],
		[['model', 'revision'], 'x\ny', '/model/revision', 'is not a revision'],
		[['results', 'metrics'], [], '/results/metrics', 'must list each metric once, at least one'],
		[
			['results', 'metrics'],
			['sum', 'sum'],
			'/results/metrics',
			'must list each metric once, at least one',
		],
		[
			['results', 'metrics', 0],
			'total',
			'/results/metrics/0',
			'is not one of sum, mean, median, range, max, min',
		],
		[['results', 'itemNumbers', 0], 1.5, '/results/itemNumbers/0', 'is not an integer'],
		[['results', 'predictionCount'], -1, '/results/predictionCount', 'is negative'],
		[['results', 'quantumBits'], 0, '/results/quantumBits', 'is not a positive number'],
		[['results', 'quantumBits'], 'Infinity', '/results/quantumBits', 'is not a positive number'],
		[['results', 'outcomes'], '', '/results/outcomes', 'does not hold'],
		[['results', 'digests', 0], 'xyz', '/results/digests/0', 'is not 8 hex digits'],
		[['results', 'digests'], [], '/results/digests', 'needs one digest per item'],
		[
			['results', 'keyRegions', 0, 'regionNumber'],
			0,
			'/results/keyRegions/0/regionNumber',
			'is not a region number',
		],
		[['results', 'keyValues'], [], '/results/keyValues', 'needs 2 rows, one per item'],
		[['results', 'keyValues', 0], [], '/results/keyValues/0', 'needs'],
		[['results', 'keyValues', 0, 0], 'x', '/results/keyValues/0/0', 'is not an integer'],
	] as const)('%j = %j: %s %s', (path, value, pointer, problem) => {
		const read = readSharePayload(path.length === 0 ? value : changed(path, value));
		expect(read.ok).toBe(false);
		if (read.ok) return;
		expect(read.problem.pointer).toBe(pointer);
		expect(read.problem.problem.startsWith(problem)).toBe(true);
	});

	it('a hub model must be pinned to a commit', () => {
		const read = readSharePayload(changed(['model'], { ...HUB_MODEL, revision: 'main' }));
		expect(read.ok ? null : read.problem).toEqual({
			pointer: '/model/revision',
			problem: 'a hub model must be pinned to a commit hash (40 hex digits)',
		});
	});

	it('a missing field is named', () => {
		const read = readSharePayload(changed(['results'], undefined));
		expect(read.ok ? null : read.problem).toEqual({
			pointer: '/results',
			problem: 'is not an object',
		});
	});

	it('drops __proto__ and constructor keys: nothing reaches the payload or any prototype', () => {
		// JSON.parse makes `__proto__` an own key (as a link's decoded JSON has it), not a prototype.
		const hostile = JSON.parse(
			JSON.stringify(PAYLOAD)
				.replace('{', '{"__proto__":{"wordBoundaries":true,"polluted":1},')
				.replace(
					'"model":{',
					'"model":{"__proto__":{"revision":"x\\ny"},"constructor":{"prototype":{"polluted":1}},',
				),
		) as unknown;
		const read = readSharePayload(hostile);
		expect(read).toEqual({ ok: true, value: PAYLOAD });
		if (!read.ok) return;
		expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
		expect(Object.getPrototypeOf(read.value.model)).toBe(Object.prototype);
		expect(Object.hasOwn(read.value, '__proto__')).toBe(false);
		expect(Object.hasOwn(read.value.model, 'constructor')).toBe(false);
		expect(read.value).not.toHaveProperty('wordBoundaries');
		expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
	});

	it.each([
		// A list where an object belongs is not an object (valibot's own object schema takes one).
		[['model'], [], '/model', 'is not an object'],
		[['suite'], ['inline'], '/suite', 'is not an object'],
		[['results', 'keyRegions', 0], [], '/results/keyRegions/0', 'is not an object'],
		// A missing field is refused by its own rule, at its own pointer.
		[['suite'], { kind: 'url' }, '/suite/url', 'is not a string'],
		[['suite', 'kind'], undefined, '/suite/kind', 'is not a string'],
		[['suite', 'kind'], 7, '/suite/kind', 'is not a string'],
		[['model', 'id'], undefined, '/model/id', 'is not a string'],
		[['model', 'source'], undefined, '/model/source', 'is not one of bundled, hub, local, openai'],
		[
			['model'],
			{ source: 'hub', id: 'Xenova/gpt2', dtype: 'fp32', backend: 'wasm' },
			'/model/revision',
			'a hub model must be pinned to a commit hash (40 hex digits)',
		],
		[
			['model'],
			{ source: 'hub', id: 'Xenova/gpt2', dtype: 'fp32', backend: 'wasm', revision: 7 },
			'/model/revision',
			'is not a string',
		],
		[['convention'], 7, '/convention', 'is not a string'],
		[
			['results', 'keyRegions', 0, 'conditionName'],
			undefined,
			'/results/keyRegions/0/conditionName',
			'is not a string',
		],
		// Wrong-typed values deep in the fingerprint, named exactly.
		[['results', 'keyValues', 1, 0], 1.5, '/results/keyValues/1/0', 'is not an integer'],
		[['results', 'values', 1], 'x', '/results/values/1', 'is not a list'],
		[['results', 'values'], [[]], '/results/values', 'needs 2 rows, one per item'],
		[['results', 'digests', 1], 7, '/results/digests/1', 'is not a string'],
		[['results', 'quantumBits'], '1e-4', '/results/quantumBits', 'is not a positive number'],
		[['suite', 'url'], `https://x.org/${'a'.repeat(2048)}`, '/suite/url', 'is not an http(s) URL'],
		[['model', 'id'], 'm'.repeat(257), '/model/id', 'is not a model name'],
	] as const)('hostile %j = %j: %s %s (exactly)', (path, value, pointer, problem) => {
		const base =
			path[0] === 'suite' && path[1] === 'url'
				? { ...PAYLOAD, suite: { kind: 'url', url: '' } }
				: PAYLOAD;
		const json = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
		let target: Record<string | number, unknown> = json;
		for (const segment of path.slice(0, -1)) target = target[segment] as Record<string, unknown>;
		const last = path.at(-1) as string | number;
		if (value === undefined) delete target[last];
		else target[last] = value;
		expect(readSharePayload(json)).toEqual({ ok: false, problem: { pointer, problem } });
	});

	it('reads a model or a fingerprint alone with the pointers of the whole payload', () => {
		expect(readShareModel([])).toEqual({
			ok: false,
			problem: { pointer: '/model', problem: 'is not an object' },
		});
		expect(readShareModel({ ...BUNDLED_MODEL, dtype: 'int4' })).toEqual({
			ok: false,
			problem: { pointer: '/model/dtype', problem: 'is not one of fp32, fp16, q8' },
		});
		expect(readShareModel(JSON.parse(JSON.stringify(HUB_MODEL)))).toEqual({
			ok: true,
			value: HUB_MODEL,
		});
		const results = JSON.parse(JSON.stringify(PAYLOAD.results)) as Record<string, unknown>;
		expect(readShareResults({ ...results, itemNumbers: [1, '2'] })).toEqual({
			ok: false,
			problem: { pointer: '/results/itemNumbers/1', problem: 'is not an integer' },
		});
		expect(readShareResults(results)).toEqual({ ok: true, value: PAYLOAD.results });
	});
});
