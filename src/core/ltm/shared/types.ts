/**
 * Plain data of the long-term-memory (GoodAI LTM benchmark) runner: test definitions, run
 * configuration, evaluation outcomes. JSON-safe throughout (the app stores runs as they are).
 * Field names of upstream file formats stay snake_case where the type mirrors a file.
 */
import type { ChatMessage } from '../../model/generation';

/** A JSON value (expected responses are whatever the definition file holds). */
export type JsonValue =
	null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** One wait after a script line, as upstream writes it (`time` in seconds). Empty = no wait. */
export interface LtmWait {
	readonly tokens?: number;
	readonly time?: number;
	readonly percentage_finished?: number;
}

/** Built-in evaluators: each reproduces one upstream dataset's `evaluate_correct`. */
export const BUILT_IN_EVALUATORS = [
	'colours',
	'names',
	'name_list',
	'shopping',
	'sallyanne',
	'spy_meeting',
	'chapterbreak',
	'kv',
	'jokes',
	'trigger_response',
	'locations_directions',
	'gpt_checklist',
	'prospective_memory',
	'dynamic',
	'watch',
] as const;
export type BuiltInEvaluatorId = (typeof BUILT_IN_EVALUATORS)[number];

/** Generic rules of `ltm-suite.json` (reference §4.2). */
export type GenericRule =
	| { readonly rule: 'contains'; readonly case?: 'sensitive' | 'insensitive' }
	| { readonly rule: 'regex'; readonly pattern: string; readonly flags?: string }
	| { readonly rule: 'json_equals' }
	| { readonly rule: 'json_list_overlap' }
	| { readonly rule: 'digits_set_equals' }
	| { readonly rule: 'llm_checklist' };

export type EvaluatorSpec = BuiltInEvaluatorId | GenericRule;

/** A declarative callback (`watch`): prospective-memory semantics over the agent's later replies. */
export interface WatchSpec {
	/** 0-based index of the script line after whose reply counting starts (that reply is the 1st). */
	readonly afterLine: number;
	/** Which reply must contain the text (1 = the reply to `afterLine`). */
	readonly nthResponse: number;
	readonly mustContain: string;
	/** `standardise`: lowercase and drop ASCII punctuation on both sides; `none`: as written. */
	readonly normalise: 'standardise' | 'none';
	/** When true, the text must appear in no other reply. */
	readonly exclusive: boolean;
}

/** A step of a declarative dynamic test (reference §4.2 item 3). Text fields are Mustache. */
export type DynamicStep =
	| { readonly say: string; readonly question?: boolean; readonly id?: string }
	| {
			readonly wait: {
				readonly tokens?: number;
				readonly percentage_finished?: number;
				readonly time_s?: number;
			};
	  }
	| {
			readonly check: RuleCheck | JudgeCheck;
			readonly on_pass?: { readonly score?: number; readonly reason?: string };
			readonly on_fail?: { readonly reason?: string; readonly stop?: boolean };
	  }
	| {
			readonly extract: {
				readonly from?: 'last_reply';
				readonly regex: string;
				readonly into: string;
			};
	  }
	| {
			readonly extract: {
				readonly from?: 'last_reply';
				readonly judge: JudgeSpec;
				readonly into: string;
			};
	  }
	| {
			readonly pick: {
				readonly into: string;
				readonly from: readonly string[];
				/** `example` (the only kind): seeded by the test's unique id, like upstream `Random(unique_id)`. */
				readonly seed?: 'example';
			};
	  }
	| {
			readonly branch: {
				readonly if: RuleCheck;
				readonly then: readonly DynamicStep[];
				readonly else?: readonly DynamicStep[];
			};
	  };

/** A rule a dynamic step applies to the last reply (`value` is Mustache). */
export type RuleCheck =
	| { readonly contains: string; readonly case?: 'sensitive' | 'insensitive' }
	| { readonly regex: string; readonly flags?: string }
	| { readonly not_contains: string; readonly case?: 'sensitive' | 'insensitive' };

/**
 * A question to the run's judge model (temperature 0, max_tokens 256, as upstream `ask_llm`):
 * `system` and `user` are Mustache templates; the answer is parsed as JSON (sanitised) and
 * `json_key` read from it (a dotted path such as `order.0.item`).
 */
export interface JudgeSpec {
	readonly system?: string;
	readonly user: string;
	readonly json_key: string;
	readonly model_slot?: 'judge';
}

/** A `check` decided by the judge: passes when the value at `json_key` is true (or "yes"/"true"). */
export interface JudgeCheck {
	readonly judge: JudgeSpec;
}

export interface DynamicProgram {
	/** A procedural built-in that writes its own script at run time (`steps` is then empty). */
	readonly builtIn?: 'restaurant';
	readonly maxScore: number;
	readonly vars: Readonly<Record<string, string>>;
	readonly steps: readonly DynamicStep[];
}

/** One test, from an upstream `.def.json` or from an `ltm-suite.json` example. */
export interface LtmTestDefinition {
	/** Upstream's `unique_id`: `"<Dataset Name> - <example_id>"`; tests run in its sort order. */
	readonly uniqueId: string;
	readonly datasetName: string;
	readonly exampleId: string;
	/** The upstream config name (`name_list`) used by `incompatibilities`; `''` when unknown. */
	readonly configName: string;
	readonly evaluator: EvaluatorSpec;
	readonly description: string;
	/** Sent (and answered) when the test finishes; `''` for none. */
	readonly resetMessage: string;
	readonly script: readonly string[];
	readonly isQuestion: readonly boolean[];
	/** One per `isQuestion` entry, defaults applied (L2). */
	readonly waits: readonly LtmWait[];
	readonly expectedResponses: readonly JsonValue[];
	readonly isTemporal: boolean;
	readonly usesCallback: boolean;
	readonly canBeInterleaved: boolean;
	readonly dynamic?: DynamicProgram;
	readonly watch?: WatchSpec;
	/** Where it came from (file path, or `ltm-suite.json#/datasets/0/examples/2`). */
	readonly source: string;
}

export interface LtmConfig {
	readonly runName: string;
	/** Target information gap in tokens (upstream `memory_span`). */
	readonly memorySpan: number;
	/** Sets of config names (`[["names","name_list"]]`) that must not run interleaved. */
	readonly incompatibilities: readonly (readonly string[])[];
	readonly isolated: boolean;
	/**
	 * `ltm-suite.json` only: how the run counts tokens (`agent`: the agent's own tokenizer, as
	 * upstream schedules; `cl100k`: cl100k_base). Absent: the caller's choice.
	 */
	readonly tokenizer?: 'agent' | 'cl100k';
	/** `ltm-suite.json` only: the run's seed, recorded (picks are seeded per example, not by it). */
	readonly seed?: number;
}

/** Tests and configuration ready to run. */
export interface LtmBenchmark {
	readonly config: LtmConfig;
	readonly tests: readonly LtmTestDefinition[];
}

/** A located problem in definitions. `path` names the file, `pointer` the place inside it. */
export interface LtmDiagnostic {
	readonly severity: 'error' | 'warning';
	readonly path: string;
	readonly pointer: string;
	readonly message: string;
}

/** What an evaluator returns, before normalising (upstream `(score, max_score, reasons)`). */
export interface RawEvaluation {
	readonly score: number;
	readonly maxScore: number;
	readonly reasons: readonly string[];
}

/** A test's evaluation: normalised (L1) unless skipped for want of a judge. */
export type TestEvaluation =
	| {
			readonly status: 'scored';
			/** score / max_score (0 when max ≤ 0); may exceed 1 where upstream does (Shopping L7). */
			readonly score: number;
			readonly reasons: readonly string[];
			/** Notes on upstream quirks that applied, or a judge fallback that could not run. */
			readonly flags: readonly string[];
	  }
	| { readonly status: 'skipped'; readonly reasons: readonly string[] };

/** Asks the judge model; returns its reply text. `callIndex` counts calls per test. */
export type JudgeAsk = (messages: readonly ChatMessage[]) => Promise<string>;

/** Who wrote a log line. */
export type LogRole = 'user' | 'agent' | 'system';

/** One line of the master log. `testId` is `''` for the intro and filler. */
export interface LogEntry {
	readonly role: LogRole;
	readonly testId: string;
	readonly text: string;
	/** Tokens of this text with the run's counter (0 for system lines). */
	readonly tokens: number;
	/** Virtual clock, seconds since the run started. */
	readonly clockS: number;
	readonly kind: 'intro' | 'script' | 'filler' | 'reset' | 'system' | 'agent-reset';
	readonly isQuestion?: boolean;
	/** For script lines: the index in the test's script (`script.length` for a generated question). */
	readonly line?: number;
	/** Agent replies: whether the reply was canned (filler) rather than generated. */
	readonly canned?: boolean;
}
