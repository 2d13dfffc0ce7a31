/**
 * The surprisal convention of the model picker's choice, decided from the choice itself: the
 * chosen model's default (default-convention.ts) until the user picks a convention for that
 * model. Decided in the same step as the model, so a run started at once is never scored under
 * the previous model's convention. Pure: the caller holds the state and reads a hub model's or a
 * folder's tokenizer files.
 */
import {
	defaultConvention,
	factsWithoutFiles,
	type ConventionDefault,
	type ConventionFacts,
} from './default-convention';
import type { EndpointModelSpec, ModelSpec, SurprisalConvention } from './model-spec';

/** The user's pick of a convention and the model (its conventionModelKey) it was made for. */
export interface ConventionPick {
	readonly modelKey: string | null;
	readonly convention: SurprisalConvention;
}

/** The convention a run uses now; `pending` while the model's default is still being read. */
export interface SettledConvention {
	readonly convention: SurprisalConvention;
	readonly pending: boolean;
}

/**
 * The model a default convention belongs to (`bundled:id`, `hub:id@revision`, `local:folder`,
 * `openai:model@baseUrl`); dtype and backend change no default. Null while nothing is chosen.
 */
export function conventionModelKey(spec: ModelSpec | EndpointModelSpec | null): string | null {
	if (spec === null) return null;
	switch (spec.source) {
		case 'openai':
			return `openai:${spec.model}@${spec.baseUrl}`;
		case 'hub':
			return `hub:${spec.id}@${spec.revision ?? 'main'}`;
		default:
			return `${spec.source}:${spec.id}`;
	}
}

/**
 * The facts the choice alone gives: all there is for a bundled model (its card) and an endpoint
 * (which says nothing about its tokenizer); null for a hub model or a folder, whose tokenizer
 * files hold them (conventionFactsFromFiles).
 */
export function conventionFactsOf(
	spec: ModelSpec | EndpointModelSpec | null,
): ConventionFacts | null {
	if (spec === null) return null;
	return spec.source === 'openai'
		? factsWithoutFiles('openai', spec.model)
		: factsWithoutFiles(spec.source, spec.id);
}

/**
 * The convention of model `modelKey`: the user's pick when it was made for this model, else the
 * model's default; without a default yet (a hub model being read), the last pick, `pending`.
 */
export function settleConvention(
	modelKey: string | null,
	modelDefault: ConventionDefault | null,
	pick: ConventionPick,
): SettledConvention {
	if (modelKey === null || pick.modelKey === modelKey) {
		return { convention: pick.convention, pending: false };
	}
	return modelDefault
		? { convention: modelDefault.convention, pending: false }
		: { convention: pick.convention, pending: true };
}

/** The default for `facts`, or null when there are none yet. */
export function conventionDefaultOf(facts: ConventionFacts | null): ConventionDefault | null {
	return facts ? defaultConvention(facts) : null;
}
