/**
 * The payload of a suite run's share link (its type) and its reading: the decoded JSON checked
 * field by field and copied into a SharePayload. The input is untrusted: nothing is executed,
 * unknown fields (the codec's `kind` among them) are dropped, nothing is trusted.
 */
import {
	SURPRISAL_CONVENTIONS,
	type InferenceBackend,
	type ModelDtype,
	type ModelSource,
	type SurprisalConvention,
} from '../../model/model-spec';
import type { RunModelSpec } from '../../run/run-types';
import { METRIC_NAMES, type MetricName } from '../suite/types';
import { unpackOutcomeCodes, type RegionKey, type ResultFingerprint } from './result-fingerprint';

/** The suite of a link: its text exactly as loaded, or where to fetch it from. */
export type SharedSuite =
	| { readonly kind: 'inline'; readonly text: string }
	| { readonly kind: 'url'; readonly url: string };

/** Everything a suite run's share link carries. */
export interface SharePayload {
	/** `version` of the app that made the link. */
	readonly appVersion: string;
	readonly suite: SharedSuite;
	/** SHA-256 (lowercase hex) of the suite text exactly as loaded, as in the run history: a
	 * suite fetched from `suite.url` must hash to it, or it has changed since the link was made. */
	readonly suiteSha256: string;
	/** A hub model's `revision` must be a commit hash (resolve `main` before sharing). An
	 * endpoint is its model id and base URL, never a key. */
	readonly model: RunModelSpec;
	readonly convention: SurprisalConvention;
	/**
	 * The run asked for word-boundary values (`RunDraft.wordBoundaries`), so the reproduction asks
	 * too; the values are not in the link. Present only when true: links made before it existed,
	 * and runs without it, leave it out.
	 */
	readonly wordBoundaries?: true;
	readonly results: ResultFingerprint;
}

const MODEL_SOURCES = {
	bundled: true,
	hub: true,
	local: true,
	openai: true,
} satisfies Record<ModelSource | 'openai', true>;
const MODEL_DTYPES = { fp32: true, fp16: true, q8: true } satisfies Record<ModelDtype, true>;
const INFERENCE_BACKENDS = { webgpu: true, wasm: true, 'node-cpu': true } satisfies Record<
	InferenceBackend,
	true
>;

/** A hub revision must be pinned to a commit: 40 lowercase hex digits. */
export const COMMIT_HASH = /^[0-9a-f]{40}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const DIGEST_HEX = /^[0-9a-f]{8}$/;
const APP_VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
/** Printable text without control characters, for ids and names. */
const PLAIN_TEXT = /^[^\p{Cc}]*$/u;
const MAX_ID_CHARS = 256;
const MAX_URL_CHARS = 2048;

/** Where the payload is wrong: a JSON pointer into the decoded body, and what is wrong there. */
export interface PayloadProblem {
	readonly pointer: string;
	readonly problem: string;
}

type Read<T> = { ok: true; value: T } | { ok: false; problem: PayloadProblem };

class PayloadError {
	constructor(readonly problem: PayloadProblem) {}
}

/** Reads a SharePayload from parsed JSON, or says which field is wrong. */
export function readSharePayload(json: unknown): Read<SharePayload> {
	try {
		return { ok: true, value: readPayload(json) };
	} catch (error) {
		if (error instanceof PayloadError) return { ok: false, problem: error.problem };
		throw error;
	}
}

/** A link's model spec alone, by the same rules (a battery link has one for all its suites). */
export function readShareModel(json: unknown): Read<RunModelSpec> {
	return readPart(() => readModel(json));
}

/** A link's result fingerprint alone, by the same rules (a battery link has one per suite). */
export function readShareResults(json: unknown): Read<ResultFingerprint> {
	return readPart(() => readResults(json));
}

function readPart<T>(read: () => T): Read<T> {
	try {
		return { ok: true, value: read() };
	} catch (error) {
		if (error instanceof PayloadError) return { ok: false, problem: error.problem };
		throw error;
	}
}

/** Problems of a payload about to be encoded (the same rules as decoding), or `null`. */
export function checkSharePayload(payload: SharePayload): PayloadProblem | null {
	const read = readSharePayload(JSON.parse(JSON.stringify(payload)) as unknown);
	return read.ok ? null : read.problem;
}

function fail(pointer: string, problem: string): never {
	throw new PayloadError({ pointer, problem });
}

function readPayload(json: unknown): SharePayload {
	const body = object(json, '');
	const appVersion = string(body['appVersion'], '/appVersion');
	if (!APP_VERSION.test(appVersion)) fail('/appVersion', 'is not a version like 0.1.0');
	const suiteSha256 = string(body['suiteSha256'], '/suiteSha256');
	if (!SHA256_HEX.test(suiteSha256)) fail('/suiteSha256', 'is not 64 lowercase hex digits');
	const convention = string(body['convention'], '/convention');
	if (!(SURPRISAL_CONVENTIONS as readonly string[]).includes(convention)) {
		fail('/convention', `is not one of ${SURPRISAL_CONVENTIONS.join(', ')}`);
	}
	// Optional (links from before word boundaries lack it); false is the same as absent.
	const wordBoundaries = body['wordBoundaries'];
	if (wordBoundaries !== undefined && typeof wordBoundaries !== 'boolean') {
		fail('/wordBoundaries', 'is not true or false');
	}
	return {
		appVersion,
		suite: readSuite(body['suite']),
		suiteSha256,
		model: readModel(body['model']),
		convention: convention as SurprisalConvention,
		...(wordBoundaries === true ? { wordBoundaries } : {}),
		results: readResults(body['results']),
	};
}

function readSuite(json: unknown): SharedSuite {
	const suite = object(json, '/suite');
	const kind = string(suite['kind'], '/suite/kind');
	if (kind === 'inline') return { kind, text: string(suite['text'], '/suite/text') };
	if (kind === 'url') {
		const url = string(suite['url'], '/suite/url');
		if (url.length > MAX_URL_CHARS || !/^https?:\/\/[^\s]+$/i.test(url)) {
			fail('/suite/url', 'is not an http(s) URL');
		}
		return { kind, url };
	}
	return fail('/suite/kind', "is neither 'inline' nor 'url'");
}

function readModel(json: unknown): RunModelSpec {
	const model = object(json, '/model');
	const source = key(model['source'], MODEL_SOURCES, '/model/source');
	if (source === 'openai') {
		// An endpoint: its model id and base URL. A link never carries a key (any other field
		// is dropped), so running it again needs the key typed on this page for that base URL.
		const name = string(model['model'], '/model/model');
		if (name.length === 0 || name.length > MAX_ID_CHARS || !PLAIN_TEXT.test(name)) {
			fail('/model/model', 'is not a model name');
		}
		const baseUrl = string(model['baseUrl'], '/model/baseUrl');
		if (baseUrl.length > MAX_URL_CHARS || !/^https?:\/\/[^\s]+$/i.test(baseUrl)) {
			fail('/model/baseUrl', 'is not an http(s) URL');
		}
		return { source, model: name, baseUrl };
	}
	const id = string(model['id'], '/model/id');
	if (id.length === 0 || id.length > MAX_ID_CHARS || !PLAIN_TEXT.test(id)) {
		fail('/model/id', 'is not a model name');
	}
	const dtype = key(model['dtype'], MODEL_DTYPES, '/model/dtype');
	const backend = key(model['backend'], INFERENCE_BACKENDS, '/model/backend');
	const revision =
		model['revision'] === undefined ? undefined : string(model['revision'], '/model/revision');
	if (source === 'hub' && (revision === undefined || !COMMIT_HASH.test(revision))) {
		fail('/model/revision', 'a hub model must be pinned to a commit hash (40 hex digits)');
	}
	if (revision !== undefined && (revision.length > MAX_ID_CHARS || !PLAIN_TEXT.test(revision))) {
		fail('/model/revision', 'is not a revision');
	}
	return revision === undefined
		? { source, id, dtype, backend }
		: { source, id, revision, dtype, backend };
}

function readResults(json: unknown): ResultFingerprint {
	const results = object(json, '/results');
	const metrics = array(results['metrics'], '/results/metrics').map((metric, index) =>
		key(
			metric,
			Object.fromEntries(METRIC_NAMES.map((name) => [name, true])) as Record<MetricName, true>,
			`/results/metrics/${index}`,
		),
	);
	if (metrics.length === 0 || new Set(metrics).size !== metrics.length) {
		fail('/results/metrics', 'must list each metric once, at least one');
	}
	const itemNumbers = array(results['itemNumbers'], '/results/itemNumbers').map((value, index) =>
		integer(value, `/results/itemNumbers/${index}`),
	);
	const predictionCount = integer(results['predictionCount'], '/results/predictionCount');
	if (predictionCount < 0) fail('/results/predictionCount', 'is negative');
	const quantumBits = results['quantumBits'];
	if (typeof quantumBits !== 'number' || !(quantumBits > 0) || !Number.isFinite(quantumBits)) {
		fail('/results/quantumBits', 'is not a positive number');
	}
	const outcomes = string(results['outcomes'], '/results/outcomes');
	const outcomeCount = itemNumbers.length * predictionCount * metrics.length;
	if (unpackOutcomeCodes(outcomes, outcomeCount) === null) {
		fail('/results/outcomes', `does not hold ${outcomeCount} packed outcomes`);
	}
	const digests = array(results['digests'], '/results/digests').map((value, index) => {
		const digest = string(value, `/results/digests/${index}`);
		if (!DIGEST_HEX.test(digest)) fail(`/results/digests/${index}`, 'is not 8 hex digits');
		return digest;
	});
	if (digests.length !== itemNumbers.length) fail('/results/digests', 'needs one digest per item');
	const keyRegions: RegionKey[] = array(results['keyRegions'], '/results/keyRegions').map(
		(value, index) => {
			const pointer = `/results/keyRegions/${index}`;
			const region = object(value, pointer);
			const regionNumber = integer(region['regionNumber'], `${pointer}/regionNumber`);
			if (regionNumber < 1) fail(`${pointer}/regionNumber`, 'is not a region number');
			return {
				conditionName: string(region['conditionName'], `${pointer}/conditionName`),
				regionNumber,
			};
		},
	);
	const keyValues = valueRows(
		results['keyValues'],
		'/results/keyValues',
		itemNumbers.length,
		keyRegions.length * metrics.length,
	);
	const fingerprint: ResultFingerprint = {
		metrics,
		itemNumbers,
		predictionCount,
		quantumBits,
		outcomes,
		digests,
		keyRegions,
		keyValues,
	};
	if (results['values'] === undefined) return fingerprint;
	return {
		...fingerprint,
		values: valueRows(results['values'], '/results/values', itemNumbers.length, null),
	};
}

/** `rows` arrays (one per item) of integers or null; each `width` long unless width is null. */
function valueRows(
	json: unknown,
	pointer: string,
	rows: number,
	width: number | null,
): (number | null)[][] {
	const list = array(json, pointer);
	if (list.length !== rows) fail(pointer, `needs ${rows} rows, one per item`);
	return list.map((row, rowIndex) => {
		const values = array(row, `${pointer}/${rowIndex}`);
		if (width !== null && values.length !== width)
			fail(`${pointer}/${rowIndex}`, `needs ${width} values`);
		return values.map((value, index) =>
			value === null ? null : integer(value, `${pointer}/${rowIndex}/${index}`),
		);
	});
}

function object(json: unknown, pointer: string): Record<string, unknown> {
	if (typeof json !== 'object' || json === null || Array.isArray(json))
		fail(pointer || '/', 'is not an object');
	return json as Record<string, unknown>;
}

function array(json: unknown, pointer: string): unknown[] {
	if (!Array.isArray(json)) fail(pointer, 'is not a list');
	return json;
}

function string(json: unknown, pointer: string): string {
	if (typeof json !== 'string') fail(pointer, 'is not a string');
	return json;
}

function integer(json: unknown, pointer: string): number {
	if (typeof json !== 'number' || !Number.isSafeInteger(json)) fail(pointer, 'is not an integer');
	return json;
}

function key<K extends string>(json: unknown, allowed: Record<K, true>, pointer: string): K {
	if (typeof json !== 'string' || !Object.hasOwn(allowed, json)) {
		fail(pointer, `is not one of ${Object.keys(allowed).join(', ')}`);
	}
	return json as K;
}
