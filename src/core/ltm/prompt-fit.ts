/**
 * Checks before an LTM run that every prompt known in advance fits each model's positions: the
 * agent's messages (intro, script lines, reset messages, a full filler message, the dynamic
 * tests' opening lines) with the history it keeps, and the judge's first prompts. Pure.
 */
import type { ChatMessage } from '../model/generation';
import { advanceDynamic, recordDynamicReply, startDynamic } from './dynamic-test';
import { evaluateTest } from './evaluate-test';
import { buildFiller, type TriviaItem } from './filler';
import { testsNeedingJudge } from './needs-judge';
import { MESSAGE_OVERHEAD_TOKENS } from './run-ltm';
import { INTRO_MESSAGE, testsInRunOrder } from './scheduler';
import type { LtmBenchmark, LtmTestDefinition } from './shared/types';

/** A model whose prompts have a hard limit (a local model's positions). */
export interface FitModel {
	readonly label: string;
	/** Positions the model attends to (prompt and new tokens together). */
	readonly maxPositions: number;
	countTokens(text: string): number | Promise<number>;
}

/** A prompt known before the run. */
export interface PromptSample {
	/** Which prompt, in words: `line 2 of Colours - 0`, `the filler message`. */
	readonly what: string;
	readonly messages: readonly ChatMessage[];
	/** Tokens the prompt gains at run time (the agent's reply inside a judge prompt). */
	readonly extraTokens?: number;
}

/** One prompt that cannot fit, and what would. */
export interface PromptFitProblem {
	readonly role: 'agent' | 'judge';
	readonly model: string;
	readonly what: string;
	/** Tokens of the prompt (with MESSAGE_OVERHEAD_TOKENS a message, as the run counts). */
	readonly tokens: number;
	readonly maxPositions: number;
	/** What would fit, in words (options for the agent, a larger model for fixed prompts). */
	readonly advice: string;
}

export interface PromptFitInput {
	readonly benchmark: LtmBenchmark;
	readonly agent?: FitModel;
	readonly judge?: FitModel;
	/** `--context-tokens`: history kept for the agent; absent: the whole conversation. */
	readonly maxContextTokens?: number;
	/** `--max-message-tokens` (filler size, run counter tokens; default 1024). */
	readonly maxMessageTokens?: number;
	/** `--max-tokens` of the agent (its replies; default 256 as local generation). */
	readonly maxNewTokens?: number;
	/** The run's token counter (filler is sized with it). */
	readonly countTokens: (text: string) => number;
	readonly trivia?: readonly TriviaItem[];
}

const DEFAULT_NEW_TOKENS = 256;
const FILLER_WHAT = 'a filler message';
/** Tokens left for the chat rendering around the kept history (as the app's local limits). */
const RENDERING_TOKENS = 16;

/** A dynamic test's opening: what it says until its first judge call, and that call's prompt. */
function dynamicSamples(test: LtmTestDefinition): { agent: PromptSample[]; judge: PromptSample[] } {
	const agent: PromptSample[] = [];
	const judge: PromptSample[] = [];
	const state = startDynamic(test.dynamic!);
	for (let step = 0; step < 100; step++) {
		const move = advanceDynamic(state, test.uniqueId);
		if (move.type === 'send') {
			agent.push({
				what: `message ${agent.length + 1} of ${test.uniqueId}`,
				messages: [{ role: 'user', content: move.text }],
			});
			recordDynamicReply(state, '');
		} else if (move.type === 'judge') {
			judge.push({ what: `the first judge prompt of ${test.uniqueId}`, messages: move.messages });
			break;
		} else if (move.type !== 'wait') {
			break;
		}
	}
	return { agent, judge };
}

/** The judge prompt a static test's evaluator writes (questions answered with empty replies). */
async function evaluatorSamples(test: LtmTestDefinition): Promise<PromptSample[]> {
	const questions = test.script.filter((_, index) => test.isQuestion[index] === true);
	if (questions.length === 0) return [];
	const samples: PromptSample[] = [];
	const judge = async (messages: readonly ChatMessage[]): Promise<string> => {
		if (samples.length === 0)
			samples.push({ what: `the judge prompt that scores ${test.uniqueId}`, messages });
		return '';
	};
	try {
		await evaluateTest(
			test,
			questions,
			questions.map(() => ''),
			judge,
		);
	} catch {
		// The evaluator's answer is not wanted here, only the prompt it wrote.
	}
	return samples;
}

/** Every prompt known before the run, the agent's and the judge's. */
export async function promptSamples(
	input: PromptFitInput,
): Promise<{ agent: PromptSample[]; judge: PromptSample[] }> {
	const { benchmark } = input;
	const agent: PromptSample[] = [];
	const judge: PromptSample[] = [];
	if (!benchmark.config.isolated)
		agent.push({ what: 'the intro message', messages: [{ role: 'user', content: INTRO_MESSAGE }] });
	const size = input.maxMessageTokens ?? 1024;
	const filler = buildFiller(size, size, 0, input.countTokens, input.trivia);
	agent.push({ what: FILLER_WHAT, messages: [{ role: 'user', content: filler.text }] });
	for (const test of testsInRunOrder(benchmark.tests)) {
		if (test.dynamic) {
			const samples = dynamicSamples(test);
			agent.push(...samples.agent);
			judge.push(...samples.judge);
			continue;
		}
		test.script.forEach((line, index) =>
			agent.push({
				what: `line ${index + 1} of ${test.uniqueId}`,
				messages: [{ role: 'user', content: line }],
			}),
		);
		if (test.resetMessage !== '') {
			agent.push({
				what: `the reset message of ${test.uniqueId}`,
				messages: [{ role: 'user', content: test.resetMessage }],
			});
		}
		judge.push(...(await evaluatorSamples(test)));
	}
	return { agent, judge };
}

/** Tokens of a prompt as the run counts them: each message's text plus MESSAGE_OVERHEAD_TOKENS. */
export async function promptTokens(
	model: Pick<FitModel, 'countTokens'>,
	messages: readonly ChatMessage[],
): Promise<number> {
	let total = 0;
	for (const message of messages)
		total += (await model.countTokens(message.content)) + MESSAGE_OVERHEAD_TOKENS;
	return total;
}

/** The largest sample and its tokens (undefined when there is none). */
async function largest(
	model: FitModel,
	samples: readonly PromptSample[],
): Promise<{ sample: PromptSample; tokens: number } | undefined> {
	let best: { sample: PromptSample; tokens: number } | undefined;
	for (const sample of samples) {
		const tokens = (await promptTokens(model, sample.messages)) + (sample.extraTokens ?? 0);
		if (best === undefined || tokens > best.tokens) best = { sample, tokens };
	}
	return best;
}

/** The agent's problems: its history setting, then its largest message. */
async function agentProblems(
	input: PromptFitInput,
	agent: FitModel,
	samples: readonly PromptSample[],
): Promise<PromptFitProblem[]> {
	const problems: PromptFitProblem[] = [];
	const newTokens = Math.min(
		input.maxNewTokens ?? DEFAULT_NEW_TOKENS,
		Math.floor(agent.maxPositions / 8),
	);
	const context = agent.maxPositions - newTokens - RENDERING_TOKENS;
	const base = { role: 'agent' as const, model: agent.label, maxPositions: agent.maxPositions };
	const span = input.benchmark.config.memorySpan;
	const history = input.maxContextTokens;
	if (history === undefined ? span >= agent.maxPositions : history >= agent.maxPositions) {
		problems.push({
			...base,
			what:
				history === undefined
					? `the whole conversation (no --context-tokens; it grows past the memory span)`
					: `the history kept by --context-tokens ${history}`,
			tokens: history ?? span,
			advice: `keep less history: --context-tokens ${context} --max-message-tokens ${Math.floor(context / 2)} --max-tokens ${newTokens}`,
		});
	}
	const isFiller = (sample: PromptSample): boolean => sample.what === FILLER_WHAT;
	const filler = await largest(agent, samples.filter(isFiller));
	if (filler && filler.tokens >= agent.maxPositions) {
		problems.push({
			...base,
			what: filler.sample.what,
			tokens: filler.tokens,
			advice: `send smaller filler: --max-message-tokens ${Math.floor(context / 2)}`,
		});
	}
	const top = await largest(
		agent,
		samples.filter((sample) => !isFiller(sample)),
	);
	if (top && top.tokens >= agent.maxPositions) {
		problems.push({
			...base,
			what: top.sample.what,
			tokens: top.tokens,
			advice: `this message cannot be shortened: use an agent that attends to more than ${top.tokens + newTokens} positions (an endpoint model, --agent openai/<model>)`,
		});
	}
	return problems;
}

/**
 * The prompts that cannot fit their model (none when every model is unlimited or everything
 * fits): the agent's history setting and largest message, and the judge's largest prompt.
 */
export async function checkPromptFit(input: PromptFitInput): Promise<PromptFitProblem[]> {
	if (input.agent === undefined && input.judge === undefined) return [];
	const samples = await promptSamples(input);
	const problems = input.agent ? await agentProblems(input, input.agent, samples.agent) : [];
	const judge = input.judge;
	const reply = input.maxNewTokens ?? DEFAULT_NEW_TOKENS;
	const top = judge
		? await largest(
				judge,
				samples.judge.map((sample) => ({ ...sample, extraTokens: reply })),
			)
		: undefined;
	if (judge && top && top.tokens >= judge.maxPositions) {
		problems.push({
			role: 'judge',
			model: judge.label,
			what: `${top.sample.what} (with the agent's reply of up to ${reply} tokens)`,
			tokens: top.tokens,
			maxPositions: judge.maxPositions,
			advice: `use a judge that attends to more than ${top.tokens} positions (an endpoint model, --judge openai/<model>)`,
		});
	}
	return problems;
}

/** One problem in a sentence: which model, which prompt, its size and what would fit. */
export function describePromptFitProblem(problem: PromptFitProblem): string {
	return `The ${problem.role} ${problem.model} attends to ${problem.maxPositions} positions, but ${problem.what} takes about ${problem.tokens} tokens; ${problem.advice}.`;
}

/** Positions of the bundled model `gpt2-en-small` (its config.json `n_positions`). */
export const BUNDLED_MAX_POSITIONS = 512;

/**
 * Why a benchmark cannot run on the bundled models as the app runs them (`limits`: the agent's
 * history, filler and new tokens the app sets for a local agent; the judge, when the benchmark
 * needs one, is a bundled model too), or null when it can: the Memory page marks such examples.
 */
export async function bundledModelMisfit(
	benchmark: LtmBenchmark,
	countTokens: (text: string) => number,
	limits: { maxContextTokens: number; maxMessageTokens: number; maxNewTokens: number },
): Promise<string | null> {
	const bundled: FitModel = {
		label: 'bundled model',
		maxPositions: BUNDLED_MAX_POSITIONS,
		countTokens,
	};
	const problems = await checkPromptFit({
		benchmark,
		agent: bundled,
		...(testsNeedingJudge(benchmark.tests).length > 0 ? { judge: bundled } : {}),
		countTokens,
		...limits,
	});
	const first = problems[0];
	if (first === undefined) return null;
	const whose = first.role === 'judge' ? 'its prompts take' : `${first.what} takes`;
	return `Needs a larger ${first.role} than the bundled models: ${whose} about ${first.tokens} tokens, they attend to ${BUNDLED_MAX_POSITIONS}.`;
}
