/**
 * Match (`evals.elsuite.basic.match:Match`): the completion must start with one of the ideals, no
 * strip, case-sensitive; few-shot chats are spliced in before the last input message; reports
 * `accuracy` and the misnamed `boostrap_std`. Pure.
 */
import * as v from 'valibot';
import type { ChatMessage } from '../../model/generation';
import { ChatSchema } from '../shared/chat-prompt';
import { accuracy, bootstrapAccuracyStd } from '../shared/metrics';
import { PythonRandom } from '../../python/python-random';
import type { EvalEvent } from '../shared/types';
import {
	argsObject,
	eventData,
	integerArg,
	resultBase,
	sampleInput,
	samplesJsonlArg,
	stringIdeals,
	type EvalTemplate,
	type ResolveContext,
	type SampleContext,
} from './eval-template';

const CLASS_NAME = 'evals.elsuite.basic.match:Match';

/**
 * Match: the first ideal (in order) that the completion starts with; no strip, case-sensitive.
 * `picked` is that ideal, or null.
 */
export function checkMatch(
	completion: string,
	ideals: readonly string[],
): { correct: boolean; picked: string | null } {
	const picked = ideals.find((ideal) => completion.startsWith(ideal)) ?? null;
	return { correct: picked !== null, picked };
}

/** `accuracy` and `boostrap_std` of the run's match events (Match and Includes). */
export function aggregateMatches(
	events: readonly EvalEvent[],
	seed: number,
): Record<string, number> {
	const matches = eventData(events, 'match').map((data) => data.correct === true);
	return {
		accuracy: accuracy(matches),
		boostrap_std: bootstrapAccuracyStd(matches, new PythonRandom(seed)),
	};
}

const MatchArgs = argsObject(CLASS_NAME, {
	samples_jsonl: samplesJsonlArg,
	max_tokens: v.optional(integerArg),
	num_few_shot: v.optional(integerArg),
	few_shot_jsonl: v.nullish(v.string('must be a path under data/')),
});

/** A line of `few_shot_jsonl`: `{"sample": [chat messages]}`. */
const FewShotRowSchema = v.object({ sample: ChatSchema });

/** The first `num_few_shot` chats of `few_shot_jsonl` (none when `num_few_shot` is 0 or unset). */
function readFewShot(
	args: v.InferOutput<typeof MatchArgs>,
	context: ResolveContext,
): ChatMessage[][] {
	const numFewShot = args.num_few_shot ?? 0;
	if (numFewShot <= 0) return [];
	const path = args.few_shot_jsonl;
	if (typeof path !== 'string') {
		throw context.argError('few_shot_jsonl', 'few shot requires few shot sample dataset');
	}
	const rows = context.readRows(path, 'few_shot_jsonl').slice(0, numFewShot);
	return rows.map((row, index) => {
		const parsed = v.safeParse(FewShotRowSchema, row);
		if (!parsed.success) {
			const message = `line ${index + 1} must be {"sample": [chat messages]}`;
			throw context.argError('few_shot_jsonl', message);
		}
		return parsed.output.sample;
	});
}

/** The input with the few-shot chats spliced in before its last message. */
function promptWithFewShot(context: SampleContext): string | ChatMessage[] {
	const prompt = sampleInput(context);
	const fewShot = context.evalSpec.fewShot;
	if (fewShot.length === 0) return prompt;
	if (typeof prompt === 'string') throw context.error('few shot requires chat prompt');
	return [...prompt.slice(0, -1), ...fewShot.flat(), ...prompt.slice(-1)];
}

/** Match; `max_tokens` is stored (default 500) but not sent, as upstream. */
export const MATCH: EvalTemplate<v.InferOutput<typeof MatchArgs>> = {
	className: CLASS_NAME,
	name: 'Match',
	kind: 'match',
	argsSchema: MatchArgs,
	hasGrader: false,
	resolveArgs: (args, context) => ({
		fewShot: readFewShot(args, context),
		maxTokens: args.max_tokens ?? 500,
	}),
	params: () => ({ policy: { temperature: 0 }, grader: null }),
	checkModels: () => undefined,
	async evalSample(context) {
		const prompt = promptWithFewShot(context);
		const ideals = stringIdeals(context);
		const params = MATCH.params(context.evalSpec).policy;
		const completion = await context.generate('policy', context.models.policy, prompt, params, 0);
		const { correct, picked } = checkMatch(completion, ideals);
		context.recorder.recordMatch(correct, ideals, picked, { sampled: completion, options: ideals });
		const expected = context.sample.ideal ?? null;
		return { ...resultBase(context), completion, correct, expected, picked };
	},
	aggregate: aggregateMatches,
};
