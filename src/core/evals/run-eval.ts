/**
 * Runs a resolved eval against `TextModel`s as upstream `oaieval` does: sample order from
 * `Random(123)`, ids `<base>.<split>.<index>`, each sample through its template's `evalSample`
 * (which records upstream-shaped events), then the template's report plus usage sums.
 * Depends on the model interface only, never on a provider.
 */
import {
	generateCompletion,
	type CancelSignal,
	type ChatMessage,
	type GenerationParams,
	type GenerationPrompt,
	type TextModel,
	type TokenUsage,
} from '../model/generation';
import { chatFromStringPrompt, renderChatAsText } from '../model/render-chat-as-text';
import { DEFAULT_ANSWER_PROMPTS } from './answer-prompts';
import { EvalsError } from './shared/errors';
import { withAppDefaults } from './generation-overrides';
import { shuffledSampleIndices } from '../python/python-random';
import { memoryRecorder, newRunId, preciseNow, type EvalRecorder } from './shared/recorder';
import { templateOf, type EvalTemplate, type RunModels, type SampleContext } from './templates';
import type {
	AnswerPrompts,
	EvalEvent,
	FinalReport,
	ResolvedEval,
	SampleCall,
	SampleResult,
} from './shared/types';

/** Upstream `oaieval --seed` default. */
export const DEFAULT_EVAL_SEED = 20220722;

export interface RunEvalOptions {
	/** The completion fns under test; with no `grader`, the last one grades (upstream). */
	readonly policy: readonly TextModel[];
	/** The grader for model-graded evals (upstream: the last completion fn). */
	readonly grader?: TextModel;
	/** `--seed` (default 20220722): per-sample seeds and, here, the bootstrap's draws. */
	readonly seed?: number;
	/** `--max_samples`: the first N after the `Random(123)` shuffle. */
	readonly maxSamples?: number;
	/** Samples evaluated at once (upstream: 10 threads); 1 keeps the event order fixed. */
	readonly concurrency?: number;
	/**
	 * `max_tokens` sent where the template passes none (default: the app default, 256, the local
	 * engine's cap; null sends none, as upstream). See `maxTokensSent`.
	 */
	readonly defaultMaxTokens?: number | null;
	/** Answer prompts for the registry's `eval_type` (default: Benchtop's wording). */
	readonly answerPrompts?: AnswerPrompts;
	readonly runId?: string;
	readonly createdBy?: string;
	/** Clock for `created_at` (tests fix it): a `Date` or epoch ms with a fraction (default `preciseNow`). */
	readonly now?: () => Date | number;
	/** Every recorder event, as it is recorded. */
	readonly onEvent?: (event: EvalEvent) => void;
	/** Each finished sample, with the count done so far and the total. */
	readonly onSample?: (result: SampleResult, done: number, total: number) => void;
	readonly signal?: CancelSignal;
}

export interface EvalRunResult {
	readonly runId: string;
	readonly events: readonly EvalEvent[];
	/** Empty when cancelled before the end. */
	readonly finalReport: FinalReport;
	/** Finished samples, in the order they were evaluated. */
	readonly samples: readonly SampleResult[];
	/** Sample indices in evaluation order (after shuffle and max_samples). */
	readonly order: readonly number[];
	readonly cancelled: boolean;
}

/** The prompt as sent: chat for a chat model (a string becomes one system message), text otherwise. */
export function promptForModel(
	model: TextModel,
	prompt: string | readonly ChatMessage[],
): GenerationPrompt {
	if (model.abilities.chat) {
		return {
			kind: 'chat',
			messages: typeof prompt === 'string' ? chatFromStringPrompt(prompt) : [...prompt],
		};
	}
	return {
		kind: 'text',
		text: typeof prompt === 'string' ? prompt : renderChatAsText(prompt, { forCompletion: true }),
	};
}

/** The models of a run: with a grader template and several fns, the last one grades (upstream). */
function runModels(template: EvalTemplate, options: RunEvalOptions): RunModels {
	const fns = options.grader ? [...options.policy, options.grader] : [...options.policy];
	const first = fns[0];
	if (!first) throw new EvalsError('no model to evaluate: give at least one completion fn');
	const policies = template.hasGrader && fns.length > 1 ? fns.slice(0, -1) : fns;
	return {
		policies,
		policy: policies[0] ?? first,
		grader: fns[fns.length - 1] ?? first,
		givenPolicies: options.policy.length,
	};
}

/** An error naming a sample, at its file and line when the eval knows them. */
function sampleError(
	evalSpec: ResolvedEval,
	sampleId: string,
	index: number,
	message: string,
): EvalsError {
	const location = evalSpec.sampleLocations?.[index];
	return location
		? new EvalsError(
				`${location.file}:${location.line ?? 0}: sample ${sampleId}: ${message}`,
				location,
			)
		: new EvalsError(`sample ${sampleId} (sample ${index + 1} of the samples): ${message}`);
}

/**
 * A sampling event's `usage` as upstream records the OpenAI client's `CompletionUsage` (pydantic's
 * JSON: every field, `None` as null): counts, total, then the `*_details` objects the server sent
 * (null when it sent none). No usage reported: null, as upstream's `usage=None`.
 */
export function samplingUsage(usage: TokenUsage | undefined): Record<string, unknown> | null {
	if (!usage) return null;
	return {
		completion_tokens: usage.completionTokens,
		prompt_tokens: usage.promptTokens,
		total_tokens: usage.completionTokens + usage.promptTokens,
		completion_tokens_details: usage.completionTokensDetails ?? null,
		prompt_tokens_details: usage.promptTokensDetails ?? null,
	};
}

/** What a template's `evalSample` gets for sample `index`: its recorder, models and `generate`. */
function sampleContext(
	run: {
		readonly evalSpec: ResolvedEval;
		readonly runId: string;
		readonly models: RunModels;
		readonly recorder: EvalRecorder;
		readonly options: RunEvalOptions;
	},
	index: number,
): SampleContext {
	const { evalSpec, runId, options } = run;
	const [base = '', split = ''] = evalSpec.name.split('.');
	const sampleId = `${base}.${split}.${index}`;
	const recorder = run.recorder.forSample(sampleId);
	const calls: SampleCall[] = [];
	const generate = async (
		role: SampleCall['role'],
		model: TextModel,
		prompt: string | readonly ChatMessage[],
		params: GenerationParams,
		callIndex = calls.length,
	): Promise<string> => {
		const generationPrompt = promptForModel(model, prompt);
		const call = { runId, sampleId, role, callIndex };
		// The template's parameters with the app's max_tokens where it passes none.
		const sent = withAppDefaults(params, options.defaultMaxTokens);
		const request = { prompt: generationPrompt, params: sent };
		const done = await generateCompletion(model, request, call, options.signal);
		const promptAsSent =
			generationPrompt.kind === 'chat' ? generationPrompt.messages : generationPrompt.text;
		recorder.recordSampling({
			prompt: promptAsSent,
			sampled: [done.completion],
			model: done.model ?? model.label,
			usage: samplingUsage(done.usage),
		});
		calls.push({
			role,
			prompt: promptAsSent,
			params: sent,
			completion: done.completion,
			modelLabel: model.label,
			finishReason: done.finishReason,
			...(done.usage ? { usage: done.usage } : {}),
		});
		return done.completion;
	};
	return {
		evalSpec,
		sampleId,
		index,
		sample: evalSpec.samples[index] ?? {},
		models: run.models,
		answerPrompts: options.answerPrompts ?? DEFAULT_ANSWER_PROMPTS,
		recorder,
		calls,
		generate,
		error: (message) => sampleError(evalSpec, sampleId, index, message),
	};
}

/**
 * Runs `evalSpec` on its samples. Throws `EvalsError` for a sample the template cannot use (named
 * by sample id); a cancel stops between samples and returns what finished (`cancelled: true`).
 */
export async function runEval(
	evalSpec: ResolvedEval,
	options: RunEvalOptions,
): Promise<EvalRunResult> {
	const now = options.now ?? preciseNow;
	const runId = options.runId ?? newRunId(new Date(now()));
	const createdBy = options.createdBy ?? '';
	const onEvent = options.onEvent ? { onEvent: options.onEvent } : {};
	const recorder = memoryRecorder({ runId, createdBy, now, ...onEvent });
	const order = shuffledSampleIndices(evalSpec.samples.length, options.maxSamples);
	const template = templateOf(evalSpec.kind);
	const models = runModels(template, options);
	template.checkModels(evalSpec, models);
	const run = { evalSpec, runId, models, recorder, options };
	const results: SampleResult[] = [];
	let next = 0;
	let cancelled = false;
	const worker = async (): Promise<void> => {
		while (next < order.length) {
			if (options.signal?.aborted) {
				cancelled = true;
				return;
			}
			const result = await template.evalSample(sampleContext(run, order[next++] ?? 0));
			results.push(result);
			options.onSample?.(result, results.length, order.length);
		}
	};
	const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, order.length || 1));
	await Promise.all(Array.from({ length: concurrency }, () => worker()));
	if (options.signal?.aborted && results.length < order.length) cancelled = true;
	const seed = options.seed ?? DEFAULT_EVAL_SEED;
	const finalReport = cancelled ? {} : buildFinalReport(evalSpec, recorder.events, seed);
	return { runId, events: recorder.events, finalReport, samples: results, order, cancelled };
}

/** What the template's `run()` returns, plus upstream's `usage_*` sums when sampling events have usage. */
export function buildFinalReport(
	evalSpec: ResolvedEval,
	events: readonly EvalEvent[],
	seed: number,
): FinalReport {
	const report = templateOf(evalSpec.kind).aggregate(events, seed);
	const usageTotals = new Map<string, number>();
	for (const event of events) {
		const usage = event.type === 'sampling' ? event.data.usage : undefined;
		if (usage && typeof usage === 'object') {
			for (const [key, value] of Object.entries(usage as Record<string, unknown>)) {
				if (typeof value === 'number') usageTotals.set(key, (usageTotals.get(key) ?? 0) + value);
			}
		}
	}
	for (const key of [...usageTotals.keys()].sort()) {
		const name = `usage_${key}`;
		if (!(name in report)) report[name] = usageTotals.get(key) ?? 0;
	}
	return report;
}
