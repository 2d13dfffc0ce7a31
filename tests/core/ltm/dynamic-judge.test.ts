// Judge steps of declarative dynamic tests (`check {judge}`, `extract {judge}`): the run's judge
// model at temperature 0 / 256 tokens, sanitised JSON answers, call indices per test, replay on
// resume, and the test skipped when no judge is set.
import { describe, expect, it } from 'vitest';
import { NEEDS_JUDGE_REASON } from '../../../src/core/ltm/evaluate-test';
import { loadLtmSuite } from '../../../src/core/ltm/ltm-suite';
import { LtmCancelledError, runLtm } from '../../../src/core/ltm/run-ltm';
import {
	applyResult,
	createLtmRun,
	nextAction,
	type LtmRunState,
} from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark } from '../../../src/core/ltm/shared/types';
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../../src/core/model/generation';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

interface Recorded {
	request: GenerateRequest;
	call: ModelCall;
}

function model(answer: (request: GenerateRequest) => string, calls: Recorded[] = []): TextModel {
	return {
		label: 'scripted',
		abilities: { score: false, generate: true, chat: true },
		async *generate(request, call): AsyncGenerator<GenerationEvent> {
			calls.push({ request, call });
			yield { type: 'done', completion: answer(request), finishReason: 'stop' };
		},
		countTokens: words,
	};
}

const lastUser = (request: GenerateRequest) =>
	request.prompt.kind === 'chat' ? request.prompt.messages.at(-1)!.content : request.prompt.text;

const SUITE = {
	format: 'ltm-suite/1',
	config: { run_name: 'judge steps', memory_span: 200 },
	datasets: [
		{
			name: 'Pets',
			evaluator: 'dynamic',
			examples: [
				{
					type: 'dynamic',
					max_score: 2,
					steps: [
						{ say: 'I have a cat called Miso. What pet do I have?', id: 'pet', question: true },
						{
							extract: {
								from: 'last_reply',
								judge: {
									system: 'You read replies and answer in JSON.',
									user: 'Reply: {{reply}}\nGive {"animal": <the animal named>}.',
									json_key: 'animal',
								},
								into: 'animal',
							},
						},
						{ wait: { tokens: 5 } },
						{ say: 'What is the name of my {{vars.animal}}?', id: 'name', question: true },
						{
							check: {
								judge: {
									user: 'Does "{{step.name.reply}}" give the name Miso? Answer {"verdict": {"correct": "yes"|"no"}}.',
									json_key: 'verdict.correct',
									model_slot: 'judge',
								},
							},
							on_pass: { score: 2, reason: 'recalled the name of the {{vars.animal}}' },
							on_fail: { reason: 'forgot the name', stop: true },
						},
					],
				},
			],
		},
	],
};

function benchmark(): LtmBenchmark {
	const loaded = loadLtmSuite('pets.ltm-suite.json', JSON.stringify(SUITE));
	if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
	return loaded.benchmark;
}

const agentAnswer = (request: GenerateRequest) => {
	const text = lastUser(request);
	if (text.startsWith('I have a cat')) return 'A cat.';
	if (text.includes('name of my cat')) return 'Miso.';
	return 'OK';
};

function judgeAnswer(correct: string) {
	return (request: GenerateRequest) =>
		lastUser(request).startsWith('Reply:')
			? '```json\n{"animal": "cat",}\n```'
			: `{"verdict": {"correct": "${correct}"}}`;
}

describe('judge steps in dynamic tests', () => {
	it('asks the judge with rendered templates, temperature 0 and 256 tokens, and scores its JSON', async () => {
		const judgeCalls: Recorded[] = [];
		const agentCalls: Recorded[] = [];
		const state = await runLtm(benchmark(), {
			agent: model(agentAnswer, agentCalls),
			judge: model(judgeAnswer('Yes'), judgeCalls),
			environment: { countTokens: words },
		});
		expect(judgeCalls.map(({ call }) => [call.sampleId, call.role, call.callIndex])).toEqual([
			['Pets - 0', 'judge', 0],
			['Pets - 0', 'judge', 1],
		]);
		const first = judgeCalls[0]!.request;
		expect(first.params).toEqual({ temperature: 0, max_tokens: 256 });
		expect(first.prompt).toEqual({
			kind: 'chat',
			messages: [
				{ role: 'system', content: 'You read replies and answer in JSON.' },
				{ role: 'user', content: 'Reply: A cat.\nGive {"animal": <the animal named>}.' },
			],
		});
		expect(lastUser(judgeCalls[1]!.request)).toContain('Does "Miso." give the name Miso?');
		// The extracted value (from a fenced answer with a trailing comma) fills the next message.
		expect(
			agentCalls.some((call) => lastUser(call.request) === 'What is the name of my cat?'),
		).toBe(true);
		expect(state.outcomes['Pets - 0']!.evaluation).toEqual({
			status: 'scored',
			score: 1,
			reasons: ['recalled the name of the cat'],
			flags: [],
		});
		// Upstream's LLM_CALL line form (runner/master_log.py).
		expect(
			state.log.filter((entry) =>
				entry.text.startsWith("Test 'Pets - 0' CALLS an LLM. Response:\n"),
			).length,
		).toBe(2);
	});

	it('a "no" verdict fails the check; a non-JSON answer fails it with the reason', async () => {
		const no = await runLtm(benchmark(), {
			agent: model(agentAnswer),
			judge: model(judgeAnswer('no')),
			environment: { countTokens: words },
		});
		expect(no.outcomes['Pets - 0']!.evaluation).toMatchObject({
			status: 'scored',
			score: 0,
			reasons: ['forgot the name'],
		});
		const garbled = await runLtm(benchmark(), {
			agent: model(agentAnswer),
			judge: model(() => 'I cannot say.'),
			environment: { countTokens: words },
		});
		const evaluation = garbled.outcomes['Pets - 0']!.evaluation;
		expect(evaluation.status === 'scored' && evaluation.score).toBe(0);
		expect(evaluation.reasons[0]).toMatch(/^the judge's answer is not JSON/);
		expect(evaluation.reasons.at(-1)).toBe('forgot the name');
	});

	it('without a judge the test is skipped before the agent sees it', async () => {
		const agentCalls: Recorded[] = [];
		const state = await runLtm(benchmark(), {
			agent: model(agentAnswer, agentCalls),
			environment: { countTokens: words },
		});
		expect(state.outcomes['Pets - 0']!.evaluation).toEqual({
			status: 'skipped',
			reasons: [NEEDS_JUDGE_REASON],
		});
		expect(agentCalls.some((call) => lastUser(call.request).includes('Miso'))).toBe(false);
	});

	it('a resumed run replays the judge answers already in its state', async () => {
		const options = {
			agent: model(agentAnswer),
			environment: { countTokens: words },
			now: () => 0,
		};
		const whole = await runLtm(benchmark(), { ...options, judge: model(judgeAnswer('yes')) });
		const signal = { aborted: false };
		let stopped: LtmRunState | undefined;
		try {
			await runLtm(benchmark(), {
				...options,
				judge: model(judgeAnswer('yes')),
				signal,
				onEvent: ({ action }) => {
					if (action.kind === 'judge') signal.aborted = true;
				},
			});
		} catch (error) {
			expect(error).toBeInstanceOf(LtmCancelledError);
			stopped = (error as LtmCancelledError).state;
		}
		const resumedCalls: Recorded[] = [];
		const resumed = await runLtm(benchmark(), {
			...options,
			judge: model(judgeAnswer('yes'), resumedCalls),
			resumeFrom: JSON.parse(JSON.stringify(stopped)) as LtmRunState,
		});
		expect(resumed).toEqual(whole);
		expect(resumedCalls.map(({ call }) => call.callIndex)).toEqual([1]);
	});

	it('a judge action answered "no-judge" (a state resumed without one) skips the test there', () => {
		let state = createLtmRun(benchmark());
		const kinds: string[] = [];
		for (let step = 0; step < 50; step++) {
			const action = nextAction(state);
			kinds.push(action.kind);
			if (action.kind === 'done') break;
			if (action.kind === 'judge') {
				expect(action).toMatchObject({ testId: 'Pets - 0', callIndex: 0 });
				state = applyResult(state, { kind: 'no-judge' });
			} else if (action.kind === 'send') {
				const reply = action.cannedReply ?? 'A cat.';
				state = applyResult(state, {
					kind: 'sent',
					reply,
					messageTokens: words(action.text),
					replyTokens: words(reply),
					durationMs: 0,
				});
			} else {
				throw new Error(`unexpected ${action.kind}`);
			}
		}
		expect(kinds).toEqual(['send', 'send', 'judge', 'done']);
		expect(state.outcomes['Pets - 0']!.evaluation).toEqual({
			status: 'skipped',
			reasons: [NEEDS_JUDGE_REASON],
		});
		expect(state.progress['Pets - 0']!.status).toBe('finished');
	});

	it('validates judge steps with located errors', () => {
		const broken = structuredClone(SUITE) as unknown as {
			datasets: { examples: { steps: Record<string, unknown>[] }[] }[];
		};
		broken.datasets[0]!.examples[0]!.steps[4] = { check: { judge: { user: 'Is it right?' } } };
		const loaded = loadLtmSuite('pets.ltm-suite.json', JSON.stringify(broken));
		expect(loaded.ok).toBe(false);
		expect(loaded.diagnostics.map((d) => d.pointer)).toEqual([
			'/datasets/0/examples/0/steps/4/check/judge/json_key',
		]);
	});
});
