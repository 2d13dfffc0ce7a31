/**
 * The shapes of OpenAI Evals data as Benchtop reads and writes them: samples, registry entries,
 * resolved eval specs, model-graded specs, recorder events and the final report. Field names
 * are upstream's (snake_case where the file format has it). Types only.
 */
import type { ChatMessage, GenerationParams, TokenUsage } from '../../model/generation';
import type { JsonValue } from '../../python/python-text';

/** A JSON value as `json.loads` gives it (numbers lose Python's int/float distinction). */
export type { JsonValue };

/** One line of a samples JSONL file: an object, usually `{input, ideal}`. */
export type Sample = { readonly [key: string]: JsonValue };

/** A sample's `input`: a string or a chat list. */
export type SampleInput = string | readonly ChatMessage[];

/** Where a problem is: file (registry-relative path), 1-based line, field path. */
export interface EvalsLocation {
	readonly file: string;
	readonly line?: number;
	readonly field?: string;
}

/** The five templates Benchtop runs, named by upstream class path in registries. */
export type TemplateKind = 'match' | 'includes' | 'fuzzy_match' | 'json_match' | 'modelgraded';

/** `match_fn` of ModelBasedClassify. */
export type ChoiceMatchFn = 'include' | 'exact' | 'endswith' | 'starts_or_endswith';

/** Answer prompt types (`eval_type`). */
export type AnswerPromptType = 'classify' | 'classify_cot' | 'cot_classify' | 'cot_classify_jp';

/** The answer prompts by `eval_type`; each holds a `{choices}` placeholder. */
export type AnswerPrompts = Readonly<Record<AnswerPromptType, string>>;

/** A model-graded spec (`modelgraded/*.yaml` entry), as upstream `ModelGradedSpec`. */
export interface ModelGradedSpec {
	/** The grading template: a string (becomes one user message) or a chat list. */
	readonly prompt: string | readonly ChatMessage[];
	/** A list, a string iterated per character, or `from_n` / `from_n_abc` / `from_n_ABC`. */
	readonly choice_strings: readonly string[] | string;
	/** Input field → output field (e.g. `{input: completion}`), in file order. */
	readonly input_outputs: Readonly<Record<string, string>>;
	readonly eval_type?: string;
	/** Choice → score, or `from_strings` (the choice parsed as a float). */
	readonly choice_scores?: Readonly<Record<string, number>> | 'from_strings';
	/** Per-completion template when `multicomp_n > 1` (`{i}`, `{i_abc}`, `{i_ABC}`, `{output}`, `{n}`). */
	readonly output_template?: string;
}

/** Args of a ModelBasedClassify registry entry, checked. */
export interface ModelGradedArgs {
	readonly modelgraded_spec: string;
	readonly modelgraded_spec_args: Readonly<Record<string, JsonValue>>;
	/** Overrides of the policy's PromptFn kwargs (`max_tokens` 1024 by default). */
	readonly sample_kwargs: Readonly<Record<string, JsonValue>>;
	/** Overrides of the grader's PromptFn kwargs (`max_tokens` 1024 by default). */
	readonly eval_kwargs: Readonly<Record<string, JsonValue>>;
	readonly multicomp_n: number | 'from_models';
	/** The registry's `eval_type`: appends the answer prompt when set. */
	readonly eval_type?: string;
	readonly match_fn: ChoiceMatchFn;
	readonly metaeval: boolean;
}

/** An eval ready to run: the registry entry resolved, its samples and helpers loaded. */
export interface ResolvedEval {
	/** The spec's key, `<base>.<split>.<version>` (what sample ids are built from). */
	readonly name: string;
	/** The name the user asked for (possibly an alias). */
	readonly requestedName: string;
	/** Upstream class path, e.g. `evals.elsuite.basic.match:Match`. */
	readonly className: string;
	readonly kind: TemplateKind;
	/** The registry entry's `args`, as written. */
	readonly args: Readonly<Record<string, JsonValue>>;
	/** The file the spec came from (registry-relative). */
	readonly file: string;
	readonly samples: readonly Sample[];
	/** Where each sample is (file and line), parallel to `samples`; absent for samples built in code. */
	readonly sampleLocations?: readonly EvalsLocation[];
	/** What the user should know about how the eval was read (a samples file found by its name). */
	readonly notes?: readonly string[];
	/** Match: the first `num_few_shot` few-shot chats, in file order. */
	readonly fewShot: readonly (readonly ChatMessage[])[];
	/** Includes `ignore_case`. */
	readonly ignoreCase: boolean;
	/** FuzzyMatch / JsonMatch `max_tokens` (defaults 100 / 512); Match stores it unused. */
	readonly maxTokens?: number;
	/** ModelBasedClassify only. */
	readonly modelGraded?: {
		readonly args: ModelGradedArgs;
		readonly spec: ModelGradedSpec;
		/** Where the spec came from: a registry file or `builtin:<name>`. */
		readonly specFile: string;
	};
}

/** Recorder event types the five templates write. */
export type EvalEventType = 'sampling' | 'match' | 'metrics';

/** One recorder event, as a line of the oaieval JSONL log. */
export interface EvalEvent {
	readonly run_id: string;
	readonly event_id: number;
	readonly sample_id: string;
	readonly type: EvalEventType | string;
	readonly data: { readonly [key: string]: unknown };
	readonly created_by: string;
	/** Python `str(datetime.now(timezone.utc))`: `2026-01-02 03:04:05.678901+00:00`. */
	readonly created_at: string;
}

/** What `run()` returns: metric name → value (`accuracy`, `boostrap_std`, `counts/Y`, ...). */
export type FinalReport = Readonly<Record<string, number>>;

/** The `spec` line of an oaieval log (upstream `RunSpec`). */
export interface RunSpec {
	readonly completion_fns: readonly string[];
	readonly eval_name: string;
	readonly base_eval: string;
	readonly split: string;
	readonly run_config: { readonly [key: string]: unknown };
	readonly created_by: string;
	readonly run_id: string;
	readonly created_at: string;
}

/** One model call the runner made for a sample (for transcripts). */
export interface SampleCall {
	readonly role: 'policy' | 'grader';
	/** The prompt as sent: chat messages, or text for a model without chat. */
	readonly prompt: readonly ChatMessage[] | string;
	/** Exactly the generation parameters sent. */
	readonly params: GenerationParams;
	readonly completion: string;
	readonly modelLabel: string;
	/** Why the generation ended (absent in runs stored before it was kept). */
	readonly finishReason?: 'stop' | 'length' | 'cancelled';
	/** Token usage the model reported, when it did. */
	readonly usage?: TokenUsage;
}

/** Everything one sample gave: calls, verdict and, for model-graded evals, the choice. */
export interface SampleResult {
	readonly sampleId: string;
	/** Index of the sample in the samples file(s). */
	readonly index: number;
	readonly sample: Sample;
	readonly calls: readonly SampleCall[];
	/** The graded completion (basic templates) or the policy output(s) by output field. */
	readonly completion: string;
	/** Basic templates: correct or not. Model-graded: `choice` decides instead. */
	readonly correct?: boolean;
	/** Basic templates: the ideal(s) as written. */
	readonly expected?: JsonValue;
	readonly picked?: JsonValue;
	readonly f1Score?: number;
	/** Model-graded only. */
	readonly graded?: {
		readonly choice: string;
		readonly score: number | null;
		readonly metascore?: boolean;
		readonly graderPrompt: readonly ChatMessage[];
		readonly graderOutput: string;
		/** 0-based index (in the grader output's stripped lines) of the line that decided, or -1. */
		readonly decidingLine: number;
	};
}
