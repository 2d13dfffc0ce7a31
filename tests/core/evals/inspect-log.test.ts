// The Inspect export: the key structure of a real inspect_ai 0.3.x JSON log (its
// tests/log/test_list_logs fixture, read at test-writing time; not copied), filled from a run.
import { describe, expect, it } from 'vitest';
import { buildInspectLog } from '../../../src/core/evals/inspect-log';
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
		expect(keys(log)).toEqual(['eval', 'plan', 'results', 'samples', 'stats', 'status', 'version']);
		expect(log.version).toBe(2);
		expect(log.status).toBe('success');
		expect(keys(log.eval)).toEqual(
			expect.arrayContaining([
				'run_id',
				'created',
				'task',
				'task_id',
				'task_version',
				'task_attribs',
				'task_args',
				'dataset',
				'model',
				'model_args',
				'config',
				'packages',
			]),
		);
		expect(log.eval.created).toBe('2026-01-02T03:04:05+00:00');
		expect(log.eval.dataset).toMatchObject({
			samples: 2,
			sample_ids: ['t.dev.1', 't.dev.0'],
			shuffled: true,
		});
		expect(log.results.scores[0]).toMatchObject({ name: 'Match', scorer: 'Match', params: {} });
		expect(log.results.scores[0]?.metrics.accuracy).toEqual({
			name: 'accuracy',
			value: 0.5,
			options: {},
		});
		expect(Object.keys(log.results.scores[0]?.metrics ?? {})).toEqual(['accuracy', 'boostrap_std']);
		expect(keys(log.stats)).toEqual(['completed_at', 'model_usage', 'started_at']);
		const [first, second] = log.samples;
		expect(keys(first)).toEqual([
			'epoch',
			'events',
			'id',
			'input',
			'messages',
			'metadata',
			'output',
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
		});
		expect(first?.scores).toEqual({ Match: { value: 'I', answer: 'maybe' } });
		expect(second?.scores).toEqual({ Match: { value: 'C', answer: 'yes' } });
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
});
