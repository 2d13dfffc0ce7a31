/**
 * The response cache key: one completion per (provider, base URL, model, revision, prompt, every
 * generation parameter, the call's identity: sample id, role, call index), plus the sample seed when
 * the call samples (temperature ≠ 0). Two samples with the same prompt never share an entry (a
 * replay model or sampling answers them differently), while a re-run of the same samples hits
 * (sample ids are run-independent). The run id and the API key are never part of it. Pure.
 */
import { canonicalJson } from '../hash/canonical-json';
import { sha256Hex } from '../hash/sha256';
import type { GenerateRequest, GenerationParams, ModelCall } from './generation';
import type { TextModelSpec } from './model-spec';

/** Bumped when the key's content changes meaning (old entries then simply miss). */
export const RESPONSE_CACHE_KEY_VERSION = 2;

/** The part of a model call that identifies it across runs (never the run id). */
export type CacheCallIdentity = Pick<ModelCall, 'sampleId' | 'role' | 'callIndex'>;

/** True when a call samples: temperature absent (1, as OpenAI-compatible servers) or > 0. */
export function isSampled(params: GenerationParams): boolean {
	return params.temperature !== 0;
}

/** The model part of the key: everything that decides which weights answer, nothing secret. */
function modelIdentity(spec: TextModelSpec): Record<string, unknown> {
	switch (spec.source) {
		case 'openai':
			return { provider: 'openai', baseUrl: spec.baseUrl, model: spec.model };
		case 'replay':
			return { provider: 'replay', file: spec.file, sha256: spec.sha256 };
		default:
			return {
				provider: spec.source,
				model: spec.id,
				revision: spec.revision ?? null,
				dtype: spec.dtype,
				backend: spec.backend,
			};
	}
}

/** What the key hashes (exposed for tests and for listing the cache). */
export function responseCacheKeyMaterial(
	spec: TextModelSpec,
	request: GenerateRequest,
	call: CacheCallIdentity,
	sampleSeed?: string | number,
): string {
	return canonicalJson({
		v: RESPONSE_CACHE_KEY_VERSION,
		model: modelIdentity(spec),
		prompt: request.prompt,
		params: request.params,
		call: { sampleId: call.sampleId, role: call.role, callIndex: call.callIndex ?? 0 },
		seed: isSampled(request.params) ? (sampleSeed ?? null) : null,
	});
}

/** SHA-256 hex of {@link responseCacheKeyMaterial}. */
export function responseCacheKey(
	spec: TextModelSpec,
	request: GenerateRequest,
	call: CacheCallIdentity,
	sampleSeed?: string | number,
): string {
	return sha256Hex(responseCacheKeyMaterial(spec, request, call, sampleSeed));
}
