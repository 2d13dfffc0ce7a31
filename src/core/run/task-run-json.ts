/**
 * What the run bundles and share links of every kind read alike: the valibot schemas of model
 * specs, generation parameters and run statuses, a model spec stripped to its declared fields, and
 * the `benchtop-run/2` bundle envelope (`format`, `kind`, `resultsSha256`; the 0.1.0 formats read
 * too) with a JSON pointer on every refusal.
 */
import * as v from 'valibot';
import { canonicalJson } from '../hash/canonical-json';
import { SHA256_HEX, sha256Hex } from '../hash/sha256';
import type { TextModelSpec } from '../model/model-spec';

/** Model specs: only the declared fields are kept (anything else, a key included, is dropped). */
export const TextModelSpecSchema = v.variant('source', [
	v.object({
		source: v.picklist(['bundled', 'hub', 'local']),
		id: v.string(),
		revision: v.optional(v.string()),
		dtype: v.picklist(['fp32', 'fp16', 'q8']),
		backend: v.picklist(['webgpu', 'wasm', 'node-cpu']),
	}),
	v.object({ source: v.literal('openai'), model: v.string(), baseUrl: v.string() }),
	v.object({ source: v.literal('replay'), file: v.string(), sha256: v.string() }),
]);

/** The fields of `GenerationParams`, for `v.object` (unknown keys dropped) or `v.looseObject`. */
export const GENERATION_PARAMS_ENTRIES = {
	temperature: v.optional(v.number()),
	top_p: v.optional(v.number()),
	max_tokens: v.optional(v.number()),
	stop: v.optional(v.array(v.string())),
	seed: v.optional(v.number()),
	frequency_penalty: v.optional(v.number()),
	presence_penalty: v.optional(v.number()),
	n: v.optional(v.number()),
};

export const RunStatusSchema = v.picklist(['running', 'cancelled', 'done', 'failed']);

/**
 * The times a run record may hold, in milliseconds since 1970: 0000-01-01 to 9999-12-31 (UTC), the
 * years an ISO date writes with four digits. Every page formats these (`toISOString` throws a
 * RangeError past ±8.64e15), so a bundle or a stored row with another time is refused.
 */
export const MIN_TIME_MS = -62_167_219_200_000;
export const MAX_TIME_MS = 253_402_300_799_999;

/** The refusal of a time outside {@link MIN_TIME_MS}..{@link MAX_TIME_MS} (or not a number). */
export const TIME_MS_MESSAGE =
	'expected a time in milliseconds since 1970, within the years 0000 to 9999';

/** Whether `value` is a time a run record may hold (a finite number within the years 0-9999). */
export function isTimeMs(value: unknown): value is number {
	return typeof value === 'number' && value >= MIN_TIME_MS && value <= MAX_TIME_MS;
}

/** A run record's time (`createdAt`, `updatedAt`): see {@link isTimeMs}. */
export const TimeMsSchema = v.custom<number>(isTimeMs, TIME_MS_MESSAGE);

/** Whether `text` is an ISO time (`2026-01-02T03:04:05.678901Z`) within the years 0000-9999. */
export function isIsoTime(text: unknown): text is string {
	if (
		typeof text !== 'string' ||
		!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(text)
	)
		return false;
	return isTimeMs(Date.parse(text.replace(/(\.\d{3})\d+/, '$1')));
}

/** An ISO time as a run's state holds it (an LTM run's `startTime`): see {@link isIsoTime}. */
export const IsoTimeSchema = v.custom<string>(
	isIsoTime,
	'expected an ISO time (YYYY-MM-DDTHH:MM:SS with a zone, e.g. 2026-01-02T03:04:05.678Z)',
);

/** A model spec with only its declared fields (an endpoint's key never travels). */
export function portableModelSpec(spec: TextModelSpec): TextModelSpec {
	switch (spec.source) {
		case 'openai':
			return { source: 'openai', model: spec.model, baseUrl: spec.baseUrl };
		case 'replay':
			return { source: 'replay', file: spec.file, sha256: spec.sha256 };
		default:
			return {
				source: spec.source,
				id: spec.id,
				...(spec.revision === undefined ? {} : { revision: spec.revision }),
				dtype: spec.dtype,
				backend: spec.backend,
			};
	}
}

/** The JSON pointer (RFC 6901) of a valibot issue's path. */
export function pointerOfIssue(issue: v.BaseIssue<unknown>): string {
	return (issue.path ?? [])
		.map((item) => `/${String(item.key).replaceAll('~', '~0').replaceAll('/', '~1')}`)
		.join('');
}

export type ReadBundleResult<T> =
	| {
			readonly ok: true;
			readonly bundle: T;
			/** The bundle's `resultsSha256`, checked against its results; absent in older bundles. */
			readonly resultsSha256?: string;
	  }
	| { readonly ok: false; readonly message: string; readonly pointer: string };

/** Parses untrusted text as JSON; a syntax error is refused at the root pointer. */
export function parseJsonText(
	text: string,
):
	| { readonly ok: true; readonly json: unknown }
	| { readonly ok: false; readonly message: string; readonly pointer: '' } {
	try {
		return { ok: true, json: JSON.parse(text) as unknown };
	} catch (error) {
		return {
			ok: false,
			pointer: '',
			message: `not JSON (${error instanceof Error ? error.message : String(error)})`,
		};
	}
}

/**
 * Largest run file read (bytes), a bundle of any kind or an oaieval log: checked before its text
 * is read. A 10 000-sentence suite run is about 20 MB.
 */
export const MAX_BUNDLE_BYTES = 200_000_000;

/** Why a run file of `size` bytes is not read, or null when it may be. */
export function runFileSizeProblem(name: string, size: number): string | null {
	if (size <= MAX_BUNDLE_BYTES) return null;
	const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
	return `${name} is too large to be a run bundle (${mib(size)} MiB; Benchtop reads at most ${mib(MAX_BUNDLE_BYTES)} MiB).`;
}

/**
 * Whether a file's text (or its first bytes) looks like a Benchtop run bundle of any kind rather
 * than a suite or a log: a JSON object whose first key names a bundle format, as every writer
 * puts it (`benchtop-run/2`, a newer `benchtop-run/N`, or a 0.1.0 `benchtop-run`,
 * `benchtop-evals-run/1`, `benchtop-ltm-run/1`). Decides where a file goes; the bundle's reader
 * then says what is wrong with it, if anything (a newer format: "update Benchtop").
 */
export function looksLikeRunBundle(head: string): boolean {
	return /^\uFEFF?\s*\{\s*"format"\s*:\s*"benchtop-(?:[a-z]+-)?run(?:\/\d+)?"/.test(head);
}

/** The one run-bundle envelope of every kind: `{"format": "benchtop-run/2", "kind": …, …}`. */
export const RUN_BUNDLE_FORMAT = 'benchtop-run/2';

/**
 * What the envelope knows of one kind's bundles; each family declares its own (the kind registry
 * lists them all). A new kind needs only `kind`, `what` and `resultsPaths`.
 */
export interface RunBundleFormat {
	/** The envelope's `kind`, as the run record names the kind. */
	readonly kind: string;
	/** The bundle in words, with its article: "a suite run bundle". */
	readonly what: string;
	/**
	 * Where the kind keeps its results in the bundle's JSON: what `resultsSha256` covers (a run's
	 * record, models and inputs are said elsewhere in the bundle and checked by its schema).
	 */
	readonly resultsPaths: readonly (readonly string[])[];
	/**
	 * The kind's format of the 0.1.0 release, still read (`format`, and for the suite bundle its
	 * `formatVersion`); absent for kinds that came later.
	 */
	readonly release?: { readonly format: string; readonly formatVersion?: number };
}

export type RunBundleEnvelope =
	| {
			readonly ok: true;
			/** The envelope's `kind` (or the kind whose 0.1.0 format it is). */
			readonly kind: string;
			/** Whether it is a 0.1.0 format (no `kind`), rather than `benchtop-run/2`. */
			readonly release: boolean;
	  }
	| { readonly ok: false; readonly message: string; readonly pointer: string };

/**
 * The kind of a parsed bundle, from its envelope (`format` and `kind`) or the 0.1.0 format name of
 * one of `formats`. A `benchtop-run/2` bundle of any kind is read as that kind (the caller says
 * whether it knows it); a bundle of a newer format says so; anything else is not a Benchtop run
 * bundle.
 */
export function readRunBundleEnvelope(
	json: unknown,
	formats: readonly RunBundleFormat[],
): RunBundleEnvelope {
	if (typeof json !== 'object' || json === null || Array.isArray(json)) {
		return { ok: false, pointer: '', message: 'expected a JSON object (a run bundle)' };
	}
	const { format, kind, formatVersion } = json as Record<string, unknown>;
	if (format === RUN_BUNDLE_FORMAT) {
		if (typeof kind === 'string' && /^[a-z][a-z0-9-]{0,39}$/.test(kind)) {
			return { ok: true, kind, release: false };
		}
		return {
			ok: false,
			pointer: '/kind',
			message: `expected the kind of run (${formats.map(({ kind: known }) => JSON.stringify(known)).join(', ')} …)`,
		};
	}
	for (const { kind: name, release } of formats) {
		if (
			release !== undefined &&
			format === release.format &&
			(release.formatVersion === undefined || formatVersion === release.formatVersion)
		) {
			return { ok: true, kind: name, release: true };
		}
	}
	// A 0.1.0 format of a kind not asked for (`benchtop-<kind>-run/1`): that kind's bundle.
	const release = typeof format === 'string' ? /^benchtop-([a-z]+)-run\/1$/.exec(format) : null;
	if (release?.[1] !== undefined) return { ok: true, kind: release[1], release: true };
	const newer =
		typeof format === 'string' &&
		(/^benchtop-run\/\d+$/.test(format) ||
			/^benchtop-[a-z]+-run\/\d+$/.test(format) ||
			(format === 'benchtop-run' && formatVersion !== 1));
	return {
		ok: false,
		pointer: format === 'benchtop-run' ? '/formatVersion' : '/format',
		message: newer
			? `format ${String(format)}${format === 'benchtop-run' ? ` version ${JSON.stringify(formatVersion)}` : ''} is newer than this Benchtop reads (${RUN_BUNDLE_FORMAT}); update Benchtop`
			: `not a Benchtop run bundle (expected "format": "${RUN_BUNDLE_FORMAT}")`,
	};
}

/**
 * The fingerprint of a bundle's results: SHA-256 (hex) of the canonical JSON (keys sorted) of the
 * values at the kind's `resultsPaths`, an absent one as `null`. It depends on values, not on how
 * the file is spaced or its keys ordered. Throws a RangeError on JSON nested too deeply to walk.
 */
export function resultsSha256Of(format: RunBundleFormat, json: unknown): string {
	return sha256Hex(resultsCanonicalJson(format, json));
}

/**
 * The text {@link resultsSha256Of} hashes (its UTF-8 bytes): the canonical JSON of the values at
 * the kind's `resultsPaths`. Throws a RangeError on JSON nested too deeply to walk.
 */
export function resultsCanonicalJson(format: RunBundleFormat, json: unknown): string {
	const at = (path: readonly string[]): unknown =>
		path.reduce<unknown>(
			(value, key) =>
				typeof value === 'object' && value !== null && !Array.isArray(value)
					? (value as Record<string, unknown>)[key]
					: undefined,
			json,
		) ?? null;
	return canonicalJson(format.resultsPaths.map(at));
}

/**
 * A bundle's JSON text (tabs), the one writer of every kind: the envelope first (`format`,
 * `kind`, and `resultsSha256` over the results as any reader will parse them), then `body`
 * (whose own envelope fields, if any, are replaced).
 */
export function writeRunBundleText(format: RunBundleFormat, body: object): string {
	const {
		format: _format,
		kind: _kind,
		resultsSha256: _sealed,
		...rest
	} = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
	const resultsSha256 = resultsSha256Of(format, rest);
	return JSON.stringify(
		{ format: RUN_BUNDLE_FORMAT, kind: format.kind, resultsSha256, ...rest },
		null,
		'\t',
	);
}

/** What is wrong with a bundle, and where (a JSON pointer). */
type BundleProblem = { readonly ok: false; readonly message: string; readonly pointer: string };

/**
 * A bundle's seal before it is checked: the `resultsSha256` it claims and the text whose SHA-256
 * that must be ({@link resultsCanonicalJson}); no seal for an unsealed bundle. Hashing is left to
 * the caller, so a thread that has the platform's hash can use it ({@link sealVerdict} then).
 */
export type SealToCheck =
	| { readonly ok: true; readonly seal?: { readonly claimed: string; readonly canonical: string } }
	| BundleProblem;

/** The seal of a bundle of `format`'s kind (parsed JSON), ready to hash. */
export function sealToCheck(json: object, format: RunBundleFormat): SealToCheck {
	if (!Object.hasOwn(json, 'resultsSha256')) return { ok: true };
	const claimed = (json as { resultsSha256: unknown }).resultsSha256;
	if (typeof claimed !== 'string' || !SHA256_HEX.test(claimed)) {
		return {
			ok: false,
			pointer: '/resultsSha256',
			message: 'expected the results’ SHA-256 (64 lowercase hex digits)',
		};
	}
	try {
		return { ok: true, seal: { claimed, canonical: resultsCanonicalJson(format, json) } };
	} catch {
		return { ok: false, pointer: '', message: 'the bundle is nested too deeply to read' };
	}
}

/** Whether a seal holds: `actual` is the SHA-256 (hex) of its canonical text's UTF-8 bytes. */
export function sealVerdict(
	claimed: string,
	actual: string,
): { readonly ok: true; readonly resultsSha256: string } | BundleProblem {
	if (actual === claimed) return { ok: true, resultsSha256: claimed };
	return {
		ok: false,
		pointer: '/resultsSha256',
		message:
			'the results do not match the resultsSha256 they were written with: the bundle was changed after it was written (edited or damaged); an edited bundle opens once its resultsSha256 is taken out',
	};
}

/** A bundle's `resultsSha256` checked against its results (absent: nothing to check). */
function checkResultsSha256(
	json: object,
	format: RunBundleFormat,
): { readonly ok: true; readonly resultsSha256?: string } | BundleProblem {
	const toCheck = sealToCheck(json, format);
	if (!toCheck.ok || toCheck.seal === undefined) return toCheck;
	return sealVerdict(toCheck.seal.claimed, sha256Hex(toCheck.seal.canonical));
}

/**
 * Checks that parsed JSON is a bundle of `format`'s kind (format 2 or the kind's 0.1.0 format)
 * whose results match its `resultsSha256` when it has one; a bundle of another kind is named, and
 * sent to the Library (which opens bundles of every kind).
 */
export function checkRunBundleKind(
	json: unknown,
	format: RunBundleFormat,
):
	| { readonly ok: true; readonly release: boolean; readonly resultsSha256?: string }
	| { readonly ok: false; readonly message: string; readonly pointer: string } {
	const envelope = readRunBundleEnvelope(json, [format]);
	if (!envelope.ok) {
		return envelope.message.startsWith('not a Benchtop')
			? {
					...envelope,
					message: `not ${format.what} (expected "format": "${RUN_BUNDLE_FORMAT}")`,
				}
			: envelope;
	}
	if (envelope.kind !== format.kind) {
		return {
			ok: false,
			pointer: envelope.release ? '/format' : '/kind',
			message: `a bundle of another kind of run (${JSON.stringify(envelope.kind)}), not ${format.what}: import it in the Library, which opens runs of every kind`,
		};
	}
	const sealed = checkResultsSha256(json as object, format);
	if (!sealed.ok) return sealed;
	const { resultsSha256 } = sealed;
	return { ok: true, release: envelope.release, ...(resultsSha256 ? { resultsSha256 } : {}) };
}

/**
 * Reads a run bundle of `format`'s kind from untrusted text: a JSON object in the `benchtop-run/2`
 * envelope (or the kind's 0.1.0 format, read as if written in the envelope), then the schema,
 * which expects `format` RUN_BUNDLE_FORMAT and `kind`. The schema checks what the page reads;
 * the rest passes through as written.
 */
export function readRunBundleOfKind<T>(
	text: string,
	format: RunBundleFormat,
	schema: v.GenericSchema,
): ReadBundleResult<T> {
	const parsed = parseJsonText(text);
	if (!parsed.ok) return parsed;
	const checked = checkRunBundleKind(parsed.json, format);
	if (!checked.ok) return checked;
	const json = { ...(parsed.json as object), format: RUN_BUNDLE_FORMAT, kind: format.kind };
	const result = v.safeParse(schema, json);
	if (!result.success) {
		const issue = result.issues[0];
		return { ok: false, pointer: pointerOfIssue(issue), message: issue.message };
	}
	return {
		ok: true,
		bundle: result.output as T,
		...(checked.resultsSha256 === undefined ? {} : { resultsSha256: checked.resultsSha256 }),
	};
}
