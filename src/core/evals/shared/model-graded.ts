/**
 * ModelBasedClassify as upstream (`evals/elsuite/modelgraded/classify.py`, `classify_utils.py`,
 * `evals/elsuite/utils.py`): choice strings, the answer prompt appended after a blank line, the
 * grader prompt filled from completions, sample fields and spec args (input braces doubled),
 * parsing the grader's output into a choice, its score, the run's aggregation, and the
 * generation parameters PromptFn sends. Pure.
 */
import type { ChatMessage, GenerationParams } from '../../model/generation';
import { renderChatAsText } from '../../model/render-chat-as-text';
import { isChatLike, readPrompt } from './chat-prompt';
import { EvalsError } from './errors';
import { formatNecessary } from './format-necessary';
import { pythonStrip, removeAsciiPunctuation } from '../../python/python-text';
import type {
	AnswerPrompts,
	AnswerPromptType,
	ChoiceMatchFn,
	JsonValue,
	ModelGradedSpec,
	Sample,
} from './types';

/** The choice upstream records when no line of the grader's output gives one. */
export const INVALID_CHOICE = '__invalid__';

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();

/** `get_choice_strings`: a list as is, a string per character, or `from_n` / `from_n_abc` / `from_n_ABC`. */
export function choiceStrings(spec: ModelGradedSpec, n: number): string[] {
	const raw = spec.choice_strings;
	if (raw === 'from_n') return Array.from({ length: n }, (_, i) => String(i + 1));
	if (raw === 'from_n_abc') return Array.from({ length: n }, (_, i) => LOWER.charAt(i % 26));
	if (raw === 'from_n_ABC') return Array.from({ length: n }, (_, i) => UPPER.charAt(i % 26));
	return typeof raw === 'string' ? Array.from(raw) : [...raw];
}

/** `choice_to_str`: `"Y" or "N"`. */
export function choicesToText(choices: readonly string[]): string {
	return choices.map((choice) => `"${choice}"`).join(' or ');
}

/** `scrub_formatting_from_prompt`: doubles `{` and `}` in a string or in each message's content. */
export function scrubFormatting(value: JsonValue): JsonValue {
	const scrub = (text: string): string => text.replace(/\{/gu, '{{').replace(/\}/gu, '}}');
	if (typeof value === 'string') return scrub(value);
	if (isChatLike(value)) {
		return value.map((message) =>
			typeof message.content === 'string'
				? { ...message, content: scrub(message.content) }
				: message,
		);
	}
	return value;
}

/**
 * Upstream `format_prompt` over a prompt's values: chat-list values are rendered to text without
 * the trailing "Assistant:" first (a list of mappings that is not a chat is an error, as upstream's
 * KeyError).
 */
function prepareFormatValues(
	values: Readonly<Record<string, JsonValue>>,
	where: string,
): Record<string, JsonValue> {
	const prepared: Record<string, JsonValue> = {};
	for (const [key, value] of Object.entries(values)) {
		const read = readPrompt(value);
		if (read.kind === 'bad-chat') {
			throw new EvalsError(
				`${where}: {${key}} is a list of mappings but not a chat; each message needs a string role and content`,
			);
		}
		prepared[key] =
			read.kind === 'chat' ? renderChatAsText(read.prompt, { forCompletion: false }) : value;
	}
	return prepared;
}

/** Fills every message's content (`PromptFn.__call__` / `format_prompt`). */
export function formatChat(
	messages: readonly ChatMessage[],
	values: Readonly<Record<string, JsonValue>>,
	where: string,
): ChatMessage[] {
	const prepared = prepareFormatValues(values, where);
	return messages.map((message) => ({
		...message,
		content: formatNecessary(message.content, prepared, where),
	}));
}

/** A sample field used as a prompt (string or chat), as the policy receives it after PromptFn formatting. */
export function promptFromField(value: JsonValue, where: string): string | ChatMessage[] {
	const read = readPrompt(value);
	if (read.kind === 'text') return formatNecessary(read.prompt, {}, where);
	if (read.kind === 'chat') return formatChat(read.prompt, {}, where);
	throw new EvalsError(`${where}: must be a string or a list of {role, content} messages`);
}

/**
 * `append_answer_prompt` (as_content): the answer prompt for `evalType`, `{choices}` filled, added to
 * the last message's content after "\n\n". Returns new messages (upstream mutates a chat spec in
 * place, re-appending on every sample; we do not: a documented divergence).
 */
export function appendAnswerPrompt(
	messages: readonly ChatMessage[],
	evalType: string,
	choices: readonly string[],
	answerPrompts: AnswerPrompts,
): ChatMessage[] {
	const template = answerPrompts[evalType as AnswerPromptType] as string | undefined;
	if (template === undefined) {
		throw new EvalsError(
			`eval_type ${evalType} has no answer prompt; use classify, classify_cot, cot_classify or cot_classify_jp`,
		);
	}
	const answer = formatNecessary(
		template,
		{ choices: choicesToText(choices) },
		`answer prompt ${evalType}`,
	);
	const last = messages[messages.length - 1];
	if (!last)
		throw new EvalsError('the grader prompt has no message to append the answer prompt to');
	return [...messages.slice(0, -1), { ...last, content: `${last.content}\n\n${answer}` }];
}

/**
 * The grader prompt of `classify`: the spec prompt (a string becomes one user message), the answer
 * prompt appended when the registry sets `eval_type`, then every `{key}` filled from `values`
 * (completions, then sample fields, then spec args: later sources win; `n` = multicomp_n).
 */
export function buildGraderPrompt(options: {
	readonly spec: ModelGradedSpec;
	readonly registryEvalType?: string;
	readonly choices: readonly string[];
	readonly answerPrompts: AnswerPrompts;
	readonly values: Readonly<Record<string, JsonValue>>;
	readonly where: string;
}): ChatMessage[] {
	const { spec } = options;
	let messages: ChatMessage[] =
		typeof spec.prompt === 'string' ? [{ role: 'user', content: spec.prompt }] : [...spec.prompt];
	if (options.registryEvalType) {
		messages = appendAnswerPrompt(
			messages,
			options.registryEvalType,
			options.choices,
			options.answerPrompts,
		);
	}
	return formatChat(messages, options.values, options.where);
}

/**
 * The `{key}` values of a grader prompt for one sample: `completions`, then the sample's fields
 * (input fields already scrubbed), then `modelgraded_spec_args`; plus `n`. A key named `n` in
 * those sources collides with upstream's `n=` keyword (a TypeError there): an error here.
 */
export function graderPromptValues(
	completions: Readonly<Record<string, string>>,
	scrubbedSample: Sample,
	specArgs: Readonly<Record<string, JsonValue>>,
	n: number,
): Record<string, JsonValue> {
	const merged: Record<string, JsonValue> = { ...completions, ...scrubbedSample, ...specArgs };
	if (Object.hasOwn(merged, 'n')) {
		throw new EvalsError(
			"a sample field, completion or modelgraded_spec_args key named 'n' collides with the grader's {n} (upstream raises TypeError); rename it",
		);
	}
	return { n, ...merged };
}

const MATCHERS: Readonly<Record<ChoiceMatchFn, (line: string, choice: string) => boolean>> = {
	include: (line, choice) => choice.includes(line),
	exact: (line, choice) => line === choice,
	endswith: (line, choice) => line.endsWith(choice),
	starts_or_endswith: (line, choice) => line.startsWith(choice) || line.endsWith(choice),
};

/**
 * `get_choice`: strip, split on "\n", reverse for `cot_classify*`; per line strip, delete ASCII
 * punctuation, skip empties, and return the first choice (list order) that `matchFn(line, choice)`
 * accepts. `line` is the index in the stripped text's lines of the deciding line, -1 if invalid.
 * Note upstream's `include` tests `line in choice` (the line inside the choice), kept as is.
 */
export function parseGraderChoice(
	text: string,
	evalType: string,
	matchFn: ChoiceMatchFn,
	choices: readonly string[],
): { choice: string; line: number } {
	const lines = pythonStrip(text).split('\n');
	const order = lines.map((_, index) => index);
	if (evalType.startsWith('cot_classify')) order.reverse();
	const matcher = MATCHERS[matchFn];
	for (const index of order) {
		const line = removeAsciiPunctuation(pythonStrip(lines[index] ?? ''));
		if (line === '') continue;
		for (const choice of choices) {
			if (matcher(line, choice)) return { choice, line: index };
		}
	}
	return { choice: INVALID_CHOICE, line: -1 };
}

/** `get_choice_score`: None without choice_scores; from_strings → float(choice); invalid → the minimum. */
export function choiceScore(
	choice: string,
	choices: readonly string[],
	scores: ModelGradedSpec['choice_scores'],
): number | null {
	if (scores === undefined) return null;
	const table: Record<string, number> =
		scores === 'from_strings'
			? Object.fromEntries(choices.map((c) => [c, parsePythonFloat(c)]))
			: { ...scores };
	if (choice === INVALID_CHOICE) return Math.min(...Object.values(table));
	const score = table[choice];
	if (score === undefined) throw new EvalsError(`choice_scores has no score for choice ${choice}`);
	return score;
}

function parsePythonFloat(text: string): number {
	const trimmed = pythonStrip(text).replace(/_/gu, '');
	const value = Number(trimmed);
	if (trimmed === '' || Number.isNaN(value)) {
		throw new EvalsError(
			`choice_scores from_strings: could not convert string to float: '${text}'`,
		);
	}
	return value;
}

/** `concat_n_completions`: each completion through `output_template`, concatenated, stripped. */
export function concatCompletions(completions: readonly string[], template: string): string {
	const pieces = completions.map((output, i) =>
		formatNecessary(
			template,
			{
				i: i + 1,
				i_abc: LOWER.charAt(i % 26),
				i_ABC: UPPER.charAt(i % 26),
				output,
				n: completions.length,
			},
			'output_template',
		),
	);
	return pythonStrip(pieces.join(''));
}

/** One sample's recorded metrics (`record_metrics(choice=..., score=...[, metascore=...])`). */
export interface GradedMetrics {
	readonly choice: string;
	readonly score: number | null;
	readonly metascore?: boolean;
}

/**
 * ModelBasedClassify `run()`: `counts/<choice>` in order of first appearance, `score` = mean of the
 * non-null scores (absent if none), `metascore` = mean of the metascores (absent if none).
 */
export function aggregateGraded(metrics: readonly GradedMetrics[]): Record<string, number> {
	const report: Record<string, number> = {};
	if (metrics.length === 0) return report;
	for (const { choice } of metrics)
		report[`counts/${choice}`] = (report[`counts/${choice}`] ?? 0) + 1;
	const scores = metrics.flatMap((m) => (m.score === null ? [] : [m.score]));
	if (scores.length > 0) report.score = scores.reduce((a, b) => a + b, 0) / scores.length;
	const metascores = metrics.flatMap((m) =>
		m.metascore === undefined ? [] : [Number(m.metascore)],
	);
	if (metascores.length > 0)
		report.metascore = metascores.reduce((a, b) => a + b, 0) / metascores.length;
	return report;
}

const PROMPT_FN_KWARGS = ['max_tokens', 'temperature', 'n_samples', 'completion_kwargs'];
const COMPLETION_KWARGS = [
	'temperature',
	'top_p',
	'max_tokens',
	'stop',
	'seed',
	'frequency_penalty',
	'presence_penalty',
	'n',
];

/** PromptFn kwargs → generation params (upstream passes max_tokens, temperature, top_p, penalties, n). */
export function promptFnParams(
	kwargs: Readonly<Record<string, JsonValue>>,
	where: string,
): GenerationParams {
	for (const key of Object.keys(kwargs)) {
		if (!PROMPT_FN_KWARGS.includes(key)) {
			throw new EvalsError(
				`${where}: unexpected keyword '${key}' (PromptFn accepts ${PROMPT_FN_KWARGS.join(', ')})`,
			);
		}
	}
	const number = (key: string, fallback: number): number => {
		const value = kwargs[key];
		if (value === undefined || value === null) return fallback;
		if (typeof value !== 'number') throw new EvalsError(`${where}: ${key} must be a number`);
		return value;
	};
	const params: Record<string, unknown> = {
		max_tokens: number('max_tokens', 1024),
		temperature: number('temperature', 0),
		top_p: 1,
		frequency_penalty: 0,
		presence_penalty: 0,
		n: number('n_samples', 1),
	};
	const extra = kwargs.completion_kwargs;
	if (extra !== undefined && extra !== null) {
		if (typeof extra !== 'object' || Array.isArray(extra)) {
			throw new EvalsError(`${where}: completion_kwargs must be a mapping`);
		}
		for (const [key, value] of Object.entries(extra)) {
			if (!COMPLETION_KWARGS.includes(key))
				throw new EvalsError(
					`${where}: completion_kwargs.${key} is not a generation parameter Benchtop can send`,
				);
			params[key] = value;
		}
	}
	return params as GenerationParams;
}
