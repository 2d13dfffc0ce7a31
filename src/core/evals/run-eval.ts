/**
 * Runs a resolved eval against `TextModel`s as upstream `oaieval` does: sample order from
 * `Random(123)`, ids `<base>.<split>.<index>`, exactly the generation parameters each template
 * passes, upstream-shaped recorder events (`sampling`, `match`, `metrics`) and the final report.
 * Depends on the model interface only, never on a provider.
 */
import {
	generateCompletion,
	type CancelSignal,
	type ChatMessage,
	type GenerationParams,
	type GenerationPrompt,
	type TextModel,
} from '../model/generation';
import { chatFromStringPrompt, renderChatAsText } from '../model/render-chat-as-text';
import { DEFAULT_ANSWER_PROMPTS } from './answer-prompts';
import { EvalsError } from './errors';
import { accuracy, bootstrapAccuracyStd, numpyMean } from './metrics';
import {
	aggregateGraded,
	buildGraderPrompt,
	choiceScore,
	choiceStrings,
	concatCompletions,
	graderPromptValues,
	parseGraderChoice,
	promptFromField,
	scrubFormatting,
	type GradedMetrics,
} from './model-graded';
import { PythonRandom, shuffledSampleIndices } from './python-random';
import { checkFuzzyMatch, checkIncludes, checkJsonMatch, checkMatch, idealList } from './templates';
import type {
	AnswerPrompts,
	EvalEvent,
	FinalReport,
	JsonValue,
	ResolvedEval,
	Sample,
	SampleCall,
	SampleResult,
} from './types';

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
	/** Answer prompts for the registry's `eval_type` (default: Benchtop's wording). */
	readonly answerPrompts?: AnswerPrompts;
	readonly runId?: string;
	readonly createdBy?: string;
	/** Clock for `created_at` (tests fix it). */
	readonly now?: () => Date;
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

/** Python `str(datetime.now(timezone.utc))`. */
export function pythonUtcTimestamp(date: Date): string {
	const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
	const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
	const ms = date.getUTCMilliseconds();
	return `${base}${ms === 0 ? '' : `.${pad(ms, 3)}000`}+00:00`;
}

/** A run id like upstream's: `yymmddHHMMSS` + 8 random base-32 characters. */
export function newRunId(date: Date): string {
	const pad = (value: number): string => String(value).padStart(2, '0');
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
	let suffix = '';
	for (let i = 0; i < 8; i++) suffix += alphabet.charAt(Math.floor(Math.random() * 32));
	return `${pad(date.getUTCFullYear() % 100)}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}${suffix}`;
}

function isChatValue(value: JsonValue | undefined): boolean {
	return (
		Array.isArray(value) &&
		(value as JsonValue[]).every(
			(item) => item !== null && typeof item === 'object' && !Array.isArray(item),
		)
	);
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

/** PromptFn kwargs → generation params (upstream passes max_tokens, temperature, top_p, penalties, n). */
export function promptFnParams(
	kwargs: Readonly<Record<string, JsonValue>>,
	where: string,
): GenerationParams {
	const allowed = ['max_tokens', 'temperature', 'n_samples', 'completion_kwargs'];
	for (const key of Object.keys(kwargs)) {
		if (!allowed.includes(key)) {
			throw new EvalsError(
				`${where}: unexpected keyword '${key}' (PromptFn accepts ${allowed.join(', ')})`,
			);
		}
	}
	const number = (key: string, fallback: number): number => {
		const value = kwargs[key];
		if (value === undefined || value === null) return fallback;
		if (typeof value !== 'number') throw new EvalsError(`${where}: ${key} must be a number`);
		return value;
	};
	const params: Record<string, unknown> = {
		max_tokens: number('max_tokens', 1024),
		temperature: number('temperature', 0),
		top_p: 1,
		frequency_penalty: 0,
		presence_penalty: 0,
		n: number('n_samples', 1),
	};
	const extra = kwargs.completion_kwargs;
	if (extra !== undefined && extra !== null) {
		if (typeof extra !== 'object' || Array.isArray(extra)) {
			throw new EvalsError(`${where}: completion_kwargs must be a mapping`);
		}
		const known = [
			'temperature',
			'top_p',
			'max_tokens',
			'stop',
			'seed',
			'frequency_penalty',
			'presence_penalty',
			'n',
		];
		for (const [key, value] of Object.entries(extra)) {
			if (!known.includes(key))
				throw new EvalsError(
					`${where}: completion_kwargs.${key} is not a generation parameter Benchtop can send`,
				);
			params[key] = value;
		}
	}
	return params as GenerationParams;
}

class Recorder {
	readonly events: EvalEvent[] = [];
	constructor(
		private readonly runId: string,
		private readonly createdBy: string,
		private readonly now: () => Date,
		private readonly onEvent?: (event: EvalEvent) => void,
	) {}

	record(sampleId: string, type: string, data: Record<string, unknown>): void {
		const event: EvalEvent = {
			run_id: this.runId,
			event_id: this.events.length,
			sample_id: sampleId,
			type,
			data,
			created_by: this.createdBy,
			created_at: pythonUtcTimestamp(this.now()),
		};
		this.events.push(event);
		this.onEvent?.(event);
	}

	/** `record_match`: a 1-element `expected` list is unwrapped. */
	recordMatch(
		sampleId: string,
		correct: boolean,
		expected: JsonValue,
		picked: JsonValue,
		extra: Record<string, unknown>,
	): void {
		const unwrapped =
			Array.isArray(expected) && expected.length === 1 ? (expected[0] as JsonValue) : expected;
		this.record(sampleId, 'match', { correct, expected: unwrapped, picked, ...extra });
	}
}

interface SampleContext {
	readonly sampleId: string;
	readonly index: number;
	readonly sample: Sample;
	readonly calls: SampleCall[];
}

/**
 * Runs `evalSpec` on its samples. Throws `EvalsError` for a sample the template cannot use (named
 * by sample id); a cancel stops between samples and returns what finished (`cancelled: true`).
 */
export async function runEval(
	evalSpec: ResolvedEval,
	options: RunEvalOptions,
): Promise<EvalRunResult> {
	const now = options.now ?? (() => new Date());
	const runId = options.runId ?? newRunId(now());
	const seed = options.seed ?? DEFAULT_EVAL_SEED;
	const recorder = new Recorder(runId, options.createdBy ?? '', now, options.onEvent);
	const answerPrompts = options.answerPrompts ?? DEFAULT_ANSWER_PROMPTS;
	const [base = '', split = ''] = evalSpec.name.split('.');
	const order = shuffledSampleIndices(evalSpec.samples.length, options.maxSamples);
	const fns = options.grader ? [...options.policy, options.grader] : [...options.policy];
	const firstModel = fns[0];
	if (!firstModel) throw new EvalsError('no model to evaluate: give at least one completion fn');
	const graderModel = fns[fns.length - 1] ?? firstModel;
	const policies = evalSpec.kind === 'modelgraded' && fns.length > 1 ? fns.slice(0, -1) : fns;
	const policyModel = policies[0] ?? firstModel;
	const singleFnTemplate = {
		includes: 'Includes',
		fuzzy_match: 'FuzzyMatch',
		json_match: 'JsonMatch',
	}[evalSpec.kind as 'includes' | 'fuzzy_match' | 'json_match'] as string | undefined;
	if (singleFnTemplate && options.policy.length > 1) {
		throw new EvalsError(
			`${singleFnTemplate} only supports one completion fn (upstream asserts it); give one model`,
		);
	}

	async function generate(
		context: SampleContext,
		role: 'policy' | 'grader',
		model: TextModel,
		prompt: string | readonly ChatMessage[],
		params: GenerationParams,
		callIndex: number,
	): Promise<string> {
		const generationPrompt = promptForModel(model, prompt);
		const done = await generateCompletion(
			model,
			{ prompt: generationPrompt, params },
			{ runId, sampleId: context.sampleId, role, callIndex },
			options.signal,
		);
		const promptAsSent =
			generationPrompt.kind === 'chat' ? generationPrompt.messages : generationPrompt.text;
		const data: Record<string, unknown> = { prompt: promptAsSent, sampled: [done.completion] };
		if (done.usage) {
			data.usage = {
				completion_tokens: done.usage.completionTokens,
				prompt_tokens: done.usage.promptTokens,
				total_tokens: done.usage.completionTokens + done.usage.promptTokens,
			};
		}
		recorder.record(context.sampleId, 'sampling', data);
		context.calls.push({
			role,
			prompt: promptAsSent,
			params,
			completion: done.completion,
			modelLabel: model.label,
		});
		return done.completion;
	}

	const sampleError = (context: SampleContext, message: string): EvalsError => {
		const location = evalSpec.sampleLocations?.[context.index];
		return location
			? new EvalsError(
					`${location.file}:${location.line ?? 0}: sample ${context.sampleId}: ${message}`,
					location,
				)
			: new EvalsError(
					`sample ${context.sampleId} (sample ${context.index + 1} of the samples): ${message}`,
				);
	};

	function stringIdeals(context: SampleContext): string[] {
		const ideal = context.sample.ideal;
		if (ideal === undefined) throw sampleError(context, "sample must have an 'ideal' key");
		const ideals = idealList(ideal);
		if (!ideals.every((item) => typeof item === 'string')) {
			throw sampleError(context, 'ideal must be a string or a list of strings');
		}
		return ideals as string[];
	}

	function sampleInput(context: SampleContext): string | ChatMessage[] {
		const input = context.sample.input;
		if (typeof input === 'string') return input;
		if (isChatValue(input)) {
			return (input as { [key: string]: JsonValue }[]).map((message) => {
				if (typeof message.role !== 'string' || typeof message.content !== 'string') {
					throw sampleError(context, 'each input message needs a string role and content');
				}
				return typeof message.name === 'string'
					? { role: message.role, content: message.content, name: message.name }
					: { role: message.role, content: message.content };
			});
		}
		throw sampleError(
			context,
			"sample must have an 'input' key holding a string or a list of {role, content} messages",
		);
	}

	async function evalBasic(context: SampleContext): Promise<SampleResult> {
		const base = {
			sampleId: context.sampleId,
			index: context.index,
			sample: context.sample,
			calls: context.calls,
		};
		let prompt = sampleInput(context);
		if (evalSpec.kind === 'match') {
			if (evalSpec.fewShot.length > 0) {
				if (typeof prompt === 'string') throw sampleError(context, 'few shot requires chat prompt');
				prompt = [...prompt.slice(0, -1), ...evalSpec.fewShot.flat(), ...prompt.slice(-1)];
			}
			const ideals = stringIdeals(context);
			const completion = await generate(
				context,
				'policy',
				policyModel,
				prompt,
				{ temperature: 0 },
				0,
			);
			const { correct, picked } = checkMatch(completion, ideals);
			recorder.recordMatch(context.sampleId, correct, ideals, picked, {
				sampled: completion,
				options: ideals,
			});
			return { ...base, completion, correct, expected: context.sample.ideal ?? null, picked };
		}
		if (evalSpec.kind === 'includes') {
			const ideals = stringIdeals(context);
			const completion = await generate(context, 'policy', policyModel, prompt, {}, 0);
			const correct = checkIncludes(completion, ideals, evalSpec.ignoreCase);
			recorder.recordMatch(context.sampleId, correct, context.sample.ideal ?? null, completion, {
				sampled: completion,
			});
			return {
				...base,
				completion,
				correct,
				expected: context.sample.ideal ?? null,
				picked: completion,
			};
		}
		const ideals = stringIdeals(context);
		const params = {
			temperature: 0,
			max_tokens: evalSpec.maxTokens ?? (evalSpec.kind === 'fuzzy_match' ? 100 : 512),
		};
		if (evalSpec.kind === 'json_match') {
			for (const [i, ideal] of ideals.entries()) {
				try {
					checkJsonMatch('', [ideal]);
				} catch (error) {
					throw sampleError(
						context,
						`${(error as Error).message.replace(/^ideal/u, `ideal${ideals.length > 1 ? ` #${i + 1}` : ''}`)}`,
					);
				}
			}
		}
		const completion = await generate(context, 'policy', policyModel, prompt, params, 0);
		if (evalSpec.kind === 'fuzzy_match') {
			const { correct, matches, f1 } = checkFuzzyMatch(completion, ideals);
			const picked = matches.flatMap((match) => (match ? [completion] : []));
			recorder.recordMatch(context.sampleId, correct, ideals, picked, {});
			recorder.record(context.sampleId, 'metrics', { accuracy: Number(correct), f1_score: f1 });
			return {
				...base,
				completion,
				correct,
				expected: context.sample.ideal ?? null,
				picked,
				f1Score: f1,
			};
		}
		const { correct, matches } = checkJsonMatch(completion, ideals);
		const picked = matches.flatMap((match) => (match ? [completion] : []));
		recorder.recordMatch(context.sampleId, correct, ideals, picked, {});
		recorder.record(context.sampleId, 'metrics', { accuracy: Number(correct) });
		return { ...base, completion, correct, expected: context.sample.ideal ?? null, picked };
	}

	const graded = evalSpec.modelGraded;
	const multicompN =
		graded === undefined
			? 1
			: graded.args.multicomp_n === 'from_models'
				? policies.length
				: graded.args.multicomp_n;
	if (graded) {
		if (graded.args.multicomp_n === 'from_models' && policies.length < 2) {
			throw new EvalsError("multicomp_n: 'from_models' needs more than one policy model");
		}
		if (policies.length > 1 && multicompN !== policies.length) {
			throw new EvalsError(
				`multicomp_n=${multicompN} must equal the number of policy models (${policies.length})`,
			);
		}
	}

	async function evalGraded(context: SampleContext): Promise<SampleResult> {
		if (!graded) throw new Error('not a model-graded eval');
		const { spec, args } = graded;
		const where = `sample ${context.sampleId}`;
		const sample: Record<string, JsonValue> = { ...context.sample };
		for (const key of Object.keys(spec.input_outputs)) {
			if (!Object.hasOwn(sample, key))
				throw sampleError(context, `missing field '${key}' that the spec's input_outputs reads`);
			sample[key] = scrubFormatting(sample[key] ?? null);
		}
		const sampleParams = promptFnParams(args.sample_kwargs, 'sample_kwargs');
		const completions: Record<string, string> = {};
		for (const [inputKey, outputKey] of Object.entries(spec.input_outputs)) {
			if (Object.hasOwn(sample, outputKey)) continue;
			const prompt = promptFromField(sample[inputKey] ?? null, `${where} field ${inputKey}`);
			if (multicompN > 1) {
				if (!spec.output_template)
					throw new EvalsError('multicomp_n > 1 needs an output_template in the modelgraded spec');
				const outputs: string[] = [];
				for (let i = 0; i < multicompN; i++) {
					const model = policies.length > 1 ? (policies[i] ?? policyModel) : policyModel;
					outputs.push(
						await generate(context, 'policy', model, prompt, sampleParams, context.calls.length),
					);
				}
				completions[outputKey] = concatCompletions(outputs, spec.output_template);
			} else {
				completions[outputKey] = await generate(
					context,
					'policy',
					policyModel,
					prompt,
					sampleParams,
					context.calls.length,
				);
			}
		}
		const choices = choiceStrings(spec, multicompN);
		const values = graderPromptValues(completions, sample, args.modelgraded_spec_args, multicompN);
		const graderPrompt = buildGraderPrompt({
			spec,
			...(args.eval_type ? { registryEvalType: args.eval_type } : {}),
			choices,
			answerPrompts,
			values,
			where: `${where}: grader prompt`,
		});
		const graderParams = promptFnParams(args.eval_kwargs, 'eval_kwargs');
		const graderOutput = await generate(
			context,
			'grader',
			graderModel,
			graderPrompt,
			graderParams,
			0,
		);
		const evalType = spec.eval_type ?? args.eval_type ?? '';
		const { choice, line } = parseGraderChoice(graderOutput, evalType, args.match_fn, choices);
		const score = choiceScore(choice, choices, spec.choice_scores);
		const metrics: { choice: string; score: number | null; metascore?: boolean } = {
			choice,
			score,
		};
		if (args.metaeval) {
			if (!Object.hasOwn(context.sample, 'choice'))
				throw sampleError(context, "metaeval needs a 'choice' label in every sample");
			metrics.metascore = choice === context.sample.choice;
		}
		recorder.record(context.sampleId, 'metrics', { ...metrics });
		const completion =
			Object.values(completions).join('\n') ||
			String(context.sample[Object.values(spec.input_outputs)[0] ?? ''] ?? '');
		return {
			sampleId: context.sampleId,
			index: context.index,
			sample: context.sample,
			calls: context.calls,
			completion,
			graded: {
				choice,
				score,
				...(metrics.metascore === undefined ? {} : { metascore: metrics.metascore }),
				graderPrompt,
				graderOutput,
				decidingLine: line,
			},
		};
	}

	const results: SampleResult[] = [];
	let next = 0;
	let cancelled = false;
	const worker = async (): Promise<void> => {
		while (next < order.length) {
			if (options.signal?.aborted) {
				cancelled = true;
				return;
			}
			const index = order[next++] ?? 0;
			const context: SampleContext = {
				sampleId: `${base}.${split}.${index}`,
				index,
				sample: evalSpec.samples[index] ?? {},
				calls: [],
			};
			const result =
				evalSpec.kind === 'modelgraded' ? await evalGraded(context) : await evalBasic(context);
			results.push(result);
			options.onSample?.(result, results.length, order.length);
		}
	};
	const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, order.length || 1));
	await Promise.all(Array.from({ length: concurrency }, () => worker()));
	if (options.signal?.aborted && results.length < order.length) cancelled = true;

	const finalReport = cancelled ? {} : buildFinalReport(evalSpec, recorder.events, seed);
	return { runId, events: recorder.events, finalReport, samples: results, order, cancelled };
}

/** What the template's `run()` returns, plus upstream's `usage_*` sums when sampling events have usage. */
export function buildFinalReport(
	evalSpec: ResolvedEval,
	events: readonly EvalEvent[],
	seed: number,
): FinalReport {
	const report: Record<string, number> = {};
	const matches = events
		.filter((event) => event.type === 'match')
		.map((event) => event.data.correct === true);
	const metricEvents = events
		.filter((event) => event.type === 'metrics')
		.map((event) => event.data);
	if (evalSpec.kind === 'match' || evalSpec.kind === 'includes') {
		report.accuracy = accuracy(matches);
		report.boostrap_std = bootstrapAccuracyStd(matches, new PythonRandom(seed));
	} else if (evalSpec.kind === 'fuzzy_match') {
		report.accuracy = numpyMean(metricEvents.map((data) => Number(data.accuracy)));
		report.f1_score = numpyMean(metricEvents.map((data) => Number(data.f1_score)));
	} else if (evalSpec.kind === 'json_match') {
		report.accuracy = numpyMean(metricEvents.map((data) => Number(data.accuracy)));
	} else {
		Object.assign(report, aggregateGraded(metricEvents as unknown as GradedMetrics[]));
	}
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
