/**
 * The run bundle of a long-term-memory (LTM) run: one JSON file in the `benchtop-run/2` envelope
 * (kind `ltm`) with the stored run
 * record (definitions' hashes and tests, agent and judge specs without keys, parameters, memory
 * span, isolation, status), the scheduler state (the conversation log and every test's outcome,
 * from which the report is rebuilt), the per-test results in upstream's shape and the summary.
 * Reading checks the shapes the Memory page uses (valibot) and refuses with a JSON pointer to
 * what is wrong; the rest passes through as written. Bundles of 0.1.0 (`benchtop-ltm-run/1`) are
 * read too. No I/O here.
 */
import * as v from 'valibot';
import type { LtmRunRecord } from './ltm-run-record';
import {
	IsoTimeSchema,
	RUN_BUNDLE_FORMAT,
	RunStatusSchema,
	TextModelSpecSchema,
	TimeMsSchema,
	portableModelSpec,
	readRunBundleOfKind,
	writeRunBundleText,
	type ReadBundleResult,
	type RunBundleFormat,
} from '../run/task-run-json';
import { buildLtmReport, type LtmSummaryJson, type TestResultJson } from './report';
import type { LtmRunState } from './scheduler';

/** The format of the LTM run bundles of 0.1.0, still read; bundles are now written in the
 * `benchtop-run/2` envelope with kind `ltm`. */
export const LTM_RUN_BUNDLE_FORMAT = 'benchtop-ltm-run/1';

/** The envelope's facts of LTM run bundles (the Memory page's runs). */
export const LTM_BUNDLE: RunBundleFormat = {
	kind: 'ltm',
	what: 'an LTM run bundle',
	resultsPaths: [['state'], ['results'], ['summary']],
	release: { format: LTM_RUN_BUNDLE_FORMAT },
};

/** The run record as it travels: no local id, no replay files' text. */
export type PortableLtmRun = Omit<LtmRunRecord, 'id' | 'kind' | 'title' | 'replayTexts'>;

export interface LtmRunBundle {
	readonly format: typeof RUN_BUNDLE_FORMAT;
	readonly kind: 'ltm';
	readonly run: PortableLtmRun;
	/** The scheduler state at export (absent if the run never started a step). */
	readonly state: LtmRunState | null;
	/** Upstream's result files by path (`<Dataset Name>/<example_id>_0.json`). */
	readonly results: readonly { readonly path: string; readonly result: TestResultJson }[];
	readonly summary: LtmSummaryJson | null;
}

export type ReadLtmRunBundleResult = ReadBundleResult<LtmRunBundle>;

/** The bundle of a stored run and its state (extra fields such as the local id are left out). */
export function buildLtmRunBundle(record: PortableLtmRun, state: LtmRunState | null): LtmRunBundle {
	const report = state ? buildLtmReport(state) : null;
	const opt = <K extends keyof PortableLtmRun>(key: K) =>
		record[key] === undefined ? {} : { [key]: record[key] };
	return {
		format: RUN_BUNDLE_FORMAT,
		kind: 'ltm',
		run: {
			runName: record.runName,
			definitions: { files: record.definitions.files, benchmark: record.definitions.benchmark },
			models: {
				agent: portableModelSpec(record.models.agent),
				...(record.models.judge ? { judge: portableModelSpec(record.models.judge) } : {}),
			},
			agentParams: record.agentParams,
			...opt('maxContextTokens'),
			...opt('maxMessageTokens'),
			memorySpan: record.memorySpan,
			isolated: record.isolated,
			status: record.status,
			progress: record.progress,
			createdAt: record.createdAt,
			updatedAt: record.updatedAt,
			...opt('summary'),
			...opt('errorMessage'),
		},
		state,
		results: report ? report.tests.map(({ path, result }) => ({ path, result })) : [],
		summary: report ? report.summary : (record.summary ?? null),
	};
}

/** The bundle as JSON text (tabs), sealed with its results’ SHA-256. */
export function serializeLtmRunBundle(bundle: LtmRunBundle): string {
	return writeRunBundleText(LTM_BUNDLE, bundle);
}

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Strings = v.array(v.string());

/**
 * A log entry's virtual clock, in seconds from the run's start: at most 1e10 s (317 years), so that
 * a start within the years 0000-9999 plus the clock is a time a date can hold (the log's times).
 */
const ClockSchema = v.pipe(v.number(), v.minValue(0), v.maxValue(1e10));

const SummarySchema = v.looseObject({
	run_name: v.string(),
	memory_span: v.number(),
	datasets: v.record(v.string(), v.object({ mean: v.number(), std: v.number(), tests: Count })),
	score: v.number(),
	score_std: v.number(),
	accuracy: v.number(),
	ltm: v.number(),
	speed: v.number(),
	verbosity: v.number(),
	total_tokens: v.number(),
	skipped: v.array(v.object({ test: v.string(), reason: v.string() })),
});

const ConfigSchema = v.looseObject({
	runName: v.string(),
	memorySpan: v.number(),
	isolated: v.boolean(),
});

const TestSchema = v.looseObject({
	uniqueId: v.string(),
	datasetName: v.string(),
	exampleId: v.string(),
	script: Strings,
	isQuestion: v.array(v.boolean()),
	expectedResponses: v.array(v.unknown()),
});

const StateSchema = v.looseObject({
	format: v.literal('ltm-run-state/1'),
	config: ConfigSchema,
	tests: v.array(TestSchema),
	startTime: IsoTimeSchema,
	totalTokens: v.number(),
	agentTokens: v.number(),
	agentDurationMs: v.number(),
	outcomes: v.record(
		v.string(),
		v.looseObject({
			evaluation: v.looseObject({
				status: v.string(),
				score: v.number(),
				reasons: Strings,
				flags: Strings,
			}),
			tokens: v.number(),
			characters: v.number(),
			responses: Strings,
			overrun: v.boolean(),
		}),
	),
	log: v.array(
		v.looseObject({
			role: v.picklist(['user', 'agent', 'system']),
			testId: v.string(),
			text: v.string(),
			clockS: ClockSchema,
		}),
	),
});

const BundleSchema = v.object({
	format: v.literal(RUN_BUNDLE_FORMAT),
	kind: v.literal('ltm'),
	run: v.object({
		runName: v.string(),
		definitions: v.object({
			files: v.record(v.string(), v.string()),
			benchmark: v.looseObject({ config: ConfigSchema, tests: v.array(TestSchema) }),
		}),
		models: v.object({ agent: TextModelSpecSchema, judge: v.optional(TextModelSpecSchema) }),
		agentParams: v.record(v.string(), v.unknown()),
		maxContextTokens: v.optional(Count),
		maxMessageTokens: v.optional(Count),
		memorySpan: v.number(),
		isolated: v.boolean(),
		status: RunStatusSchema,
		progress: v.object({
			testsDone: Count,
			testsTotal: Count,
			tokens: Count,
			elapsedMs: v.number(),
		}),
		createdAt: TimeMsSchema,
		updatedAt: TimeMsSchema,
		summary: v.optional(SummarySchema),
		errorMessage: v.optional(v.string()),
	}),
	state: v.nullable(StateSchema),
	results: v.array(
		v.object({
			path: v.string(),
			result: v.looseObject({ score: v.number(), tokens: v.number(), task_log: Strings }),
		}),
	),
	summary: v.nullable(SummarySchema),
});

/**
 * Reads a bundle (`benchtop-run/2` of kind `ltm`, or `benchtop-ltm-run/1`); untrusted text,
 * so every failure says where (pointer) and what.
 */
export function readLtmRunBundle(text: string): ReadLtmRunBundleResult {
	return readRunBundleOfKind<LtmRunBundle>(text, LTM_BUNDLE, BundleSchema);
}
