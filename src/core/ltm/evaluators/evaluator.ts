/**
 * The evaluator contract: upstream `evaluate_correct(questions, responses, expected)` returning
 * `(score, max_score, reasons)`, plus whether a judge model is needed. Pure (the judge is injected).
 */
import type { GenerationParams } from '../../model/generation';
import type { ChatMessage } from '../../model/generation';
import type { JsonValue, LtmTestDefinition, RawEvaluation } from '../shared/types';

export interface EvaluatorInput {
	/** The test's question messages, in order. */
	readonly questions: readonly string[];
	/** The agent's replies to those questions, in order. */
	readonly responses: readonly string[];
	readonly expected: readonly JsonValue[];
	readonly test: LtmTestDefinition;
	/** Other tests of the run (Spy Meeting draws its confusion words from them). */
	readonly allTests?: readonly LtmTestDefinition[];
}

/** Asks the judge; returns its text. Calls are numbered per test by the runner (for resuming). */
export type Judge = (messages: readonly ChatMessage[], params: GenerationParams) => Promise<string>;

/** An evaluator's verdict, before normalising; `flags` names quirks and skipped fallbacks. */
export interface EvaluatorVerdict extends RawEvaluation {
	readonly flags?: readonly string[];
}

export interface Evaluator {
	/** `never`: deterministic; `fallback`: a judge only when the first pass fails; `always`. */
	readonly judge: 'never' | 'fallback' | 'always';
	evaluate(
		input: EvaluatorInput,
		judge: Judge | undefined,
	): EvaluatorVerdict | Promise<EvaluatorVerdict>;
}

/** The flag recorded when a judge fallback was needed but no judge was set. */
export const NO_JUDGE_FALLBACK_FLAG =
	'the judge fallback was needed but no judge is set: scored 0 for that answer';

/** `String(value)` for JSON scalars, JSON text for the rest. */
export function jsonText(value: JsonValue | undefined): string {
	if (value === undefined || value === null) return '';
	return typeof value === 'string'
		? value
		: typeof value === 'object'
			? JSON.stringify(value)
			: String(value);
}
