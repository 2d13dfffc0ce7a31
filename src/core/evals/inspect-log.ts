/**
 * An Evals run as an Inspect (inspect_ai) JSON eval log, version 2, shaped to validate strictly
 * against Inspect's own `EvalLog` schema (its OpenAPI document; tests/parity/inspect-log.test.ts):
 * eval spec, plan, results with the template's metrics, token usage by model and role, and one
 * sample per evaluated sample (messages, output with its stop reason and usage, score). Pure.
 */
import type { ChatMessage, GenerationParams, TokenUsage } from '../model/generation';
import { describeModelSpec } from '../model/model-spec';
import { mergeParams } from './generation-overrides';
import { shuffledSampleIndices } from '../python/python-random';
import type { StoredEvalsRun } from './shown-run';
import type {
	FinalReport,
	JsonValue,
	ResolvedEval,
	SampleCall,
	SampleResult,
} from './shared/types';

/** Inspect's `ChatMessage` (system, user, assistant or tool; `source` marks generated ones). */
export interface InspectMessage {
	readonly role: 'system' | 'user' | 'assistant' | 'tool';
	readonly content: string;
	readonly source?: 'input' | 'generate';
	/** Evals fields Inspect has no place for: a message `name`, or a role it does not know. */
	readonly metadata?: { readonly [key: string]: string };
}

/** Inspect's `ModelUsage`. */
export interface InspectModelUsage {
	readonly input_tokens: number;
	readonly output_tokens: number;
	readonly total_tokens: number;
}

/** Inspect's `stop_reason` values that an Evals run can give. */
export type InspectStopReason = 'stop' | 'max_tokens' | 'unknown';

export interface InspectScore {
	readonly value: string | number | boolean;
	readonly answer?: string;
	readonly explanation?: string;
	readonly metadata?: { readonly [key: string]: unknown };
	/** Score edits (none: Benchtop does not edit scores). */
	readonly history: readonly never[];
}

export interface InspectSample {
	readonly id: string;
	readonly epoch: number;
	readonly input: string | readonly InspectMessage[];
	readonly target: string | readonly string[];
	readonly messages: readonly InspectMessage[];
	readonly output: {
		readonly model: string;
		readonly choices: readonly {
			readonly message: InspectMessage;
			readonly stop_reason: InspectStopReason;
		}[];
		readonly completion: string;
		readonly usage?: InspectModelUsage;
	};
	readonly scores: { readonly [scorer: string]: InspectScore };
	readonly metadata: { readonly [key: string]: unknown };
	readonly store: Record<string, never>;
	readonly events: readonly never[];
	readonly model_usage: { readonly [model: string]: InspectModelUsage };
	readonly role_usage: { readonly [role: string]: InspectModelUsage };
	readonly attachments: Record<string, never>;
}

/** A metric under a score (`EvalMetric`). */
export interface InspectMetric {
	readonly name: string;
	readonly value: number;
	readonly params: Record<string, never>;
}

/** The whole log (`EvalLog`). */
export interface InspectEvalLog {
	readonly version: 2;
	readonly status: 'success' | 'cancelled';
	readonly eval: { readonly [key: string]: unknown };
	readonly plan: { readonly [key: string]: unknown };
	readonly results: {
		readonly total_samples: number;
		readonly completed_samples: number;
		readonly scores: readonly {
			readonly name: string;
			readonly scorer: string;
			readonly params: Record<string, never>;
			readonly metrics: { readonly [name: string]: InspectMetric };
		}[];
	};
	readonly stats: {
		readonly started_at: string;
		readonly completed_at: string;
		readonly model_usage: { readonly [model: string]: InspectModelUsage };
		readonly role_usage: { readonly [role: string]: InspectModelUsage };
		readonly connection_limit_history: readonly never[];
	};
	readonly samples: readonly InspectSample[];
	readonly invalidated: false;
	readonly tags: readonly string[];
	readonly metadata: { readonly [key: string]: unknown };
}

/**
 * ISO 8601 with an explicit offset, as Python's `isoformat()` writes Inspect's times: the fraction
 * only when not zero (`2026-01-02T03:04:05+00:00`, `2026-01-02T03:04:05.678+00:00`).
 */
function isoWithOffset(date: Date): string {
	return date
		.toISOString()
		.replace(/\.000Z$/u, 'Z')
		.replace(/Z$/u, '+00:00');
}

const INSPECT_ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** An Evals message as Inspect's: a role Inspect lacks becomes `user`, kept with `name` in metadata. */
function inspectMessage(message: ChatMessage, source?: 'input' | 'generate'): InspectMessage {
	const known = INSPECT_ROLES.has(message.role);
	const metadata = {
		...(known ? {} : { role: message.role }),
		...(message.name === undefined ? {} : { name: message.name }),
	};
	return {
		role: known ? (message.role as InspectMessage['role']) : 'user',
		content: message.content,
		...(source ? { source } : {}),
		...(Object.keys(metadata).length > 0 ? { metadata } : {}),
	};
}

function toMessages(
	prompt: readonly ChatMessage[] | string,
	source?: 'input' | 'generate',
): InspectMessage[] {
	const messages = typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : prompt;
	return messages.map((message) => inspectMessage(message, source));
}

function targetOf(ideal: JsonValue | undefined): string | string[] {
	if (typeof ideal === 'string') return ideal;
	if (Array.isArray(ideal))
		return (ideal as JsonValue[]).map((item) =>
			typeof item === 'string' ? item : JSON.stringify(item),
		);
	return ideal === undefined || ideal === null ? '' : JSON.stringify(ideal);
}

/** The scorer name shown in Inspect: the template's upstream class name. */
function scorerName(evalSpec: ResolvedEval): string {
	return evalSpec.className.split(':').pop() ?? evalSpec.kind;
}

/** Inspect's stop reason for a finish reason: `length` is `max_tokens`; unknown when not given. */
export function inspectStopReason(finishReason: SampleCall['finishReason']): InspectStopReason {
	if (finishReason === 'length') return 'max_tokens';
	return finishReason === 'stop' ? 'stop' : 'unknown';
}

function modelUsageOf(usage: TokenUsage): InspectModelUsage {
	return {
		input_tokens: usage.promptTokens,
		output_tokens: usage.completionTokens,
		total_tokens: usage.promptTokens + usage.completionTokens,
	};
}

/** Adds each call's usage (calls without usage add nothing) under `keyOf(call)`. */
function sumUsage(
	calls: readonly SampleCall[],
	keyOf: (call: SampleCall) => string | undefined,
): Record<string, InspectModelUsage> {
	const sums: Record<string, InspectModelUsage> = {};
	for (const call of calls) {
		const key = keyOf(call);
		if (!call.usage || key === undefined) continue;
		const add = modelUsageOf(call.usage);
		const sum = sums[key];
		sums[key] = sum
			? {
					input_tokens: sum.input_tokens + add.input_tokens,
					output_tokens: sum.output_tokens + add.output_tokens,
					total_tokens: sum.total_tokens + add.total_tokens,
				}
			: add;
	}
	return sums;
}

/** Usage by model label, and by role for the grader (Inspect's roles are the non-main models). */
function usageOf(calls: readonly SampleCall[]): {
	model_usage: Record<string, InspectModelUsage>;
	role_usage: Record<string, InspectModelUsage>;
} {
	return {
		model_usage: sumUsage(calls, (call) => call.modelLabel),
		role_usage: sumUsage(calls, (call) => (call.role === 'grader' ? 'grader' : undefined)),
	};
}

/** Generation parameters as Inspect's `GenerateConfig` (only the ones sent). */
function generateConfigOf(params: GenerationParams | undefined): Record<string, unknown> {
	if (!params) return {};
	const names: Record<string, string> = { stop: 'stop_seqs', n: 'num_choices' };
	const config: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(params)) {
		if (value !== undefined) config[names[key] ?? key] = value;
	}
	return config;
}

/** A call's parameters as sent: the template's, with the page's overrides over them. */
function sentParams(
	call: SampleCall | undefined,
	overrides: GenerationParams | undefined,
): GenerationParams | undefined {
	return call && mergeParams(call.params, overrides ?? {});
}

function scoreOf(result: SampleResult): InspectScore {
	if (result.graded) {
		return {
			value: result.graded.choice,
			answer: result.completion,
			explanation: result.graded.graderOutput,
			metadata: {
				grading: [
					...toMessages(result.graded.graderPrompt),
					{ role: 'assistant', content: result.graded.graderOutput, source: 'generate' },
				],
				score: result.graded.score,
			},
			history: [],
		};
	}
	return {
		value: result.correct === true ? 'C' : 'I',
		answer: result.completion,
		...(result.f1Score === undefined ? {} : { metadata: { f1_score: result.f1Score } }),
		history: [],
	};
}

function sampleOf(result: SampleResult, scorer: string, modelLabel: string): InspectSample {
	const policyCall = result.calls.find((call) => call.role === 'policy');
	const input = result.sample.input;
	const inputMessages =
		typeof input === 'string' || input === undefined || input === null
			? toMessages(typeof input === 'string' ? input : '', 'input')
			: toMessages(input as unknown as ChatMessage[], 'input');
	const answer: InspectMessage = {
		role: 'assistant',
		content: result.completion,
		source: 'generate',
	};
	return {
		id: result.sampleId,
		epoch: 1,
		input: typeof input === 'string' ? input : inputMessages,
		target: targetOf(result.sample.ideal),
		messages: [...(policyCall ? toMessages(policyCall.prompt, 'input') : inputMessages), answer],
		output: {
			model: policyCall?.modelLabel ?? modelLabel,
			choices: [{ message: answer, stop_reason: inspectStopReason(policyCall?.finishReason) }],
			completion: result.completion,
			...(policyCall?.usage ? { usage: modelUsageOf(policyCall.usage) } : {}),
		},
		scores: { [scorer]: scoreOf(result) },
		metadata: { sample_id: result.sampleId },
		store: {},
		events: [],
		...usageOf(result.calls),
		attachments: {},
	};
}

/** The template's metrics as `EvalMetric`s: NaN left out (JSON has none), `usage_*` sums too (they are usage, in `stats`). */
function metricsOf(report: FinalReport): Record<string, InspectMetric> {
	const metrics: Record<string, InspectMetric> = {};
	for (const [name, value] of Object.entries(report)) {
		if (Number.isFinite(value) && !name.startsWith('usage_'))
			metrics[name] = { name, value, params: {} };
	}
	return metrics;
}

/** The `eval` part (`EvalSpec`): task, dataset, model, its generate config and the grader's role. */
function evalSpecOf(
	options: Parameters<typeof buildInspectLog>[0],
	calls: readonly SampleCall[],
): Record<string, unknown> {
	const { evalSpec } = options;
	const samplesPath = evalSpec.args.samples_jsonl;
	const [base = '', split = ''] = evalSpec.name.split('.');
	const policyCall = calls.find((call) => call.role === 'policy');
	const graderCall = calls.find((call) => call.role === 'grader');
	return {
		eval_id: `${options.runId}-${evalSpec.name}`,
		run_id: options.runId,
		created: isoWithOffset(options.startedAt),
		task: evalSpec.name,
		task_id: `${options.runId}-${base}`,
		task_version: 0,
		task_attribs: {},
		task_args: {},
		task_args_passed: {},
		dataset: {
			name: `${base}.${split}`,
			...(typeof samplesPath === 'string' ? { location: samplesPath } : {}),
			samples: evalSpec.samples.length,
			sample_ids: options.order.map((index) => `${base}.${split}.${index}`),
			shuffled: true,
		},
		model: options.modelLabel,
		model_generate_config: generateConfigOf(sentParams(policyCall, options.overrides?.policy)),
		model_args: {},
		...(graderCall
			? {
					model_roles: {
						grader: {
							model: graderCall.modelLabel,
							config: generateConfigOf(sentParams(graderCall, options.overrides?.grader)),
							args: {},
						},
					},
				}
			: {}),
		config: {},
		packages: {},
		metadata: { oaieval_class: evalSpec.className, oaieval_args: evalSpec.args },
	};
}

/**
 * Builds the Inspect log of a run. Basic templates score `C`/`I` (Inspect's correct/incorrect);
 * model-graded samples score the grader's choice, with the grader prompt and output as metadata.
 * Metrics are the final report's; token counts are `model_usage` / `role_usage` (summed from each
 * call's usage), and each output's `stop_reason` is its finish reason.
 */
export function buildInspectLog(options: {
	readonly evalSpec: ResolvedEval;
	readonly runId: string;
	readonly modelLabel: string;
	readonly samples: readonly SampleResult[];
	readonly order: readonly number[];
	readonly finalReport: FinalReport;
	readonly cancelled: boolean;
	readonly startedAt: Date;
	readonly completedAt: Date;
	/** The page's parameter overrides, put over each request's parameters as they were sent. */
	readonly overrides?: { readonly policy: GenerationParams; readonly grader: GenerationParams };
}): InspectEvalLog {
	const scorer = scorerName(options.evalSpec);
	const calls = options.samples.flatMap((result) => result.calls);
	return {
		version: 2,
		status: options.cancelled ? 'cancelled' : 'success',
		eval: evalSpecOf(options, calls),
		plan: {
			name: 'plan',
			steps: [{ solver: 'generate', params: {}, params_passed: {} }],
			config: {},
		},
		results: {
			total_samples: options.order.length,
			completed_samples: options.samples.length,
			scores: [{ name: scorer, scorer, params: {}, metrics: metricsOf(options.finalReport) }],
		},
		stats: {
			started_at: isoWithOffset(options.startedAt),
			completed_at: isoWithOffset(options.completedAt),
			...usageOf(calls),
			connection_limit_history: [],
		},
		samples: options.samples.map((result) => sampleOf(result, scorer, options.modelLabel)),
		invalidated: false,
		tags: [],
		metadata: {},
	};
}

/**
 * The Inspect log of a run stored in this browser (its record and finished samples, in evaluation
 * order): a run not `done` is written as `cancelled`, with the samples it finished.
 */
export function inspectLogOfStored(
	record: StoredEvalsRun,
	samples: readonly { readonly result: SampleResult }[],
	completedAt: Date,
): InspectEvalLog {
	const evalSpec = record.spec.eval;
	const policy = record.models.policy[0];
	return buildInspectLog({
		evalSpec,
		runId: record.runId,
		modelLabel: policy ? describeModelSpec(policy) : '',
		samples: samples.map((sample) => sample.result),
		order: shuffledSampleIndices(evalSpec.samples.length, record.maxSamples),
		finalReport: record.report ?? {},
		cancelled: record.status !== 'done',
		startedAt: new Date(record.createdAt),
		completedAt,
		overrides: record.overrides,
	});
}
