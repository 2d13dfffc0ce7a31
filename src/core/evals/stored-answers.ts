/**
 * The answers a stored (finished) sample of an Evals run gave, as requests with their
 * completions: resuming a run puts them in the response cache so those samples are answered
 * again from what was stored, not generated anew.
 */
import { isSampled } from '../model/cache-key';
import type { GenerateRequest, GenerationParams, TokenUsage } from '../model/generation';
import { mergeParams } from './generation-overrides';
import type { EvalEvent, SampleResult } from './shared/types';

/** One model call of a stored sample, as the response cache keys and answers it. */
export interface StoredAnswer {
	/** The request as sent: the call's prompt with the run's parameters put over the call's. */
	readonly request: GenerateRequest;
	/** The call's index among its sample's calls, as the response cache keys it. */
	readonly callIndex: number;
	/** The sampling seed of the cache key (`<sampleId>#<callIndex>`) for a sampled request. */
	readonly seed: string | undefined;
	readonly completion: string;
	readonly usage?: TokenUsage;
}

/**
 * The calls of `role` in a stored sample. Sampling events are written one per call, in call
 * order, so the i-th one carries the i-th call's usage. Grader calls are call 0 of their sample.
 */
export function storedAnswers(
	sample: {
		readonly sampleId: string;
		readonly result: SampleResult;
		readonly events: readonly EvalEvent[];
	},
	role: 'policy' | 'grader',
	overrides: GenerationParams,
): StoredAnswer[] {
	const sampling = sample.events.filter((event) => event.type === 'sampling');
	const answers: StoredAnswer[] = [];
	for (const [i, call] of sample.result.calls.entries()) {
		if (call.role !== role) continue;
		const usage = sampling[i]?.data.usage as
			{ prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
		const request: GenerateRequest = {
			prompt:
				typeof call.prompt === 'string'
					? { kind: 'text', text: call.prompt }
					: { kind: 'chat', messages: call.prompt },
			params: mergeParams(call.params, overrides),
		};
		const callIndex = role === 'grader' ? 0 : i;
		answers.push({
			request,
			callIndex,
			seed: isSampled(request.params) ? `${sample.sampleId}#${callIndex}` : undefined,
			completion: call.completion,
			...(typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
				? {
						usage: {
							promptTokens: usage.prompt_tokens,
							completionTokens: usage.completion_tokens,
						},
					}
				: {}),
		});
	}
	return answers;
}
