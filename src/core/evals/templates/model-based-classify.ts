/**
 * ModelBasedClassify (`evals.elsuite.modelgraded.classify:ModelBasedClassify`): the policy answers
 * each spec input the sample lacks an output for, the grader (the last completion fn) classifies
 * the filled spec prompt, and the parsed choice, its score and (with `metaeval`) the agreement with
 * the sample's label are recorded; reports `counts/<choice>`, `score`, `metascore`. Pure; the
 * prompt building and choice parsing live in `../model-graded`.
 */
import * as v from 'valibot';
import type { ChatMessage, TextModel } from '../../model/generation';
import { EvalsError } from '../shared/errors';
import {
	aggregateGraded,
	buildGraderPrompt,
	choiceScore,
	choiceStrings,
	concatCompletions,
	graderPromptValues,
	parseGraderChoice,
	promptFnParams,
	promptFromField,
	scrubFormatting,
	type GradedMetrics,
} from '../shared/model-graded';
import type {
	ChoiceMatchFn,
	JsonValue,
	ModelGradedArgs,
	ResolvedEval,
	SampleResult,
} from '../shared/types';
import {
	argsObject,
	booleanArg,
	eventData,
	resultBase,
	samplesJsonlArg,
	type EvalTemplate,
	type RunModels,
	type SampleContext,
} from './eval-template';

const CLASS_NAME = 'evals.elsuite.modelgraded.classify:ModelBasedClassify';
const MATCH_FNS: readonly ChoiceMatchFn[] = ['include', 'exact', 'endswith', 'starts_or_endswith'];
const MULTICOMP_MESSAGE = "must be a positive integer or 'from_models'";

const mappingArg = v.nullish(
	v.custom<Readonly<Record<string, JsonValue>>>(
		(input) => input !== null && typeof input === 'object' && !Array.isArray(input),
		'must be a mapping of names to values',
	),
);

const ModelBasedClassifyArgs = argsObject(
	CLASS_NAME,
	{
		samples_jsonl: samplesJsonlArg,
		modelgraded_spec: v.string('required: the name of a modelgraded spec'),
		modelgraded_spec_args: mappingArg,
		sample_kwargs: mappingArg,
		eval_kwargs: mappingArg,
		multicomp_n: v.nullish(
			v.union(
				[
					v.literal('from_models', MULTICOMP_MESSAGE),
					v.pipe(
						v.number(MULTICOMP_MESSAGE),
						v.integer(MULTICOMP_MESSAGE),
						v.minValue(1, MULTICOMP_MESSAGE),
					),
				],
				MULTICOMP_MESSAGE,
			),
		),
		eval_type: v.nullish(
			v.string('must be classify, classify_cot, cot_classify or cot_classify_jp'),
		),
		match_fn: v.nullish(v.picklist(MATCH_FNS, `must be one of ${MATCH_FNS.join(', ')}`)),
		metaeval: booleanArg,
	},
	{ modelgraded_spec: 'required: the name of a modelgraded spec' },
);

function gradedOf(evalSpec: ResolvedEval): NonNullable<ResolvedEval['modelGraded']> {
	if (!evalSpec.modelGraded) throw new Error('not a model-graded eval');
	return evalSpec.modelGraded;
}

/** `multicomp_n`, with `from_models` as the number of policy models. */
function multicompN(evalSpec: ResolvedEval, models: RunModels): number {
	const n = gradedOf(evalSpec).args.multicomp_n;
	return n === 'from_models' ? models.policies.length : n;
}

/**
 * The models that answer one spec input: `multicomp_n` of them (one per policy model when there are
 * several, else the policy `n` times), or just the policy.
 */
function answeringModels(context: SampleContext): readonly TextModel[] {
	const { policies, policy } = context.models;
	const n = multicompN(context.evalSpec, context.models);
	if (n <= 1) return [policy];
	if (!gradedOf(context.evalSpec).spec.output_template)
		throw new EvalsError('multicomp_n > 1 needs an output_template in the modelgraded spec');
	return Array.from({ length: n }, (_, i) =>
		policies.length > 1 ? (policies[i] ?? policy) : policy,
	);
}

/** The policy's outputs for one spec input, joined by `output_template` when there are several. */
function joinOutputs(context: SampleContext, outputs: readonly string[]): string {
	const template = gradedOf(context.evalSpec).spec.output_template;
	return outputs.length > 1 && template !== undefined
		? concatCompletions(outputs, template)
		: (outputs[0] ?? '');
}

/** The sample with each spec input field's braces doubled; a missing input field is an error. */
function scrubbedSample(context: SampleContext): Record<string, JsonValue> {
	const { spec } = gradedOf(context.evalSpec);
	const sample: Record<string, JsonValue> = { ...context.sample };
	for (const key of Object.keys(spec.input_outputs)) {
		if (!Object.hasOwn(sample, key))
			throw context.error(`missing field '${key}' that the spec's input_outputs reads`);
		sample[key] = scrubFormatting(sample[key] ?? null);
	}
	return sample;
}

/** The grader's prompt: the spec prompt (with the answer prompt) filled for this sample. */
function graderPromptOf(
	context: SampleContext,
	sample: Readonly<Record<string, JsonValue>>,
	completions: Readonly<Record<string, string>>,
): ChatMessage[] {
	const { spec, args } = gradedOf(context.evalSpec);
	const n = multicompN(context.evalSpec, context.models);
	return buildGraderPrompt({
		spec,
		...(args.eval_type ? { registryEvalType: args.eval_type } : {}),
		choices: choiceStrings(spec, n),
		answerPrompts: context.answerPrompts,
		values: graderPromptValues(completions, sample, args.modelgraded_spec_args, n),
		where: `sample ${context.sampleId}: grader prompt`,
	});
}

/** The grader's output parsed into a choice and score, recorded as the sample's metrics. */
function gradedResult(
	context: SampleContext,
	completions: Readonly<Record<string, string>>,
	graderPrompt: readonly ChatMessage[],
	graderOutput: string,
): SampleResult {
	const { spec, args } = gradedOf(context.evalSpec);
	const choices = choiceStrings(spec, multicompN(context.evalSpec, context.models));
	const evalType = spec.eval_type ?? args.eval_type ?? '';
	const { choice, line } = parseGraderChoice(graderOutput, evalType, args.match_fn, choices);
	const score = choiceScore(choice, choices, spec.choice_scores);
	const metrics: { choice: string; score: number | null; metascore?: boolean } = { choice, score };
	if (args.metaeval) {
		if (!Object.hasOwn(context.sample, 'choice'))
			throw context.error("metaeval needs a 'choice' label in every sample");
		metrics.metascore = choice === context.sample.choice;
	}
	context.recorder.recordMetrics(metrics);
	const completion =
		Object.values(completions).join('\n') ||
		String(context.sample[Object.values(spec.input_outputs)[0] ?? ''] ?? '');
	const metascore = metrics.metascore === undefined ? {} : { metascore: metrics.metascore };
	return {
		...resultBase(context),
		completion,
		graded: {
			choice,
			score,
			...metascore,
			graderPrompt: [...graderPrompt],
			graderOutput,
			decidingLine: line,
		},
	};
}

/**
 * One sample: the policy answers each spec input whose output field the sample lacks, then the
 * grader classifies the filled spec prompt. (One async function, so that samples run at once
 * interleave their model calls as before.)
 */
async function evalGradedSample(context: SampleContext): Promise<SampleResult> {
	const { spec, args } = gradedOf(context.evalSpec);
	const sample = scrubbedSample(context);
	const params = promptFnParams(args.sample_kwargs, 'sample_kwargs');
	const completions: Record<string, string> = {};
	for (const [inputKey, outputKey] of Object.entries(spec.input_outputs)) {
		if (Object.hasOwn(sample, outputKey)) continue;
		const where = `sample ${context.sampleId} field ${inputKey}`;
		const prompt = promptFromField(sample[inputKey] ?? null, where);
		const outputs: string[] = [];
		for (const model of answeringModels(context)) {
			outputs.push(await context.generate('policy', model, prompt, params));
		}
		completions[outputKey] = joinOutputs(context, outputs);
	}
	const graderPrompt = graderPromptOf(context, sample, completions);
	const graderParams = promptFnParams(args.eval_kwargs, 'eval_kwargs');
	const { grader } = context.models;
	const graderOutput = await context.generate('grader', grader, graderPrompt, graderParams, 0);
	return gradedResult(context, completions, graderPrompt, graderOutput);
}

/** ModelBasedClassify; the spec comes from the registry's `modelgraded/` or Benchtop's own. */
export const MODEL_BASED_CLASSIFY: EvalTemplate<v.InferOutput<typeof ModelBasedClassifyArgs>> = {
	className: CLASS_NAME,
	name: 'ModelBasedClassify',
	kind: 'modelgraded',
	argsSchema: ModelBasedClassifyArgs,
	hasGrader: true,
	resolveArgs(args, context) {
		const { spec, specFile } = context.modelGradedSpec(args.modelgraded_spec);
		if (!spec.eval_type && !args.eval_type) {
			throw context.argError(
				'eval_type',
				`neither the registry nor the spec ${args.modelgraded_spec} sets eval_type (upstream crashes); set one`,
			);
		}
		const modelGradedArgs: ModelGradedArgs = {
			modelgraded_spec: args.modelgraded_spec,
			modelgraded_spec_args: { ...args.modelgraded_spec_args },
			sample_kwargs: { ...args.sample_kwargs },
			eval_kwargs: { ...args.eval_kwargs },
			multicomp_n: args.multicomp_n ?? 1,
			...(typeof args.eval_type === 'string' ? { eval_type: args.eval_type } : {}),
			match_fn: args.match_fn ?? 'starts_or_endswith',
			metaeval: args.metaeval ?? false,
		};
		return { modelGraded: { args: modelGradedArgs, spec, specFile } };
	},
	params(evalSpec) {
		const args = evalSpec.modelGraded?.args;
		return {
			policy: promptFnParams(args?.sample_kwargs ?? {}, 'sample_kwargs'),
			grader: promptFnParams(args?.eval_kwargs ?? {}, 'eval_kwargs'),
		};
	},
	checkModels(evalSpec, models) {
		const { policies } = models;
		if (!evalSpec.modelGraded) return;
		if (evalSpec.modelGraded.args.multicomp_n === 'from_models' && policies.length < 2) {
			throw new EvalsError("multicomp_n: 'from_models' needs more than one policy model");
		}
		const n = multicompN(evalSpec, models);
		if (policies.length > 1 && n !== policies.length) {
			throw new EvalsError(
				`multicomp_n=${n} must equal the number of policy models (${policies.length})`,
			);
		}
	},
	evalSample: evalGradedSample,
	aggregate: (events) =>
		aggregateGraded(eventData(events, 'metrics') as unknown as GradedMetrics[]),
};
