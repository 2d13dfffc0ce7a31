/**
 * An Evals run as an Inspect (inspect_ai) JSON eval log, version 2: eval spec, plan, results with
 * the run's metrics, stats and one sample per evaluated sample (messages, output, score). The shape
 * follows a real inspect_ai 0.3.x `.json` log; it was not validated with inspect_ai itself (not
 * installable here). Pure.
 */
import type { ChatMessage } from '../model/generation';
import type { FinalReport, JsonValue, ResolvedEval, SampleResult } from './types';

/** Inspect's chat message (`source` marks generated ones). */
export interface InspectMessage {
	readonly role: string;
	readonly content: string;
	readonly source?: 'input' | 'generate';
}

export interface InspectScore {
	readonly value: string | number | boolean;
	readonly answer?: string;
	readonly explanation?: string;
	readonly metadata?: { readonly [key: string]: unknown };
}

export interface InspectSample {
	readonly id: string;
	readonly epoch: number;
	readonly input: string | readonly InspectMessage[];
	readonly target: string | readonly string[];
	readonly messages: readonly InspectMessage[];
	readonly output: {
		readonly model: string;
		readonly choices: readonly { readonly message: InspectMessage; readonly stop_reason: 'stop' }[];
	};
	readonly scores: { readonly [scorer: string]: InspectScore };
	readonly metadata: { readonly [key: string]: unknown };
	readonly store: Record<string, never>;
	readonly events: readonly never[];
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
			readonly metrics: {
				readonly [name: string]: {
					readonly name: string;
					readonly value: number;
					readonly options: Record<string, never>;
				};
			};
		}[];
	};
	readonly stats: {
		readonly started_at: string;
		readonly completed_at: string;
		readonly model_usage: Record<string, never>;
	};
	readonly samples: readonly InspectSample[];
}

/** ISO 8601 with an explicit offset, as Inspect writes times (`2026-01-02T03:04:05+00:00`). */
function isoWithOffset(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/u, '+00:00');
}

function toMessages(prompt: readonly ChatMessage[] | string, source?: 'input'): InspectMessage[] {
	const messages = typeof prompt === 'string' ? [{ role: 'user', content: prompt }] : prompt;
	return messages.map((message) => ({
		role: message.role,
		content: message.content,
		...(source ? { source } : {}),
	}));
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

/**
 * Builds the Inspect log of a run. Basic templates score `C`/`I` (Inspect's correct/incorrect);
 * model-graded samples score the grader's choice, with the grader prompt and output as metadata.
 * Metrics are the final report's (NaN ones left out: JSON has no NaN).
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
}): InspectEvalLog {
	const { evalSpec } = options;
	const scorer = scorerName(evalSpec);
	const samplesPath = evalSpec.args.samples_jsonl;
	const metrics: Record<string, { name: string; value: number; options: Record<string, never> }> =
		{};
	for (const [name, value] of Object.entries(options.finalReport)) {
		if (Number.isFinite(value)) metrics[name] = { name, value, options: {} };
	}
	const [base = '', split = ''] = evalSpec.name.split('.');
	return {
		version: 2,
		status: options.cancelled ? 'cancelled' : 'success',
		eval: {
			run_id: options.runId,
			created: isoWithOffset(options.startedAt),
			task: evalSpec.name,
			task_id: `${options.runId}-${base}`,
			task_version: 0,
			task_attribs: {},
			task_args: {},
			dataset: {
				name: `${base}.${split}`,
				...(typeof samplesPath === 'string' ? { location: samplesPath } : {}),
				samples: evalSpec.samples.length,
				sample_ids: options.order.map((index) => `${base}.${split}.${index}`),
				shuffled: true,
			},
			model: options.modelLabel,
			model_args: {},
			config: {},
			packages: {},
			metadata: { oaieval_class: evalSpec.className, oaieval_args: evalSpec.args },
		},
		plan: { name: 'plan', steps: [{ solver: 'generate', params: {} }], config: {} },
		results: {
			total_samples: options.order.length,
			completed_samples: options.samples.length,
			scores: [{ name: scorer, scorer, params: {}, metrics }],
		},
		stats: {
			started_at: isoWithOffset(options.startedAt),
			completed_at: isoWithOffset(options.completedAt),
			model_usage: {},
		},
		samples: options.samples.map((result) => {
			const policyCall = result.calls.find((call) => call.role === 'policy');
			const input = result.sample.input;
			const inputMessages =
				typeof input === 'string' || input === undefined
					? toMessages(typeof input === 'string' ? input : '', 'input')
					: toMessages((input as unknown as ChatMessage[]) ?? [], 'input');
			const answer: InspectMessage = {
				role: 'assistant',
				content: result.completion,
				source: 'generate',
			};
			const score: InspectScore = result.graded
				? {
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
					}
				: {
						value: result.correct === true ? 'C' : 'I',
						answer: result.completion,
						...(result.f1Score === undefined ? {} : { metadata: { f1_score: result.f1Score } }),
					};
			return {
				id: result.sampleId,
				epoch: 1,
				input: typeof input === 'string' ? input : inputMessages,
				target: targetOf(result.sample.ideal),
				messages: [
					...(policyCall ? toMessages(policyCall.prompt, 'input') : inputMessages),
					answer,
				],
				output: {
					model: policyCall?.modelLabel ?? options.modelLabel,
					choices: [{ message: answer, stop_reason: 'stop' as const }],
				},
				scores: { [scorer]: score },
				metadata: { sample_id: result.sampleId },
				store: {},
				events: [],
			};
		}),
	};
}
