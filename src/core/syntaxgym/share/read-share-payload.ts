/**
 * The payload of a suite run's share link (its type) and its reading: the decoded JSON checked by
 * a valibot schema, field by field, and copied into a SharePayload. The input is untrusted: nothing
 * is executed, unknown fields (the codec's `kind` among them) are dropped, and a refusal names the
 * JSON pointer of the field and what is wrong there.
 */
import { SHA256_HEX } from '../../hash/sha256';
import * as v from 'valibot';
import {
	SURPRISAL_CONVENTIONS,
	type InferenceBackend,
	type ModelDtype,
	type ModelSource,
	type SurprisalConvention,
} from '../../model/model-spec';
import { anyJsonObject, issuePathOf, jsonFields, jsonObject } from '../../run/json-object-schema';
import type { RunModelSpec } from '../../run/run-types';
import { pointerOfIssue } from '../../run/task-run-json';
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
const DIGEST_HEX = /^[0-9a-f]{8}$/;
const APP_VERSION = /^[0-9A-Za-z.+-]{1,64}$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;
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

const NOT_OBJECT = 'is not an object';
const NOT_STRING = 'is not a string';
const NOT_INTEGER = 'is not an integer';
const NOT_URL = 'is not an http(s) URL';
const NOT_MODEL_NAME = 'is not a model name';
const NOT_REVISION = 'is not a revision';
const NOT_POSITIVE = 'is not a positive number';
const NOT_PINNED = 'a hub model must be pinned to a commit hash (40 hex digits)';

/** An object of the payload: `entries` checked in their order, unknown fields dropped. */
const fields = <const E extends v.ObjectEntries>(entries: E) => jsonObject(entries, NOT_OBJECT);
const list = <T extends v.GenericSchema>(item: T) => v.array(item, 'is not a list');
const Text = v.string(NOT_STRING);
const Integer = v.pipe(v.number(NOT_INTEGER), v.safeInteger(NOT_INTEGER));

/** One of the keys of `allowed`, named in the refusal. */
function oneOf<K extends string>(allowed: Record<K, true>) {
	const keys = Object.keys(allowed) as K[];
	return v.picklist(keys, `is not one of ${keys.join(', ')}`);
}

const HttpUrl = v.pipe(Text, v.maxLength(MAX_URL_CHARS, NOT_URL), v.regex(HTTP_URL, NOT_URL));
const ModelName = v.pipe(
	Text,
	v.minLength(1, NOT_MODEL_NAME),
	v.maxLength(MAX_ID_CHARS, NOT_MODEL_NAME),
	v.regex(PLAIN_TEXT, NOT_MODEL_NAME),
);

const SuiteSchema = v.pipe(
	anyJsonObject(NOT_OBJECT),
	v.variant(
		'kind',
		[
			jsonFields({ kind: v.literal('inline'), text: Text }, NOT_OBJECT),
			jsonFields({ kind: v.literal('url'), url: HttpUrl }, NOT_OBJECT),
		],
		(issue) => (typeof issue.input === 'string' ? "is neither 'inline' nor 'url'" : NOT_STRING),
	),
);

/** A local model's fields after `source`, in the order they are checked. */
const LOCAL_MODEL = {
	id: ModelName,
	dtype: oneOf(MODEL_DTYPES),
	backend: oneOf(INFERENCE_BACKENDS),
};

const ModelSchema = v.pipe(
	anyJsonObject(NOT_OBJECT),
	v.variant(
		'source',
		[
			// An endpoint: its model id and base URL. A link never carries a key (any other field
			// is dropped), so running it again needs the key typed on this page for that base URL.
			jsonFields({ source: v.literal('openai'), model: ModelName, baseUrl: HttpUrl }, NOT_OBJECT),
			// A hub model is pinned to a commit; a bundled or local one may name any revision.
			jsonFields(
				{
					source: v.literal('hub'),
					...LOCAL_MODEL,
					revision: v.pipe(
						v.string((issue) => (issue.input === undefined ? NOT_PINNED : NOT_STRING)),
						v.regex(COMMIT_HASH, NOT_PINNED),
					),
				},
				NOT_OBJECT,
			),
			jsonFields(
				{
					source: v.picklist(['bundled', 'local']),
					...LOCAL_MODEL,
					revision: v.optional(
						v.pipe(
							Text,
							v.maxLength(MAX_ID_CHARS, NOT_REVISION),
							v.regex(PLAIN_TEXT, NOT_REVISION),
						),
					),
				},
				NOT_OBJECT,
			),
		],
		`is not one of ${Object.keys(MODEL_SOURCES).join(', ')}`,
	),
	v.transform((model): RunModelSpec => {
		if (model.source === 'openai') {
			return { source: model.source, model: model.model, baseUrl: model.baseUrl };
		}
		const { source, id, revision, dtype, backend } = model;
		return revision === undefined
			? { source, id, dtype, backend }
			: { source, id, revision, dtype, backend };
	}),
);

const METRICS = Object.fromEntries(METRIC_NAMES.map((name) => [name, true])) as Record<
	MetricName,
	true
>;

/** Rows (one per item) of integers or null. */
const ValueRows = list(list(v.nullable(Integer)));

const ResultsFields = fields({
	metrics: v.pipe(
		list(oneOf(METRICS)),
		v.check(
			(metrics) => metrics.length > 0 && new Set(metrics).size === metrics.length,
			'must list each metric once, at least one',
		),
	),
	itemNumbers: list(Integer),
	predictionCount: v.pipe(Integer, v.minValue(0, 'is negative')),
	quantumBits: v.pipe(v.number(NOT_POSITIVE), v.gtValue(0, NOT_POSITIVE), v.finite(NOT_POSITIVE)),
	outcomes: Text,
	digests: list(v.pipe(Text, v.regex(DIGEST_HEX, 'is not 8 hex digits'))),
	keyRegions: list(
		v.pipe(
			fields({
				regionNumber: v.pipe(Integer, v.minValue(1, 'is not a region number')),
				conditionName: Text,
			}),
			v.transform(({ conditionName, regionNumber }): RegionKey => ({
				conditionName,
				regionNumber,
			})),
		),
	),
	keyValues: ValueRows,
	values: v.optional(ValueRows),
});

type ResultsJson = v.InferOutput<typeof ResultsFields>;

/** How many outcomes a fingerprint holds: items × predictions × metrics. */
const outcomeCount = (results: ResultsJson) =>
	results.itemNumbers.length * results.predictionCount * results.metrics.length;

/** `results[field]` (if present) has a row per item, each `width(results)` long unless null. */
function rowsPerItem(
	field: 'keyValues' | 'values',
	width: (results: ResultsJson) => number | null,
) {
	return v.rawCheck<ResultsJson>(({ dataset, addIssue }) => {
		if (!dataset.typed) return;
		const results = dataset.value;
		const rows = results[field];
		if (rows === undefined) return;
		const items = results.itemNumbers.length;
		if (rows.length !== items) {
			addIssue({
				message: `needs ${items} rows, one per item`,
				path: issuePathOf(results, [field]),
			});
			return;
		}
		const length = width(results);
		const row = length === null ? -1 : rows.findIndex((values) => values.length !== length);
		if (row >= 0) {
			addIssue({ message: `needs ${length} values`, path: issuePathOf(results, [field, row]) });
		}
	});
}

const ResultsSchema = v.pipe(
	ResultsFields,
	v.forward(
		v.check(
			(results) => unpackOutcomeCodes(results.outcomes, outcomeCount(results)) !== null,
			(issue) => `does not hold ${outcomeCount(issue.input)} packed outcomes`,
		),
		['outcomes'],
	),
	v.forward(
		v.check(
			(results) => results.digests.length === results.itemNumbers.length,
			'needs one digest per item',
		),
		['digests'],
	),
	rowsPerItem('keyValues', (results) => results.keyRegions.length * results.metrics.length),
	rowsPerItem('values', () => null),
	v.transform(({ values, ...fingerprint }): ResultFingerprint =>
		values === undefined ? fingerprint : { ...fingerprint, values },
	),
);

const PayloadSchema = v.pipe(
	fields({
		appVersion: v.pipe(Text, v.regex(APP_VERSION, 'is not a version like 0.1.0')),
		suiteSha256: v.pipe(Text, v.regex(SHA256_HEX, 'is not 64 lowercase hex digits')),
		convention: v.picklist(SURPRISAL_CONVENTIONS, (issue) =>
			typeof issue.input === 'string'
				? `is not one of ${SURPRISAL_CONVENTIONS.join(', ')}`
				: NOT_STRING,
		),
		// Optional (links from before word boundaries lack it); false is the same as absent.
		wordBoundaries: v.optional(v.boolean('is not true or false')),
		suite: SuiteSchema,
		model: ModelSchema,
		results: ResultsSchema,
	}),
	v.transform(
		({
			appVersion,
			suite,
			suiteSha256,
			model,
			convention,
			wordBoundaries,
			results,
		}): SharePayload => ({
			appVersion,
			suite,
			suiteSha256,
			model,
			convention,
			...(wordBoundaries === true ? { wordBoundaries } : {}),
			results,
		}),
	),
);

/** Reads a SharePayload from parsed JSON, or says which field is wrong. */
export function readSharePayload(json: unknown): Read<SharePayload> {
	return readBy(PayloadSchema, json, '');
}

/** A link's model spec alone, by the same rules (a battery link has one for all its suites). */
export function readShareModel(json: unknown): Read<RunModelSpec> {
	return readBy(ModelSchema, json, '/model');
}

/** A link's result fingerprint alone, by the same rules (a battery link has one per suite). */
export function readShareResults(json: unknown): Read<ResultFingerprint> {
	return readBy(ResultsSchema, json, '/results');
}

/** Problems of a payload about to be encoded (the same rules as decoding), or `null`. */
export function checkSharePayload(payload: SharePayload): PayloadProblem | null {
	const read = readSharePayload(JSON.parse(JSON.stringify(payload)) as unknown);
	return read.ok ? null : read.problem;
}

/** `json` read by `schema`, or its first problem (pointed under `at`; the payload's root is `/`). */
function readBy<T>(schema: v.GenericSchema<unknown, T>, json: unknown, at: string): Read<T> {
	const result = v.safeParse(schema, json, { abortEarly: true });
	if (result.success) return { ok: true, value: result.output };
	const [issue] = result.issues;
	return {
		ok: false,
		problem: { pointer: at + pointerOfIssue(issue) || '/', problem: issue.message },
	};
}
