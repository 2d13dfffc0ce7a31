// The scheduler state machine: L2–L4, interleaving, incompatibility, time waits, callbacks,
// isolated mode, resume from stored JSON, gap and overrun. Token counts are words (deterministic).
import { describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import { evaluateTest } from '../../../src/core/ltm/evaluate-test';
import { buildFiller } from '../../../src/core/ltm/filler';
import {
	applyResult,
	createLtmRun,
	INTRO_MESSAGE,
	nextAction,
	tokensToWait,
	type LtmAction,
	type LtmEnvironment,
	type LtmRunState,
} from '../../../src/core/ltm/scheduler';
import type {
	EvaluatorSpec,
	JsonValue,
	LtmBenchmark,
	LtmConfig,
	LtmTestDefinition,
	LtmWait,
} from '../../../src/core/ltm/shared/types';

const words = (text: string): number => text.split(/\s+/).filter((word) => word !== '').length;
const ENV: LtmEnvironment = { countTokens: words };

function test(
	datasetName: string,
	configName: string,
	evaluator: EvaluatorSpec,
	script: string[],
	isQuestion: boolean[],
	expected: JsonValue[],
	options: {
		waits?: LtmWait[];
		id?: string;
		usesCallback?: boolean;
		isTemporal?: boolean;
		resetMessage?: string;
	} = {},
): LtmTestDefinition {
	const id = options.id ?? '0';
	return {
		uniqueId: `${datasetName} - ${id}`,
		datasetName,
		exampleId: id,
		configName,
		evaluator,
		description: '',
		resetMessage: options.resetMessage ?? '',
		script,
		isQuestion,
		waits: options.waits ?? defaultWaits(isQuestion.length),
		expectedResponses: expected,
		isTemporal: options.isTemporal ?? false,
		usesCallback: options.usesCallback ?? false,
		canBeInterleaved: true,
		source: 'test',
	};
}

const colours = test(
	'Colours',
	'colours',
	'colours',
	['My favourite colour is red.', 'What is my favourite colour?'],
	[false, true],
	['red'],
);
const names = test(
	'Names',
	'names',
	'names',
	['My name is Ada.', 'What is my name?'],
	[false, true],
	['Ada'],
);
const nameList = test(
	'NameList',
	'name_list',
	'name_list',
	['Call me Bo.', 'List my names as JSON.'],
	[false, true],
	['Bo'],
);

function config(overrides: Partial<LtmConfig> = {}): LtmConfig {
	return { runName: 'test', memorySpan: 100, incompatibilities: [], isolated: false, ...overrides };
}

interface Step {
	action: LtmAction;
	reply?: string;
}

/** Runs to the end with an agent that answers `answer(action)`; returns the states' steps. */
async function drive(
	benchmark: LtmBenchmark,
	answer: (action: Extract<LtmAction, { kind: 'send' }>, state: LtmRunState) => string = () => 'ok',
	start?: LtmRunState,
	stopAfter = Infinity,
): Promise<{ state: LtmRunState; steps: Step[] }> {
	let state = start ?? createLtmRun(benchmark, {}, ENV);
	const steps: Step[] = [];
	for (let guard = 0; guard < 10_000 && steps.length < stopAfter; guard++) {
		const action = nextAction(state);
		if (action.kind === 'done') return { state, steps };
		if (action.kind === 'send') {
			const reply = action.cannedReply ?? answer(action, state);
			steps.push({ action, reply });
			state = applyResult(
				state,
				{
					kind: 'sent',
					reply,
					messageTokens: words(action.text),
					replyTokens: words(reply),
					durationMs: 10,
				},
				ENV,
			);
		} else if (action.kind === 'evaluate') {
			steps.push({ action });
			const definition = state.tests.find((candidate) => candidate.uniqueId === action.testId)!;
			const evaluation = await evaluateTest(
				definition,
				action.questions,
				action.responses,
				undefined,
				state.tests,
			);
			state = applyResult(state, { kind: 'evaluated', evaluation }, ENV);
		} else {
			steps.push({ action });
			state = applyResult(state, { kind: 'agent-reset' }, ENV);
		}
	}
	return { state, steps };
}

const sends = (steps: Step[]) =>
	steps.flatMap((step) => (step.action.kind === 'send' ? [step.action] : []));

describe('tokensToWait (L3)', () => {
	const cases: [LtmWait, number, number, number, number][] = [
		[{ percentage_finished: 30 }, 1000, 50, 10, 240],
		[{ percentage_finished: 30 }, 1000, 400, 10, 0],
		[{ percentage_finished: 30, tokens: 500 }, 1000, 50, 10, 490],
		[{ tokens: 1 }, 1000, 0, 10, 1],
		[{}, 1000, 0, 10, 0],
	];
	it.each(cases)(
		'%j span %d elapsed %d last reply %d → %d',
		(wait, span, elapsed, lastReply, want) => {
			expect(tokensToWait(wait, span, elapsed, lastReply)).toBe(want);
		},
	);
});

describe('filler (L4)', () => {
	it('the canned reply is the Python repr of the answers', () => {
		const filler = buildFiller(10_000, 60, 0, words, [
			{ question: 'First?', answer: 'A' },
			{ question: "Bob's?", answer: "Bob's" },
		]);
		expect(filler.answers.slice(0, 2)).toEqual(['A', "Bob's"]);
		expect(filler.cannedReply.startsWith(`['A', "Bob's"`)).toBe(true);
		expect(filler.text).toContain('Q: First?, A: A\n');
	});

	it('no generation for filler while no callback is active', async () => {
		const { steps } = await drive({ config: config(), tests: [colours] }, (action) => {
			expect(action.purpose).not.toBe('filler');
			return 'red';
		});
		const fillers = sends(steps).filter((action) => action.purpose === 'filler');
		expect(fillers.length).toBeGreaterThan(0);
		expect(fillers.every((action) => action.cannedReply !== undefined)).toBe(true);
	});
});

describe('scheduling', () => {
	it('intro first, tests interleave, filler only when every test waits, gap ≥ span', async () => {
		const { state, steps } = await drive({ config: config(), tests: [names, colours] }, (action) =>
			action.testId.startsWith('Colours') ? 'It is red.' : 'You are Ada.',
		);
		const purposes = sends(steps).map((action) => `${action.purpose}:${action.testId}`);
		expect(purposes[0]).toBe('intro:');
		// Sorted by id: Colours starts first, Names starts while Colours waits, then filler.
		expect(purposes.slice(1, 4)).toEqual(['script:Colours - 0', 'script:Names - 0', 'filler:']);
		expect(sends(steps)[0]!.text).toBe(INTRO_MESSAGE);
		for (const id of ['Colours - 0', 'Names - 0']) {
			const outcome = state.outcomes[id]!;
			expect(outcome.evaluation).toMatchObject({ status: 'scored', score: 1 });
			expect(outcome.tokens).toBeGreaterThanOrEqual(90);
		}
	});

	it('incompatible tests do not interleave', async () => {
		const { steps } = await drive({
			config: config({ incompatibilities: [['names', 'name_list']] }),
			tests: [names, nameList],
		});
		const order = sends(steps)
			.filter((action) => action.purpose === 'script')
			.map((action) => action.testId);
		// Sorted by id ("NameList - 0" < "Names - 0"); Names starts only after NameList is over.
		expect(order).toEqual(['NameList - 0', 'NameList - 0', 'Names - 0', 'Names - 0']);
		const namesStart = sends(steps).findIndex((action) => action.testId === 'Names - 0');
		const fillerBefore = sends(steps)
			.slice(0, namesStart)
			.some((action) => action.purpose === 'filler');
		expect(fillerBefore).toBe(true);
	});

	it('two tests of the same dataset never interleave', async () => {
		const other = { ...colours, uniqueId: 'Colours - 1', exampleId: '1' };
		const { steps } = await drive({ config: config(), tests: [colours, other] });
		const order = sends(steps)
			.filter((action) => action.purpose === 'script')
			.map((action) => action.testId);
		expect(order).toEqual(['Colours - 0', 'Colours - 0', 'Colours - 1', 'Colours - 1']);
	});

	it('time waits jump the virtual clock and the jokes question names the gap (L15)', async () => {
		const jokes = test(
			'Jokes',
			'jokes',
			'jokes',
			['Joke one.', 'Joke two.'],
			[false, false, true],
			['Joke one.'],
			{
				isTemporal: true,
				waits: [{ time: 3600 }, { time: 1800 }, {}],
			},
		);
		const { state, steps } = await drive({ config: config(), tests: [jokes] }, () => 'Joke one.');
		const question = sends(steps).find((action) => action.isQuestion)!;
		// Joke one at t=0; jumps to 3601 s, then +1800 → 5401 s + 1: 1 h 30 min.
		expect(question.text).toBe('Which joke did I tell you about 1 hours 30 minutes  ago?');
		expect(state.outcomes['Jokes - 0']!.evaluation).toMatchObject({ score: 1 });
		expect(sends(steps).some((action) => action.purpose === 'filler')).toBe(false);
	});

	it('a reset message is sent when a test finishes', async () => {
		const shopping = test(
			'Shopping',
			'shopping',
			'shopping',
			['Add 2 eggs.', 'List?'],
			[false, true],
			[['eggs', 2]],
			{ resetMessage: 'All bought.' },
		);
		const { state, steps } = await drive({ config: config(), tests: [shopping] }, (action) =>
			action.isQuestion ? '[{"item":"eggs","quantity":2}]' : 'ok',
		);
		const last = sends(steps)
			.filter((action) => action.testId === 'Shopping - 0')
			.at(-1)!;
		expect(last).toMatchObject({ purpose: 'reset', text: 'All bought.' });
		expect(state.outcomes['Shopping - 0']!.evaluation).toMatchObject({ score: 1 });
	});

	it('the gap counts to the end of the conversation and an overrun is warned', async () => {
		const long = test(
			'Colours',
			'colours',
			'colours',
			['My favourite colour is red.', 'What is my favourite colour?'],
			[false, true],
			['red'],
			{
				waits: [{ tokens: 150 }, {}],
			},
		);
		const { state } = await drive(
			{ config: config({ memorySpan: 100 }), tests: [long] },
			() => 'red',
		);
		expect(state.outcomes['Colours - 0']!.overrun).toBe(true);
		expect(state.warnings.join('\n')).toMatch(/more than the memory span of 100/);
	});
});

describe('callbacks (prospective memory)', () => {
	const quote = 'Small steps still move you.';
	const pm = test(
		'Prospective Memory',
		'prospective_memory',
		'prospective_memory',
		[`'${quote}' - A. Writer`, 'Append the quote to your 3rd response.'],
		[false, true],
		[[quote, 'A. Writer', 3]],
		{
			usesCallback: true,
		},
	);

	it('the agent really answers filler while the callback is active, and the test finishes on the nth reply', async () => {
		let replies = 0;
		const { state, steps } = await drive({ config: config(), tests: [pm] }, (action, current) => {
			if (current.callbacks.length > 0 || action.isQuestion) {
				replies++;
				return replies === 3 ? `Sure. ${quote}` : 'Noted.';
			}
			return 'ok';
		});
		const afterQuestion = sends(steps).slice(
			sends(steps).findIndex((action) => action.isQuestion) + 1,
		);
		expect(afterQuestion.length).toBeGreaterThanOrEqual(2);
		expect(
			afterQuestion
				.filter((action) => action.purpose === 'filler')
				.every((action) => action.cannedReply === undefined),
		).toBe(true);
		expect(state.outcomes['Prospective Memory - 0']!.evaluation).toMatchObject({
			status: 'scored',
			score: 1,
		});
	});

	it('a quote in the wrong reply scores 0', async () => {
		const { state } = await drive({ config: config(), tests: [pm] }, (action) =>
			action.isQuestion ? quote : 'ok',
		);
		expect(state.outcomes['Prospective Memory - 0']!.evaluation).toMatchObject({
			status: 'scored',
			score: 0,
		});
	});
});

describe('isolated mode', () => {
	it('no intro, no token filler, the agent is reset after each test, time waits still jump', async () => {
		const { state, steps } = await drive(
			{ config: config({ isolated: true }), tests: [colours, names] },
			(action) => (action.testId.startsWith('Colours') ? 'red' : 'Ada'),
		);
		const kinds = steps.map((step) =>
			step.action.kind === 'send' ? step.action.purpose : step.action.kind,
		);
		expect(kinds).toEqual([
			'script',
			'script',
			'evaluate',
			'reset-agent',
			'script',
			'script',
			'evaluate',
			'reset-agent',
		]);
		expect(state.outcomes['Names - 0']!.evaluation).toMatchObject({ score: 1 });
	});

	it('a callback test is fed 100-token filler until it resolves', async () => {
		const quote = 'Keep going.';
		const pm = test(
			'Prospective Memory',
			'prospective_memory',
			'prospective_memory',
			[`'${quote}' - B`, 'Append it to your 2nd response.'],
			[false, true],
			[[quote, 'B', 2]],
			{ usesCallback: true },
		);
		const { state, steps } = await drive(
			{ config: config({ isolated: true }), tests: [pm] },
			(action) => (action.purpose === 'filler' ? `["x"] ${quote}` : 'ok'),
		);
		const fillers = sends(steps).filter((action) => action.purpose === 'filler');
		expect(fillers).toHaveLength(1);
		expect(fillers[0]!.cannedReply).toBeUndefined();
		expect(words(fillers[0]!.text)).toBeGreaterThanOrEqual(50);
		expect(state.outcomes['Prospective Memory - 0']!.evaluation).toMatchObject({ score: 1 });
		expect(steps.at(-1)!.action.kind).toBe('reset-agent');
	});
});

describe('state is plain JSON and resumable', () => {
	it('a run resumed from a JSON copy of a mid-run state ends exactly as an uninterrupted run', async () => {
		const benchmark = { config: config(), tests: [names, colours] };
		const answer = (action: Extract<LtmAction, { kind: 'send' }>) =>
			action.testId.startsWith('Colours') ? 'red' : 'Ada';
		const whole = await drive(benchmark, answer);
		const half = await drive(benchmark, answer, undefined, 5);
		const stored = JSON.parse(JSON.stringify(half.state)) as LtmRunState;
		const resumed = await drive(benchmark, answer, stored);
		expect(resumed.state).toEqual(whole.state);
	});

	it('applyResult changes nothing of its input but appends to the log it shares', () => {
		const state = createLtmRun({ config: config(), tests: [colours] }, {}, ENV);
		const { log, ...rest } = state;
		const before = JSON.stringify(rest);
		const logBefore = JSON.stringify(log);
		const length = log.length;
		const next = applyResult(
			state,
			{ kind: 'sent', reply: 'hi', messageTokens: 3, replyTokens: 1, durationMs: 1 },
			ENV,
		);
		const { log: _log, ...restAfter } = state;
		expect(JSON.stringify(restAfter)).toBe(before);
		expect(next.log).toBe(state.log);
		expect(next.tests).toBe(state.tests);
		expect(next.log.length).toBeGreaterThan(length);
		expect(JSON.stringify(next.log.slice(0, length))).toBe(logBefore);
		expect(next.log.slice(length).map((entry) => [entry.role, entry.text])).toEqual([
			['user', INTRO_MESSAGE],
			['agent', 'hi'],
			['system', "Test 'Colours - 0' BEGINS"],
		]);
	});

	it("applyResult refuses a state it already applied (its log is its successor's)", () => {
		const state = createLtmRun({ config: config(), tests: [colours] }, {}, ENV);
		const sent = {
			kind: 'sent',
			reply: 'hi',
			messageTokens: 3,
			replyTokens: 1,
			durationMs: 1,
		} as const;
		applyResult(state, sent, ENV);
		expect(() => applyResult(state, sent, ENV)).toThrow(/already applied/);
		const copy = JSON.parse(JSON.stringify(state)) as LtmRunState;
		expect(() => applyResult(copy, sent, ENV)).not.toThrow();
	});

	it('a result that does not answer the action leaves the state usable', () => {
		const state = createLtmRun({ config: config(), tests: [colours] }, {}, ENV);
		expect(() => applyResult(state, { kind: 'agent-reset' }, ENV)).toThrow(/expected the reply/);
		const next = applyResult(
			state,
			{ kind: 'sent', reply: 'hi', messageTokens: 3, replyTokens: 1, durationMs: 1 },
			ENV,
		);
		expect(next.log.filter((entry) => entry.role === 'agent')).toHaveLength(1);
	});
});
