/**
 * The generation parameters of an Evals run: what upstream's templates send per role, the
 * parameters the user may set over them, which of those differ from upstream ("not upstream"),
 * the app's `max_tokens` where a template passes none, and a model that puts the user's values
 * over every request's.
 */
import {
	DEFAULT_MAX_NEW_TOKENS,
	type GenerateRequest,
	type GenerationParams,
	type ModelCall,
	type TextModel,
} from '../model/generation';
import { templateOf } from './templates';
import type { ResolvedEval } from './shared/types';

/** The generation parameters upstream's template sends, per role, for this eval. */
export function upstreamParams(evalSpec: ResolvedEval): {
	policy: GenerationParams;
	grader: GenerationParams | null;
} {
	return templateOf(evalSpec.kind).params(evalSpec);
}

/** Where the `max_tokens` an Evals call sends comes from. */
export type MaxTokensSource = 'template' | 'override' | 'app default';

/** The `max_tokens` an Evals call sends, where it comes from, and what the template passes. */
export interface MaxTokensSent {
	readonly value: number;
	readonly source: MaxTokensSource;
	/** The template's own value (upstream's), or null where it passes none. */
	readonly template: number | null;
}

/** The run's mark when the app's `max_tokens` replaced a provider's own default (none sent). */
export const PROVIDER_DEFAULT_REPLACED = 'parity: provider default replaced';

/**
 * The one rule for the `max_tokens` of an Evals policy or grader call: the user's override, else
 * the template's own value (where upstream passes one), else the app default (the local engine's
 * cap, {@link DEFAULT_MAX_NEW_TOKENS}), sent to endpoints too so that local and endpoint runs
 * stop at the same length. Upstream's Match and Includes pass none, so a server's own default
 * (up to the context length) would apply.
 */
export function maxTokensSent(
	template: GenerationParams,
	overrides: GenerationParams,
): MaxTokensSent {
	const own = template.max_tokens ?? null;
	if (overrides.max_tokens !== undefined) {
		return { value: overrides.max_tokens, source: 'override', template: own };
	}
	if (own !== null) return { value: own, source: 'template', template: own };
	return { value: DEFAULT_MAX_NEW_TOKENS, source: 'app default', template: null };
}

/**
 * A template's parameters as an Evals run sends them: `max_tokens` filled in where absent, with
 * `defaultMaxTokens` (the app default; null sends none, as upstream: `oaieval --default_max_tokens none`).
 */
export function withAppDefaults(
	params: GenerationParams,
	defaultMaxTokens: number | null = DEFAULT_MAX_NEW_TOKENS,
): GenerationParams {
	if (params.max_tokens !== undefined || defaultMaxTokens === null) return params;
	return { ...params, max_tokens: defaultMaxTokens };
}

/** E.g. "max_tokens 256 (app default: the template sends none)", for the run header and the CLI. */
export function maxTokensNote(sent: MaxTokensSent): string {
	const template = sent.template === null ? 'none' : String(sent.template);
	switch (sent.source) {
		case 'app default':
			return `max_tokens ${sent.value} (app default: the template sends none)`;
		case 'template':
			return `max_tokens ${sent.value} (the template's)`;
		case 'override':
			return `max_tokens ${sent.value} (your setting; the template sends ${template})`;
	}
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

/** The parameters one role of a run sent, with where its `max_tokens` came from. */
export interface RoleParamsSent {
	readonly role: string;
	readonly params: GenerationParams;
	readonly maxTokens: MaxTokensSent;
}

/** The parameters a run sent per role (the grader's only when the run has a grader model). */
export function paramsSentOf(
	evalSpec: ResolvedEval,
	overrides: { readonly policy: GenerationParams; readonly grader: GenerationParams },
	hasGrader: boolean,
): RoleParamsSent[] {
	const upstream = upstreamParams(evalSpec);
	const sent = (role: string, template: GenerationParams, set: GenerationParams) => ({
		role,
		params: mergeParams(withAppDefaults(template), set),
		maxTokens: maxTokensSent(template, set),
	});
	return [
		sent('model under test', upstream.policy, overrides.policy),
		...(upstream.grader && hasGrader ? [sent('grader', upstream.grader, overrides.grader)] : []),
	];
}

/** True when a role of the run sent the app's `max_tokens` where upstream sends none. */
export function providerDefaultReplaced(sent: readonly RoleParamsSent[]): boolean {
	return sent.some((entry) => entry.maxTokens.source === 'app default');
}
