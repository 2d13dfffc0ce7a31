/**
 * What an Evals template is here, as upstream's `Eval` subclasses: a valibot schema of its registry
 * args, the eval fields those args give, the parameters it sends, `evalSample` (one sample: model
 * calls and recorder events) and `aggregate` (`run()`'s report from the events). Also the arg and
 * sample readers the templates share. Pure.
 */
import * as v from 'valibot';
import type { ChatMessage, GenerationParams, TextModel } from '../../model/generation';
import { readPrompt } from '../shared/chat-prompt';
import { EvalsError } from '../shared/errors';
import type { SampleRecorder } from '../shared/recorder';
import type {
	AnswerPrompts,
	EvalEvent,
	ModelGradedSpec,
	ResolvedEval,
	Sample,
	SampleCall,
	SampleResult,
	TemplateKind,
} from '../shared/types';

/** The models of a run, as upstream splits its completion fns. */
export interface RunModels {
	/** Models under test (with a grader among several fns: all but the last). */
	readonly policies: readonly TextModel[];
	/** The first of `policies`. */
	readonly policy: TextModel;
	/** The last completion fn (ModelBasedClassify's grader). */
	readonly grader: TextModel;
	/** How many models under test the caller gave (not counting a separate grader). */
	readonly givenPolicies: number;
}

/** What `evalSample` gets for one sample. */
export interface SampleContext {
	readonly evalSpec: ResolvedEval;
	readonly sampleId: string;
	/** Index of the sample in the samples file(s). */
	readonly index: number;
	readonly sample: Sample;
	readonly models: RunModels;
	readonly answerPrompts: AnswerPrompts;
	readonly recorder: SampleRecorder;
	/** The calls made so far for this sample. */
	readonly calls: readonly SampleCall[];
	/**
	 * Calls `model`, records the `sampling` event and the call; `callIndex` defaults to the number
	 * of calls made so far.
	 */
	generate(
		role: SampleCall['role'],
		model: TextModel,
		prompt: string | readonly ChatMessage[],
		params: GenerationParams,
		callIndex?: number,
	): Promise<string>;
	/** An `EvalsError` naming the sample (and its file and line when known). */
	error(message: string): EvalsError;
}

/** What resolving an eval offers a template's `resolveArgs`. */
export interface ResolveContext {
	/** The rows of a JSONL file named by arg `field` (read as `samples_jsonl` is). */
	readRows(path: string, field: string): Sample[];
	/** A model-graded spec by name (registry `modelgraded/` first, then Benchtop's own). */
	modelGradedSpec(name: string): { spec: ModelGradedSpec; specFile: string };
	/** An error at arg `field` of the registry entry. */
	argError(field: string, message: string): EvalsError;
}

/** The fields of a `ResolvedEval` that a template derives from its args. */
export type TemplateFields = Partial<
	Pick<ResolvedEval, 'fewShot' | 'ignoreCase' | 'maxTokens' | 'modelGraded'>
>;

/** One of the five templates. */
export interface EvalTemplate<TArgs = unknown> {
	/** Upstream class path, e.g. `evals.elsuite.basic.match:Match`. */
	readonly className: string;
	/** The class name alone, e.g. `Match`. */
	readonly name: string;
	readonly kind: TemplateKind;
	/** The registry args: unknown args, wrong types and missing required args are issues. */
	readonly argsSchema: v.GenericSchema<unknown, TArgs>;
	/** Whether the last of several completion fns grades instead of being tested. */
	readonly hasGrader: boolean;
	/** The eval fields the checked args give (few-shot rows and specs read through `context`). */
	resolveArgs(args: TArgs, context: ResolveContext): TemplateFields;
	/** The generation parameters upstream sends, per role (`grader` null without a grader). */
	params(evalSpec: ResolvedEval): { policy: GenerationParams; grader: GenerationParams | null };
	/** Checks the models before any sample runs (upstream's asserts in `__init__`). */
	checkModels(evalSpec: ResolvedEval, models: RunModels): void;
	/** One sample: its model calls and recorder events (upstream `eval_sample`). */
	evalSample(context: SampleContext): Promise<SampleResult>;
	/** The report from the run's events (upstream `run()`, without usage sums). */
	aggregate(events: readonly EvalEvent[], seed: number): Record<string, number>;
}

const SAMPLES_JSONL_REQUIRED = 'required: a path under data/';

/** `samples_jsonl`: every template's required arg. */
export const samplesJsonlArg = v.string(SAMPLES_JSONL_REQUIRED);

/** An integer arg (`must be an integer, not 1.5`). */
export const integerArg = v.pipe(
	v.number((issue) => `must be an integer, not ${JSON.stringify(issue.input)}`),
	v.integer((issue) => `must be an integer, not ${JSON.stringify(issue.input)}`),
);

/** A boolean arg; null reads as unset. */
export const booleanArg = v.nullish(v.boolean('must be true or false'));

/**
 * A template's args object: unknown args are errors (upstream raises TypeError), a missing
 * required arg gets its `required` message (`samples_jsonl`'s is built in).
 */
export function argsObject<TEntries extends v.ObjectEntries>(
	className: string,
	entries: TEntries,
	required: Readonly<Record<string, string>> = {},
): v.StrictObjectSchema<TEntries, v.ErrorMessage<v.StrictObjectIssue>> {
	const accepted = Object.keys(entries).join(', ');
	const messages: Readonly<Record<string, string>> = {
		samples_jsonl: SAMPLES_JSONL_REQUIRED,
		...required,
	};
	return v.strictObject(entries, (issue) => {
		if (issue.expected === 'never') {
			return `unknown arg for ${className} (upstream raises TypeError); accepted: ${accepted}`;
		}
		const key = String(issue.path?.[0]?.key ?? '');
		return messages[key] ?? `required arg ${key}`;
	});
}

/** A sample's `input` as a prompt; an error names the sample when it is neither string nor chat. */
export function sampleInput(context: SampleContext): string | ChatMessage[] {
	const read = readPrompt(context.sample.input);
	if (read.kind === 'text' || read.kind === 'chat') return read.prompt;
	if (read.kind === 'bad-chat') {
		throw context.error('each input message needs a string role and content');
	}
	throw context.error(
		"sample must have an 'input' key holding a string or a list of {role, content} messages",
	);
}

/** A basic template's `ideal`: a string or a list of strings (upstream wraps a string in a list). */
export const IdealSchema = v.union([v.string(), v.array(v.string())]);

/** A sample's ideals as a list; an error names the sample when `ideal` is missing or not strings. */
export function stringIdeals(context: SampleContext): string[] {
	const ideal = context.sample.ideal;
	if (ideal === undefined) throw context.error("sample must have an 'ideal' key");
	if (!v.is(IdealSchema, ideal)) {
		throw context.error('ideal must be a string or a list of strings');
	}
	return typeof ideal === 'string' ? [ideal] : [...ideal];
}

/** The `SampleResult` fields every template fills. */
export function resultBase(
	context: SampleContext,
): Pick<SampleResult, 'sampleId' | 'index' | 'sample' | 'calls'> {
	return {
		sampleId: context.sampleId,
		index: context.index,
		sample: context.sample,
		calls: context.calls,
	};
}

/** The `data` of a run's events of one type, in order. */
export function eventData(
	events: readonly EvalEvent[],
	type: string,
): { readonly [key: string]: unknown }[] {
	return events.filter((event) => event.type === type).map((event) => event.data);
}

/** Upstream asserts one completion fn for Includes, FuzzyMatch and JsonMatch. */
export function checkSingleModel(templateName: string, models: RunModels): void {
	if (models.givenPolicies > 1) {
		throw new EvalsError(
			`${templateName} only supports one completion fn (upstream asserts it); give one model`,
		);
	}
}
