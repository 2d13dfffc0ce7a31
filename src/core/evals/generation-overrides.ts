/**
 * The generation parameters of an Evals run: what upstream's templates send per role, the
 * parameters the user may set over them, which of those differ from upstream ("not upstream"),
 * and a model that puts the user's values over every request's.
 */
import type { GenerateRequest, GenerationParams, ModelCall, TextModel } from '../model/generation';
import { templateOf } from './templates';
import type { ResolvedEval } from './types';

/** The generation parameters upstream's template sends, per role, for this eval. */
export function upstreamParams(evalSpec: ResolvedEval): {
	policy: GenerationParams;
	grader: GenerationParams | null;
} {
	return templateOf(evalSpec.kind).params(evalSpec);
}

/** Parameters the page lets the user set. */
export const EDITABLE_PARAMS = ['max_tokens', 'temperature', 'top_p', 'seed'] as const;
export type EditableParam = (typeof EDITABLE_PARAMS)[number];

/** Plain-language names of the parameters. */
export const PARAM_LABELS: Readonly<Record<EditableParam, string>> = {
	max_tokens: 'Max new tokens',
	temperature: 'Temperature (0 = greedy)',
	top_p: 'Top-p',
	seed: 'Sampling seed',
};

/** The parameters sent: upstream's with the user's values over them. */
export function mergeParams(
	upstream: GenerationParams,
	overrides: GenerationParams,
): GenerationParams {
	return { ...upstream, ...overrides };
}

/** Whether a parameter sent differs from what upstream sends ("not upstream"). */
export function isNotUpstream(
	upstream: GenerationParams,
	overrides: GenerationParams,
	key: EditableParam,
): boolean {
	return overrides[key] !== undefined && overrides[key] !== upstream[key];
}

/** `model` with the user's parameters put over every request's (the cache sees what is sent). */
export function withParamOverrides(model: TextModel, overrides: GenerationParams): TextModel {
	if (Object.keys(overrides).length === 0) return model;
	return {
		label: model.label,
		get abilities() {
			return model.abilities;
		},
		countTokens: (text) => model.countTokens(text),
		generate: (request: GenerateRequest, call: ModelCall, signal) =>
			model.generate({ ...request, params: mergeParams(request.params, overrides) }, call, signal),
	};
}

/** `overrides` with `key` set to a number, or taken out (null, or not a finite number). */
export function withOverride(
	overrides: GenerationParams,
	key: keyof GenerationParams,
	value: number | null,
): GenerationParams {
	const next: Record<string, unknown> = { ...overrides };
	if (value === null || !Number.isFinite(value)) delete next[key];
	else next[key] = value;
	return next as GenerationParams;
}

/** The parameters a run sent per role (the grader's only when the run has a grader model). */
export function paramsSentOf(
	evalSpec: ResolvedEval,
	overrides: { readonly policy: GenerationParams; readonly grader: GenerationParams },
	hasGrader: boolean,
): { role: string; params: GenerationParams }[] {
	const upstream = upstreamParams(evalSpec);
	return [
		{ role: 'model under test', params: mergeParams(upstream.policy, overrides.policy) },
		...(upstream.grader && hasGrader
			? [{ role: 'grader', params: mergeParams(upstream.grader, overrides.grader) }]
			: []),
	];
}
