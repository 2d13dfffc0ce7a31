/**
 * Includes (`evals.elsuite.basic.includes:Includes`): some ideal occurs in the completion, both
 * lowercased with `ignore_case`; no generation parameters are sent at all; reports `accuracy` and
 * `boostrap_std`. Pure.
 */
import type * as v from 'valibot';
import {
	argsObject,
	booleanArg,
	checkSingleModel,
	resultBase,
	sampleInput,
	samplesJsonlArg,
	stringIdeals,
	type EvalTemplate,
} from './eval-template';
import { aggregateMatches } from './match';

const CLASS_NAME = 'evals.elsuite.basic.includes:Includes';

/** Includes: some ideal occurs in the completion (`rfind != -1`); both lowercased with ignoreCase. */
export function checkIncludes(
	completion: string,
	ideals: readonly string[],
	ignoreCase: boolean,
): boolean {
	const text = ignoreCase ? completion.toLowerCase() : completion;
	return ideals.some((ideal) => text.includes(ignoreCase ? ideal.toLowerCase() : ideal));
}

const IncludesArgs = argsObject(CLASS_NAME, {
	samples_jsonl: samplesJsonlArg,
	ignore_case: booleanArg,
});

/** Includes; `picked` is the whole completion. */
export const INCLUDES: EvalTemplate<v.InferOutput<typeof IncludesArgs>> = {
	className: CLASS_NAME,
	name: 'Includes',
	kind: 'includes',
	argsSchema: IncludesArgs,
	hasGrader: false,
	resolveArgs: (args) => ({ ignoreCase: args.ignore_case ?? false }),
	params: () => ({ policy: {}, grader: null }),
	checkModels: (_evalSpec, models) => checkSingleModel('Includes', models),
	async evalSample(context) {
		const prompt = sampleInput(context);
		const ideals = stringIdeals(context);
		const params = INCLUDES.params(context.evalSpec).policy;
		const completion = await context.generate('policy', context.models.policy, prompt, params, 0);
		const correct = checkIncludes(completion, ideals, context.evalSpec.ignoreCase);
		const expected = context.sample.ideal ?? null;
		context.recorder.recordMatch(correct, expected, completion, { sampled: completion });
		return { ...resultBase(context), completion, correct, expected, picked: completion };
	},
	aggregate: aggregateMatches,
};
