// The runner over scripted TextModels: sample order and ids (C13), the generation parameters each
// template passes (reference §1.3 table) and nothing else, upstream-shaped events, final reports,
// model-graded flow (C9–C12), and errors that name the sample.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ANSWER_PROMPTS } from '../../../src/core/evals/answer-prompts';
import { readRegistry, registryFiles, resolveEval } from '../../../src/core/evals/registry';
import { runEval } from '../../../src/core/evals/run-eval';
import type { ResolvedEval } from '../../../src/core/evals/shared/types';
import type { GenerationEvent, TextModel } from '../../../src/core/model/generation';
import { promptText, scriptedModel } from './scripted-model';

const FIXED_NOW = (): Date => new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));

function evalOf(
	className: string,
	args: string,
	samples: string,
	extra: Record<string, string> = {},
): ResolvedEval {
	const yaml = `t.dev.v0:\n  class: ${className}\n  args:\n    samples_jsonl: s.jsonl\n${args}`;
	return resolveEval(
		readRegistry(
			registryFiles(Object.entries({ 'evals/t.yaml': yaml, 'data/s.jsonl': samples, ...extra })),
		),
		't.dev.v0',
	);
}

const QA = [
	'{"input": "Capital of France?", "ideal": "Paris"}',
	'{"input": "2+2?", "ideal": ["4", "four"]}',
	'{"input": "Sky colour?", "ideal": "blue"}',
	'{"input": "Largest planet?", "ideal": "Jupiter"}',
	'{"input": "H2O is?", "ideal": "water"}',
].join('\n');

const ANSWERS: Record<string, string> = {
	'Capital of France?': 'Paris, of course',
	'2+2?': ' 4',
	'Sky colour?': 'Blue',
	'Largest planet?': 'Jupiter',
	'H2O is?': 'Water!',
};

describe('runEval: basic templates', () => {
	it('Match: order from Random(123), ids <base>.<split>.<index>, temperature 0 and max_tokens 256 (app default), match events', async () => {
		const model = scriptedModel('m', (request) => ANSWERS[promptText(request)] ?? '');
		const result = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [model],
			runId: 'run1',
			now: FIXED_NOW,
		});
		expect(result.order).toEqual([3, 1, 4, 2, 0]);
		expect(result.samples.map((s) => s.sampleId)).toEqual([
			't.dev.3',
			't.dev.1',
			't.dev.4',
			't.dev.2',
			't.dev.0',
		]);
		// Upstream's Match passes no max_tokens: the app's 256 is sent instead of none.
		expect(model.calls.map((c) => c.request.params)).toEqual(
			Array(5).fill({ temperature: 0, max_tokens: 256 }),
		);
		expect(model.calls[0]?.request.prompt).toEqual({
			kind: 'chat',
			messages: [{ role: 'system', content: 'Largest planet?' }],
		});
		expect(model.calls[0]?.call).toEqual({
			runId: 'run1',
			sampleId: 't.dev.3',
			role: 'policy',
			callIndex: 0,
		});
		const matches = result.events.filter((e) => e.type === 'match');
		expect(matches.map((e) => e.data.correct)).toEqual([true, false, false, false, true]);
		expect(matches[1]?.data).toEqual({
			correct: false,
			expected: ['4', 'four'],
			picked: null,
			sampled: ' 4',
			options: ['4', 'four'],
		});
		expect(matches[0]?.data).toEqual({
			correct: true,
			expected: 'Jupiter',
			picked: 'Jupiter',
			sampled: 'Jupiter',
			options: ['Jupiter'],
		});
		expect(result.events[0]).toEqual({
			run_id: 'run1',
			event_id: 0,
			sample_id: 't.dev.3',
			type: 'sampling',
			// upstream's OpenAI completion fns record `model` and `usage` (None → null) too
			data: {
				prompt: [{ role: 'system', content: 'Largest planet?' }],
				sampled: ['Jupiter'],
				model: 'm',
				usage: null,
			},
			created_by: '',
			created_at: '2026-01-02 03:04:05.678000+00:00',
		});
		expect(result.finalReport.accuracy).toBe(0.4);
		expect(Object.keys(result.finalReport)).toEqual(['accuracy', 'boostrap_std']);
		expect(result.finalReport.boostrap_std).toBeGreaterThan(0);
	});

	it('C13: max_samples 2 of 5 evaluates indices 3 and 1 only', async () => {
		const model = scriptedModel('m', () => 'x');
		const result = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [model],
			maxSamples: 2,
		});
		expect(result.samples.map((s) => s.sampleId)).toEqual(['t.dev.3', 't.dev.1']);
		expect(model.calls).toHaveLength(2);
	});

	it('a model without chat gets the upstream text rendering; few-shot is spliced before the last message', async () => {
		const samples =
			'{"input": [{"role": "system", "content": "Add."}, {"role": "user", "content": "3+4"}], "ideal": "7"}';
		const fewShot =
			'{"sample": [{"role": "system", "name": "example_user", "content": "1+1"}, {"role": "system", "name": "example_assistant", "content": "2"}]}';
		const evalSpec = evalOf(
			'evals.elsuite.basic.match:Match',
			'    few_shot_jsonl: fs.jsonl\n    num_few_shot: 1\n',
			samples,
			{ 'data/fs.jsonl': fewShot },
		);
		const model = scriptedModel('base', () => ' 7', { chat: false });
		const result = await runEval(evalSpec, { policy: [model] });
		expect(model.calls[0]?.request.prompt).toEqual({
			kind: 'text',
			text: 'Add.\nUser: 1+1\nAssistant: 2\nUser: 3+4\nAssistant:',
		});
		expect(result.samples[0]?.correct).toBe(false);
	});

	it('Includes passes no temperature (only the app max_tokens); ignore_case; picked is the completion', async () => {
		const model = scriptedModel('m', (request) => ANSWERS[promptText(request)] ?? '');
		const result = await runEval(
			evalOf('evals.elsuite.basic.includes:Includes', '    ignore_case: true\n', QA),
			{ policy: [model] },
		);
		expect(model.calls.map((c) => c.request.params)).toEqual(Array(5).fill({ max_tokens: 256 }));
		expect(result.finalReport.accuracy).toBe(1);
		const match = result.events.find((e) => e.type === 'match' && e.sample_id === 't.dev.2');
		expect(match?.data).toEqual({
			correct: true,
			expected: 'blue',
			picked: 'Blue',
			sampled: 'Blue',
		});
	});

	it('FuzzyMatch: temperature 0 and max_tokens (default 100), match + metrics events, accuracy and f1_score', async () => {
		const model = scriptedModel('m', (request) => ANSWERS[promptText(request)] ?? '');
		const result = await runEval(evalOf('evals.elsuite.basic.fuzzy_match:FuzzyMatch', '', QA), {
			policy: [model],
		});
		expect(model.calls[0]?.request.params).toEqual({ temperature: 0, max_tokens: 100 });
		const metrics = result.events.filter((e) => e.type === 'metrics' && e.sample_id === 't.dev.0');
		expect(metrics[0]?.data).toEqual({ accuracy: 1, f1_score: 0.5 });
		expect(Object.keys(result.finalReport)).toEqual(['accuracy', 'f1_score']);
		expect(result.finalReport.accuracy).toBe(1);
		expect(result.finalReport.f1_score).toBe((1 + 1 + 1 + 1 + 0.5) / 5);
	});

	it('JsonMatch: temperature 0 and max_tokens 512; an ideal that is not JSON names the sample', async () => {
		const samples =
			'{"input": "bad", "ideal": "{a: 1}"}\n{"input": "obj", "ideal": "{\\"a\\": 1}"}';
		const model = scriptedModel('m', () => '{"a": 1.0}');
		const ok = await runEval(evalOf('evals.elsuite.basic.json_match:JsonMatch', '', samples), {
			policy: [model],
			maxSamples: 1,
		});
		expect(ok.order).toEqual([1]);
		await expect(
			runEval(evalOf('evals.elsuite.basic.json_match:JsonMatch', '', samples), { policy: [model] }),
		).rejects.toThrow(/^data\/s\.jsonl:1: sample t\.dev\.0: ideal is not valid JSON/u);
		const good = await runEval(
			evalOf(
				'evals.elsuite.basic.json_match:JsonMatch',
				'    max_tokens: 64\n',
				samples.split('\n')[1] ?? '',
			),
			{ policy: [model] },
		);
		expect(model.calls.at(-1)?.request.params).toEqual({ temperature: 0, max_tokens: 64 });
		expect(good.finalReport).toEqual({ accuracy: 1 });
	});

	it('Includes, FuzzyMatch and JsonMatch take one model, as upstream asserts', async () => {
		const a = scriptedModel('a', () => 'x');
		const b = scriptedModel('b', () => 'x');
		await expect(
			runEval(evalOf('evals.elsuite.basic.includes:Includes', '', QA), { policy: [a, b] }),
		).rejects.toThrow(/^Includes only supports one completion fn/u);
		const match = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [a, b],
			maxSamples: 1,
		});
		expect([a.calls.length, b.calls.length, match.samples.length]).toEqual([1, 0, 1]);
	});

	it('usage from the model adds upstream usage_* sums to the report', async () => {
		const model = scriptedModel('m', () => 'Paris', { usage: true });
		const result = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [model],
			maxSamples: 2,
		});
		// openai-python's CompletionUsage as pydantic writes it: details null when the server sent none
		expect(result.events[0]?.data.usage).toEqual({
			completion_tokens: 5,
			prompt_tokens: 10,
			total_tokens: 15,
			completion_tokens_details: null,
			prompt_tokens_details: null,
		});
		expect(result.finalReport.usage_total_tokens).toBe(30);
		expect(Object.keys(result.finalReport)).toEqual([
			'accuracy',
			'boostrap_std',
			'usage_completion_tokens',
			'usage_prompt_tokens',
			'usage_total_tokens',
		]);
		expect(result.samples[0]?.calls[0]).toMatchObject({
			finishReason: 'stop',
			usage: { promptTokens: 10, completionTokens: 5 },
		});
	});

	it("sampling events carry the server's model name and usage details; the report sums counts only", async () => {
		const served: TextModel = {
			label: 'openai/m1',
			abilities: { score: false, generate: true, chat: true },
			countTokens: (text) => text.length,
			async *generate(): AsyncIterable<GenerationEvent> {
				await Promise.resolve();
				yield {
					type: 'done',
					completion: 'Paris',
					finishReason: 'stop',
					model: 'm1-2026-01-01',
					usage: {
						promptTokens: 10,
						completionTokens: 2,
						completionTokensDetails: { reasoning_tokens: 0 },
						promptTokensDetails: null,
					},
				};
			},
		};
		const result = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [served],
			maxSamples: 1,
		});
		const data = result.events.find((event) => event.type === 'sampling')?.data;
		expect(Object.keys(data ?? {})).toEqual(['prompt', 'sampled', 'model', 'usage']);
		expect(data?.model).toBe('m1-2026-01-01');
		expect(data?.usage).toEqual({
			completion_tokens: 2,
			prompt_tokens: 10,
			total_tokens: 12,
			completion_tokens_details: { reasoning_tokens: 0 },
			prompt_tokens_details: null,
		});
		expect(Object.keys(result.finalReport)).toEqual([
			'accuracy',
			'boostrap_std',
			'usage_completion_tokens',
			'usage_prompt_tokens',
			'usage_total_tokens',
		]);
	});

	it('a cancel stops between samples and returns no report', async () => {
		const signal = { aborted: false };
		const model = scriptedModel('m', () => {
			signal.aborted = true;
			return 'x';
		});
		const result = await runEval(evalOf('evals.elsuite.basic.match:Match', '', QA), {
			policy: [model],
			signal,
		});
		expect(result.cancelled).toBe(true);
		expect(result.samples).toHaveLength(1);
		expect(result.finalReport).toEqual({});
	});
});

describe('runEval: ModelBasedClassify', () => {
	const GRADED = [
		'{"input": "Name a fruit {please}", "ideal": "apple"}',
		'{"input": "Name a colour", "ideal": "red", "completion": "green"}',
	].join('\n');
	const closedqaArgs =
		'    modelgraded_spec: closedqa\n    modelgraded_spec_args:\n      criteria: "correct: is it right?"\n';

	it('policy then grader with PromptFn params; braces doubled in the grader prompt; C12 skips generation', async () => {
		const policy = scriptedModel('policy', () => 'A banana {yellow}');
		const grader = scriptedModel('grader', (request) =>
			promptText(request).includes('banana') ? 'thinking\nY' : 'hmm\nN',
		);
		const result = await runEval(
			evalOf('evals.elsuite.modelgraded.classify:ModelBasedClassify', closedqaArgs, GRADED),
			{
				policy: [policy],
				grader,
			},
		);
		expect(result.order).toEqual([1, 0]);
		expect(policy.calls).toHaveLength(1);
		expect(policy.calls[0]?.request.prompt).toEqual({
			kind: 'chat',
			messages: [{ role: 'system', content: 'Name a fruit {please}' }],
		});
		const promptFnParams = {
			max_tokens: 1024,
			temperature: 0,
			top_p: 1,
			frequency_penalty: 0,
			presence_penalty: 0,
			n: 1,
		};
		expect(policy.calls[0]?.request.params).toEqual(promptFnParams);
		expect(grader.calls.map((c) => c.request.params)).toEqual([promptFnParams, promptFnParams]);
		const fruitPrompt = grader.calls[1]?.request.prompt;
		expect(fruitPrompt?.kind).toBe('chat');
		const content = fruitPrompt?.kind === 'chat' ? (fruitPrompt.messages[0]?.content ?? '') : '';
		expect(content).toContain('Task:\nName a fruit {{please}}\n');
		expect(content).toContain('Response:\nA banana {yellow}\n');
		expect(content).toContain('Criterion:\ncorrect: is it right?\n');
		expect(content.endsWith('Reasoning:')).toBe(true);
		const metrics = result.events.filter((e) => e.type === 'metrics').map((e) => e.data);
		expect(metrics).toEqual([
			{ choice: 'N', score: 0 },
			{ choice: 'Y', score: 1 },
		]);
		expect(result.finalReport).toEqual({ 'counts/N': 1, 'counts/Y': 1, score: 0.5 });
		expect(result.samples[1]?.graded?.decidingLine).toBe(1);
	});

	it('a single model is policy and grader; sample_kwargs / eval_kwargs override PromptFn params', async () => {
		const both = scriptedModel('both', (request, call) =>
			call.role === 'grader' ? 'B' : 'an answer',
		);
		const args =
			'    modelgraded_spec: fact\n    eval_type: cot_classify\n    sample_kwargs:\n      max_tokens: 50\n      temperature: 0.7\n    eval_kwargs:\n      max_tokens: 8\n';
		const result = await runEval(
			evalOf('evals.elsuite.modelgraded.classify:ModelBasedClassify', args, GRADED),
			{ policy: [both] },
		);
		expect(
			both.calls.map((c) => [
				c.call.role,
				c.request.params.max_tokens,
				c.request.params.temperature,
			]),
		).toEqual([
			['grader', 8, 0],
			['policy', 50, 0.7],
			['grader', 8, 0],
		]);
		const graderPrompt = both.calls[0]?.request.prompt;
		const text = graderPrompt?.kind === 'chat' ? (graderPrompt.messages[0]?.content ?? '') : '';
		const answer = DEFAULT_ANSWER_PROMPTS.cot_classify.replace(
			'{choices}',
			'"A" or "B" or "C" or "D" or "E"',
		);
		expect(text.endsWith(`\n\n${answer}`)).toBe(true);
		expect(result.finalReport).toEqual({ 'counts/B': 2 });
	});

	it('metaeval compares with the sample label; invalid output counts as __invalid__ at the min score', async () => {
		const samples =
			'{"input": "q1", "completion": "a1", "choice": "Y"}\n{"input": "q2", "completion": "a2", "choice": "N"}';
		const grader = scriptedModel('g', (request) =>
			promptText(request).includes('q1') ? 'Y' : 'no idea',
		);
		const args =
			'    modelgraded_spec: closedqa\n    metaeval: true\n    modelgraded_spec_args:\n      criteria: c\n';
		const result = await runEval(
			evalOf('evals.elsuite.modelgraded.classify:ModelBasedClassify', args, samples),
			{ policy: [grader] },
		);
		expect(result.finalReport).toEqual({
			'counts/__invalid__': 1,
			'counts/Y': 1,
			score: 0.5,
			metascore: 0.5,
		});
	});

	it('multicomp_n from_models: one completion per policy joined by output_template; a text grader gets the rendering', async () => {
		const spec =
			'pick:\n  prompt: "Which is best of {n}?\\n{completion}"\n  choice_strings: from_n\n  input_outputs:\n    input: completion\n  output_template: "{i}. {output}\\n"\n';
		const args =
			'    modelgraded_spec: pick\n    multicomp_n: from_models\n    eval_type: classify\n';
		const evalSpec = evalOf(
			'evals.elsuite.modelgraded.classify:ModelBasedClassify',
			args,
			'{"input": "A slogan"}',
			{ 'modelgraded/pick.yaml': spec },
		);
		const p1 = scriptedModel('p1', () => 'Go!');
		const p2 = scriptedModel('p2', () => 'Stay.');
		const grader = scriptedModel('g', () => '2', { chat: false });
		const result = await runEval(evalSpec, { policy: [p1, p2], grader });
		const graderPrompt = grader.calls[0]?.request.prompt;
		const classify = DEFAULT_ANSWER_PROMPTS.classify.replace('{choices}', '"1" or "2"');
		expect(graderPrompt).toEqual({
			kind: 'text',
			text: `Which is best of 2?\n1. Go!\n2. Stay.\n\n${classify}`,
		});
		expect(result.finalReport).toEqual({ 'counts/2': 1 });
	});

	it('a sample without the spec input field is an error naming the sample', async () => {
		const model = scriptedModel('m', () => 'Y');
		await expect(
			runEval(
				evalOf(
					'evals.elsuite.modelgraded.classify:ModelBasedClassify',
					closedqaArgs,
					'{"question": "q"}',
				),
				{ policy: [model] },
			),
		).rejects.toThrow(/^data\/s\.jsonl:1: sample t\.dev\.0: missing field 'input'/u);
	});
});
