/**
 * What the Evals and Memory run bundles and share links read alike: the valibot schemas of model
 * specs, generation parameters and run statuses, a model spec stripped to its declared fields, and
 * the reading of a versioned bundle (JSON, `format`, schema) with a JSON pointer on every refusal;
 * the suite run bundle reads its JSON text here too.
 */
import * as v from 'valibot';
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
	| { readonly ok: true; readonly bundle: T }
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
 * Reads a versioned bundle from untrusted text: a JSON object whose `format` is `format` (a newer
 * version of the same family is named as such), then the schema. `what` names the bundle in
 * messages ("an Evals run bundle"). The schema checks what the page reads; the rest passes
 * through as written.
 */
export function readVersionedBundle<T>(
	text: string,
	format: string,
	what: string,
	schema: v.GenericSchema,
): ReadBundleResult<T> {
	const parsed = parseJsonText(text);
	if (!parsed.ok) return parsed;
	const { json } = parsed;
	if (typeof json !== 'object' || json === null || Array.isArray(json)) {
		return { ok: false, pointer: '', message: `expected a JSON object (${what})` };
	}
	const found = (json as { format?: unknown }).format;
	if (found !== format) {
		const family = format.slice(0, format.lastIndexOf('/') + 1);
		return {
			ok: false,
			pointer: '/format',
			message:
				typeof found === 'string' && found.startsWith(family)
					? `format ${found} is newer than this Benchtop reads (${format}); update Benchtop`
					: `not ${what} (expected format "${format}")`,
		};
	}
	const result = v.safeParse(schema, json);
	if (!result.success) {
		const issue = result.issues[0];
		return { ok: false, pointer: pointerOfIssue(issue), message: issue.message };
	}
	return { ok: true, bundle: result.output as T };
}
