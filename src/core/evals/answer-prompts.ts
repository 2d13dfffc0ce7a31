/**
 * The instruction appended to a grader prompt for each `eval_type`, in Benchtop's own words (the
 * default), and the reader for an answer-prompts JSON file of the same shape (e.g. upstream's, for
 * byte-identical grader prompts). Each text has one `{choices}` placeholder. Pure.
 */
import * as v from 'valibot';
import { EvalsError } from './shared/errors';
import type { AnswerPrompts } from './shared/types';

/** Benchtop's answer prompts. `{choices}` becomes `"A" or "B" or ...`. */
export const DEFAULT_ANSWER_PROMPTS: AnswerPrompts = {
	classify:
		'Reply with exactly one of {choices}, written plainly (no quotation marks, no punctuation), and nothing else.',
	classify_cot:
		'On the first line, write exactly one of {choices} (no quotation marks, no punctuation). On the lines after it, explain how you decided, one step at a time.',
	cot_classify:
		'Think it through one step at a time before you decide, and do not give the verdict first. When you are done, write exactly one of {choices} (no quotation marks, no punctuation) on a line by itself, then write that same choice once more alone on the final line.\n\nReasoning:',
	cot_classify_jp:
		'結論を急がず、順を追って考えを書いてください。最初に答えを書かないでください。考え終えたら、{choices} のうち一つだけを（引用符や句読点を付けずに）一行で書き、最後の行にもう一度その答えだけを書いてください。\n\n考え：',
};

const AnswerPromptsSchema = v.strictObject({
	classify: v.string(),
	classify_cot: v.string(),
	cot_classify: v.string(),
	cot_classify_jp: v.string(),
});

/**
 * Reads an answer-prompts JSON file: an object with exactly the keys classify, classify_cot,
 * cot_classify and cot_classify_jp, each a string (the text after Python's `.strip()`, with its
 * `{choices}` placeholder unfilled). Errors name the file and the key.
 */
export function parseAnswerPrompts(text: string, path: string): AnswerPrompts {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new EvalsError(`${path}: not valid JSON (${(error as Error).message})`, { file: path });
	}
	const result = v.safeParse(AnswerPromptsSchema, value);
	if (!result.success) {
		const issue = result.issues[0];
		const key = issue.path?.map((item) => String(item.key)).join('.') ?? '';
		throw new EvalsError(
			`${path}: answer prompts ${key === '' ? '' : `key '${key}' `}${issue.message}; expected {classify, classify_cot, cot_classify, cot_classify_jp} with string values`,
			{ file: path, field: key },
		);
	}
	return result.output;
}
