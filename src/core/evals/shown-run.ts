/**
 * What the Evals results panel shows: a stored run of this browser (its record and finished
 * samples) or a past run read from an oaieval log, as one shape.
 */
import type { GenerationParams } from '../model/generation';
import { describeModelSpec, type TextModelSpec } from '../model/model-spec';
import {
	PROVIDER_DEFAULT_REPLACED,
	paramsSentOf,
	providerDefaultReplaced,
	type RoleParamsSent,
} from './generation-overrides';
import { buildRunSpec, type OaievalLog } from './oaieval-log';
import { pythonUtcTimestamp } from './shared/recorder';
import { rowFromResult, rowsFromEvents, type EvalsSampleRowView } from './sample-rows';
import type {
	EvalEvent,
	FinalReport,
	ResolvedEval,
	RunSpec,
	SampleResult,
	TemplateKind,
} from './shared/types';

/** What the results panel shows: a run of this browser or an imported log. */
export interface EvalsShownRun {
	readonly source: 'run' | 'log';
	readonly title: string;
	readonly evalName: string;
	readonly kind: TemplateKind | null;
	readonly models: readonly string[];
	readonly report: FinalReport | null;
	readonly rows: readonly EvalsSampleRowView[];
	readonly events: readonly EvalEvent[];
	readonly spec: RunSpec;
	readonly seed: number | null;
	/** Per role, the parameters sent and where their `max_tokens` came from (none for a log). */
	readonly paramsSent: readonly RoleParamsSent[];
	/** `parity: provider default replaced` where the app's `max_tokens` stood in for none. */
	readonly parityMarks: readonly string[];
	readonly runRecordId?: number;
	/** The name a run of this browser was picked by (an alias or the eval's id). */
	readonly pickedName?: string;
	readonly status?: string;
}

/** The fields of a stored Evals run the panel reads. */
export interface StoredEvalsRun {
	readonly id: number;
	readonly evalName: string;
	readonly spec: { readonly eval: ResolvedEval };
	readonly models: { readonly policy: readonly TextModelSpec[]; readonly grader?: TextModelSpec };
	readonly overrides: { readonly policy: GenerationParams; readonly grader: GenerationParams };
	readonly seed: number;
	readonly maxSamples?: number;
	readonly runId: string;
	readonly status: string;
	readonly createdAt: number;
	readonly report?: FinalReport;
}

/** A stored run with its finished samples (in evaluation order), as the panel shows it. */
export function shownRunOfStored(
	record: StoredEvalsRun,
	samples: readonly {
		readonly position: number;
		readonly result: SampleResult;
		readonly events: readonly EvalEvent[];
	}[],
): EvalsShownRun {
	const models = [
		...record.models.policy.map(describeModelSpec),
		...(record.models.grader ? [describeModelSpec(record.models.grader)] : []),
	];
	const paramsSent = paramsSentOf(
		record.spec.eval,
		record.overrides,
		Boolean(record.models.grader),
	);
	return {
		source: 'run',
		title: `${record.evalName} on ${models.join(', ')}`,
		evalName: record.spec.eval.name,
		kind: record.spec.eval.kind,
		models,
		report: record.report ?? null,
		rows: samples.map((sample) => rowFromResult(sample.result, sample.position)),
		events: samples.flatMap((sample) => sample.events),
		spec: buildRunSpec({
			completionFns: models,
			evalSpec: record.spec.eval,
			runId: record.runId,
			createdAt: pythonUtcTimestamp(new Date(record.createdAt)),
			seed: record.seed,
			...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
			command: `oaieval ${models.join(',')} ${record.evalName}`,
			createdBy: 'benchtop',
		}),
		seed: record.seed,
		paramsSent,
		parityMarks: providerDefaultReplaced(paramsSent) ? [PROVIDER_DEFAULT_REPLACED] : [],
		runRecordId: record.id,
		pickedName: record.evalName,
		status: record.status,
	};
}

/** A past run read from an oaieval log (upstream's or ours) named `fileName`. */
export function shownRunOfLog(log: OaievalLog, fileName: string): EvalsShownRun {
	const runConfig = log.spec.run_config as { seed?: unknown };
	return {
		source: 'log',
		title: `${log.spec.eval_name} (log ${fileName})`,
		evalName: log.spec.eval_name,
		kind: null,
		models: log.spec.completion_fns,
		report: log.finalReport ?? null,
		rows: rowsFromEvents(log.events),
		events: log.events,
		spec: log.spec,
		seed: typeof runConfig.seed === 'number' ? runConfig.seed : null,
		paramsSent: [],
		parityMarks: [],
	};
}
