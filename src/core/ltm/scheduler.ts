/**
 * The LTM scheduler as a pure state machine (upstream runner/scheduler.py, reference §2.4): tests
 * sorted by unique id, an intro message, interleaving of compatible tests, token waits (a
 * percentage of the memory span, L3) and time waits on a virtual clock, filler until the earliest
 * token target (canned replies, L4, except while a callback test is active), reset messages,
 * isolated mode. The state is plain JSON: store it after every reply and resume from it (its log
 * is append-only: store only the entries each step adds).
 * `nextAction(state)` says what the driver must do; `applyResult` folds the outcome in.
 */
import {
	advanceDynamic,
	programUsesJudge,
	recordDynamicReply,
	recordJudgeReply,
	startDynamic,
	type DynamicState,
} from './dynamic-test';
import { compareIds, estimateTokens } from './definitions';
import { NEEDS_JUDGE_REASON } from './evaluate-test';
import type { ChatMessage, GenerationParams } from '../model/generation';
import { jokesQuestion } from './evaluators/jokes';
import { evaluateWatch, prospectiveMemoryWatch } from './evaluators/prospective-memory';
import { buildFiller, type TriviaItem } from './filler';
import { beginText, endText, llmCallText, waitText } from './goodai-log';
import type {
	LogEntry,
	LogRole,
	LtmBenchmark,
	LtmConfig,
	LtmTestDefinition,
	LtmWait,
	TestEvaluation,
	WatchSpec,
} from './shared/types';

/** Our intro message (upstream sends one of its own words at the start of a non-isolated run). */
export const INTRO_MESSAGE =
	'Hello. I am about to run a long-term memory test with you: over a long conversation I will tell you things and later ask about them. Keep your answers very short; when there is nothing to answer, just acknowledge.';

export type { LogEntry, LogRole };

export interface TestProgress {
	status: 'pending' | 'running' | 'waiting' | 'watching' | 'finishing' | 'finished';
	/** Index into the static program (script lines and waits). */
	actionIndex: number;
	startToken: number | null;
	lastReplyTokens: number;
	resetSent: boolean;
	/** Clock (s) at which each script line was sent. */
	sentAtS: Record<string, number>;
	dynamic: DynamicState | null;
	/** Active callback: where its counted replies start (index into the log). */
	watchFromLog: number | null;
	callbackVerdict: { score: number; reasons: string[]; finished: boolean } | null;
}

/** What the driver does next. */
export type LtmAction =
	| {
			readonly kind: 'send';
			/** `''` for the intro and filler. */
			readonly testId: string;
			readonly text: string;
			readonly purpose: 'intro' | 'script' | 'filler' | 'reset';
			readonly isQuestion: boolean;
			/** Present: record this reply without asking the agent (filler, L4). */
			readonly cannedReply?: string;
	  }
	| { readonly kind: 'reset-agent' }
	| {
			/** A dynamic test asks the judge (answer with `judged`, or `no-judge` when none is set). */
			readonly kind: 'judge';
			readonly testId: string;
			/** This test's judge calls before this one (ModelCall `callIndex`; replay files key on it). */
			readonly callIndex: number;
			readonly messages: readonly ChatMessage[];
			readonly params: GenerationParams;
	  }
	| {
			readonly kind: 'evaluate';
			readonly testId: string;
			readonly questions: readonly string[];
			readonly responses: readonly string[];
	  }
	| { readonly kind: 'done' };

/** The driver's answer to an action. */
export type LtmActionResult =
	| {
			readonly kind: 'sent';
			readonly reply: string;
			readonly messageTokens: number;
			readonly replyTokens: number;
			readonly durationMs: number;
	  }
	| { readonly kind: 'agent-reset' }
	| { readonly kind: 'judged'; readonly reply: string }
	| { readonly kind: 'no-judge' }
	| { readonly kind: 'evaluated'; readonly evaluation: TestEvaluation };

/** A finished test: its evaluation and the gap actually achieved. */
export interface TestOutcome {
	readonly evaluation: TestEvaluation;
	/** Tokens from the test's first script line to the end of the conversation at evaluation. */
	readonly tokens: number;
	readonly characters: number;
	readonly questions: readonly string[];
	readonly responses: readonly string[];
	/** `tokens > memory_span`. */
	readonly overrun: boolean;
}

export interface LtmRunOptions {
	/** Largest filler message, in tokens (upstream `max_message_size`, default 1024). */
	readonly maxMessageTokens?: number;
	/** Wall-clock start of the virtual clock (ISO), for log timestamps. */
	readonly startTime?: string;
	/** Label of the trivia source recorded in the state. */
	readonly triviaSource?: 'ours' | 'upstream';
	/** False: dynamic tests that ask the judge are reported skipped before they start. */
	readonly judgeAvailable?: boolean;
}

/** Things the state machine needs that are not data: a sync token counter and trivia. */
export interface LtmEnvironment {
	/** Sizes filler messages; default 1 token per 4 characters. */
	readonly countTokens?: (text: string) => number;
	/** Upstream-format trivia; ours when absent. */
	readonly trivia?: readonly TriviaItem[];
}

export interface LtmRunState {
	readonly format: 'ltm-run-state/1';
	readonly config: LtmConfig;
	readonly tests: readonly LtmTestDefinition[];
	readonly maxMessageTokens: number;
	readonly startTime: string;
	readonly triviaSource: 'ours' | 'upstream';
	introSent: boolean;
	totalTokens: number;
	clockS: number;
	fillerCursor: number;
	current: string | null;
	progress: Record<string, TestProgress>;
	/** Waiting tests: token target and clock target (s). */
	waitList: Record<string, { tokens?: number; timeS?: number }>;
	/** Active callback tests (registered when their question is sent). */
	callbacks: string[];
	outcomes: Record<string, TestOutcome>;
	/** Messages to the user of the run (overruns, odd states). */
	warnings: string[];
	/** Agent reply tokens and time spent in the agent, for speed and verbosity. */
	agentTokens: number;
	agentDurationMs: number;
	/** Append-only: a step only adds entries at the end (applyResult shares the array, never copies it). */
	log: LogEntry[];
	next: LtmAction;
}

type StaticStep = { type: 'send'; line: number } | { type: 'wait'; wait: LtmWait };

/** The static program of a test: each line, then its wait when non-empty (upstream `action_iter`). */
export function staticProgram(test: LtmTestDefinition): StaticStep[] {
	const steps: StaticStep[] = [];
	const lines = Math.max(test.script.length, test.isQuestion.length);
	for (let line = 0; line < lines; line++) {
		if (line >= test.script.length && !(test.isTemporal && line === test.script.length)) break;
		steps.push({ type: 'send', line });
		const wait = test.waits[line];
		if (wait && Object.keys(wait).length > 0) steps.push({ type: 'wait', wait });
	}
	return steps;
}

/** Whether two tests may be interleaved (different dataset, not in one incompatibility set). */
export function areCompatible(
	a: LtmTestDefinition,
	b: LtmTestDefinition,
	config: LtmConfig,
): boolean {
	if (a.datasetName === b.datasetName) return false;
	return !config.incompatibilities.some(
		(set) => set.includes(a.configName) && set.includes(b.configName),
	);
}

/**
 * The token wait after a line (upstream `set_to_wait`, L3): with a percentage, the rest of
 * `floor(span/100 · pct)` since the test started (at least `tokens`), less the last reply's tokens.
 */
export function tokensToWait(
	wait: LtmWait,
	memorySpan: number,
	tokensSinceStart: number,
	lastReplyTokens: number,
): number {
	const pct = wait.percentage_finished ?? 0;
	const tokens = wait.tokens ?? 0;
	let amount = tokens;
	if (pct > 0) {
		const target = Math.floor((memorySpan / 100) * pct);
		amount = Math.max(0, target - tokensSinceStart, tokens);
	}
	if (amount > 1) amount = Math.max(0, amount - lastReplyTokens);
	return amount;
}

/** The tests in the order a run holds them (by unique id, as upstream sorts them). */
export function testsInRunOrder(tests: readonly LtmTestDefinition[]): LtmTestDefinition[] {
	return [...tests].sort((a, b) => compareIds(a.uniqueId, b.uniqueId));
}

/** A new run, settled to its first action. */
export function createLtmRun(
	benchmark: LtmBenchmark,
	options: LtmRunOptions = {},
	environment: LtmEnvironment = {},
): LtmRunState {
	const tests = testsInRunOrder(benchmark.tests);
	const progress: Record<string, TestProgress> = {};
	for (const test of tests) {
		progress[test.uniqueId] = {
			status: 'pending',
			actionIndex: 0,
			startToken: null,
			lastReplyTokens: 0,
			resetSent: false,
			sentAtS: {},
			dynamic: test.dynamic ? startDynamic(test.dynamic) : null,
			watchFromLog: null,
			callbackVerdict: null,
		};
	}
	const state: LtmRunState = {
		format: 'ltm-run-state/1',
		config: benchmark.config,
		tests,
		maxMessageTokens: options.maxMessageTokens ?? 1024,
		startTime: options.startTime ?? '2024-01-01T00:00:00.000Z',
		triviaSource: options.triviaSource ?? (environment.trivia ? 'upstream' : 'ours'),
		introSent: benchmark.config.isolated,
		totalTokens: 0,
		clockS: 0,
		fillerCursor: 0,
		current: null,
		progress,
		waitList: {},
		callbacks: [],
		outcomes: {},
		warnings: [],
		agentTokens: 0,
		agentDurationMs: 0,
		log: [],
		next: { kind: 'done' },
	};
	for (const test of tests) {
		const skipReason =
			test.evaluator === 'dynamic' && !test.dynamic
				? UNSUPPORTED_DYNAMIC
				: test.dynamic && options.judgeAvailable === false && programUsesJudge(test.dynamic)
					? NEEDS_JUDGE_REASON
					: undefined;
		if (skipReason !== undefined) {
			state.progress[test.uniqueId]!.status = 'finished';
			state.outcomes[test.uniqueId] = {
				evaluation: { status: 'skipped', reasons: [skipReason] },
				tokens: 0,
				characters: 0,
				questions: [],
				responses: [],
				overrun: false,
			};
		}
	}
	settle(state, environment);
	return state;
}

/** Why a procedural dynamic test (upstream Restaurant) is skipped. */
export const UNSUPPORTED_DYNAMIC =
	'a procedural dynamic test (its script is written at run time by upstream Python code): not run; write it as declarative steps in an ltm-suite.json';

/** What the driver must do next (the state always holds it). */
export function nextAction(state: LtmRunState): LtmAction {
	return state.next;
}

/** States already applied: their log is their successor's too, so they must not be applied again. */
const applied = new WeakSet<LtmRunState>();

/**
 * Folds the driver's result of `nextAction(state)` into a new state. The log is append-only and
 * shared, not copied: the new state's log is the input's array with this step's entries appended
 * (so the input's log grows too; read `log.length` first to know which entries are new). Nothing
 * else of the input changes; the tests and config are shared, never changed. Apply a state once.
 * @throws Error when the run is done, the result does not answer the action, or `state` was
 * already applied.
 */
export function applyResult(
	state: LtmRunState,
	result: LtmActionResult,
	environment: LtmEnvironment = {},
): LtmRunState {
	const action = state.next;
	if (action.kind === 'done') throw new Error('the LTM run is finished: there is nothing to apply');
	if (applied.has(state))
		throw new Error(
			'this LTM state was already applied: go on from the state applyResult returned',
		);
	const draft = draftOf(state);
	if (foldResult(draft, action, result)) settle(draft, environment);
	applied.add(state);
	return draft;
}

/** Folds `result` into `draft`; false when `draft.next` is already set (isolated: reset the agent). */
function foldResult(
	draft: LtmRunState,
	action: Exclude<LtmAction, { kind: 'done' }>,
	result: LtmActionResult,
): boolean {
	if (action.kind === 'send') {
		if (result.kind !== 'sent')
			throw new Error(`expected the reply to a message, got '${result.kind}'`);
		applySent(draft, action, result);
	} else if (action.kind === 'judge') {
		const progress = draft.progress[action.testId]!;
		if (result.kind === 'judged') {
			recordJudgeReply(progress.dynamic!, result.reply);
			draft.log.push(
				systemLine(draft, action.testId, 'system', llmCallText(action.testId, result.reply)),
			);
		} else if (result.kind === 'no-judge') {
			recordOutcome(draft, action.testId, { status: 'skipped', reasons: [NEEDS_JUDGE_REASON] });
			if (draft.config.isolated) {
				draft.next = { kind: 'reset-agent' };
				return false;
			}
			finishTest(draft, action.testId);
		} else {
			throw new Error(`expected the judge's answer, got '${result.kind}'`);
		}
	} else if (action.kind === 'reset-agent') {
		if (result.kind !== 'agent-reset')
			throw new Error(`expected an agent reset, got '${result.kind}'`);
		draft.log.push(systemLine(draft, '', 'agent-reset', 'The agent was reset.'));
		const id = draft.current;
		if (id !== null) finishTest(draft, id);
	} else {
		if (result.kind !== 'evaluated')
			throw new Error(`expected an evaluation, got '${result.kind}'`);
		recordOutcome(draft, action.testId, result.evaluation);
		if (draft.config.isolated) {
			draft.next = { kind: 'reset-agent' };
			return false;
		}
		finishTest(draft, action.testId);
	}
	return true;
}

/** A copy to change: the mutable parts are copied; tests, config, next action and log are shared. */
function draftOf(state: LtmRunState): LtmRunState {
	return {
		...state,
		progress: JSON.parse(JSON.stringify(state.progress)) as Record<string, TestProgress>,
		waitList: { ...state.waitList },
		callbacks: [...state.callbacks],
		outcomes: { ...state.outcomes },
		warnings: [...state.warnings],
	};
}

function applySent(
	draft: LtmRunState,
	action: Extract<LtmAction, { kind: 'send' }>,
	result: Extract<LtmActionResult, { kind: 'sent' }>,
): void {
	const test = action.testId === '' ? undefined : findTest(draft, action.testId);
	const progress = test ? draft.progress[test.uniqueId]! : undefined;
	const kind = action.purpose;
	let line: number | undefined;
	if (kind === 'script' && test && progress) {
		if (progress.dynamic) {
			line = Object.keys(progress.sentAtS).length;
		} else {
			const step = staticProgram(test)[progress.actionIndex];
			line = step?.type === 'send' ? step.line : undefined;
		}
	}
	draft.log.push({
		role: 'user',
		testId: action.testId,
		text: action.text,
		tokens: result.messageTokens,
		clockS: draft.clockS,
		kind,
		...(action.isQuestion ? { isQuestion: true } : {}),
		...(line !== undefined ? { line } : {}),
	});
	draft.log.push({
		role: 'agent',
		testId: action.testId,
		text: result.reply,
		tokens: result.replyTokens,
		clockS: draft.clockS,
		kind,
		...(action.isQuestion ? { isQuestion: true } : {}),
		...(action.cannedReply !== undefined ? { canned: true } : {}),
	});
	draft.totalTokens += result.messageTokens + result.replyTokens;
	if (action.cannedReply === undefined) {
		draft.agentTokens += result.replyTokens;
		draft.agentDurationMs += result.durationMs;
	}
	if (kind === 'intro') draft.introSent = true;
	if (test && progress) {
		progress.lastReplyTokens = result.replyTokens;
		if (kind === 'reset') progress.resetSent = true;
		if (kind === 'script') {
			if (line !== undefined) progress.sentAtS[String(line)] = draft.clockS;
			if (progress.dynamic) recordDynamicReply(progress.dynamic, result.reply);
			else progress.actionIndex++;
			if (action.isQuestion && isCallbackTest(test) && !draft.callbacks.includes(test.uniqueId)) {
				draft.callbacks.push(test.uniqueId);
				progress.watchFromLog = draft.log.length - 1;
			}
		}
	}
	checkCallbacks(draft);
}

function isCallbackTest(test: LtmTestDefinition): boolean {
	return test.usesCallback || test.watch !== undefined || test.evaluator === 'prospective_memory';
}

function watchOf(test: LtmTestDefinition): WatchSpec {
	if (test.watch) return test.watch;
	return prospectiveMemoryWatch(test.expectedResponses, test.isQuestion.lastIndexOf(true));
}

/** Upstream `check_result_callbacks`, after every exchange. */
function checkCallbacks(draft: LtmRunState): void {
	for (const id of [...draft.callbacks]) {
		const test = findTest(draft, id);
		const progress = draft.progress[id]!;
		const from = progress.watchFromLog ?? draft.log.length;
		const replies = draft.log
			.slice(from)
			.filter((entry) => entry.role === 'agent')
			.map((entry) => entry.text);
		const verdict = evaluateWatch(watchOf(test), replies);
		progress.callbackVerdict = {
			score: verdict.score,
			reasons: [...verdict.reasons],
			finished: verdict.finished,
		};
		if (verdict.finished) {
			draft.callbacks = draft.callbacks.filter((other) => other !== id);
			if (progress.status === 'watching') {
				progress.status = 'finishing';
				delete draft.waitList[id];
			}
		}
	}
}

function findTest(state: LtmRunState, id: string): LtmTestDefinition {
	const test = state.tests.find((candidate) => candidate.uniqueId === id);
	if (!test) throw new Error(`the run state names an unknown test '${id}'`);
	return test;
}

function systemLine(
	state: LtmRunState,
	testId: string,
	kind: 'system' | 'agent-reset',
	text: string,
): LogEntry {
	return { role: 'system', testId, text, tokens: 0, clockS: state.clockS, kind };
}

/** The questions of a test and the agent's replies to them, in order. */
export function questionsAndResponses(
	state: LtmRunState,
	id: string,
): { questions: string[]; responses: string[] } {
	const questions: string[] = [];
	const responses: string[] = [];
	for (const entry of state.log) {
		if (entry.testId !== id || entry.isQuestion !== true) continue;
		if (entry.role === 'user') questions.push(entry.text);
		else if (entry.role === 'agent') responses.push(entry.text);
	}
	return { questions, responses };
}

/** Index of the log entry of a test's first script line (where its gap starts). */
export function firstLineIndex(state: Pick<LtmRunState, 'log'>, id: string): number {
	return state.log.findIndex(
		(entry) => entry.testId === id && entry.role === 'user' && entry.kind === 'script',
	);
}

function recordOutcome(draft: LtmRunState, id: string, evaluation: TestEvaluation): void {
	const start = firstLineIndex(draft, id);
	const span =
		start === -1 ? [] : draft.log.slice(start).filter((entry) => entry.role !== 'system');
	const tokens = span.reduce((sum, entry) => sum + entry.tokens, 0);
	const characters = span.reduce((sum, entry) => sum + entry.text.length, 0);
	const { questions, responses } = questionsAndResponses(draft, id);
	const overrun = tokens > draft.config.memorySpan;
	if (overrun) {
		draft.warnings.push(
			`${id}: the gap reached ${tokens} tokens, more than the memory span of ${draft.config.memorySpan}`,
		);
	}
	draft.outcomes[id] = { evaluation, tokens, characters, questions, responses, overrun };
}

function finishTest(draft: LtmRunState, id: string): void {
	const progress = draft.progress[id]!;
	progress.status = 'finished';
	delete draft.waitList[id];
	draft.callbacks = draft.callbacks.filter((other) => other !== id);
	if (draft.current === id) draft.current = null;
	draft.log.push(systemLine(draft, id, 'system', endText(id)));
}

function isWaiting(draft: LtmRunState, id: string): boolean {
	const wait = draft.waitList[id];
	if (!wait) return false;
	return (
		(wait.tokens !== undefined && wait.tokens > draft.totalTokens) ||
		(wait.timeS !== undefined && wait.timeS > draft.clockS)
	);
}

/** Upstream `pick_next_test_id`, parts (a) and (b). */
function pickRunnable(draft: LtmRunState): string | undefined {
	const waiting = Object.keys(draft.waitList).sort(
		(a, b) => (draft.waitList[a]!.tokens ?? Infinity) - (draft.waitList[b]!.tokens ?? Infinity),
	);
	for (const id of waiting) {
		if (!isWaiting(draft, id)) return id;
	}
	for (const test of draft.tests) {
		const id = test.uniqueId;
		const progress = draft.progress[id]!;
		if (progress.status === 'finished' || progress.status === 'watching' || id in draft.waitList)
			continue;
		const compatible = Object.keys(draft.waitList).every((other) =>
			areCompatible(test, findTest(draft, other), draft.config),
		);
		if (compatible) return id;
	}
	return undefined;
}

function unfinished(draft: LtmRunState): LtmTestDefinition[] {
	return draft.tests.filter((test) => draft.progress[test.uniqueId]!.status !== 'finished');
}

/** Runs every transition that needs no agent, then sets `draft.next`. */
function settle(draft: LtmRunState, environment: LtmEnvironment): void {
	const countTokens = environment.countTokens ?? estimateTokens;
	for (let guard = 0; guard < 100_000; guard++) {
		if (!draft.introSent) {
			draft.next = {
				kind: 'send',
				testId: '',
				text: INTRO_MESSAGE,
				purpose: 'intro',
				isQuestion: false,
			};
			return;
		}
		if (draft.current !== null) {
			if (runCurrent(draft)) return;
			continue;
		}
		if (draft.config.isolated) {
			const test = unfinished(draft)[0];
			if (!test) {
				draft.next = { kind: 'done' };
				return;
			}
			const progress = draft.progress[test.uniqueId]!;
			if (progress.status === 'watching') {
				draft.next = filler(draft, 100, countTokens, environment);
				return;
			}
			begin(draft, test.uniqueId);
			continue;
		}
		const id = pickRunnable(draft);
		if (id !== undefined) {
			begin(draft, id);
			continue;
		}
		if (unfinished(draft).length === 0) {
			draft.next = { kind: 'done' };
			return;
		}
		const timeTargets = Object.values(draft.waitList)
			.map((wait) => wait.timeS)
			.filter((time): time is number => time !== undefined && time > draft.clockS);
		if (timeTargets.length > 0) {
			const target = Math.min(...timeTargets);
			draft.log.push(
				systemLine(draft, '', 'system', `Time jump by ${target - draft.clockS + 1} s.`),
			);
			draft.clockS = target + 1;
			continue;
		}
		const tokenTargets = Object.values(draft.waitList)
			.map((wait) => wait.tokens)
			.filter((tokens): tokens is number => tokens !== undefined && tokens > draft.totalTokens);
		if (tokenTargets.length === 0) {
			draft.warnings.push('no test can run and none is waiting: the run stops here');
			draft.next = { kind: 'done' };
			return;
		}
		draft.next = filler(
			draft,
			Math.min(...tokenTargets) - draft.totalTokens,
			countTokens,
			environment,
		);
		return;
	}
	throw new Error('the LTM scheduler made no progress (a bug): please report the definitions');
}

function filler(
	draft: LtmRunState,
	neededTokens: number,
	countTokens: (text: string) => number,
	environment: LtmEnvironment,
): LtmAction {
	const message = buildFiller(
		neededTokens,
		draft.maxMessageTokens,
		draft.fillerCursor,
		countTokens,
		environment.trivia,
	);
	draft.fillerCursor = message.nextCursor;
	const canned = draft.callbacks.length === 0;
	return {
		kind: 'send',
		testId: '',
		text: message.text,
		purpose: 'filler',
		isQuestion: false,
		...(canned ? { cannedReply: message.cannedReply } : {}),
	};
}

function begin(draft: LtmRunState, id: string): void {
	const progress = draft.progress[id]!;
	delete draft.waitList[id];
	draft.current = id;
	if (progress.status === 'pending') {
		progress.status = 'running';
		progress.startToken = draft.totalTokens;
		draft.log.push(systemLine(draft, id, 'system', beginText(id)));
	} else if (progress.status === 'waiting') {
		progress.status = 'running';
	}
}

/** Steps the current test; true when `draft.next` was set. */
function runCurrent(draft: LtmRunState): boolean {
	const id = draft.current!;
	const test = findTest(draft, id);
	const progress = draft.progress[id]!;
	if (progress.status === 'finishing') return finishing(draft, test, progress);
	const move = progress.dynamic
		? advanceDynamic(progress.dynamic, id)
		: staticMove(draft, test, progress);
	if (move.type === 'send') {
		draft.next = {
			kind: 'send',
			testId: id,
			text: move.text,
			purpose: 'script',
			isQuestion: move.isQuestion,
		};
		return true;
	}
	if (move.type === 'wait') {
		setToWait(draft, test, progress, move.wait);
		return false;
	}
	if (move.type === 'judge') {
		draft.next = {
			kind: 'judge',
			testId: id,
			callIndex: progress.dynamic?.judgeCalls ?? 0,
			messages: move.messages,
			params: move.params,
		};
		return true;
	}
	if (isCallbackTest(test) && !(progress.callbackVerdict?.finished ?? false)) {
		progress.status = 'watching';
		draft.current = null;
		if (!draft.config.isolated) draft.waitList[id] = { tokens: draft.totalTokens + 1 };
		return false;
	}
	progress.status = 'finishing';
	return finishing(draft, test, progress);
}

function staticMove(
	draft: LtmRunState,
	test: LtmTestDefinition,
	progress: TestProgress,
):
	| { type: 'send'; text: string; isQuestion: boolean }
	| { type: 'wait'; wait: LtmWait }
	| { type: 'end' } {
	const step = staticProgram(test)[progress.actionIndex];
	if (!step) return { type: 'end' };
	if (step.type === 'wait') {
		progress.actionIndex++;
		return { type: 'wait', wait: step.wait };
	}
	const isQuestion = test.isQuestion[step.line] === true;
	if (step.line >= test.script.length)
		return { type: 'send', text: temporalQuestion(draft, test, progress), isQuestion };
	return { type: 'send', text: test.script[step.line]!, isQuestion };
}

/** The generated question of a temporal test (Jokes: L15), from the virtual clock. */
function temporalQuestion(
	draft: LtmRunState,
	test: LtmTestDefinition,
	progress: TestProgress,
): string {
	const expected = test.expectedResponses[0];
	const line = test.script.findIndex((text) => text === expected);
	const saidAt = progress.sentAtS[String(line)] ?? 0;
	return jokesQuestion(draft.clockS - saidAt);
}

function setToWait(
	draft: LtmRunState,
	test: LtmTestDefinition,
	progress: TestProgress,
	wait: LtmWait,
): void {
	const id = test.uniqueId;
	if (draft.config.isolated) {
		if ((wait.time ?? 0) > 0) {
			draft.clockS += wait.time!;
			draft.log.push(systemLine(draft, id, 'system', `Time jump by ${wait.time} s.`));
		}
		return;
	}
	const amount = tokensToWait(
		wait,
		draft.config.memorySpan,
		draft.totalTokens - (progress.startToken ?? 0),
		progress.lastReplyTokens,
	);
	const entry: { tokens?: number; timeS?: number } = {};
	if (amount > 0) entry.tokens = draft.totalTokens + amount;
	if ((wait.time ?? 0) > 0) entry.timeS = draft.clockS + wait.time!;
	draft.waitList[id] = entry;
	progress.status = 'waiting';
	draft.current = null;
	draft.log.push(
		systemLine(
			draft,
			id,
			'system',
			waitText(id, entry.tokens === undefined ? 0 : amount, wait.time ?? 0),
		),
	);
}

/** Reset message, then evaluation (or the callback's verdict). True when `draft.next` was set. */
function finishing(draft: LtmRunState, test: LtmTestDefinition, progress: TestProgress): boolean {
	if (test.resetMessage !== '' && !progress.resetSent) {
		draft.next = {
			kind: 'send',
			testId: test.uniqueId,
			text: test.resetMessage,
			purpose: 'reset',
			isQuestion: false,
		};
		return true;
	}
	if (progress.dynamic) {
		const max = test.dynamic?.maxScore ?? 1;
		recordOutcome(draft, test.uniqueId, {
			status: 'scored',
			score: max > 0 ? progress.dynamic.score / max : 0,
			reasons: [...progress.dynamic.reasons],
			flags: [],
		});
		return afterOutcome(draft, test.uniqueId);
	}
	if (isCallbackTest(test)) {
		const verdict = progress.callbackVerdict ?? {
			score: 0,
			reasons: ['The test ended before its question.'],
			finished: true,
		};
		recordOutcome(draft, test.uniqueId, {
			status: 'scored',
			score: verdict.score,
			reasons: verdict.reasons,
			flags: [],
		});
		return afterOutcome(draft, test.uniqueId);
	}
	const { questions, responses } = questionsAndResponses(draft, test.uniqueId);
	draft.next = { kind: 'evaluate', testId: test.uniqueId, questions, responses };
	return true;
}

function afterOutcome(draft: LtmRunState, id: string): boolean {
	if (draft.config.isolated) {
		draft.next = { kind: 'reset-agent' };
		return true;
	}
	finishTest(draft, id);
	return false;
}
