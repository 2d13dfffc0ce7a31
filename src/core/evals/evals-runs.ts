/**
 * The Evals page's runs, the parts that are not I/O: why Run cannot start, the record a new run
 * or a re-run stores, the settings a stored run is evaluated with, its share link's payload, the
 * tokens its samples used, the answers a resume puts in the response cache, and the page's words
 * for a shared run opened and reproduced.
 */
import type { EvalsRunRecord } from './evals-run-record';
import { responseCacheKey } from '../model/cache-key';
import type { GenerateRequest, GenerationParams, TokenUsage } from '../model/generation';
import { describeModelSpec, type TextModelSpec } from '../model/model-spec';
import { sha256Hex } from '../hash/sha256';
import { replayTextsOf, type ChosenModel } from '../run/replay-texts';
import { reproducedVerdicts, verdictsBySample } from './compare-evals-runs';
import type { EvalsSharePayload } from './evals-share-payload';
import { newRunId } from './shared/recorder';
import type { RegistryFiles } from './registry';
import type { RunEvalOptions } from './run-eval';
import { rowFromResult, type EvalsSampleRowView } from './sample-rows';
import { storedAnswers } from './stored-answers';
import type { EvalEvent, ResolvedEval, SampleResult } from './shared/types';

/** What the page knows when it says why Run cannot start (models asked only when it gets there). */
export interface EvalsRunReadiness {
	readonly running: boolean;
	readonly selected: string | null;
	readonly resolved: ResolvedEval | null;
	readonly policyProblem: () => string | null;
	/** Null when the eval needs no grader. */
	readonly graderProblem: (() => string | null) | null;
	readonly maxSamples: number | null;
}

/** Why Run cannot start, or null. */
export function evalsRunProblem(state: EvalsRunReadiness): string | null {
	if (state.running) return 'A run is going on.';
	if (!state.resolved)
		return state.selected ? 'This eval has a problem (see above).' : 'Pick an eval.';
	const policy = state.policyProblem();
	if (policy) return `Model under test: ${policy}`;
	const grader = state.graderProblem?.() ?? null;
	if (grader) return `Grader: ${grader}`;
	const { maxSamples } = state;
	if (maxSamples !== null && (!Number.isInteger(maxSamples) || maxSamples < 1)) {
		return 'Max samples must be a whole number of 1 or more (or empty for all).';
	}
	return null;
}

/** What a new Evals run stores (storage sets its status, progress, times and title). */
export type NewEvalsRun = Omit<
	EvalsRunRecord,
	'id' | 'kind' | 'title' | 'status' | 'progress' | 'updatedAt' | 'report' | 'errorMessage'
> & { readonly total: number };

/** The registry files' SHA-256 by path; `known`: hashes computed already (the parse worker's). */
export function registryHashes(
	files: RegistryFiles,
	known?: Readonly<Record<string, string>>,
): Record<string, string> {
	const hashes: Record<string, string> = {};
	for (const [path, text] of files) hashes[path] = known?.[path] ?? sha256Hex(text);
	return hashes;
}

/** The run of the picked eval on the picked models, as the page stores it when Run starts. */
export function newEvalsRun(input: {
	readonly evalName: string;
	readonly resolved: ResolvedEval;
	readonly registryHashes: Record<string, string>;
	readonly policy: ChosenModel;
	readonly grader: ChosenModel | null;
	readonly overrides: { readonly policy: GenerationParams; readonly grader: GenerationParams };
	readonly seed: number;
	readonly maxSamples: number | null;
	readonly createdAt: number;
}): NewEvalsRun {
	const { resolved, maxSamples, grader, createdAt } = input;
	return {
		evalName: input.evalName,
		spec: { registryFiles: input.registryHashes, eval: resolved },
		models: { policy: [input.policy.spec], ...(grader ? { grader: grader.spec } : {}) },
		overrides: { policy: input.overrides.policy, grader: input.overrides.grader },
		replayTexts: replayTextsOf([input.policy, grader]),
		seed: input.seed,
		...(maxSamples === null ? {} : { maxSamples }),
		runId: newRunId(new Date(createdAt)),
		createdAt,
		total:
			maxSamples === null ? resolved.samples.length : Math.min(maxSamples, resolved.samples.length),
	};
}

/** A stored run again: same eval, models, parameters and seed, under a new run id. */
export function rerunOf(old: EvalsRunRecord, createdAt: number): NewEvalsRun {
	return {
		evalName: old.evalName,
		spec: old.spec,
		models: old.models,
		overrides: old.overrides,
		replayTexts: old.replayTexts,
		seed: old.seed,
		...(old.maxSamples === undefined ? {} : { maxSamples: old.maxSamples }),
		runId: newRunId(new Date(createdAt)),
		createdAt,
		total: old.progress.total,
	};
}

/** The settings a stored run is evaluated with (models, callbacks and signal aside). */
export function evalRunSettings(
	record: EvalsRunRecord,
): Pick<RunEvalOptions, 'seed' | 'maxSamples' | 'runId' | 'createdBy' | 'concurrency'> {
	return {
		seed: record.seed,
		...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
		runId: record.runId,
		createdBy: 'benchtop',
		// One at a time keeps the events in a fixed order.
		concurrency: 1,
	};
}

/** A stored sample as the share link and the results read it. */
interface StoredSample {
	readonly sampleId: string;
	readonly position: number;
	readonly result: SampleResult;
	readonly events: readonly EvalEvent[];
}

/** What a stored run's share link carries: eval, model specs, parameters, each sample's verdict. */
export function evalsSharePayloadOf(
	record: EvalsRunRecord,
	samples: readonly StoredSample[],
): EvalsSharePayload {
	return {
		v: 1,
		evalName: record.evalName,
		eval: record.spec.eval,
		models: record.models,
		overrides: record.overrides,
		replayTexts: record.replayTexts,
		seed: record.seed,
		...(record.maxSamples === undefined ? {} : { maxSamples: record.maxSamples }),
		verdicts: verdictsBySample(
			samples.map((sample) => rowFromResult(sample.result, sample.position)),
		),
	};
}

/** Tokens a sample's events report (`usage.total_tokens` of each). */
export function eventTokens(events: readonly EvalEvent[]): number {
	let tokens = 0;
	for (const event of events) {
		const usage = event.data.usage as { total_tokens?: number } | undefined;
		if (typeof usage?.total_tokens === 'number') tokens += usage.total_tokens;
	}
	return tokens;
}

/** A stored answer as the response cache keeps it (a `CachedResponse`). */
export interface StoredAnswerEntry {
	readonly key: string;
	readonly model: string;
	readonly request: GenerateRequest;
	readonly completion: string;
	readonly finishReason: 'stop';
	readonly usage?: TokenUsage;
	readonly createdAt: string;
}

/**
 * The answers of `role` in stored samples as response cache entries of `spec`, so a resume
 * answers those samples from what was stored. `createdAt`: ISO time.
 */
export function storedAnswerEntries(
	stored: readonly StoredSample[],
	spec: TextModelSpec,
	role: 'policy' | 'grader',
	overrides: GenerationParams,
	createdAt: string,
): StoredAnswerEntry[] {
	return stored.flatMap((sample) =>
		storedAnswers(sample, role, overrides).map((answer) => ({
			key: responseCacheKey(
				spec,
				answer.request,
				{ sampleId: sample.sampleId, role, callIndex: answer.callIndex },
				answer.seed,
			),
			model: describeModelSpec(spec),
			request: answer.request,
			completion: answer.completion,
			finishReason: 'stop' as const,
			...(answer.usage ? { usage: answer.usage } : {}),
			createdAt,
		})),
	);
}

/** What the page says on opening a shared run. */
export function sharedRunOpenedMessage(payload: EvalsSharePayload): string {
	return `Opened a shared run of ${payload.evalName} (${Object.keys(payload.verdicts).length} verdicts). Run it to see whether it reproduces.`;
}

/** What the page says after re-running a shared run: how many of its verdicts came out the same. */
export function reproducedMessage(
	shared: Readonly<Record<string, string>>,
	rows: readonly EvalsSampleRowView[],
): string {
	const { identical, shared: count } = reproducedVerdicts(shared, rows);
	return `Reproduced: ${identical}/${count} verdicts identical to the shared run.`;
}
