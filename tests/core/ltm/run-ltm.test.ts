// The runLtm driver over TextModel: chat history, canned filler, events with storable states,
// resume, cancellation, the judge's call indices and the short-context history.
import { describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import { agentHistory, LtmCancelledError, runLtm } from '../../../src/core/ltm/run-ltm';
import type { LtmRunState } from '../../../src/core/ltm/scheduler';
import type { LtmBenchmark, LtmTestDefinition } from '../../../src/core/ltm/shared/types';
import type {
	GenerateRequest,
	GenerationEvent,
	ModelCall,
	TextModel,
} from '../../../src/core/model/generation';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;

function definition(
	datasetName: string,
	evaluator: LtmTestDefinition['evaluator'],
	script: string[],
	expected: string[],
): LtmTestDefinition {
	const isQuestion = script.map((_, index) => index === script.length - 1);
	return {
		uniqueId: `${datasetName} - 0`,
		datasetName,
		exampleId: '0',
		configName: datasetName.toLowerCase(),
		evaluator,
		description: '',
		resetMessage: '',
		script,
		isQuestion,
		waits: defaultWaits(script.length),
		expectedResponses: expected,
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
	};
}

const BENCHMARK: LtmBenchmark = {
	config: { runName: 't', memorySpan: 80, incompatibilities: [], isolated: false },
	tests: [
		definition(
			'Colours',
			'colours',
			['My favourite colour is green.', 'What is my favourite colour?'],
			['green'],
		),
		definition(
			'Delayed Recall',
			'gpt_checklist',
			['The moon of Zed is made of glass.', 'What is the moon of Zed made of?'],
			['glass'],
		),
	],
};

interface Recorded {
	request: GenerateRequest;
	call: ModelCall;
}

function model(
	label: string,
	answer: (request: GenerateRequest) => string,
	calls: Recorded[] = [],
): TextModel {
	return {
		label,
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

const agentAnswer = (request: GenerateRequest) =>
	lastUser(request).includes('colour')
		? 'green'
		: lastUser(request).includes('moon')
			? 'glass'
			: 'OK';

describe('runLtm', () => {
	it('asks the agent with the chat so far, never for filler, and the judge with call indices', async () => {
		const agentCalls: Recorded[] = [];
		const judgeCalls: Recorded[] = [];
		const states: LtmRunState[] = [];
		const state = await runLtm(BENCHMARK, {
			agent: model('agent', agentAnswer, agentCalls),
			judge: model('judge', () => '[{"question_nr":0,"checklist":["yes","no","no"]}]', judgeCalls),
			environment: { countTokens: words },
			onEvent: ({ state: current }) => {
				states.push(current);
			},
		});
		expect(agentCalls.every((call) => call.call.role === 'agent')).toBe(true);
		expect(
			agentCalls.some((call) => lastUser(call.request).startsWith('Below are some quiz')),
		).toBe(false);
		const third = agentCalls[2]!.request;
		expect(third.prompt.kind === 'chat' && third.prompt.messages.map((m) => m.role)).toEqual([
			'user',
			'assistant',
			'user',
			'assistant',
			'user',
		]);
		expect(
			judgeCalls.map((call) => [call.call.sampleId, call.call.role, call.call.callIndex]),
		).toEqual([['Delayed Recall - 0', 'judge', 0]]);
		expect(state.outcomes['Colours - 0']!.evaluation).toMatchObject({ status: 'scored', score: 1 });
		expect(state.outcomes['Delayed Recall - 0']!.evaluation).toMatchObject({
			status: 'scored',
			score: 1,
		});
		expect(states.at(-1)).toEqual(state);
		expect(JSON.parse(JSON.stringify(states[3]))).toEqual(states[3]);
	});

	it('without a judge, the checklist test is skipped and the other scored', async () => {
		const state = await runLtm(BENCHMARK, {
			agent: model('agent', agentAnswer),
			environment: { countTokens: words },
		});
		expect(state.outcomes['Delayed Recall - 0']!.evaluation.status).toBe('skipped');
		expect(state.outcomes['Colours - 0']!.evaluation).toMatchObject({ status: 'scored', score: 1 });
	});

	it('a cancelled run can be resumed from the state it stopped at, to the same end', async () => {
		const options = {
			agent: model('agent', agentAnswer),
			environment: { countTokens: words },
			now: () => 0,
		};
		const whole = await runLtm(BENCHMARK, options);
		const signal = { aborted: false };
		let steps = 0;
		let stopped: LtmRunState | undefined;
		try {
			await runLtm(BENCHMARK, {
				...options,
				signal,
				onEvent: () => {
					if (++steps === 4) signal.aborted = true;
				},
			});
		} catch (error) {
			expect(error).toBeInstanceOf(LtmCancelledError);
			stopped = (error as LtmCancelledError).state;
		}
		const resumed = await runLtm(BENCHMARK, {
			...options,
			resumeFrom: JSON.parse(JSON.stringify(stopped)) as LtmRunState,
		});
		expect(resumed).toEqual(whole);
	});
});

describe('events name the new log entries', () => {
	const options = () => ({
		agent: model('agent', agentAnswer),
		environment: { countTokens: words },
		now: () => 0,
	});

	it('the entries from each logFrom on, event after event, are the whole log once', async () => {
		const appended: LtmRunState['log'] = [];
		const state = await runLtm(BENCHMARK, {
			...options(),
			onEvent: ({ state: current, logFrom }) => {
				expect(logFrom).toBe(appended.length);
				appended.push(...current.log.slice(logFrom));
			},
		});
		expect(appended).toEqual(state.log);
		expect(state.log[0]!.text).toMatch(/^Hello\./);
	});

	it('a resumed run starts after the log it resumes from', async () => {
		const signal = { aborted: false };
		let stopped: LtmRunState | undefined;
		let steps = 0;
		await runLtm(BENCHMARK, {
			...options(),
			signal,
			onEvent: () => {
				if (++steps === 3) signal.aborted = true;
			},
		}).catch((error: unknown) => {
			stopped = (error as LtmCancelledError).state;
		});
		const resumeFrom = JSON.parse(JSON.stringify(stopped)) as LtmRunState;
		const appended = [...resumeFrom.log];
		const state = await runLtm(BENCHMARK, {
			...options(),
			resumeFrom,
			onEvent: ({ state: current, logFrom }) => {
				expect(logFrom).toBe(appended.length);
				appended.push(...current.log.slice(logFrom));
			},
		});
		expect(appended).toEqual(state.log);
		expect(state).toEqual(await runLtm(BENCHMARK, options()));
	});
});

describe('agentHistory with a short context', () => {
	it('keeps the newest whole exchanges that fit', async () => {
		const state = await runLtm(BENCHMARK, {
			agent: model('agent', agentAnswer),
			environment: { countTokens: words },
			countTokens: words,
		});
		const all = agentHistory(state);
		const short = agentHistory(state, 40, 5);
		expect(short.length % 2).toBe(0);
		expect(short.length).toBeLessThan(all.length);
		expect(short).toEqual(all.slice(all.length - short.length));
		const kept = state.log.filter((entry) => entry.role !== 'system').slice(-short.length);
		expect(kept.reduce((sum, entry) => sum + entry.tokens, 0)).toBeLessThanOrEqual(35);
	});

	it('the driver trims the history with the agent tokenizer', async () => {
		const calls: Recorded[] = [];
		const chars: TextModel = {
			...model('agent', agentAnswer, calls),
			countTokens: (text) => text.length,
		};
		await runLtm(BENCHMARK, {
			agent: chars,
			environment: { countTokens: words },
			countTokens: words,
			maxContextTokens: 200,
		});
		expect(calls.length).toBeGreaterThan(3);
		for (const { request } of calls) {
			const messages = request.prompt.kind === 'chat' ? request.prompt.messages : [];
			const size = messages.reduce((sum, message) => sum + message.content.length + 4, 0);
			// Only the new message may exceed the budget on its own (nothing older is kept then).
			const newest = messages.at(-1)!.content.length + 4;
			expect(size).toBeLessThanOrEqual(Math.max(200, newest));
			if (newest > 200) expect(messages).toHaveLength(1);
		}
	});
});
