/**
 * The run bundle of an Evals run: one JSON file in the `benchtop-run/2` envelope (kind `evals`)
 * with the stored run record (eval name,
 * resolved spec, model specs (never a key), parameters, seed, status, report) and every finished
 * sample (result and recorder events), for export and import on another machine. Reading checks
 * the shapes the results panel uses (valibot) and refuses with a JSON pointer to what is wrong;
 * the rest passes through as written. Bundles of 0.1.0 (`benchtop-evals-run/1`) are read too.
 * No I/O here.
 */
import * as v from 'valibot';
import type { EvalsRunRecord } from './evals-run-record';
import {
	GENERATION_PARAMS_ENTRIES,
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
import { shownRunOfStored, type EvalsShownRun } from './shown-run';
import type { EvalEvent, SampleResult } from './shared/types';

/** The format of the Evals run bundles of 0.1.0, still read; bundles are now written in the
 * `benchtop-run/2` envelope with kind `evals`. */
export const EVALS_RUN_BUNDLE_FORMAT = 'benchtop-evals-run/1';

/** The envelope's facts of Evals run bundles. */
export const EVALS_BUNDLE: RunBundleFormat = {
	kind: 'evals',
	what: 'an Evals run bundle',
	resultsPaths: [['samples'], ['run', 'report']],
	release: { format: EVALS_RUN_BUNDLE_FORMAT },
};

/** The run record as it travels: no local id, no replay files' text. */
export type PortableEvalsRun = Omit<EvalsRunRecord, 'id' | 'kind' | 'title' | 'replayTexts'>;

/** One finished sample in evaluation order. */
export interface EvalsBundleSample {
	readonly sampleId: string;
	readonly position: number;
	readonly result: SampleResult;
	readonly events: readonly EvalEvent[];
}

export interface EvalsRunBundle {
	readonly format: typeof RUN_BUNDLE_FORMAT;
	readonly kind: 'evals';
	readonly run: PortableEvalsRun;
	readonly samples: readonly EvalsBundleSample[];
}

export type ReadEvalsRunBundleResult = ReadBundleResult<EvalsRunBundle>;

/** The bundle of a stored run (extra fields such as the local id or replay texts are left out). */
export function buildEvalsRunBundle(
	record: PortableEvalsRun,
	samples: readonly EvalsBundleSample[],
): EvalsRunBundle {
	return {
		format: RUN_BUNDLE_FORMAT,
		kind: 'evals',
		run: {
			evalName: record.evalName,
			spec: { registryFiles: record.spec.registryFiles, eval: record.spec.eval },
			models: {
				policy: record.models.policy.map(portableModelSpec),
				...(record.models.grader ? { grader: portableModelSpec(record.models.grader) } : {}),
			},
			overrides: record.overrides,
			seed: record.seed,
			...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
			runId: record.runId,
			status: record.status,
			progress: record.progress,
			createdAt: record.createdAt,
			updatedAt: record.updatedAt,
			...(record.report === undefined ? {} : { report: record.report }),
			...(record.errorMessage === undefined ? {} : { errorMessage: record.errorMessage }),
		},
		samples: [...samples]
			.sort((a, b) => a.position - b.position)
			.map(({ sampleId, position, result, events }) => ({ sampleId, position, result, events })),
	};
}

/** A metric in JSON: a number, or a string for the values JSON has no literal for. */
function metricToJson(value: number): number | string {
	if (Number.isFinite(value)) return value;
	return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

/** The bundle as JSON text (tabs), sealed with its results’ SHA-256; non-finite report values are
 * written as strings. */
export function serializeEvalsRunBundle(bundle: EvalsRunBundle): string {
	const { report } = bundle.run;
	const run =
		report === undefined
			? bundle.run
			: {
					...bundle.run,
					report: Object.fromEntries(
						Object.entries(report).map(([key, value]) => [key, metricToJson(value)]),
					),
				};
	return writeRunBundleText(EVALS_BUNDLE, { ...bundle, run });
}

const Metric = v.union([
	v.number(),
	v.pipe(
		v.picklist(['NaN', 'Infinity', '-Infinity']),
		v.transform((text) => Number(text)),
	),
]);

const Params = v.looseObject(GENERATION_PARAMS_ENTRIES);

const ResolvedEvalSchema = v.looseObject({
	name: v.string(),
	requestedName: v.string(),
	className: v.string(),
	kind: v.picklist(['match', 'includes', 'fuzzy_match', 'json_match', 'modelgraded']),
	args: v.record(v.string(), v.unknown()),
	file: v.string(),
	samples: v.array(v.record(v.string(), v.unknown())),
});

const EventSchema = v.looseObject({
	run_id: v.string(),
	event_id: v.number(),
	sample_id: v.string(),
	type: v.string(),
	data: v.record(v.string(), v.unknown()),
	created_by: v.string(),
	created_at: v.string(),
});

const SampleResultSchema = v.looseObject({
	sampleId: v.string(),
	index: v.number(),
	sample: v.record(v.string(), v.unknown()),
	calls: v.array(v.unknown()),
	completion: v.string(),
	correct: v.optional(v.boolean()),
	graded: v.optional(
		v.looseObject({
			choice: v.string(),
			score: v.nullable(v.number()),
			graderOutput: v.string(),
			decidingLine: v.number(),
		}),
	),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const BundleSchema = v.object({
	format: v.literal(RUN_BUNDLE_FORMAT),
	kind: v.literal('evals'),
	run: v.object({
		evalName: v.string(),
		spec: v.object({
			registryFiles: v.record(v.string(), v.string()),
			eval: ResolvedEvalSchema,
		}),
		models: v.object({
			policy: v.pipe(v.array(TextModelSpecSchema), v.minLength(1)),
			grader: v.optional(TextModelSpecSchema),
		}),
		overrides: v.object({ policy: Params, grader: Params }),
		seed: v.number(),
		maxSamples: v.optional(Count),
		runId: v.string(),
		status: RunStatusSchema,
		progress: v.object({ done: Count, total: Count, tokens: Count, elapsedMs: v.number() }),
		createdAt: TimeMsSchema,
		updatedAt: TimeMsSchema,
		report: v.optional(v.record(v.string(), Metric)),
		errorMessage: v.optional(v.string()),
	}),
	samples: v.array(
		v.object({
			sampleId: v.string(),
			position: Count,
			result: SampleResultSchema,
			events: v.array(EventSchema),
		}),
	),
});

/**
 * Reads a bundle (`benchtop-run/2` of kind `evals`, or `benchtop-evals-run/1`); untrusted text,
 * so every failure says where (pointer) and what.
 */
export function readEvalsRunBundle(text: string): ReadEvalsRunBundleResult {
	return readRunBundleOfKind<EvalsRunBundle>(text, EVALS_BUNDLE, BundleSchema);
}

/** An imported bundle as the results panel shows it: the past run, not a run of this browser. */
export function shownRunOfBundle(bundle: EvalsRunBundle, fileName: string): EvalsShownRun {
	const { runRecordId: _local, ...shown } = shownRunOfStored(
		{ ...bundle.run, id: 0 },
		bundle.samples,
	);
	void _local;
	return { ...shown, source: 'log', title: `${shown.title} (bundle ${fileName})` };
}
