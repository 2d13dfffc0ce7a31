/**
 * The interpreter of declarative dynamic tests (`say`, `wait`, `check`, `extract`, `pick`,
 * `branch`; reference §4.2): a queue of steps in plain JSON, Mustache templates rendered without
 * HTML escaping over `{reply, vars, step: {<id>: {reply}}}`. Score = score / max_score. Pure.
 */
import Mustache from 'mustache';
import type { ChatMessage } from '../model/generation';
import { compileLinearRegex } from '../text/linear-regex';
import type { DynamicProgram, DynamicStep, JudgeSpec, RuleCheck } from './shared/types';
import {
	isYes,
	JUDGE_PARAMS,
	parseJudgeAnswer,
	valueAtKey,
	type DynamicMove,
	type DynamicState,
} from './dynamic-state';
import { advanceRestaurant, startRestaurant } from './restaurant';

export {
	isYes,
	JUDGE_PARAMS,
	parseJudgeAnswer,
	valueAtKey,
	type DynamicMove,
	type DynamicState,
} from './dynamic-state';

/** Whether steps (branches included) ask the judge. */
export function stepsUseJudge(steps: readonly DynamicStep[]): boolean {
	return steps.some((step) => {
		if ('check' in step) return 'judge' in step.check;
		if ('extract' in step) return 'judge' in step.extract;
		if ('branch' in step)
			return stepsUseJudge(step.branch.then) || stepsUseJudge(step.branch.else ?? []);
		return false;
	});
}

/** Whether a dynamic program needs the judge model (every built-in does). */
export function programUsesJudge(program: DynamicProgram): boolean {
	return program.builtIn !== undefined || stepsUseJudge(program.steps);
}

/** The judge's messages for a spec, templates rendered. */
export function judgeMessages(spec: JudgeSpec, state: DynamicState): ChatMessage[] {
	return [
		...(spec.system !== undefined
			? [{ role: 'system', content: renderTemplate(spec.system, state) }]
			: []),
		{ role: 'user', content: renderTemplate(spec.user, state) },
	];
}

/**
 * The judge's answer for the step at the head of the queue: returns the move that asks for it
 * (the step stays queued), or the answer, consumed.
 */
function judgeAnswer(
	state: DynamicState,
	step: DynamicStep,
	spec: JudgeSpec,
): { move: DynamicMove } | { reply: string } {
	if (state.judgeReply === undefined || state.judgeReply === null) {
		state.queue.unshift(step);
		return {
			move: { type: 'judge', messages: judgeMessages(spec, state), params: JUDGE_PARAMS },
		};
	}
	const reply = state.judgeReply;
	state.judgeReply = null;
	return { reply };
}

/** Records the judge's answer to the pending judge step (the call is counted). */
export function recordJudgeReply(state: DynamicState, reply: string): void {
	state.judgeReply = reply;
	state.judgeCalls = (state.judgeCalls ?? 0) + 1;
}

export function startDynamic(program: DynamicProgram): DynamicState {
	if (program.builtIn === 'restaurant')
		return { ...startDynamicSteps(program), builtIn: startRestaurant() };
	return startDynamicSteps(program);
}

function startDynamicSteps(program: DynamicProgram): DynamicState {
	return {
		queue: [...program.steps],
		vars: { ...program.vars },
		stepReplies: {},
		lastReply: '',
		awaitingId: null,
		score: 0,
		reasons: [],
		stopped: false,
		picks: 0,
	};
}

/** Renders a Mustache template without HTML escaping. */
export function renderTemplate(template: string, state: DynamicState): string {
	const step = Object.fromEntries(
		Object.entries(state.stepReplies).map(([id, reply]) => [id, { reply }]),
	);
	return Mustache.render(
		template,
		{ reply: state.lastReply, vars: state.vars, step },
		{},
		{
			escape: (value: unknown) => String(value),
		},
	);
}

/** Whether a rule holds for the last reply (its text is a template). */
export function ruleHolds(rule: RuleCheck, state: DynamicState): boolean {
	const reply = state.lastReply;
	if ('regex' in rule)
		return compileLinearRegex(renderTemplate(rule.regex, state), rule.flags ?? '').test(reply);
	const insensitive = rule.case === 'insensitive';
	const fold = (text: string) => (insensitive ? text.toLowerCase() : text);
	if ('not_contains' in rule)
		return !fold(reply).includes(fold(renderTemplate(rule.not_contains, state)));
	return fold(reply).includes(fold(renderTemplate(rule.contains, state)));
}

function seededIndex(seed: string, draw: number, length: number): number {
	let h = 2166136261;
	for (const char of `${seed}#${draw}`) h = Math.imul(h ^ char.codePointAt(0)!, 16777619) >>> 0;
	return h % length;
}

/**
 * Runs steps that need no agent (check, extract, pick, branch) and returns the next move.
 * `seed` is the test's unique id (picks are seeded per example). Mutates `state`.
 */
export function advanceDynamic(state: DynamicState, seed: string): DynamicMove {
	if (state.builtIn) return advanceRestaurant(state, seed);
	for (;;) {
		if (state.stopped) return { type: 'end' };
		const step = state.queue.shift();
		if (step === undefined) return { type: 'end' };
		const move = stepMove(state, step, seed);
		if (move !== null) return move;
	}
}

type StepOf<K extends string> = Extract<DynamicStep, Record<K, unknown>>;

/** Runs one step: its move when it needs the agent or the judge, else `null` (on to the next). */
function stepMove(state: DynamicState, step: DynamicStep, seed: string): DynamicMove | null {
	if ('say' in step) {
		state.awaitingId = step.id ?? null;
		return {
			type: 'send',
			text: renderTemplate(step.say, state),
			isQuestion: step.question === true,
		};
	}
	if ('wait' in step) {
		const { tokens, percentage_finished, time_s } = step.wait;
		return {
			type: 'wait',
			wait: {
				...(tokens !== undefined ? { tokens } : {}),
				...(percentage_finished !== undefined ? { percentage_finished } : {}),
				...(time_s !== undefined ? { time: time_s } : {}),
			},
		};
	}
	if ('check' in step) return runCheck(state, step);
	if ('extract' in step) return runExtract(state, step);
	if ('pick' in step) {
		const choices = step.pick.from;
		state.vars[step.pick.into] = choices[seededIndex(seed, state.picks++, choices.length)] ?? '';
		return null;
	}
	const chosen = ruleHolds(step.branch.if, state) ? step.branch.then : (step.branch.else ?? []);
	state.queue.unshift(...chosen);
	return null;
}

/** Scores a check (by rule or by the judge); the judge's move when it has not answered yet. */
function runCheck(state: DynamicState, step: StepOf<'check'>): DynamicMove | null {
	let passed: boolean;
	if ('judge' in step.check) {
		const spec = step.check.judge;
		const answer = judgeAnswer(state, step, spec);
		if ('move' in answer) return answer.move;
		const parsed = parseJudgeAnswer(answer.reply);
		if (!parsed.ok) state.reasons.push(parsed.reason);
		passed = parsed.ok && isYes(valueAtKey(parsed.value, spec.json_key));
	} else {
		passed = ruleHolds(step.check, state);
	}
	if (passed) {
		state.score += step.on_pass?.score ?? 1;
		if (step.on_pass?.reason) state.reasons.push(renderTemplate(step.on_pass.reason, state));
	} else {
		if (step.on_fail?.reason) state.reasons.push(renderTemplate(step.on_fail.reason, state));
		if (step.on_fail?.stop) state.stopped = true;
	}
	return null;
}

/** Sets a variable from the last reply (by regex or by the judge); the judge's move when due. */
function runExtract(state: DynamicState, step: StepOf<'extract'>): DynamicMove | null {
	if ('judge' in step.extract) {
		const spec = step.extract.judge;
		const answer = judgeAnswer(state, step, spec);
		if ('move' in answer) return answer.move;
		const parsed = parseJudgeAnswer(answer.reply);
		if (!parsed.ok) state.reasons.push(parsed.reason);
		const value = parsed.ok ? valueAtKey(parsed.value, spec.json_key) : undefined;
		state.vars[step.extract.into] =
			value === undefined || value === null
				? ''
				: typeof value === 'string'
					? value
					: JSON.stringify(value);
		return null;
	}
	const match = compileLinearRegex(step.extract.regex).exec(state.lastReply);
	state.vars[step.extract.into] = match ? (match[1] ?? match[0]) : '';
	return null;
}

/** Records the agent's reply to the last `say`. */
export function recordDynamicReply(state: DynamicState, reply: string): void {
	state.lastReply = reply;
	if (state.awaitingId !== null) state.stepReplies[state.awaitingId] = reply;
	state.awaitingId = null;
}
