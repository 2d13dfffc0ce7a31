/**
 * OpenAI Evals in Benchtop's core: the public API for the CLI (`oaieval`) and the app's Evals page.
 * Read a registry from files, resolve an eval, run it on `TextModel`s, write and read the log.
 */
export type * from './shared/types';
export { EvalsError, formatLocation } from './shared/errors';
export { EVALS_DIVERGENCES, type EvalsDivergence } from './divergences';
export { DEFAULT_ANSWER_PROMPTS, parseAnswerPrompts } from './answer-prompts';
export { BUILTIN_MODELGRADED_SPECS } from './modelgraded-specs';
export { parseSamplesJsonl } from './samples-jsonl';
export { ModelGradedSpecSchema, parseModelGradedSpec } from './read-modelgraded-spec';
export {
	listEvalNames,
	readRegistry,
	readSamplesFromRegistry,
	readSamplesLocated,
	registryFiles,
	resolveEval,
	type Registry,
	type RegistryEntry,
	type RegistryFiles,
} from './registry';
export {
	TEMPLATES,
	TEMPLATE_CLASSES,
	checkFuzzyMatch,
	checkIncludes,
	checkJsonMatch,
	checkMatch,
	f1Score,
	fuzzyMatch,
	jsonMatch,
	normalizeAnswer,
	templateOf,
	type EvalTemplate,
} from './templates';
export { ChatMessageSchema, isChatLike, parseChat, readPrompt } from './shared/chat-prompt';
export {
	memoryRecorder,
	newRunId,
	preciseNow,
	pythonUtcTimestamp,
	type EvalRecorder,
	type SampleRecorder,
} from './shared/recorder';
export { accuracy, bootstrapAccuracyStd, numpyMean } from './shared/metrics';
export {
	INVALID_CHOICE,
	aggregateGraded,
	appendAnswerPrompt,
	buildGraderPrompt,
	choiceScore,
	choiceStrings,
	choicesToText,
	parseGraderChoice,
	promptFnParams,
	scrubFormatting,
} from './shared/model-graded';
export { PythonRandom, sampleRandom, shuffledSampleIndices } from '../python/python-random';
export { FLOAT_KEYS, pythonFloatRepr, pythonJsonDumps } from '../python/python-text';
export {
	DEFAULT_EVAL_SEED,
	buildFinalReport,
	promptForModel,
	runEval,
	type EvalRunResult,
	type RunEvalOptions,
} from './run-eval';
export {
	buildRunSpec,
	commandLine,
	formatFinalReport,
	formatFinalReportLine,
	formatLogEvent,
	readOaievalLog,
	writeOaievalLog,
	type OaievalLog,
} from './oaieval-log';
export {
	buildInspectLog,
	inspectLogOfStored,
	inspectStopReason,
	type InspectEvalLog,
	type InspectMessage,
	type InspectSample,
	type InspectScore,
} from './inspect-log';
export {
	filterRows,
	graderLines,
	isFailure,
	rowFromResult,
	rowsFromEvents,
	samplesCsv,
	showWhitespace,
	verdictOf,
	type EvalsCallView,
	type EvalsRowFilter,
	type EvalsRowSort,
	type EvalsSampleRowView,
} from './sample-rows';
export {
	compareEvalsRuns,
	reproducedVerdicts,
	verdictsBySample,
	type EvalsComparedSample,
} from './compare-evals-runs';
export {
	EDITABLE_PARAMS,
	PARAM_LABELS,
	PROVIDER_DEFAULT_REPLACED,
	isNotUpstream,
	maxTokensNote,
	maxTokensSent,
	mergeParams,
	paramsSentOf,
	providerDefaultReplaced,
	upstreamParams,
	withAppDefaults,
	withOverride,
	withParamOverrides,
	type EditableParam,
	type MaxTokensSent,
	type MaxTokensSource,
	type RoleParamsSent,
} from './generation-overrides';
export {
	EVALS_SHARE_VERSION,
	decodeEvalsShare,
	encodeEvalsShare,
	type EvalsSharePayload,
} from './evals-share-payload';
export { registryPathOf } from './registry-path';
export { dedupeProblems, problemOf, type EvalsProblem } from './evals-problems';
export {
	clipText,
	etaText,
	formatMetricValue,
	idealCell,
	metricLabel,
	paramValueText,
	reportMetricText,
	splitAtChoice,
	verdictCell,
} from './evals-display';
export {
	PASTE_TEMPLATES,
	evalCards,
	evalChoices,
	isRegistryFileName,
	isRegistryZipEntry,
	pastedRegistryEntries,
	type EvalChoice,
	type EvalsCard,
} from './registry-input';
export { storedAnswers, type StoredAnswer } from './stored-answers';
export {
	shownRunOfLog,
	shownRunOfStored,
	type EvalsShownRun,
	type StoredEvalsRun,
} from './shown-run';
export {
	EVALS_RUN_BUNDLE_FORMAT,
	buildEvalsRunBundle,
	readEvalsRunBundle,
	serializeEvalsRunBundle,
	shownRunOfBundle,
	type EvalsBundleSample,
	type EvalsRunBundle,
	type PortableEvalsRun,
} from './evals-run-bundle';
