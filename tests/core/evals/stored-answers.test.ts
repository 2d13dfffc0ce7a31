import { describe, expect, it } from 'vitest';
import { storedAnswers, type StoredAnswer } from '../../../src/core/evals';
import type { EvalEvent, SampleCall, SampleResult } from '../../../src/core/evals/shared/types';
import type { GenerationParams } from '../../../src/core/model/generation';

function sampling(usage?: Record<string, unknown>): EvalEvent {
	return {
		run_id: 'r',
		event_id: 0,
		sample_id: 'g.dev.4',
		type: 'sampling',
		data: usage ? { usage } : {},
		created_by: '',
		created_at: '',
	};
}

const POLICY_0: SampleCall = {
	role: 'policy',
	prompt: [{ role: 'user', content: 'Q' }],
	params: { temperature: 0 },
	completion: 'A',
	modelLabel: 'tiny',
};
const POLICY_1: SampleCall = {
	role: 'policy',
	prompt: 'Q again',
	params: { temperature: 1, max_tokens: 8 },
	completion: 'B',
	modelLabel: 'tiny',
};
const GRADER: SampleCall = {
	role: 'grader',
	prompt: 'grade',
	params: { temperature: 0.5 },
	completion: 'Y',
	modelLabel: 'replay',
};

function stored(calls: SampleCall[], events: EvalEvent[]) {
	const result: SampleResult = {
		sampleId: 'g.dev.4',
		index: 4,
		sample: { input: 'Q', ideal: 'A' },
		calls,
		completion: 'A',
	};
	return { sampleId: 'g.dev.4', result, events };
}

const USAGE = { prompt_tokens: 5, completion_tokens: 1 };

describe('storedAnswers', () => {
	it.each<
		[string, ReturnType<typeof stored>, 'policy' | 'grader', GenerationParams, StoredAnswer[]]
	>([
		[
			'a greedy chat call: no seed, usage from its sampling event',
			stored([POLICY_0], [sampling(USAGE)]),
			'policy',
			{},
			[
				{
					request: {
						prompt: { kind: 'chat', messages: [{ role: 'user', content: 'Q' }] },
						params: { temperature: 0 },
					},
					callIndex: 0,
					seed: undefined,
					completion: 'A',
					usage: { promptTokens: 5, completionTokens: 1 },
				},
			],
		],
		[
			'a sampled text call: seeded by sample and call index; the run’s parameters over the call’s',
			stored([POLICY_0, POLICY_1], [sampling(), sampling({ prompt_tokens: 'x' })]),
			'policy',
			{ max_tokens: 3 },
			[
				{
					request: {
						prompt: { kind: 'chat', messages: [{ role: 'user', content: 'Q' }] },
						params: { temperature: 0, max_tokens: 3 },
					},
					callIndex: 0,
					seed: undefined,
					completion: 'A',
				},
				{
					request: {
						prompt: { kind: 'text', text: 'Q again' },
						params: { temperature: 1, max_tokens: 3 },
					},
					callIndex: 1,
					seed: 'g.dev.4#1',
					completion: 'B',
				},
			],
		],
		[
			'the grader’s call is call 0 of its sample, whatever its place',
			stored([POLICY_0, GRADER], [sampling(), sampling(USAGE)]),
			'grader',
			{},
			[
				{
					request: { prompt: { kind: 'text', text: 'grade' }, params: { temperature: 0.5 } },
					callIndex: 0,
					seed: 'g.dev.4#0',
					completion: 'Y',
					usage: { promptTokens: 5, completionTokens: 1 },
				},
			],
		],
		['no call of the role', stored([POLICY_0], [sampling()]), 'grader', {}, []],
	])('%s', (_what, sample, role, overrides, answers) => {
		expect(storedAnswers(sample, role, overrides)).toEqual(answers);
	});
});
