/**
 * What a dynamic test's interpreter and the built-in Restaurant test share: the test's state, the
 * moves it asks the scheduler for, and the reading of a judge's answer. Pure; no interpreter here.
 */
import type { ChatMessage, GenerationParams } from '../model/generation';
import { sanitizeAndParseJson } from './shared/sanitize-json';
import type { DynamicStep, LtmWait } from './shared/types';

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
	/** The judge's answer to the pending judge step (set by the scheduler, consumed by the step). */
	judgeReply?: string | null;
	/** Judge calls made so far by this test (the next call's index). */
	judgeCalls?: number;
	/** The procedural state of a built-in (Restaurant). */
	builtIn?: RestaurantState;
}

/** The procedural state of the built-in Restaurant test. */
export interface RestaurantState {
	stage: RestaurantStage;
	/** The waiter's last message (the judge reads it with the reply). */
	waiterSaid: string;
	drinks: string[];
	dishes: string[];
	/** Every dish the guest has ordered, removed ones included. */
	everOrdered: string[];
	unavailable: string | null;
	served: { ordered: string; brought: string } | null;
}

export type RestaurantStage =
	| 'intro'
	| 'intro-wait'
	| 'menu'
	| 'drinks-role'
	| 'drinks-order'
	| 'food'
	| 'food-order'
	| 'confirm'
	| 'confirm-wait'
	| 'unavailable'
	| 'replace-order'
	| 'serve'
	| 'noticed'
	| 'apology'
	| 'apology-wait'
	| 'recall'
	| 'recalls'
	| 'done';

/** Upstream `ask_llm`: temperature 0 and at most 256 tokens. */
export const JUDGE_PARAMS: GenerationParams = { temperature: 0, max_tokens: 256 };

export type DynamicMove =
	| { readonly type: 'send'; readonly text: string; readonly isQuestion: boolean }
	| { readonly type: 'wait'; readonly wait: LtmWait }
	| {
			readonly type: 'judge';
			readonly messages: readonly ChatMessage[];
			readonly params: GenerationParams;
	  }
	| { readonly type: 'end' };

/** The value at a dotted path (`order.0.item`) of parsed JSON; undefined when absent. */
export function valueAtKey(root: unknown, key: string): unknown {
	let value = root;
	for (const part of key.split('.')) {
		if (Array.isArray(value)) value = value[Number(part)];
		else if (typeof value === 'object' && value !== null)
			value = (value as Record<string, unknown>)[part];
		else return undefined;
	}
	return value;
}

/** A judge's verdict value read as yes/no: true, "yes", "true" (any case) are yes. */
export function isYes(value: unknown): boolean {
	if (value === true) return true;
	return typeof value === 'string' && ['yes', 'true'].includes(value.trim().toLowerCase());
}

/** Parses a judge answer (sanitised JSON); `{ok: false}` with the reason when it cannot. */
export function parseJudgeAnswer(
	reply: string,
): { ok: true; value: unknown } | { ok: false; reason: string } {
	try {
		return { ok: true, value: sanitizeAndParseJson(reply) };
	} catch (cause) {
		return {
			ok: false,
			reason: `the judge's answer is not JSON (${cause instanceof Error ? cause.message : String(cause)})`,
		};
	}
}
