/**
 * A model-graded spec (`modelgraded/*.yaml` entry, upstream `ModelGradedSpec`) read from a
 * registry: a valibot schema of its fields, and the reader whose errors name the spec's file, line
 * and field. Pure.
 */
import * as v from 'valibot';
import { pointerOfIssue } from '../run/task-run-json';
import { ChatSchema } from './shared/chat-prompt';
import { EvalsError } from './shared/errors';
import { containsAsciiPunctuation } from '../python/python-text';
import type { JsonValue, ModelGradedSpec } from './shared/types';

function isMapping(value: unknown): value is Readonly<Record<string, unknown>> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A mapping (not a list) whose values all pass `isValue`. */
function mappingOf<T>(isValue: (value: unknown) => value is T, message: string) {
	return v.custom<Readonly<Record<string, T>>>(
		(input) => isMapping(input) && Object.values(input).every(isValue),
		message,
	);
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number';

const NOT_A_MAPPING = 'the spec must be a mapping with prompt, choice_strings, input_outputs';
const PROMPT_MESSAGE = 'must be a string or a list of {role, content} messages';
const CHOICE_STRINGS_MESSAGE =
	'must be a list of strings, a string of one-character choices, or from_n / from_n_abc / from_n_ABC (quote Yes/No: YAML reads them as booleans)';
const INPUT_OUTPUTS_MESSAGE = 'must map input fields to output fields, e.g. {input: completion}';

/** What a missing required field is told. */
const MISSING: Readonly<Record<string, string>> = {
	prompt: PROMPT_MESSAGE,
	choice_strings: CHOICE_STRINGS_MESSAGE,
	input_outputs: INPUT_OUTPUTS_MESSAGE,
};

/** Each choice free of ASCII punctuation (upstream asserts it); `from_n*` is expanded later. */
const ChoiceStringsSchema = v.pipe(
	v.union([v.string(), v.array(v.string())], CHOICE_STRINGS_MESSAGE),
	v.rawCheck(({ dataset, addIssue }) => {
		if (!dataset.typed) return;
		const raw = dataset.value;
		if (typeof raw === 'string' && raw.startsWith('from_n')) return;
		const bad = [...raw].find((choice) => containsAsciiPunctuation(choice));
		if (bad !== undefined) addIssue({ message: `${bad} contains punctuation` });
	}),
);

/** The fields of a spec; other keys are ignored, null reads as unset. */
export const ModelGradedSpecSchema = v.looseObject(
	{
		prompt: v.union([v.string(), ChatSchema], PROMPT_MESSAGE),
		choice_strings: ChoiceStringsSchema,
		input_outputs: mappingOf(isString, INPUT_OUTPUTS_MESSAGE),
		eval_type: v.nullish(v.string('must be a string')),
		choice_scores: v.nullish(
			v.union(
				[v.literal('from_strings'), mappingOf(isNumber, '')],
				'must map choices to numbers, or be from_strings',
			),
		),
		output_template: v.nullish(v.string('must be a string')),
	},
	(issue) => MISSING[String(issue.path?.[0]?.key)] ?? NOT_A_MAPPING,
);

/** Checks a model-graded spec's fields; `where` names its file and line for messages. */
export function parseModelGradedSpec(
	value: JsonValue,
	where: { file: string; line: number; name: string },
): ModelGradedSpec {
	const fail = (field: string, message: string): EvalsError =>
		new EvalsError(
			`${where.file}:${where.line}: modelgraded spec ${where.name}.${field}: ${message}`,
			{
				file: where.file,
				line: where.line,
				field: `${where.name}.${field}`,
			},
		);
	// NOTE: valibot's object schemas take a list for an object; a spec must be a mapping.
	if (!isMapping(value)) throw fail('prompt', NOT_A_MAPPING);
	const result = v.safeParse(ModelGradedSpecSchema, value);
	if (!result.success) {
		const issue = result.issues[0];
		throw fail(pointerOfIssue(issue).split('/')[1] ?? 'prompt', issue.message);
	}
	const spec = result.output;
	const choiceStrings = spec.choice_strings;
	return {
		prompt: spec.prompt,
		choice_strings: typeof choiceStrings === 'string' ? choiceStrings : [...choiceStrings],
		input_outputs: { ...spec.input_outputs },
		...(isString(spec.eval_type) ? { eval_type: spec.eval_type } : {}),
		...(isMapping(spec.choice_scores) ? { choice_scores: { ...spec.choice_scores } } : {}),
		...(spec.choice_scores === 'from_strings' ? { choice_scores: 'from_strings' as const } : {}),
		...(isString(spec.output_template) ? { output_template: spec.output_template } : {}),
	};
}
