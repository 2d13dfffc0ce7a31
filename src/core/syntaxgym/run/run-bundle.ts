/**
 * The JSON bundle of a whole suite run (record, suite text, every scored token), for export and
 * import on another machine: the `benchtop-run/2` envelope with kind `suite`; the 0.1.0 format
 * (`benchtop-run`, `formatVersion` 1, same body) is read too. Writing and strict reading
 * (untrusted input, located errors). No I/O here. Fields added later are optional (absent in
 * older bundles): `run.wordBoundaries`, a sentence's `boundarySurprisalsBits`.
 */
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
	TIME_MS_MESSAGE,
	checkRunBundleKind,
	isTimeMs,
	parseJsonText,
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

const MODEL_SOURCES: readonly (ModelSource | 'openai')[] = ['bundled', 'hub', 'local', 'openai'];
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

/** Thrown inside the reader; turned into `{ ok: false }` with its pointer. */
class BundleFormatError extends Error {
	constructor(
		message: string,
		readonly pointer: string,
	) {
		super(message);
	}
}

type Json = unknown;

function fail(pointer: string, message: string): never {
	throw new BundleFormatError(message, pointer);
}

function readObject(value: Json, pointer: string): Record<string, Json> {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		fail(pointer, 'expected an object');
	}
	return value as Record<string, Json>;
}

function readArray(value: Json, pointer: string): readonly Json[] {
	if (!Array.isArray(value)) fail(pointer, 'expected an array');
	return value;
}

function readString(value: Json, pointer: string): string {
	if (typeof value !== 'string') fail(pointer, 'expected a string');
	return value;
}

function readNumber(value: Json, pointer: string): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) fail(pointer, 'expected a number');
	return value;
}

function readTime(value: Json, pointer: string): number {
	if (!isTimeMs(value)) fail(pointer, TIME_MS_MESSAGE);
	return value;
}

function readInteger(value: Json, pointer: string, min: number): number {
	const number = readNumber(value, pointer);
	if (!Number.isInteger(number) || number < min) {
		fail(pointer, `expected an integer of at least ${min}`);
	}
	return number;
}

function readOneOf<T extends string>(value: Json, pointer: string, allowed: readonly T[]): T {
	if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
		fail(pointer, `expected one of ${allowed.join(', ')}`);
	}
	return value as T;
}

function readOptionalString(value: Json, pointer: string): string | undefined {
	return value === undefined ? undefined : readString(value, pointer);
}

function readOptionalBoolean(value: Json, pointer: string): boolean | undefined {
	if (value !== undefined && typeof value !== 'boolean') fail(pointer, 'expected true or false');
	return value;
}

function readBits(value: Json, pointer: string): number {
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (value === 'NaN') return Number.NaN;
	if (value === 'Infinity') return Number.POSITIVE_INFINITY;
	if (value === '-Infinity') return Number.NEGATIVE_INFINITY;
	return fail(pointer, 'expected a surprisal in bits (a number)');
}

function readModel(value: Json, pointer: string): RunModelSpec {
	const model = readObject(value, pointer);
	const source = readOneOf(model.source, `${pointer}/source`, MODEL_SOURCES);
	if (source === 'openai') {
		// An endpoint run: the model id and base URL (a bundle never holds a key).
		const baseUrl = readString(model.baseUrl, `${pointer}/baseUrl`);
		if (!/^https?:\/\/\S+$/i.test(baseUrl)) {
			fail(`${pointer}/baseUrl`, 'expected an http(s) URL');
		}
		const modelId = readString(model.model, `${pointer}/model`);
		if (modelId === '') fail(`${pointer}/model`, 'expected the model id the endpoint serves');
		return { source, model: modelId, baseUrl: normalizeEndpointBaseUrl(baseUrl) };
	}
	const revision = readOptionalString(model.revision, `${pointer}/revision`);
	return {
		source,
		id: readString(model.id, `${pointer}/id`),
		...(revision === undefined ? {} : { revision }),
		dtype: readOneOf(model.dtype, `${pointer}/dtype`, MODEL_DTYPES),
		backend: readOneOf(model.backend, `${pointer}/backend`, BACKENDS),
	};
}

function readRun(value: Json, pointer: string): PortableRun {
	const run = readObject(value, pointer);
	const errorMessage = readOptionalString(run.errorMessage, `${pointer}/errorMessage`);
	const fallbackReason = readOptionalString(run.fallbackReason, `${pointer}/fallbackReason`);
	const wordBoundaries = readOptionalBoolean(run.wordBoundaries, `${pointer}/wordBoundaries`);
	const suiteSha256 = readString(run.suiteSha256, `${pointer}/suiteSha256`);
	if (!/^[0-9a-f]{64}$/.test(suiteSha256)) {
		fail(`${pointer}/suiteSha256`, 'expected 64 lowercase hex digits');
	}
	return {
		suiteName: readString(run.suiteName, `${pointer}/suiteName`),
		suiteSha256,
		model: readModel(run.model, `${pointer}/model`),
		convention: readOneOf(run.convention, `${pointer}/convention`, SURPRISAL_CONVENTIONS),
		...(wordBoundaries === undefined ? {} : { wordBoundaries }),
		itemCount: readInteger(run.itemCount, `${pointer}/itemCount`, 0),
		appVersion: readString(run.appVersion, `${pointer}/appVersion`),
		createdAt: readTime(run.createdAt, `${pointer}/createdAt`),
		updatedAt: readTime(run.updatedAt, `${pointer}/updatedAt`),
		status: readOneOf<RunStatus>(run.status, `${pointer}/status`, RUN_STATUSES),
		scoringMs: readNumber(run.scoringMs, `${pointer}/scoringMs`),
		tokenCount: readInteger(run.tokenCount, `${pointer}/tokenCount`, 0),
		...(errorMessage === undefined ? {} : { errorMessage }),
		...(fallbackReason === undefined ? {} : { fallbackReason }),
	};
}

function readSentence(value: Json, pointer: string): ScoredSentence {
	const sentence = readObject(value, pointer);
	const tokens = readArray(sentence.tokens, `${pointer}/tokens`);
	const bits = readArray(sentence.surprisalsBits, `${pointer}/surprisalsBits`);
	const starts = readArray(sentence.starts, `${pointer}/starts`);
	const ends = readArray(sentence.ends, `${pointer}/ends`);
	const boundaryBits =
		sentence.boundarySurprisalsBits === undefined
			? undefined
			: readArray(sentence.boundarySurprisalsBits, `${pointer}/boundarySurprisalsBits`);
	for (const [name, column] of [
		['surprisalsBits', bits],
		['starts', starts],
		['ends', ends],
		['boundarySurprisalsBits', boundaryBits],
	] as const) {
		if (column !== undefined && column.length !== tokens.length) {
			fail(`${pointer}/${name}`, `expected ${tokens.length} values, one per token`);
		}
	}
	const special = new Set(
		readArray(sentence.special, `${pointer}/special`).map((index, k) =>
			readInteger(index, `${pointer}/special/${k}`, 0),
		),
	);
	const text = readString(sentence.text, `${pointer}/text`);
	return {
		conditionName: readString(sentence.conditionName, `${pointer}/conditionName`),
		text,
		tokens: tokens.map((token, index): ScoredToken => {
			// NOTE: the pointers are built only for a value that fails (a big bundle has millions).
			// The columns' lengths are checked above: each has a value at `index`.
			const startValue = starts[index] as Json;
			const endValue = ends[index] as Json;
			const bitsValue = bits[index] as Json;
			const boundary = boundaryBits?.[index];
			const scored: Mutable<ScoredToken> = {
				token: typeof token === 'string' ? token : readString(token, `${pointer}/tokens/${index}`),
				surprisalBits:
					typeof bitsValue === 'number' && Number.isFinite(bitsValue)
						? bitsValue
						: readBits(bitsValue, `${pointer}/surprisalsBits/${index}`),
			};
			if (startValue !== null) {
				scored.start = isOffset(startValue)
					? startValue
					: readInteger(startValue, `${pointer}/starts/${index}`, 0);
			}
			if (endValue !== null) {
				scored.end = isOffset(endValue)
					? endValue
					: readInteger(endValue, `${pointer}/ends/${index}`, 0);
			}
			if (special.has(index)) scored.special = true;
			if (boundary !== undefined && boundary !== null) {
				scored.boundarySurprisalBits = readBits(
					boundary,
					`${pointer}/boundarySurprisalsBits/${index}`,
				);
			}
			return scored;
		}),
	};
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** An offset as a bundle holds it: a non-negative integer. */
function isOffset(value: Json): value is number {
	return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function readItems(value: Json, pointer: string): ItemResult[] {
	const seen = new Set<number>();
	return readArray(value, pointer).map((entry, index) => {
		const itemPointer = `${pointer}/${index}`;
		const item = readObject(entry, itemPointer);
		const itemNumber = readNumber(item.itemNumber, `${itemPointer}/itemNumber`);
		if (!Number.isInteger(itemNumber)) fail(`${itemPointer}/itemNumber`, 'expected an integer');
		if (seen.has(itemNumber)) fail(`${itemPointer}/itemNumber`, `item ${itemNumber} appears twice`);
		seen.add(itemNumber);
		return {
			itemNumber,
			sentences: readArray(item.sentences, `${itemPointer}/sentences`).map((s, k) =>
				readSentence(s, `${itemPointer}/sentences/${k}`),
			),
		};
	});
}

/**
 * Reads a bundle written by serializeRunBundle (or by 0.1.0). Every problem is reported with the
 * JSON pointer of the offending value; the suite text must match the run's SHA-256.
 */
export function parseRunBundle(text: string): ParseRunBundleResult {
	const parsed = parseJsonText(text);
	if (!parsed.ok) return parsed;
	const json = parsed.json as Json;
	try {
		const root = readObject(json, '');
		const envelope = checkRunBundleKind(root, SUITE_BUNDLE);
		if (!envelope.ok) fail(envelope.pointer, envelope.message);
		const run = readRun(root.run, '/run');
		const suiteText = readString(readObject(root.suite, '/suite').text, '/suite/text');
		if (sha256Hex(suiteText) !== run.suiteSha256) {
			fail('/suite/text', 'the suite text does not match /run/suiteSha256 (was the file edited?)');
		}
		const items = readItems(root.items, '/items');
		if (items.length > run.itemCount) {
			fail('/items', `${items.length} items, more than /run/itemCount (${run.itemCount})`);
		}
		const sealed = envelope.resultsSha256;
		return {
			ok: true,
			bundle: { run, suiteText, items },
			...(sealed === undefined ? {} : { resultsSha256: sealed }),
		};
	} catch (error) {
		if (error instanceof BundleFormatError) {
			return { ok: false, pointer: error.pointer, message: error.message };
		}
		throw error;
	}
}
