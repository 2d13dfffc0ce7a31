// The template registry: the five upstream class paths (reference §1.1), the parameters each
// template sends (reference §1.3 table) and what each argsSchema accepts (reference §1.1 args).
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { TEMPLATES, TEMPLATE_CLASSES, templateOf } from '../../../../src/core/evals/templates';
import type { ResolvedEval, TemplateKind } from '../../../../src/core/evals/shared/types';

function evalOf(kind: TemplateKind, extra: Partial<ResolvedEval> = {}): ResolvedEval {
	return {
		name: 'e.dev.v0',
		requestedName: 'e',
		className: templateOf(kind).className,
		kind,
		args: {},
		file: 'evals/e.yaml',
		samples: [],
		fewShot: [],
		ignoreCase: false,
		...extra,
	};
}

describe('template registry', () => {
	it('maps the five upstream class paths to their templates', () => {
		expect(TEMPLATE_CLASSES).toEqual({
			'evals.elsuite.basic.match:Match': 'match',
			'evals.elsuite.basic.includes:Includes': 'includes',
			'evals.elsuite.basic.fuzzy_match:FuzzyMatch': 'fuzzy_match',
			'evals.elsuite.basic.json_match:JsonMatch': 'json_match',
			'evals.elsuite.modelgraded.classify:ModelBasedClassify': 'modelgraded',
		});
		for (const [kind, template] of Object.entries(TEMPLATES)) expect(template.kind).toBe(kind);
	});

	it.each<{ kind: TemplateKind; maxTokens?: number; policy: object }>([
		{ kind: 'match', maxTokens: 500, policy: { temperature: 0 } },
		{ kind: 'includes', policy: {} },
		{ kind: 'fuzzy_match', policy: { temperature: 0, max_tokens: 100 } },
		{ kind: 'fuzzy_match', maxTokens: 7, policy: { temperature: 0, max_tokens: 7 } },
		{ kind: 'json_match', policy: { temperature: 0, max_tokens: 512 } },
	])(
		'$kind (max_tokens $maxTokens) sends $policy and has no grader',
		({ kind, maxTokens, policy }) => {
			const evalSpec = evalOf(kind, maxTokens === undefined ? {} : { maxTokens });
			expect(templateOf(kind).params(evalSpec)).toEqual({ policy, grader: null });
		},
	);

	it('ModelBasedClassify sends PromptFn params to both roles', () => {
		const promptFn = {
			max_tokens: 1024,
			temperature: 0,
			top_p: 1,
			frequency_penalty: 0,
			presence_penalty: 0,
			n: 1,
		};
		expect(templateOf('modelgraded').params(evalOf('modelgraded'))).toEqual({
			policy: promptFn,
			grader: promptFn,
		});
	});
});

describe('argsSchema', () => {
	it.each<{ kind: TemplateKind; args: object }>([
		{
			kind: 'match',
			args: { samples_jsonl: 's', max_tokens: 5, num_few_shot: 2, few_shot_jsonl: 'f' },
		},
		{ kind: 'includes', args: { samples_jsonl: 's', ignore_case: true } },
		{ kind: 'includes', args: { samples_jsonl: 's', ignore_case: null } },
		{ kind: 'fuzzy_match', args: { samples_jsonl: 's', max_tokens: 3 } },
		{ kind: 'json_match', args: { samples_jsonl: 's' } },
		{
			kind: 'modelgraded',
			args: {
				samples_jsonl: 's',
				modelgraded_spec: 'fact',
				modelgraded_spec_args: { criteria: 'c' },
				sample_kwargs: { max_tokens: 5 },
				eval_kwargs: null,
				multicomp_n: 'from_models',
				eval_type: 'cot_classify',
				match_fn: 'exact',
				metaeval: false,
			},
		},
	])('$kind accepts $args', ({ kind, args }) => {
		expect(v.safeParse(templateOf(kind).argsSchema, args).success).toBe(true);
	});

	it.each<{ kind: TemplateKind; args: object; key: string; message: RegExp }>([
		{ kind: 'match', args: {}, key: 'samples_jsonl', message: /^required: a path under data\//u },
		{
			kind: 'match',
			args: { samples_jsonl: 's', num_few_shot: 1.5 },
			key: 'num_few_shot',
			message: /^must be an integer, not 1\.5$/u,
		},
		{
			kind: 'includes',
			args: { samples_jsonl: 's', max_tokens: 3 },
			key: 'max_tokens',
			message:
				/^unknown arg for evals\.elsuite\.basic\.includes:Includes .*accepted: samples_jsonl, ignore_case$/u,
		},
		{
			kind: 'includes',
			args: { samples_jsonl: 's', ignore_case: 'yes' },
			key: 'ignore_case',
			message: /^must be true or false$/u,
		},
		{
			kind: 'json_match',
			args: { samples_jsonl: 's', temperature: 0 },
			key: 'temperature',
			message: /^unknown arg/u,
		},
		{
			kind: 'modelgraded',
			args: { samples_jsonl: 's' },
			key: 'modelgraded_spec',
			message: /^required: the name of a modelgraded spec$/u,
		},
		{
			kind: 'modelgraded',
			args: { samples_jsonl: 's', modelgraded_spec: 'f', multicomp_n: 0 },
			key: 'multicomp_n',
			message: /^must be a positive integer or 'from_models'$/u,
		},
		{
			kind: 'modelgraded',
			args: { samples_jsonl: 's', modelgraded_spec: 'f', match_fn: 'fuzzy' },
			key: 'match_fn',
			message: /^must be one of include, exact, endswith, starts_or_endswith$/u,
		},
		{
			kind: 'modelgraded',
			args: { samples_jsonl: 's', modelgraded_spec: 'f', sample_kwargs: [1] },
			key: 'sample_kwargs',
			message: /^must be a mapping of names to values$/u,
		},
	])('$kind rejects $args at $key', ({ kind, args, key, message }) => {
		const result = v.safeParse(templateOf(kind).argsSchema, args);
		const issues = result.issues ?? [];
		const issue = issues.find((item) => item.path?.[0]?.key === key);
		expect(issue?.message).toMatch(message);
	});
});
