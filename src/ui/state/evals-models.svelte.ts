/**
 * The Evals page's model choices (model under test and grader: a bundled local model in the
 * worker, the endpoint, or a replay file) and the generation parameters the user may set over
 * what upstream's templates send. Builds TextModels from providers; runs nothing.
 */
import { promptFnParams } from '../../core/evals/run-eval';
import type { ResolvedEval } from '../../core/evals/types';
import type {
	GenerateRequest,
	GenerationParams,
	ModelCall,
	TextModel,
} from '../../core/model/generation';
import { BUNDLED_MODEL_IDS, type TextModelSpec } from '../../core/model/model-spec';
import { createReplayModel } from '../../providers/replay';
import type { InferenceClientApi } from '../../worker/protocol';
import { LocalWorkerModel } from '../local-worker-model';
import type { EndpointSettings } from './endpoint-settings.svelte';

export type EvalsModelKind = 'local' | 'endpoint' | 'replay';

/** A replay file the user picked (name and text). */
export interface ReplayFileChoice {
	readonly name: string;
	readonly text: string;
}

/** One model choice (policy or grader). */
export class EvalsModelChoice {
	kind = $state<EvalsModelKind>('local');
	localId = $state<string>('gpt2-random-tiny');
	replay = $state.raw<ReplayFileChoice | null>(null);
	readonly localIds: readonly string[] = BUNDLED_MODEL_IDS;

	/** Why this choice cannot make a model yet, or null. */
	problem(endpoint: EndpointSettings): string | null {
		if (this.kind === 'replay' && !this.replay) return 'Pick a replay file (JSONL).';
		if (this.kind === 'endpoint') {
			if (endpoint.problem) return endpoint.problem;
			if (!endpoint.spec) return 'Give the endpoint a base URL and a model id.';
		}
		if (this.kind === 'replay' && this.replay) {
			try {
				createReplayModel(this.replay.text, this.replay.name);
			} catch (error) {
				return error instanceof Error ? error.message : String(error);
			}
		}
		return null;
	}
}

/** The spec of a local bundled model as the worker loads it for generation. */
export function localSpec(id: string): TextModelSpec {
	return { source: 'bundled', id, dtype: 'fp32', backend: 'wasm' };
}

/**
 * Makes the TextModel a spec names. Replay specs need their text (`replayTexts` by SHA-256);
 * endpoint specs use the endpoint's current key (never stored).
 */
export function modelFromSpec(
	spec: TextModelSpec,
	context: {
		readonly client: InferenceClientApi;
		readonly endpoint: EndpointSettings;
		readonly replayTexts: Readonly<Record<string, string>>;
	},
): TextModel {
	if (spec.source === 'replay') {
		const text = context.replayTexts[spec.sha256];
		if (text === undefined) {
			throw new Error(`The replay file ${spec.file} is not stored with this run: pick it again.`);
		}
		return createReplayModel(text, spec.file);
	}
	if (spec.source === 'openai') {
		const model = context.endpoint.textModel();
		if (!model || context.endpoint.spec?.model !== spec.model) {
			throw new Error(
				`This run used the endpoint model ${spec.model} at ${spec.baseUrl}: set it in Endpoint first.`,
			);
		}
		return model;
	}
	return new LocalWorkerModel({ client: context.client, spec });
}

/** The spec of a choice (after its problem is null). */
export function specOfChoice(
	choice: EvalsModelChoice,
	endpoint: EndpointSettings,
): { spec: TextModelSpec; replayText?: string } {
	if (choice.kind === 'replay' && choice.replay) {
		const model = createReplayModel(choice.replay.text, choice.replay.name);
		return { spec: model.spec, replayText: choice.replay.text };
	}
	if (choice.kind === 'endpoint' && endpoint.spec) return { spec: endpoint.spec };
	return { spec: localSpec(choice.localId) };
}

/** The generation parameters upstream's template sends, per role, for this eval. */
export function upstreamParams(evalSpec: ResolvedEval): {
	policy: GenerationParams;
	grader: GenerationParams | null;
} {
	switch (evalSpec.kind) {
		case 'match':
			return { policy: { temperature: 0 }, grader: null };
		case 'includes':
			return { policy: {}, grader: null };
		case 'fuzzy_match':
			return { policy: { temperature: 0, max_tokens: evalSpec.maxTokens ?? 100 }, grader: null };
		case 'json_match':
			return { policy: { temperature: 0, max_tokens: evalSpec.maxTokens ?? 512 }, grader: null };
		case 'modelgraded': {
			const args = evalSpec.modelGraded?.args;
			return {
				policy: promptFnParams(args?.sample_kwargs ?? {}, 'sample_kwargs'),
				grader: promptFnParams(args?.eval_kwargs ?? {}, 'eval_kwargs'),
			};
		}
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
