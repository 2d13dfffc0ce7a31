/**
 * Public API of the long-term-memory (GoodAI LTM benchmark) core: load definitions, run them
 * through the pure scheduler (or the `runLtm` driver), score, and report. Pure TypeScript: agent
 * and judge are `TextModel`s; storage, tokenizers and files belong to the callers.
 */

/** Plain data: test definitions, config, waits, evaluations, diagnostics. */
export type {
	BuiltInEvaluatorId,
	DynamicProgram,
	DynamicStep,
	EvaluatorSpec,
	GenericRule,
	JsonValue,
	JudgeCheck,
	JudgeSpec,
	LtmBenchmark,
	LtmConfig,
	LtmDiagnostic,
	LtmTestDefinition,
	LtmWait,
	RuleCheck,
	TestEvaluation,
	WatchSpec,
} from './shared/types';
/** Every built-in evaluator id accepted in `ltm-suite.json`. */
export { BUILT_IN_EVALUATORS } from './shared/types';

/** Datasets known by name (upstream dataset name ↔ config name ↔ evaluator, our reset messages). */
export { LTM_DATASETS, findLtmDataset, type LtmDatasetInfo } from './datasets';

/** Upstream definitions (`<Dataset Name>/<id>.def.json` + `config.yml`) from a `{path → text}` map; default waits (L2). */
export {
	loadLtmDefinitions,
	defaultWaits,
	scriptTokens,
	estimateTokens,
	DEFAULT_MEMORY_SPAN,
	type CountTokens,
	type LoadDefinitionsOptions,
	type LoadResult,
} from './definitions';

/** Definitions or an ltm-suite.json from a zip. */
export { loadLtmZip } from './zip-input';

/** Our single-file format `ltm-suite.json`, validated with located errors. */
export { loadLtmSuite, type LoadSuiteOptions } from './ltm-suite';

/** The scheduler state machine: `createLtmRun` → loop { `nextAction` → do it → `applyResult` }. State is JSON; its log is append-only. */
export {
	createLtmRun,
	nextAction,
	applyResult,
	testsInRunOrder,
	tokensToWait,
	areCompatible,
	questionsAndResponses,
	INTRO_MESSAGE,
	UNSUPPORTED_DYNAMIC,
	type LtmAction,
	type LtmActionResult,
	type LtmEnvironment,
	type LtmRunOptions,
	type LtmRunState,
	type LogEntry,
	type TestOutcome,
	type TestProgress,
} from './scheduler';

/** A state saved in parts (checkpoint, append-only log, tests), and a whole state of earlier releases. */
export {
	LTM_CHECKPOINT_FORMAT,
	LtmStateReadError,
	checkpointOf,
	stateFromCheckpoint,
	readSavedLtmState,
	readSavedLtmTests,
	readSavedLtmLog,
	ltmLogLines,
	type LtmRunCheckpoint,
	type SavedLtmState,
} from './run-state-checkpoint';

/** The driver over TextModel agent and judge, with per-step events and resume. */
export {
	runLtm,
	agentHistory,
	agentSampleId,
	agentCallIndex,
	LtmCancelledError,
	type RunLtmOptions,
	type LtmRunEvent,
} from './run-ltm';

/** Judge steps of dynamic tests: upstream `ask_llm` parameters and the answer's reading. */
export { JUDGE_PARAMS, parseJudgeAnswer, valueAtKey, isYes } from './dynamic-test';

/** The Restaurant built-in dynamic test (`{"type": "restaurant"}` in an ltm-suite.json) and its menu. */
export { RESTAURANT_MAX_SCORE, type RestaurantState } from './restaurant';
export { RESTAURANT_MENU, menuText, type MenuItem, type MenuSection } from './restaurant-menu';

/** Which tests cannot be scored without a judge model (static and dynamic, Restaurant included). */
export { testNeedsJudge, testsNeedingJudge } from './needs-judge';

/** Memory share links: definitions, model specs, span, isolation and per-test scores with a fingerprint. */
export {
	encodeLtmShare,
	decodeLtmShare,
	ltmScoresOf,
	ltmScoresFingerprint,
	compareLtmScores,
	LTM_SHARE_VERSION,
	type LtmScores,
	type LtmSharePayload,
	type LtmReproduction,
} from './share-payload';

/** Scoring of one finished static test (normalised, L1; skipped without a needed judge). */
export { evaluateTest, NEEDS_JUDGE_REASON } from './evaluate-test';
/** The evaluator of a built-in id or generic rule. */
export { evaluatorFor } from './evaluators';
export type { Evaluator, EvaluatorInput, EvaluatorVerdict, Judge } from './evaluators/evaluator';

/** Reports: upstream TestResult files and the summary (L14). */
export {
	buildLtmReport,
	buildLtmSummary,
	resultFilePath,
	summarizeScores,
	meanAndStd,
	formatLogTime,
	type LtmReport,
	type LtmSummaryJson,
	type LtmTestReport,
	type TestResultJson,
} from './report';

/** Filler trivia (ours, or an upstream-format file) and the canned reply (L4). */
export {
	buildFiller,
	ourTriviaItem,
	readUpstreamTrivia,
	FILLER_INSTRUCTION,
	type TriviaItem,
} from './filler';

/** goodai-ltm's `sanitize_and_parse_json`, ported (with Python's json decoder errors). */
export { sanitizeAndParseJson, JsonSanitizeError } from './shared/sanitize-json';

/** The Jokes dataset's temporal question (L15). */
export { jokesQuestion } from './evaluators/jokes';

/** GPT-generated tests frozen to `.def.json` (prompt file, our generation wording, up to 10 attempts). */
export {
	readGenerationPrompt,
	generateDefinition,
	generationMessages,
	definitionFromGenerated,
	type DefinitionFile,
	type GenerationPromptFile,
} from './gpt-generated';

/** Known, documented differences from upstream runs (also in every summary). */
export { LTM_DIVERGENCES } from './divergences';

/** The run bundle (benchtop-ltm-run/1): a run's record, state, results and summary, for export/import. */
export {
	LTM_RUN_BUNDLE_FORMAT,
	buildLtmRunBundle,
	readLtmRunBundle,
	serializeLtmRunBundle,
	type LtmRunBundle,
	type PortableLtmRun,
} from './ltm-run-bundle';
