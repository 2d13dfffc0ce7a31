/**
 * The interpreter of declarative dynamic tests (`say`, `wait`, `check`, `extract`, `pick`,
 * `branch`; reference §4.2): a queue of steps in plain JSON, Mustache templates rendered without
 * HTML escaping over `{reply, vars, step: {<id>: {reply}}}`. Score = score / max_score. Pure.
 */
import Mustache from 'mustache';
import type { DynamicProgram, DynamicStep, LtmWait, RuleCheck } from './types';

/** Where a dynamic test stands; stored in the run state. */
export interface DynamicState {
	readonly queue: DynamicStep[];
	readonly vars: Record<string, string>;
	readonly stepReplies: Record<string, string>;
	lastReply: string;
	/** The id of the `say` waiting for its reply. */
	awaitingId: string | null;
	score: number;
	readonly reasons: string[];
	stopped: boolean;
	/** Counts `pick` draws (the seed of the next one). */
	picks: number;
}

export type DynamicMove =
	| { readonly type: 'send'; readonly text: string; readonly isQuestion: boolean }
	| { readonly type: 'wait'; readonly wait: LtmWait }
	| { readonly type: 'end' };

export function startDynamic(program: DynamicProgram): DynamicState {
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
		return new RegExp(renderTemplate(rule.regex, state), rule.flags ?? '').test(reply);
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
	for (;;) {
		if (state.stopped) return { type: 'end' };
		const step = state.queue.shift();
		if (step === undefined) return { type: 'end' };
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
		if ('check' in step) {
			if (ruleHolds(step.check, state)) {
				state.score += step.on_pass?.score ?? 1;
				if (step.on_pass?.reason) state.reasons.push(renderTemplate(step.on_pass.reason, state));
			} else {
				if (step.on_fail?.reason) state.reasons.push(renderTemplate(step.on_fail.reason, state));
				if (step.on_fail?.stop) state.stopped = true;
			}
			continue;
		}
		if ('extract' in step) {
			const match = new RegExp(step.extract.regex).exec(state.lastReply);
			state.vars[step.extract.into] = match ? (match[1] ?? match[0]) : '';
			continue;
		}
		if ('pick' in step) {
			const choices = step.pick.from;
			state.vars[step.pick.into] = choices[seededIndex(seed, state.picks++, choices.length)] ?? '';
			continue;
		}
		const chosen = ruleHolds(step.branch.if, state) ? step.branch.then : (step.branch.else ?? []);
		state.queue.unshift(...chosen);
	}
}

/** Records the agent's reply to the last `say`. */
export function recordDynamicReply(state: DynamicState, reply: string): void {
	state.lastReply = reply;
	if (state.awaitingId !== null) state.stepReplies[state.awaitingId] = reply;
	state.awaitingId = null;
}
