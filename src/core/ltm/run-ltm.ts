/**
 * The LTM driver: runs the scheduler's actions against an agent (and a judge) through
 * `TextModel`, one reply at a time, reporting every step through `onEvent` with the new state
 * and where its new log entries start (store them to resume). The agent sees the conversation since its last reset as chat messages.
 */
import {
	generateCompletion,
	type CancelSignal,
	type ChatMessage,
	type TextModel,
} from '../model/generation';
import type { Judge } from './evaluators/evaluator';
import type { LogEntry } from './scheduler';
import { evaluateTest } from './evaluate-test';
import {
	applyResult,
	createLtmRun,
	nextAction,
	type LtmAction,
	type LtmActionResult,
	type LtmEnvironment,
	type LtmRunOptions,
	type LtmRunState,
} from './scheduler';
import type { LtmBenchmark } from './shared/types';

export interface RunLtmOptions extends LtmRunOptions {
	readonly agent: TextModel;
	readonly judge?: TextModel;
	/** Overrides the benchmark's memory span. */
	readonly memorySpan?: number;
	readonly isolated?: boolean;
	/** Called after every applied step with the action, its result, the new state and its new log entries. */
	readonly onEvent?: (event: LtmRunEvent) => void | Promise<void>;
	readonly signal?: CancelSignal;
	/** A stored state to continue from (its tests and config win over `benchmark`). */
	readonly resumeFrom?: LtmRunState;
	/** Token counter for scheduling and gaps; default the agent's `countTokens`. */
	readonly countTokens?: (text: string) => number | Promise<number>;
	readonly environment?: LtmEnvironment;
	/** Run label for ModelCall records. */
	readonly runId?: string;
	/** Generation parameters of the agent (default: none, the provider's defaults). */
	readonly agentParams?: Parameters<TextModel['generate']>[0]['params'];
	/** Keep only the newest exchanges that fit this many of the agent's tokens (short contexts). */
	readonly maxContextTokens?: number;
	/** Wall clock in ms (tests inject a fixed one). */
	readonly now?: () => number;
}

export interface LtmRunEvent {
	readonly action: LtmAction;
	readonly result: LtmActionResult;
	readonly state: LtmRunState;
	/**
	 * Where the entries new since the last event start: `state.log.slice(logFrom)` is what to
	 * append to a stored log (the first event of a new run also holds the entries written before
	 * its first step; of a resumed run, those after `resumeFrom`'s log).
	 */
	readonly logFrom: number;
}

/** Thrown when the run is cancelled; `state` is where it stopped (resumable). */
export class LtmCancelledError extends Error {
	override name = 'LtmCancelledError';
	constructor(readonly state: LtmRunState) {
		super('the LTM run was cancelled; resume from its last state');
	}
}

/** Token overhead counted per message on top of its text (chat template or "User: " prefix). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * The chat the agent sees: user/agent lines since the last agent reset. With `maxContextTokens`,
 * only the newest whole exchanges that fit, together with `reserveTokens` (the new message), are
 * kept (the oldest are dropped, as upstream's Hugging Face agent does). `tokensOf` counts a line
 * (default: the tokens logged with it); each message also costs MESSAGE_OVERHEAD_TOKENS.
 */
export function agentHistory(
	state: LtmRunState,
	maxContextTokens?: number,
	reserveTokens = 0,
	tokensOf: (entry: LogEntry) => number = (entry) => entry.tokens,
): ChatMessage[] {
	let start = 0;
	state.log.forEach((entry, index) => {
		if (entry.kind === 'agent-reset') start = index + 1;
	});
	let lines = state.log.slice(start).filter((entry) => entry.role !== 'system');
	if (maxContextTokens !== undefined) {
		let budget = maxContextTokens - reserveTokens - MESSAGE_OVERHEAD_TOKENS;
		let keepFrom = lines.length;
		for (let index = lines.length - 2; index >= 0; index -= 2) {
			const cost =
				tokensOf(lines[index]!) + tokensOf(lines[index + 1]!) + 2 * MESSAGE_OVERHEAD_TOKENS;
			if (cost > budget) break;
			budget -= cost;
			keepFrom = index;
		}
		lines = lines.slice(keepFrom);
	}
	return lines.map((entry) => ({
		role: entry.role === 'user' ? 'user' : 'assistant',
		content: entry.text,
	}));
}

/** The ModelCall sample id of an agent call: the test id, or `intro` / `filler` / `reset`. */
export function agentSampleId(action: Extract<LtmAction, { kind: 'send' }>): string {
	return action.testId === '' ? action.purpose : action.testId;
}

/** How many generated agent replies the same sample id already has (replay files answer by it). */
export function agentCallIndex(
	state: LtmRunState,
	action: Extract<LtmAction, { kind: 'send' }>,
): number {
	return state.log.filter(
		(entry) =>
			entry.role === 'agent' &&
			entry.canned !== true &&
			(action.testId === ''
				? entry.testId === '' && entry.kind === action.purpose
				: entry.testId === action.testId),
	).length;
}

/** Runs to the end (or cancellation) and returns the final state. */
export async function runLtm(
	benchmark: LtmBenchmark,
	options: RunLtmOptions,
): Promise<LtmRunState> {
	const environment = options.environment ?? {};
	let state = options.resumeFrom ?? startRun(benchmark, options, environment);
	const run: RunContext = {
		options,
		count: async (text) =>
			options.countTokens ? options.countTokens(text) : options.agent.countTokens(text),
		now: options.now ?? (() => Date.now()),
		runId: options.runId ?? 'ltm',
		judgeCalls: new Map(),
		agentTokens: new Map(),
	};
	let logFrom = options.resumeFrom?.log.length ?? 0;
	for (;;) {
		if (options.signal?.aborted) throw new LtmCancelledError(state);
		const action = nextAction(state);
		if (action.kind === 'done') return state;
		const result = await perform(action, state, run);
		state = applyResult(state, result, environment);
		await options.onEvent?.({ action, result, state, logFrom });
		logFrom = state.log.length;
	}
}

/** What one run's steps share: its options, clocks and counters, and what it has counted. */
interface RunContext {
	readonly options: RunLtmOptions;
	readonly count: (text: string) => Promise<number>;
	readonly now: () => number;
	readonly runId: string;
	/** Judge calls made so far per test by its evaluator (the next call's index). */
	readonly judgeCalls: Map<string, number>;
	/** The agent's token count of logged texts (short contexts only). */
	readonly agentTokens: Map<string, number>;
}

type SendAction = Extract<LtmAction, { kind: 'send' }>;
type JudgeAction = Extract<LtmAction, { kind: 'judge' }>;
type EvaluateAction = Extract<LtmAction, { kind: 'evaluate' }>;

function startRun(
	benchmark: LtmBenchmark,
	options: RunLtmOptions,
	environment: LtmEnvironment,
): LtmRunState {
	const config = {
		...benchmark.config,
		...(options.memorySpan !== undefined ? { memorySpan: options.memorySpan } : {}),
		...(options.isolated !== undefined ? { isolated: options.isolated } : {}),
	};
	return createLtmRun(
		{ ...benchmark, config },
		{ ...options, judgeAvailable: options.judgeAvailable ?? options.judge !== undefined },
		environment,
	);
}

async function perform(
	action: Exclude<LtmAction, { kind: 'done' }>,
	state: LtmRunState,
	run: RunContext,
): Promise<LtmActionResult> {
	if (action.kind === 'send') return send(action, state, run);
	if (action.kind === 'reset-agent') return { kind: 'agent-reset' };
	if (action.kind === 'judge') return askJudge(action, state, run);
	return evaluate(action, state, run);
}

async function send(
	action: SendAction,
	state: LtmRunState,
	run: RunContext,
): Promise<LtmActionResult> {
	const started = run.now();
	const reply =
		action.cannedReply !== undefined ? action.cannedReply : await agentReply(action, state, run);
	return {
		kind: 'sent',
		reply,
		messageTokens: await run.count(action.text),
		replyTokens: await run.count(reply),
		durationMs: action.cannedReply !== undefined ? 0 : run.now() - started,
	};
}

async function agentReply(
	action: SendAction,
	state: LtmRunState,
	run: RunContext,
): Promise<string> {
	const { options } = run;
	const history = await historyFor(action, state, run);
	const messages = [...history, { role: 'user', content: action.text }];
	const done = await generateCompletion(
		options.agent,
		{ prompt: { kind: 'chat', messages }, params: options.agentParams ?? {} },
		{
			runId: run.runId,
			sampleId: agentSampleId(action),
			role: 'agent',
			callIndex: agentCallIndex(state, action),
		},
		options.signal,
	);
	if (done.finishReason === 'cancelled') throw new LtmCancelledError(state);
	return done.completion;
}

async function historyFor(
	action: SendAction,
	state: LtmRunState,
	run: RunContext,
): Promise<ChatMessage[]> {
	const { agent, maxContextTokens } = run.options;
	if (maxContextTokens === undefined) return agentHistory(state);
	// The context is the agent's: count with its own tokenizer (cached by text; the
	// newest 400 lines are more than any short context holds).
	for (const entry of state.log.slice(-400)) {
		if (entry.role !== 'system' && !run.agentTokens.has(entry.text)) {
			run.agentTokens.set(entry.text, await agent.countTokens(entry.text));
		}
	}
	const reserve = await agent.countTokens(action.text);
	return agentHistory(
		state,
		maxContextTokens,
		reserve,
		(entry) => run.agentTokens.get(entry.text) ?? entry.tokens,
	);
}

/** A dynamic test's judge call; its answer goes into the state, so a resumed run replays it. */
async function askJudge(
	action: JudgeAction,
	state: LtmRunState,
	run: RunContext,
): Promise<LtmActionResult> {
	if (run.options.judge === undefined) return { kind: 'no-judge' };
	const done = await generateCompletion(
		run.options.judge,
		{ prompt: { kind: 'chat', messages: action.messages }, params: action.params },
		{ runId: run.runId, sampleId: action.testId, role: 'judge', callIndex: action.callIndex },
		run.options.signal,
	);
	if (done.finishReason === 'cancelled') throw new LtmCancelledError(state);
	return { kind: 'judged', reply: done.completion };
}

async function evaluate(
	action: EvaluateAction,
	state: LtmRunState,
	run: RunContext,
): Promise<LtmActionResult> {
	const judgeModel = run.options.judge;
	const judge: Judge | undefined = judgeModel
		? async (messages, params) => {
				const index = run.judgeCalls.get(action.testId) ?? 0;
				run.judgeCalls.set(action.testId, index + 1);
				const done = await generateCompletion(
					judgeModel,
					{ prompt: { kind: 'chat', messages }, params },
					{ runId: run.runId, sampleId: action.testId, role: 'judge', callIndex: index },
					run.options.signal,
				);
				return done.completion;
			}
		: undefined;
	const test = state.tests.find((candidate) => candidate.uniqueId === action.testId)!;
	return {
		kind: 'evaluated',
		evaluation: await evaluateTest(test, action.questions, action.responses, judge, state.tests),
	};
}
