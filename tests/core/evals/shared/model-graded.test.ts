// Rows C1–C11 of ../shared/docs/reference-evals-ltm.md §4.4. Choice parsing expectations were
// checked by running upstream's get_choice (classify_utils.py) in Python 3.11.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER_PROMPTS } from '../../../../src/core/evals/answer-prompts';
import {
	INVALID_CHOICE,
	aggregateGraded,
	appendAnswerPrompt,
	buildGraderPrompt,
	choiceScore,
	choiceStrings,
	choicesToText,
	concatCompletions,
	graderPromptValues,
	parseGraderChoice,
	promptFromField,
	scrubFormatting,
} from '../../../../src/core/evals/shared/model-graded';
import { BUILTIN_MODELGRADED_SPECS } from '../../../../src/core/evals/modelgraded-specs';
import type {
	AnswerPrompts,
	ChoiceMatchFn,
	ModelGradedSpec,
} from '../../../../src/core/evals/shared/types';

const YES_NO = ['Yes', 'No'];

describe('parseGraderChoice (C1–C7)', () => {
	it.each<{
		row: string;
		text: string;
		evalType: string;
		matchFn: ChoiceMatchFn;
		choices: string[] | string;
		choice: string;
	}>([
		{
			row: 'C1',
			text: 'Reasoning...\nB',
			evalType: 'cot_classify',
			matchFn: 'starts_or_endswith',
			choices: 'ABCDE',
			choice: 'B',
		},
		{
			row: 'C2',
			text: 'Answer: B',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: 'ABCDE',
			choice: 'A',
		},
		{
			row: 'C3',
			text: 'Eh, D',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: 'ABCDE',
			choice: 'D',
		},
		{
			row: 'C4 no',
			text: 'no',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: YES_NO,
			choice: INVALID_CHOICE,
		},
		{
			row: 'C4 YES',
			text: 'YES',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: YES_NO,
			choice: INVALID_CHOICE,
		},
		{
			row: 'C5',
			text: 'Not sure\nmaybe',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: YES_NO,
			choice: 'No',
		},
		{
			row: 'C6',
			text: 'Y\n\nThe reasoning is ... N',
			evalType: 'classify_cot',
			matchFn: 'starts_or_endswith',
			choices: 'YN',
			choice: 'Y',
		},
		{
			row: 'C7',
			text: '**Y**',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: 'YN',
			choice: 'Y',
		},
		{
			row: 'empty',
			text: '',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: 'YN',
			choice: INVALID_CHOICE,
		},
		{
			row: 'Yes.',
			text: 'Yes.',
			evalType: 'classify',
			matchFn: 'starts_or_endswith',
			choices: YES_NO,
			choice: 'Yes',
		},
		{
			row: 'include: line inside choice',
			text: 'es',
			evalType: 'classify',
			matchFn: 'include',
			choices: YES_NO,
			choice: 'Yes',
		},
		{
			row: 'include cot',
			text: 'Y',
			evalType: 'cot_classify',
			matchFn: 'include',
			choices: 'XYZ',
			choice: 'Y',
		},
		{
			row: 'exact',
			text: 'Y N',
			evalType: 'classify',
			matchFn: 'exact',
			choices: 'YN',
			choice: INVALID_CHOICE,
		},
		{
			row: 'exact, blank lines skipped',
			text: 'Y\n  \nN.',
			evalType: 'cot_classify',
			matchFn: 'exact',
			choices: 'YN',
			choice: 'N',
		},
		{
			row: 'endswith',
			text: 'so B',
			evalType: 'classify',
			matchFn: 'endswith',
			choices: 'ABC',
			choice: 'B',
		},
		{
			row: 'endswith no',
			text: 'B so',
			evalType: 'classify',
			matchFn: 'endswith',
			choices: 'ABC',
			choice: INVALID_CHOICE,
		},
	])('$row', ({ text, evalType, matchFn, choices, choice }) => {
		expect(
			parseGraderChoice(text, evalType, matchFn, Array.from(choices === YES_NO ? YES_NO : choices))
				.choice,
		).toBe(choice);
	});

	it('reports the deciding line (index in the stripped text)', () => {
		expect(
			parseGraderChoice('\nthinking\nY\n', 'cot_classify', 'starts_or_endswith', ['Y', 'N']),
		).toEqual({ choice: 'Y', line: 1 });
		expect(parseGraderChoice('zzz', 'classify', 'starts_or_endswith', ['Y'])).toEqual({
			choice: INVALID_CHOICE,
			line: -1,
		});
	});
});

describe('choiceScore (C8)', () => {
	const closedqa = BUILTIN_MODELGRADED_SPECS.closedqa as ModelGradedSpec;
	it.each([
		{
			name: 'invalid gets the minimum',
			choice: INVALID_CHOICE,
			choices: ['Y', 'N'],
			scores: closedqa.choice_scores,
			score: 0,
		},
		{
			name: 'no choice_scores gives null (fact)',
			choice: 'B',
			choices: Array.from('ABCDE'),
			scores: undefined,
			score: null,
		},
		{
			name: 'from_strings parses the choice',
			choice: '3',
			choices: Array.from('12345'),
			scores: 'from_strings' as const,
			score: 3.0,
		},
		{
			name: 'from_strings invalid → min',
			choice: INVALID_CHOICE,
			choices: Array.from('12345'),
			scores: 'from_strings' as const,
			score: 1,
		},
		{
			name: 'a table',
			choice: 'Unsure',
			choices: ['Yes', 'No', 'Unsure'],
			scores: { Yes: 1, No: 0, Unsure: 0.5 },
			score: 0.5,
		},
	])('$name', ({ choice, choices, scores, score }) => {
		expect(choiceScore(choice, choices, scores)).toBe(score);
	});
});

describe('choiceStrings', () => {
	const spec = (choice_strings: string | string[]): ModelGradedSpec => ({
		prompt: 'p',
		choice_strings,
		input_outputs: {},
	});
	it.each([
		{ raw: 'ABCDE', n: 1, expected: ['A', 'B', 'C', 'D', 'E'] },
		{ raw: ['Yes', 'No'], n: 1, expected: ['Yes', 'No'] },
		{ raw: 'from_n', n: 3, expected: ['1', '2', '3'] },
		{ raw: 'from_n_abc', n: 2, expected: ['a', 'b'] },
		{ raw: 'from_n_ABC', n: 28, expected: [...Array.from('ABCDEFGHIJKLMNOPQRSTUVWXYZ'), 'A', 'B'] },
	])('$raw (n=$n)', ({ raw, n, expected }) => {
		expect(choiceStrings(spec(raw), n)).toEqual(expected);
	});
});

describe('answer prompt (C9)', () => {
	const prompts: AnswerPrompts = { ...DEFAULT_ANSWER_PROMPTS, classify: 'Pick one of {choices}.' };
	it('is appended to the last message after a blank line, choices quoted and joined with " or "', () => {
		const messages = [{ role: 'user', content: 'Is it right?' }];
		const result = appendAnswerPrompt(messages, 'classify', ['Y', 'N'], prompts);
		expect(result).toEqual([{ role: 'user', content: 'Is it right?\n\nPick one of "Y" or "N".' }]);
		expect(messages).toEqual([{ role: 'user', content: 'Is it right?' }]);
		expect(choicesToText(['Yes', 'No', 'Maybe'])).toBe('"Yes" or "No" or "Maybe"');
	});

	it('a closedqa-like string prompt with registry eval_type classify ends with the classify sentence', () => {
		const spec: ModelGradedSpec = {
			prompt: '[Task]: {input}\n[Submission]: {completion}',
			choice_strings: 'YN',
			input_outputs: { input: 'completion' },
		};
		const prompt = buildGraderPrompt({
			spec,
			registryEvalType: 'classify',
			choices: ['Y', 'N'],
			answerPrompts: DEFAULT_ANSWER_PROMPTS,
			values: { input: 'Say hi', completion: 'hi' },
			where: 'test',
		});
		expect(prompt).toHaveLength(1);
		expect(prompt[0]?.role).toBe('user');
		const expectedTail = `\n\n${DEFAULT_ANSWER_PROMPTS.classify.replace('{choices}', '"Y" or "N"')}`;
		expect(prompt[0]?.content).toBe(`[Task]: Say hi\n[Submission]: hi${expectedTail}`);
	});

	it('an unknown eval_type is an error', () => {
		expect(() =>
			appendAnswerPrompt([{ role: 'user', content: 'x' }], 'vote', ['Y'], prompts),
		).toThrow(/eval_type vote/u);
	});
});

describe('placeholders (C10)', () => {
	const spec: ModelGradedSpec = {
		prompt: 'Q: {input}\nA: {completion}\nC: {criteria}',
		choice_strings: 'YN',
		input_outputs: { input: 'completion' },
	};
	it('inputs have their braces doubled and keep them in the grader prompt', () => {
		const sample = { input: scrubFormatting('a {b}'), criteria: 'from the sample' };
		const values = graderPromptValues(
			{ completion: 'c {d}' },
			sample,
			{ criteria: 'from args' },
			1,
		);
		const prompt = buildGraderPrompt({
			spec,
			choices: ['Y', 'N'],
			answerPrompts: DEFAULT_ANSWER_PROMPTS,
			values,
			where: 'test',
		});
		expect(prompt[0]?.content).toBe('Q: a {{b}}\nA: c {d}\nC: from args');
	});

	it('a sample field wins over a completion of the same name', () => {
		const values = graderPromptValues(
			{ completion: 'generated' },
			{ input: 'x', completion: 'given' },
			{},
			1,
		);
		expect(values.completion).toBe('given');
	});

	it('chat values are rendered as text without "Assistant:"', () => {
		const chat = [
			{ role: 'system', content: 'Be terse.' },
			{ role: 'user', content: 'Hi {x}' },
		];
		const values = graderPromptValues(
			{ completion: 'ok' },
			{ input: scrubFormatting(chat) },
			{ criteria: 'c' },
			1,
		);
		const prompt = buildGraderPrompt({
			spec,
			choices: ['Y', 'N'],
			answerPrompts: DEFAULT_ANSWER_PROMPTS,
			values,
			where: 'test',
		});
		expect(prompt[0]?.content).toBe('Q: Be terse.\nUser: Hi {{x}}\n\nA: ok\nC: c');
	});

	it('non-string values print as Python str()', () => {
		const values = graderPromptValues(
			{ completion: 'ok' },
			{ input: 'q', ideal: ['a', "it's"] },
			{ criteria: true },
			1,
		);
		const prompt = buildGraderPrompt({
			spec: { ...spec, prompt: '{ideal} {criteria} {n}' },
			choices: ['Y'],
			answerPrompts: DEFAULT_ANSWER_PROMPTS,
			values,
			where: 'test',
		});
		expect(prompt[0]?.content).toBe(`['a', "it's"] True 1`);
	});

	it('a missing placeholder is an error naming it', () => {
		const values = graderPromptValues({ completion: 'ok' }, { input: 'q' }, {}, 1);
		expect(() =>
			buildGraderPrompt({
				spec,
				choices: ['Y'],
				answerPrompts: DEFAULT_ANSWER_PROMPTS,
				values,
				where: 'sample x.dev.0: grader prompt',
			}),
		).toThrow(/sample x\.dev\.0: grader prompt: missing value for placeholder \{criteria\}/u);
	});

	it("a field named 'n' collides with upstream's n keyword", () => {
		expect(() => graderPromptValues({}, { n: 3 }, {}, 1)).toThrow(/named 'n'/u);
	});
});

describe('aggregation (C11)', () => {
	it('counts, score with invalid at the minimum', () => {
		const closedqa = BUILTIN_MODELGRADED_SPECS.closedqa as ModelGradedSpec;
		const choices = ['Y', 'N', INVALID_CHOICE, 'Y'];
		const metrics = choices.map((choice) => ({
			choice,
			score: choiceScore(choice, ['Y', 'N'], closedqa.choice_scores),
		}));
		expect(aggregateGraded(metrics)).toEqual({
			'counts/Y': 2,
			'counts/N': 1,
			'counts/__invalid__': 1,
			score: 0.5,
		});
		expect(Object.keys(aggregateGraded(metrics))).toEqual([
			'counts/Y',
			'counts/N',
			'counts/__invalid__',
			'score',
		]);
	});

	it('no scores → no score key; metascore is the mean of the labels that agree', () => {
		expect(
			aggregateGraded([
				{ choice: 'A', score: null, metascore: true },
				{ choice: 'B', score: null, metascore: false },
			]),
		).toEqual({ 'counts/A': 1, 'counts/B': 1, metascore: 0.5 });
		expect(aggregateGraded([])).toEqual({});
	});
});

describe('concatCompletions (multicomp output_template)', () => {
	it('formats each completion and strips the whole', () => {
		expect(concatCompletions([' one', 'two'], '{i}. {output}\n')).toBe('1.  one\n2. two');
		expect(concatCompletions(['x', 'y'], '({i_abc}/{i_ABC} of {n}) {output} ')).toBe(
			'(a/A of 2) x (b/B of 2) y',
		);
	});
});

describe('chat-valued fields', () => {
	it('a sample field that is a list of mappings but not a chat is an error (upstream: KeyError)', () => {
		const values = graderPromptValues(
			{ completion: 'ok' },
			{ input: 'q', history: [{ role: 'user' }] },
			{},
			1,
		);
		expect(() =>
			buildGraderPrompt({
				spec: { prompt: '{input} {completion}', choice_strings: 'YN', input_outputs: {} },
				choices: ['Y', 'N'],
				answerPrompts: DEFAULT_ANSWER_PROMPTS,
				values,
				where: 'sample x.dev.0: grader prompt',
			}),
		).toThrow(
			/^sample x\.dev\.0: grader prompt: \{history\} is a list of mappings but not a chat/u,
		);
	});

	it('a policy prompt field that is a list of mappings but not a chat is an error', () => {
		expect(() =>
			promptFromField([{ role: 'user', content: 3 }], 'sample x.dev.0 field input'),
		).toThrow('sample x.dev.0 field input: must be a string or a list of {role, content} messages');
		expect(promptFromField([{ role: 'user', content: 'a {{b}}' }], 'w')).toEqual([
			{ role: 'user', content: 'a {b}' },
		]);
	});
});
