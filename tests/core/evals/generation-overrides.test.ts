import { describe, expect, it } from 'vitest';
import {
	EDITABLE_PARAMS,
	PARAM_LABELS,
	isNotUpstream,
	maxTokensNote,
	maxTokensSent,
	mergeParams,
	paramsSentOf,
	providerDefaultReplaced,
	upstreamParams,
	withAppDefaults,
	withOverride,
	withParamOverrides,
	type EditableParam,
	type MaxTokensSent,
	type RoleParamsSent,
} from '../../../src/core/evals';
import type {
	ModelGradedArgs,
	ResolvedEval,
	TemplateKind,
} from '../../../src/core/evals/shared/types';
import { DEFAULT_MAX_NEW_TOKENS, type GenerationParams } from '../../../src/core/model/generation';
import { scriptedModel } from './scripted-model';

function evalOf(kind: TemplateKind, extra: Partial<ResolvedEval> = {}): ResolvedEval {
	return {
		name: 'e.dev.v0',
		requestedName: 'e',
		className: 'x',
		kind,
		args: {},
		file: 'evals/e.yaml',
		samples: [],
		fewShot: [],
		ignoreCase: false,
		...extra,
	};
}

function graded(args: Partial<ModelGradedArgs>): ResolvedEval {
	return evalOf('modelgraded', {
		modelGraded: {
			args: {
				modelgraded_spec: 'fact',
				modelgraded_spec_args: {},
				sample_kwargs: {},
				eval_kwargs: {},
				multicomp_n: 1,
				match_fn: 'starts_or_endswith',
				metaeval: false,
				...args,
			},
			spec: { prompt: 'grade', choice_strings: 'AB', input_outputs: {} },
			specFile: 'builtin:fact',
		},
	});
}

// Upstream's PromptFn defaults (evals/elsuite/modelgraded/base.py): max_tokens 1024, greedy.
const PROMPT_FN_DEFAULTS: GenerationParams = {
	max_tokens: 1024,
	temperature: 0,
	top_p: 1,
	frequency_penalty: 0,
	presence_penalty: 0,
	n: 1,
};

describe('upstreamParams', () => {
	it.each<[string, ResolvedEval, ReturnType<typeof upstreamParams>]>([
		['Match: greedy', evalOf('match'), { policy: { temperature: 0 }, grader: null }],
		['Includes: nothing set', evalOf('includes'), { policy: {}, grader: null }],
		[
			'FuzzyMatch: 100 tokens by default',
			evalOf('fuzzy_match'),
			{ policy: { temperature: 0, max_tokens: 100 }, grader: null },
		],
		[
			'FuzzyMatch: the spec’s max_tokens',
			evalOf('fuzzy_match', { maxTokens: 7 }),
			{ policy: { temperature: 0, max_tokens: 7 }, grader: null },
		],
		[
			'JsonMatch: 512 tokens by default',
			evalOf('json_match'),
			{ policy: { temperature: 0, max_tokens: 512 }, grader: null },
		],
		[
			'model-graded: PromptFn defaults for both roles',
			graded({}),
			{ policy: PROMPT_FN_DEFAULTS, grader: PROMPT_FN_DEFAULTS },
		],
		[
			'model-graded: sample_kwargs and eval_kwargs per role',
			graded({ sample_kwargs: { max_tokens: 64 }, eval_kwargs: { temperature: 0.5 } }),
			{
				policy: { ...PROMPT_FN_DEFAULTS, max_tokens: 64 },
				grader: { ...PROMPT_FN_DEFAULTS, temperature: 0.5 },
			},
		],
	])('%s', (_what, spec, expected) => {
		expect(upstreamParams(spec)).toEqual(expected);
	});

	it('says which keyword of sample_kwargs is unexpected', () => {
		expect(() => upstreamParams(graded({ sample_kwargs: { top_k: 3 } }))).toThrow(
			/sample_kwargs: unexpected keyword 'top_k'/,
		);
	});
});

describe('mergeParams', () => {
	it.each<[GenerationParams, GenerationParams, GenerationParams]>([
		[{ temperature: 0 }, {}, { temperature: 0 }],
		[{ temperature: 0 }, { temperature: 0.7 }, { temperature: 0.7 }],
		[{ temperature: 0 }, { max_tokens: 5 }, { temperature: 0, max_tokens: 5 }],
		[{}, { seed: 3 }, { seed: 3 }],
	])('%j with %j → %j', (upstream, overrides, sent) => {
		expect(mergeParams(upstream, overrides)).toEqual(sent);
	});
});

describe('isNotUpstream', () => {
	it.each<[GenerationParams, GenerationParams, EditableParam, boolean]>([
		[{ temperature: 0 }, {}, 'temperature', false],
		[{ temperature: 0 }, { temperature: 0 }, 'temperature', false],
		[{ temperature: 0 }, { temperature: 0.7 }, 'temperature', true],
		[{}, { max_tokens: 5 }, 'max_tokens', true],
		[{ max_tokens: 5 }, { temperature: 1 }, 'max_tokens', false],
	])('upstream %j, set %j: %s not upstream → %s', (upstream, overrides, key, marked) => {
		expect(isNotUpstream(upstream, overrides, key)).toBe(marked);
	});
});

describe('PARAM_LABELS', () => {
	it('names every editable parameter', () => {
		expect(Object.keys(PARAM_LABELS).sort()).toEqual([...EDITABLE_PARAMS].sort());
	});
});

describe('withParamOverrides', () => {
	const HI = { kind: 'text', text: 'hi' } as const;

	it('returns the model itself when nothing is set', () => {
		const model = scriptedModel('m', () => 'x');
		expect(withParamOverrides(model, {})).toBe(model);
	});

	it.each<[GenerationParams, GenerationParams, GenerationParams]>([
		[{ temperature: 0, max_tokens: 10 }, { max_tokens: 3 }, { temperature: 0, max_tokens: 3 }],
		[{}, { seed: 1, top_p: 0.9 }, { seed: 1, top_p: 0.9 }],
	])('request %j with %j sends %j', async (params, overrides, sent) => {
		const model = scriptedModel('m', () => 'x');
		const wrapped = withParamOverrides(model, overrides);
		const events = [];
		for await (const event of wrapped.generate(
			{ prompt: HI, params },
			{ runId: 'r', sampleId: 'e.dev.0', role: 'policy' },
		)) {
			events.push(event);
		}
		expect(model.calls.map((call) => call.request)).toEqual([{ prompt: HI, params: sent }]);
		expect(events.at(-1)).toMatchObject({ type: 'done', completion: 'x' });
		expect(wrapped.label).toBe('m');
		expect(wrapped.abilities).toEqual(model.abilities);
		expect(wrapped.countTokens('abcd')).toBe(4);
	});
});

describe('withOverride', () => {
	it.each<[GenerationParams, keyof GenerationParams, number | null, GenerationParams]>([
		[{}, 'max_tokens', 3, { max_tokens: 3 }],
		[{ max_tokens: 3 }, 'max_tokens', 5, { max_tokens: 5 }],
		[{ max_tokens: 3, seed: 1 }, 'max_tokens', null, { seed: 1 }],
		[{ temperature: 0.5 }, 'temperature', Number.NaN, {}],
		[{ top_p: 0.9 }, 'top_p', Number.POSITIVE_INFINITY, {}],
		[{}, 'seed', 0, { seed: 0 }],
	])('%j, %s = %s → %j', (overrides, key, value, next) => {
		expect(withOverride(overrides, key, value)).toEqual(next);
	});

	it('leaves the given parameters as they were', () => {
		const overrides = { max_tokens: 3 };
		withOverride(overrides, 'max_tokens', null);
		expect(overrides).toEqual({ max_tokens: 3 });
	});
});

describe('paramsSentOf', () => {
	const overrides = { policy: { max_tokens: 5 }, grader: { temperature: 1 } };
	const set = (template: number | null) => ({ value: 5, source: 'override', template }) as const;
	const own = { value: 1024, source: 'template', template: 1024 } as const;
	it.each<[string, ResolvedEval, boolean, RoleParamsSent[]]>([
		[
			'a basic eval: the model under test only',
			evalOf('match'),
			false,
			[
				{
					role: 'model under test',
					params: { temperature: 0, max_tokens: 5 },
					maxTokens: set(null),
				},
			],
		],
		[
			'a basic eval ignores a grader model',
			evalOf('includes'),
			true,
			[{ role: 'model under test', params: { max_tokens: 5 }, maxTokens: set(null) }],
		],
		[
			'model-graded with a grader: both roles',
			graded({}),
			true,
			[
				{
					role: 'model under test',
					params: { ...PROMPT_FN_DEFAULTS, max_tokens: 5 },
					maxTokens: set(1024),
				},
				{ role: 'grader', params: { ...PROMPT_FN_DEFAULTS, temperature: 1 }, maxTokens: own },
			],
		],
		[
			'model-graded without a grader model: the model under test only',
			graded({}),
			false,
			[
				{
					role: 'model under test',
					params: { ...PROMPT_FN_DEFAULTS, max_tokens: 5 },
					maxTokens: set(1024),
				},
			],
		],
	])('%s', (_what, spec, hasGrader, sent) => {
		expect(paramsSentOf(spec, overrides, hasGrader)).toEqual(sent);
	});

	it('without a setting, Match sends the app max_tokens and the run is marked', () => {
		const sent = paramsSentOf(evalOf('match'), { policy: {}, grader: {} }, false);
		expect(sent).toEqual([
			{
				role: 'model under test',
				params: { temperature: 0, max_tokens: 256 },
				maxTokens: { value: 256, source: 'app default', template: null },
			},
		]);
		expect(providerDefaultReplaced(sent)).toBe(true);
		expect(providerDefaultReplaced(paramsSentOf(evalOf('match'), overrides, false))).toBe(false);
	});
});

// Issue 30 item 9: an endpoint got no max_tokens for Match / Includes, so a server's own default
// (up to the context length) applied. One rule: the user's setting, else the template's value,
// else the app default, the local engine's cap.
describe('maxTokensSent: the max_tokens each template sends', () => {
	it.each<[string, ResolvedEval, 'policy' | 'grader', GenerationParams, MaxTokensSent, string]>([
		[
			'Match (upstream passes none)',
			evalOf('match'),
			'policy',
			{},
			{ value: 256, source: 'app default', template: null },
			'max_tokens 256 (app default: the template sends none)',
		],
		[
			'Includes (upstream passes none)',
			evalOf('includes'),
			'policy',
			{},
			{ value: 256, source: 'app default', template: null },
			'max_tokens 256 (app default: the template sends none)',
		],
		[
			'FuzzyMatch (100)',
			evalOf('fuzzy_match'),
			'policy',
			{},
			{ value: 100, source: 'template', template: 100 },
			"max_tokens 100 (the template's)",
		],
		[
			'JsonMatch (512)',
			evalOf('json_match'),
			'policy',
			{},
			{ value: 512, source: 'template', template: 512 },
			"max_tokens 512 (the template's)",
		],
		[
			'ModelBasedClassify policy (1024)',
			graded({}),
			'policy',
			{},
			{ value: 1024, source: 'template', template: 1024 },
			"max_tokens 1024 (the template's)",
		],
		[
			'ModelBasedClassify grader (1024)',
			graded({}),
			'grader',
			{},
			{ value: 1024, source: 'template', template: 1024 },
			"max_tokens 1024 (the template's)",
		],
		[
			'Match with a setting',
			evalOf('match'),
			'policy',
			{ max_tokens: 8 },
			{ value: 8, source: 'override', template: null },
			'max_tokens 8 (your setting; the template sends none)',
		],
		[
			'FuzzyMatch with a setting',
			evalOf('fuzzy_match'),
			'policy',
			{ max_tokens: 8 },
			{ value: 8, source: 'override', template: 100 },
			'max_tokens 8 (your setting; the template sends 100)',
		],
	])('%s', (_what, spec, role, set, sent, note) => {
		const template = upstreamParams(spec)[role] ?? {};
		expect(maxTokensSent(template, set)).toEqual(sent);
		expect(maxTokensNote(maxTokensSent(template, set))).toBe(note);
		expect(mergeParams(withAppDefaults(template), set).max_tokens).toBe(sent.value);
	});

	it('the app default is the local engine cap', () => {
		expect(maxTokensSent({}, {}).value).toBe(DEFAULT_MAX_NEW_TOKENS);
		expect(withAppDefaults({ temperature: 0 })).toEqual({ temperature: 0, max_tokens: 256 });
		const own = { max_tokens: 9 };
		expect(withAppDefaults(own)).toBe(own);
	});
});
