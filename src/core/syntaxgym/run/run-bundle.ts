/**
 * The JSON bundle of a whole suite run (record, suite text, every scored token), for export and
 * import on another machine: the `benchtop-run/2` envelope with kind `suite`; the 0.1.0 format
 * (`benchtop-run`, `formatVersion` 1, same body) is read too. Writing, and strict reading of
 * untrusted input by a valibot schema that refuses with the JSON pointer of what is wrong. No I/O
 * here. Fields added later are optional (absent in older bundles): `run.wordBoundaries`, a
 * sentence's `boundarySurprisalsBits`.
 */
import * as v from 'valibot';
import { sha256Hex } from '../../hash/sha256';
import {
	SURPRISAL_CONVENTIONS,
	type InferenceBackend,
	type ModelDtype,
	type ModelSource,
} from '../../model/model-spec';
import { normalizeEndpointBaseUrl } from '../../model/endpoint-choice';
import type { ScoredToken } from '../scoring/types';
import { RUN_STATUSES, type RunModelSpec, type RunStatus } from '../../run/run-types';
import { type ItemResult, type SuiteRun, type ScoredSentence } from './suite-run';
import {
	anyJsonObject,
	isJsonObject,
	issuePathOf,
	jsonFields,
	jsonObject,
} from '../../run/json-object-schema';
import {
	TimeMsSchema,
	checkRunBundleKind,
	parseJsonText,
	pointerOfIssue,
	writeRunBundleText,
	type ReadBundleResult,
	type RunBundleFormat,
} from '../../run/task-run-json';

/** The envelope's facts of suite run bundles (0.1.0 wrote `benchtop-run` with `formatVersion` 1). */
export const SUITE_BUNDLE: RunBundleFormat = {
	kind: 'suite',
	what: 'a suite run bundle',
	resultsPaths: [['items']],
	release: { format: 'benchtop-run', formatVersion: 1 },
};

/** A run without its local id and derived count: what travels between machines. */
export type PortableRun = Omit<SuiteRun, 'id' | 'itemsDone'>;

export interface RunBundle {
	readonly run: PortableRun;
	readonly suiteText: string;
	readonly items: readonly ItemResult[];
}

/** A surprisal in JSON: a number, or a string for the values JSON has no literal for. */
type JsonBits = number | 'NaN' | 'Infinity' | '-Infinity';

interface SentenceJson {
	conditionName: string;
	text: string;
	tokens: string[];
	surprisalsBits: JsonBits[];
	/**
	 * Each token's `boundarySurprisalBits` (the beginning-of-word correction's boundary term),
	 * `null` where a token has none; absent when no token has one (a run without word boundaries).
	 */
	boundarySurprisalsBits?: (JsonBits | null)[];
	/** UTF-16 offsets, `null` where unknown. */
	starts: (number | null)[];
	ends: (number | null)[];
	/** Indices of special tokens (BOS/EOS). */
	special: number[];
}

export type ParseRunBundleResult = ReadBundleResult<RunBundle>;

const MODEL_SOURCES: readonly ModelSource[] = ['bundled', 'hub', 'local'];
const MODEL_DTYPES: readonly ModelDtype[] = ['fp32', 'fp16', 'q8'];
const BACKENDS: readonly InferenceBackend[] = ['webgpu', 'wasm', 'node-cpu'];

/** The bundle as JSON text (pretty-printed with tabs). Lossless: parseRunBundle gives it back. */
export function serializeRunBundle(bundle: RunBundle): string {
	const { run } = bundle;
	return writeRunBundleText(SUITE_BUNDLE, {
		run: {
			suiteName: run.suiteName,
			suiteSha256: run.suiteSha256,
			// An endpoint's spec as its three fields: nothing else (never a key) travels.
			model:
				run.model.source === 'openai'
					? { source: 'openai', model: run.model.model, baseUrl: run.model.baseUrl }
					: run.model,
			convention: run.convention,
			...(run.wordBoundaries === undefined ? {} : { wordBoundaries: run.wordBoundaries }),
			itemCount: run.itemCount,
			appVersion: run.appVersion,
			createdAt: run.createdAt,
			updatedAt: run.updatedAt,
			status: run.status,
			scoringMs: run.scoringMs,
			tokenCount: run.tokenCount,
			...(run.errorMessage === undefined ? {} : { errorMessage: run.errorMessage }),
			...(run.fallbackReason === undefined ? {} : { fallbackReason: run.fallbackReason }),
		},
		suite: { text: bundle.suiteText },
		items: bundle.items.map((item) => ({
			itemNumber: item.itemNumber,
			sentences: item.sentences.map(toSentenceJson),
		})),
	});
}

function toJsonBits(bits: number): JsonBits {
	if (Number.isFinite(bits)) return bits;
	return Number.isNaN(bits) ? 'NaN' : bits > 0 ? 'Infinity' : '-Infinity';
}

function toSentenceJson(sentence: ScoredSentence): SentenceJson {
	const hasBoundaries = sentence.tokens.some((t) => t.boundarySurprisalBits !== undefined);
	return {
		conditionName: sentence.conditionName,
		text: sentence.text,
		tokens: sentence.tokens.map((t) => t.token),
		surprisalsBits: sentence.tokens.map((t) => toJsonBits(t.surprisalBits)),
		...(hasBoundaries
			? {
					boundarySurprisalsBits: sentence.tokens.map((t) =>
						t.boundarySurprisalBits === undefined ? null : toJsonBits(t.boundarySurprisalBits),
					),
				}
			: {}),
		starts: sentence.tokens.map((t) => t.start ?? null),
		ends: sentence.tokens.map((t) => t.end ?? null),
		special: sentence.tokens.flatMap((t, index) => (t.special ? [index] : [])),
	};
}

const NOT_OBJECT = 'expected an object';
const NOT_STRING = 'expected a string';
const NOT_NUMBER = 'expected a number';
const NOT_BITS = 'expected a surprisal in bits (a number)';

/** An object of the bundle: `entries` checked in their order, unknown fields dropped. */
const fields = <const E extends v.ObjectEntries>(entries: E) => jsonObject(entries, NOT_OBJECT);
const list = <T extends v.GenericSchema>(item: T) => v.array(item, 'expected an array');
const Text = v.string(NOT_STRING);
/** A finite number. */
const FiniteNumber = v.pipe(v.number(NOT_NUMBER), v.finite(NOT_NUMBER));

/** An integer of at least `min`. */
function integerFrom(min: number) {
	const message = `expected an integer of at least ${min}`;
	return v.pipe(FiniteNumber, v.integer(message), v.minValue(min, message));
}

/** One of `allowed`, named in the refusal. */
function oneOf<T extends string>(allowed: readonly T[]) {
	return v.picklist(allowed, `expected one of ${allowed.join(', ')}`);
}

const Count = integerFrom(0);

const ModelSchema = v.pipe(
	anyJsonObject(NOT_OBJECT),
	v.variant(
		'source',
		[
			// An endpoint run: the model id and base URL (a bundle never holds a key).
			jsonFields(
				{
					source: v.literal('openai'),
					baseUrl: v.pipe(Text, v.regex(/^https?:\/\/\S+$/i, 'expected an http(s) URL')),
					model: v.pipe(Text, v.minLength(1, 'expected the model id the endpoint serves')),
				},
				NOT_OBJECT,
			),
			jsonFields(
				{
					source: oneOf(MODEL_SOURCES),
					revision: v.optional(Text),
					id: Text,
					dtype: oneOf(MODEL_DTYPES),
					backend: oneOf(BACKENDS),
				},
				NOT_OBJECT,
			),
		],
		`expected one of ${[...MODEL_SOURCES, 'openai'].join(', ')}`,
	),
	v.transform((model): RunModelSpec => {
		if (model.source === 'openai') {
			const { source, model: id, baseUrl } = model;
			return { source, model: id, baseUrl: normalizeEndpointBaseUrl(baseUrl) };
		}
		const { source, id, revision, dtype, backend } = model;
		return { source, id, ...(revision === undefined ? {} : { revision }), dtype, backend };
	}),
);

const RunSchema = v.pipe(
	fields({
		errorMessage: v.optional(Text),
		fallbackReason: v.optional(Text),
		wordBoundaries: v.optional(v.boolean('expected true or false')),
		suiteSha256: v.pipe(Text, v.regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex digits')),
		suiteName: Text,
		model: ModelSchema,
		convention: oneOf(SURPRISAL_CONVENTIONS),
		itemCount: Count,
		appVersion: Text,
		createdAt: TimeMsSchema,
		updatedAt: TimeMsSchema,
		status: oneOf<RunStatus>(RUN_STATUSES),
		scoringMs: FiniteNumber,
		tokenCount: Count,
	}),
	v.transform(({ errorMessage, fallbackReason, wordBoundaries, ...run }): PortableRun => ({
		suiteName: run.suiteName,
		suiteSha256: run.suiteSha256,
		model: run.model,
		convention: run.convention,
		...(wordBoundaries === undefined ? {} : { wordBoundaries }),
		itemCount: run.itemCount,
		appVersion: run.appVersion,
		createdAt: run.createdAt,
		updatedAt: run.updatedAt,
		status: run.status,
		scoringMs: run.scoringMs,
		tokenCount: run.tokenCount,
		...(errorMessage === undefined ? {} : { errorMessage }),
		...(fallbackReason === undefined ? {} : { fallbackReason }),
	})),
);

/** A surprisal as a bundle holds it (see JsonBits) in bits, or null if it is not one. */
function readBits(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (value === 'NaN') return Number.NaN;
	if (value === 'Infinity') return Number.POSITIVE_INFINITY;
	return value === '-Infinity' ? Number.NEGATIVE_INFINITY : null;
}

/** An offset as a bundle holds it: a non-negative integer. */
function isOffset(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A column of a sentence, one value per token (the values are checked in SentenceSchema). */
const Column = v.custom<readonly unknown[]>(Array.isArray, 'expected an array');

const Bits = v.custom<JsonBits>((value) => readBits(value) !== null, NOT_BITS);

/** Each per-token column's schema of one value: it says why a value that fails is refused. */
const COLUMN_VALUE = {
	tokens: Text,
	surprisalsBits: Bits,
	starts: Count,
	ends: Count,
	boundarySurprisalsBits: Bits,
} satisfies Record<string, v.GenericSchema>;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The columns of a sentence that hold one value per token, besides its tokens. */
const COUNTED_COLUMNS = ['surprisalsBits', 'starts', 'ends', 'boundarySurprisalsBits'] as const;

/** A sentence's list of special token indices longer than this is looked up through a Set. */
const SPECIAL_LIST_MAX = 8;

/**
 * A sentence: its columns (one value per token) zipped into scored tokens. NOTE: a big bundle has
 * millions of values, so one hand-written loop checks them (a schema per value made the whole read
 * 1.5× slower) and builds a value's JSON pointer only when it fails, refused by COLUMN_VALUE.
 */
const SentenceSchema = v.pipe(
	fields({
		tokens: Column,
		surprisalsBits: Column,
		starts: Column,
		ends: Column,
		boundarySurprisalsBits: v.optional(Column),
		special: list(Count),
		text: Text,
		conditionName: Text,
	}),
	v.rawTransform(({ dataset: { value: sentence }, addIssue, NEVER }): ScoredSentence => {
		const { tokens, surprisalsBits, starts, ends, boundarySurprisalsBits } = sentence;
		for (const column of COUNTED_COLUMNS) {
			if ((sentence[column]?.length ?? tokens.length) !== tokens.length) {
				addIssue({
					message: `expected ${tokens.length} values, one per token`,
					path: issuePathOf(sentence, [column]),
				});
				return NEVER;
			}
		}
		const refuse = (column: keyof typeof COLUMN_VALUE, index: number) => {
			const [issue] = v.safeParse(COLUMN_VALUE[column], sentence[column]?.[index]).issues ?? [];
			addIssue({
				message: issue?.message ?? `expected a value of ${column}`,
				path: issuePathOf(sentence, [column, index]),
			});
			return NEVER;
		};
		// Few tokens are special (BOS, EOS): a Set per sentence costs more than a look through a few
		// (a bundle whose list is long gets its Set: a look through a long list for every token would
		// take the square of its length).
		const special = sentence.special;
		const specialSet = special.length > SPECIAL_LIST_MAX ? new Set(special) : null;
		const scored = new Array<ScoredToken>(tokens.length);
		for (let index = 0; index < tokens.length; index++) {
			const token = tokens[index];
			if (typeof token !== 'string') return refuse('tokens', index);
			const surprisalBits = readBits(surprisalsBits[index]);
			if (surprisalBits === null) return refuse('surprisalsBits', index);
			const next: Mutable<ScoredToken> = { token, surprisalBits };
			const start = starts[index];
			if (start !== null) {
				if (!isOffset(start)) return refuse('starts', index);
				next.start = start;
			}
			const end = ends[index];
			if (end !== null) {
				if (!isOffset(end)) return refuse('ends', index);
				next.end = end;
			}
			if (specialSet ? specialSet.has(index) : special.length > 0 && special.includes(index)) {
				next.special = true;
			}
			const boundary = boundarySurprisalsBits?.[index];
			if (boundary !== undefined && boundary !== null) {
				const boundaryBits = readBits(boundary);
				if (boundaryBits === null) return refuse('boundarySurprisalsBits', index);
				next.boundarySurprisalBits = boundaryBits;
			}
			scored[index] = next;
		}
		return { conditionName: sentence.conditionName, text: sentence.text, tokens: scored };
	}),
);

const ItemsSchema = v.pipe(
	list(
		fields({
			itemNumber: v.pipe(FiniteNumber, v.integer('expected an integer')),
			sentences: list(SentenceSchema),
		}),
	),
	v.rawCheck(({ dataset, addIssue }) => {
		if (!dataset.typed) return;
		const seen = new Set<number>();
		for (const [index, { itemNumber }] of dataset.value.entries()) {
			if (seen.has(itemNumber)) {
				addIssue({
					message: `item ${itemNumber} appears twice`,
					path: issuePathOf(dataset.value, [index, 'itemNumber']),
				});
				return;
			}
			seen.add(itemNumber);
		}
	}),
);

const BundleSchema = v.pipe(
	fields({ run: RunSchema, suite: fields({ text: Text }), items: ItemsSchema }),
	v.forward(
		v.check(
			({ run, suite }) => sha256Hex(suite.text) === run.suiteSha256,
			'the suite text does not match /run/suiteSha256 (was the file edited?)',
		),
		['suite', 'text'],
	),
	v.forward(
		v.check(
			({ run, items }) => items.length <= run.itemCount,
			({ input: { run, items } }) =>
				`${items.length} items, more than /run/itemCount (${run.itemCount})`,
		),
		['items'],
	),
	v.transform(({ run, suite, items }): RunBundle => ({ run, suiteText: suite.text, items })),
);

/**
 * Reads a bundle written by serializeRunBundle (or by 0.1.0). Every problem is reported with the
 * JSON pointer of the offending value; the suite text must match the run's SHA-256.
 */
export function parseRunBundle(text: string): ParseRunBundleResult {
	const parsed = parseJsonText(text);
	if (!parsed.ok) return parsed;
	return readRunBundleJson(parsed.json);
}

/** {@link parseRunBundle} of the bundle's JSON, already parsed. */
export function readRunBundleJson(json: unknown): ParseRunBundleResult {
	if (!isJsonObject(json)) return { ok: false, pointer: '', message: NOT_OBJECT };
	const envelope = checkRunBundleKind(json, SUITE_BUNDLE);
	if (!envelope.ok) return envelope;
	const result = v.safeParse(BundleSchema, json, { abortEarly: true });
	if (!result.success) {
		const [issue] = result.issues;
		return { ok: false, pointer: pointerOfIssue(issue), message: issue.message };
	}
	const sealed = envelope.resultsSha256;
	return {
		ok: true,
		bundle: result.output,
		...(sealed === undefined ? {} : { resultsSha256: sealed }),
	};
}
