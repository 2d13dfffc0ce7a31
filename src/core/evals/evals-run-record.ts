/**
 * What storage keeps of an Evals run: its run record (one kind of the one run record), its
 * finished samples and its heavy input, each a stored piece of the run; and the Evals part of the
 * one resume rule. Plain, structured-cloneable data.
 */
import type { GenerationParams } from '../model/generation';
import type { TextModelSpec } from '../model/model-spec';
import { unfinishedPlan, type ResumeRule } from '../run/resume-plan';
import type { RunRecordBase } from '../run/run-types';
import type { EvalEvent, FinalReport, ResolvedEval, SampleResult } from './shared/types';

/** An Evals run (generative runs, design §3): what ran, on which models, how far, the report. */
export interface EvalsRunRecord extends RunRecordBase<'evals'> {
	readonly evalName: string;
	/** The registry files' SHA-256 by path, and the resolved eval (samples included). */
	readonly spec: { registryFiles: Record<string, string>; eval: ResolvedEval };
	/** Full model specs (never an API key): the policy model(s) and the grader. */
	readonly models: { policy: TextModelSpec[]; grader?: TextModelSpec };
	/** Generation parameters the user set over upstream's, per role (absent: upstream's). */
	readonly overrides: { policy: GenerationParams; grader: GenerationParams };
	/** Replay files' text by SHA-256, so a run on replay models resumes after a reload. */
	readonly replayTexts: Record<string, string>;
	readonly seed: number;
	readonly maxSamples?: number;
	/** The run id as upstream writes it in the log (`yymmddHHMMSS` + 8 base-32 characters). */
	readonly runId: string;
	readonly progress: { done: number; total: number; tokens: number; elapsedMs: number };
	/** The final report (metric → value) once finished. */
	readonly report?: FinalReport;
}

/** One finished sample of an Evals run; `key` is the sample id. */
export interface EvalsSampleItemRecord {
	runId: number;
	kind: 'evals-sample';
	key: string;
	/** Position in evaluation order (after the shuffle). */
	position: number;
	result: SampleResult;
	events: EvalEvent[];
	savedAt: number;
}

/** The key of an Evals run's input item. */
export const EVALS_INPUT_KEY = 'input';

/**
 * The heavy input of an Evals run (the resolved eval, every sample of the registry included, and
 * the replay files' text), kept beside the run row so the run's progress writes stay small.
 */
export interface EvalsInputItemRecord {
	readonly runId: number;
	readonly kind: 'evals-input';
	readonly key: typeof EVALS_INPUT_KEY;
	readonly spec: EvalsRunRecord['spec'];
	readonly replayTexts: EvalsRunRecord['replayTexts'];
	readonly savedAt: number;
}

/** An Evals run has work left while samples are left or its report is not written. */
export const EVALS_RESUME: ResumeRule<
	Pick<EvalsRunRecord, 'status' | 'progress' | 'report'>,
	'evals'
> = {
	kind: 'evals',
	unit: 'sample',
	noun: 'samples',
	resumePoint: 'the last finished sample',
	resumePlan: ({ status, progress: { done, total }, report }) =>
		unfinishedPlan(status, done, total, done < total || report === undefined),
};
