// The Inspect export: the keys Inspect's EvalLog requires, filled from a run (usage, stop reasons,
// scores); strict validation against Inspect's own schema is in tests/parity/inspect-log.test.ts.
import { describe, expect, it } from 'vitest';
import { buildInspectLog, inspectStopReason } from '../../../src/core/evals/inspect-log';
import type { GenerationEvent, TextModel } from '../../../src/core/model/generation';
import { readRegistry, registryFiles, resolveEval } from '../../../src/core/evals/registry';
import { runEval } from '../../../src/core/evals/run-eval';
import { promptText, scriptedModel } from './scripted-model';

function evalOf(yaml: string, samples: string) {
	return resolveEval(
		readRegistry(
			registryFiles([
				['evals/t.yaml', yaml],
				['data/s.jsonl', samples],
			]),
		),
		't.dev.v0',
	);
}

const keys = (value: unknown): string[] => Object.keys(value as object).sort();

describe('buildInspectLog', () => {
	it('a Match run: eval, plan, results, stats and samples with C/I scores', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: s.jsonl\n',
			'{"input": "Say yes", "ideal": "yes"}\n{"input": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Say no"}], "ideal": ["no", "nope"]}\n',
		);
		const model = scriptedModel('replay:x.jsonl', (request) =>
			promptText(request).includes('yes') ? 'yes' : 'maybe',
		);
		const result = await runEval(evalSpec, { policy: [model], runId: 'run9' });
		const log = buildInspectLog({
			evalSpec,
			runId: result.runId,
			modelLabel: model.label,
			samples: result.samples,
			order: result.order,
			finalReport: result.finalReport,
			cancelled: result.cancelled,
			startedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
			completedAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 9)),
		});
		expect(keys(log)).toEqual([
			'eval',
			'invalidated',
			'metadata',
			'plan',
			'results',
			'samples',
			'stats',
			'status',
			'tags',
			'version',
		]);
		expect([log.invalidated, log.tags, log.metadata]).toEqual([false, [], {}]);
		expect(log.version).toBe(2);
		expect(log.status).toBe('success');
		expect(keys(log.eval)).toEqual(
			expect.arrayContaining([
				'eval_id',
				'run_id',
				'created',
				'task',
				'task_id',
				'task_version',
				'task_attribs',
				'task_args',
				'task_args_passed',
				'dataset',
				'model',
				'model_generate_config',
				'model_args',
				'config',
				'packages',
			]),
		);
		expect(log.eval.created).toBe('2026-01-02T03:04:05+00:00');
		expect(log.eval.model_generate_config).toEqual({ temperature: 0, max_tokens: 256 });
		expect(log.eval.dataset).toMatchObject({
			samples: 2,
			sample_ids: ['t.dev.1', 't.dev.0'],
			shuffled: true,
		});
		expect(log.results.scores[0]).toMatchObject({ name: 'Match', scorer: 'Match', params: {} });
		expect(log.results.scores[0]?.metrics.accuracy).toEqual({
			name: 'accuracy',
			value: 0.5,
			params: {},
		});
		expect(Object.keys(log.results.scores[0]?.metrics ?? {})).toEqual(['accuracy', 'boostrap_std']);
		expect(keys(log.stats)).toEqual([
			'completed_at',
			'connection_limit_history',
			'model_usage',
			'role_usage',
			'started_at',
		]);
		// the scripted model reports no usage: nothing to sum
		expect([log.stats.model_usage, log.stats.role_usage]).toEqual([{}, {}]);
		const [first, second] = log.samples;
		expect(keys(first)).toEqual([
			'attachments',
			'epoch',
			'events',
			'id',
			'input',
			'messages',
			'metadata',
			'model_usage',
			'output',
			'role_usage',
			'scores',
			'store',
			'target',
		]);
		expect(first?.id).toBe('t.dev.1');
		expect(first?.target).toEqual(['no', 'nope']);
		expect(first?.messages).toEqual([
			{ role: 'system', content: 'Be brief.', source: 'input' },
			{ role: 'user', content: 'Say no', source: 'input' },
			{ role: 'assistant', content: 'maybe', source: 'generate' },
		]);
		expect(first?.output).toEqual({
			model: 'replay:x.jsonl',
			choices: [
				{
					message: { role: 'assistant', content: 'maybe', source: 'generate' },
					stop_reason: 'stop',
				},
			],
			completion: 'maybe',
		});
		expect(first?.scores).toEqual({ Match: { value: 'I', answer: 'maybe', history: [] } });
		expect(second?.scores).toEqual({ Match: { value: 'C', answer: 'yes', history: [] } });
		expect(JSON.parse(JSON.stringify(log))).toEqual(log);
	});

	it('a model-graded sample scores the choice and keeps the grading transcript', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: closedqa\n    modelgraded_spec_args:\n      criteria: c\n',
			'{"input": "q", "completion": "a"}\n',
		);
		const grader = scriptedModel('g', () => 'fine\nY');
		const result = await runEval(evalSpec, { policy: [grader] });
		const log = buildInspectLog({
			evalSpec,
			runId: 'r',
			modelLabel: 'g',
			samples: result.samples,
			order: result.order,
			finalReport: result.finalReport,
			cancelled: false,
			startedAt: new Date(0),
			completedAt: new Date(0),
		});
		const score = log.samples[0]?.scores.ModelBasedClassify;
		expect(score?.value).toBe('Y');
		expect(score?.explanation).toBe('fine\nY');
		expect((score?.metadata?.grading as { role: string }[]).map((m) => m.role)).toEqual([
			'user',
			'assistant',
		]);
		expect(Object.keys(log.results.scores[0]?.metrics ?? {})).toEqual(['counts/Y', 'score']);
	});

	it('usage by model and role, usage_* sums kept out of the metrics, stop_reason from the finish reason', async () => {
		const evalSpec = evalOf(
			't.dev.v0:\n  class: evals.elsuite.modelgraded.classify:ModelBasedClassify\n  args:\n    samples_jsonl: s.jsonl\n    modelgraded_spec: closedqa\n    modelgraded_spec_args:\n      criteria: c\n',
			'{"input": "q", "ideal": "a"}\n{"input": "q2", "ideal": "b"}\n',
		);
		const cut = (label: string, answer: string, finishReason: 'stop' | 'length'): TextModel => ({
			label,
			abilities: { score: false, generate: true, chat: true },
			countTokens: (text) => text.length,
			async *generate(): AsyncIterable<GenerationEvent> {
				await Promise.resolve();
				yield {
					type: 'done',
					completion: answer,
					finishReason,
					usage: { promptTokens: 7, completionTokens: 3 },
				};
			},
		});
		const result = await runEval(evalSpec, {
			policy: [cut('p', 'abc', 'length')],
			grader: cut('g', 'Y', 'stop'),
		});
		expect(Object.keys(result.finalReport)).toContain('usage_total_tokens');
		const log = buildInspectLog({
			evalSpec,
			runId: 'r',
			modelLabel: 'p',
			samples: result.samples,
			order: result.order,
			finalReport: result.finalReport,
			cancelled: false,
			startedAt: new Date(0),
			completedAt: new Date(0),
		});
		// two samples, one policy and one grader call each, 7 + 3 tokens per call
		const two = { input_tokens: 14, output_tokens: 6, total_tokens: 20 };
		expect(log.stats.model_usage).toEqual({ p: two, g: two });
		expect(log.stats.role_usage).toEqual({ grader: two });
		expect(log.samples[0]?.model_usage).toEqual({
			p: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
			g: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
		});
		expect(log.samples[0]?.output.usage).toEqual({
			input_tokens: 7,
			output_tokens: 3,
			total_tokens: 10,
		});
		expect(log.samples.map((sample) => sample.output.choices[0]?.stop_reason)).toEqual([
			'max_tokens',
			'max_tokens',
		]);
		expect(Object.keys(log.results.scores[0]?.metrics ?? {})).toEqual(['counts/Y', 'score']);
		expect(log.eval.model_roles).toEqual({
			// upstream's grader PromptFn kwargs as sent; `n` and `stop` under Inspect's names
			grader: {
				model: 'g',
				config: {
					temperature: 0,
					max_tokens: 1024,
					top_p: 1,
					frequency_penalty: 0,
					presence_penalty: 0,
					num_choices: 1,
				},
				args: {},
			},
		});
	});

	it('inspectStopReason: length is max_tokens, stop is stop, anything else unknown', () => {
		expect(inspectStopReason('length')).toBe('max_tokens');
		expect(inspectStopReason('stop')).toBe('stop');
		expect(inspectStopReason('cancelled')).toBe('unknown');
		expect(inspectStopReason(undefined)).toBe('unknown');
	});
});
