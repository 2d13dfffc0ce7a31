/**
 * GPT-generated tests, frozen (reference §2.6): a prompt file `{content, question, answer}` (each
 * an instruction) becomes a generation request (our wording) for JSON `{"content": [...],
 * "question": [...], "answer": [...]}`; up to 10 attempts until it parses; the result is written
 * as an upstream `.def.json` (line 0 = the content lines, then one question per line) so reruns
 * need no generator. Pure: the generator is injected.
 */
import * as v from 'valibot';
import type { ChatMessage, GenerationParams } from '../model/generation';
import { sanitizeAndParseJson } from './shared/sanitize-json';

const PromptFile = v.strictObject({
	content: v.pipe(v.string(), v.minLength(1)),
	question: v.pipe(v.string(), v.minLength(1)),
	answer: v.pipe(v.string(), v.minLength(1)),
});

export type GenerationPromptFile = v.InferOutput<typeof PromptFile>;

/** Parses a prompt file; throws an Error naming the field to fix. */
export function readGenerationPrompt(path: string, text: string): GenerationPromptFile {
	let root: unknown;
	try {
		root = JSON.parse(text);
	} catch (cause) {
		throw new Error(
			`${path}: not valid JSON (${cause instanceof Error ? cause.message : String(cause)})`,
			{ cause },
		);
	}
	const parsed = v.safeParse(PromptFile, root);
	if (!parsed.success) {
		const issue = parsed.issues[0]!;
		const where = (issue.path ?? []).map((item) => `/${String(item.key)}`).join('');
		throw new Error(
			`${path}#${where}: ${issue.message} (expected {"content", "question", "answer"}, each an instruction)`,
		);
	}
	return parsed.output;
}

/** Our system message for the generator. */
export const GENERATOR_SYSTEM_PROMPT =
	'You write material for memory tests. You follow the instructions exactly and reply with JSON only.';

/** Generation parameters (upstream generates at temperature 1.0). */
export const GENERATOR_PARAMS: GenerationParams = { temperature: 1, max_tokens: 2048 };

/** The generator's messages for a prompt file (our wording, no HTML escaping of the instructions). */
export function generationMessages(prompt: GenerationPromptFile): ChatMessage[] {
	return [
		{ role: 'system', content: GENERATOR_SYSTEM_PROMPT },
		{
			role: 'user',
			content: [
				`Content: ${prompt.content}`,
				`Questions: ${prompt.question}`,
				`Answers: ${prompt.answer}`,
				'Reply with one JSON object: {"content": [one string per statement], "question": [one string per question], "answer": [one string per question, in the same order]}.',
			].join('\n'),
		},
	];
}

/** An upstream `.def.json` object. */
export interface DefinitionFile {
	readonly script: string[];
	readonly is_question: boolean[];
	readonly waits: never[];
	readonly expected_responses: string[];
	readonly can_be_interleaved: true;
	readonly is_temporal: false;
	readonly uses_callback: false;
}

/** The definition from generated JSON; undefined when it has not the right shape. */
export function definitionFromGenerated(value: unknown): DefinitionFile | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { content, question, answer } = value as Record<string, unknown>;
	const strings = (list: unknown): list is string[] =>
		Array.isArray(list) && list.length > 0 && list.every((item) => typeof item === 'string');
	if (
		!strings(content) ||
		!strings(question) ||
		!strings(answer) ||
		question.length !== answer.length
	)
		return undefined;
	return {
		script: [content.join('\n'), ...question],
		is_question: [false, ...question.map(() => true)],
		waits: [],
		expected_responses: answer,
		can_be_interleaved: true,
		is_temporal: false,
		uses_callback: false,
	};
}

/** Asks `generate` up to `attempts` times until its reply parses into a definition. */
export async function generateDefinition(
	prompt: GenerationPromptFile,
	generate: (messages: ChatMessage[], params: GenerationParams) => Promise<string>,
	attempts = 10,
): Promise<DefinitionFile> {
	const messages = generationMessages(prompt);
	let last = '';
	for (let attempt = 0; attempt < attempts; attempt++) {
		last = await generate(messages, GENERATOR_PARAMS);
		let parsed: unknown;
		try {
			parsed = sanitizeAndParseJson(last);
		} catch {
			continue;
		}
		const definition = definitionFromGenerated(parsed);
		if (definition) return definition;
	}
	throw new Error(
		`the generator gave no usable JSON in ${attempts} attempts; its last reply began: ${JSON.stringify(last.slice(0, 120))}`,
	);
}
