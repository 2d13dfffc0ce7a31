/**
 * The Evals run itself, for the page's session: the run's models built (a local one loaded, the
 * stored samples' answers put in the response cache so a resume answers from them), the eval run,
 * and each sample stored with the run's progress as it finishes (all writes awaited). Not UI
 * state: the session hears of progress through `EvalsRunHooks`.
 */
import { eventTokens, evalRunSettings, storedAnswerEntries } from '../../../core/evals/evals-runs';
import {
	runEval,
	withParamOverrides,
	type EvalRunResult,
	type RunEvalOptions,
} from '../../../core/evals';
import type { EvalEvent, SampleResult } from '../../../core/evals/shared/types';
import type { TextModel } from '../../../core/model/generation';
import type { TextModelSpec } from '../../../core/model/model-spec';
import { withResponseCache, type ResponseCacheStore } from '../../../providers/response-cache';
import {
	saveEvalsSample,
	writeEvalsRunUpdate,
	type EvalsRunRecord,
	type EvalsSampleRecord,
} from '../../../storage/evals/evals-runs-repository';
import type { InferenceClientApi } from '../../../worker/protocol';
import { LocalWorkerModel } from '../../io/local-worker-model';
import type { EndpointSettings } from '../shared/endpoint-settings.svelte';
import { modelFromSpec } from '../shared/text-models.svelte';
import type { TaskProgress } from '../shared/task-session.svelte';

/** What the run needs from the page's session, and how it tells it of progress. */
export interface EvalsRunHooks {
	readonly client: InferenceClientApi;
	readonly endpoint: EndpointSettings;
	readonly now: () => number;
	readonly setProgress: (progress: TaskProgress) => void;
	/** The progress as last set (what is stored with each sample). */
	readonly progress: () => TaskProgress;
}

/** One run's inputs: its record, the samples stored before, the cache it answers from. */
interface RunInputs {
	readonly record: EvalsRunRecord;
	readonly stored: readonly EvalsSampleRecord[];
	readonly cache: ResponseCacheStore;
	readonly signal: AbortSignal;
}

/** Runs a stored run's samples; `started`: when the run started, less the time spent before. */
export async function runEvalsSamples(
	run: RunInputs,
	started: number,
	hooks: EvalsRunHooks,
): Promise<EvalRunResult> {
	const { record, signal } = run;
	const recorder = sampleRecorder(record, started, hooks);
	try {
		const policySpec = record.models.policy[0];
		if (!policySpec) throw new Error('This run names no model under test.');
		const policy = await buildModel(run, policySpec, 'policy', hooks);
		const grader = record.models.grader
			? await buildModel(run, record.models.grader, 'grader', hooks)
			: undefined;
		const result = await runEval(record.spec.eval, {
			policy: [policy],
			...(grader ? { grader } : {}),
			...evalRunSettings(record),
			signal,
			onSample: recorder.onSample,
			onEvent: recorder.onEvent,
		});
		await Promise.all(recorder.pending);
		return result;
	} catch (error) {
		await Promise.allSettled(recorder.pending);
		throw error;
	}
}

/** A model of the run (policy or grader): loaded, its stored answers put in the cache. */
async function buildModel(
	run: RunInputs,
	spec: TextModelSpec,
	role: 'policy' | 'grader',
	hooks: EvalsRunHooks,
): Promise<TextModel> {
	const { record, cache } = run;
	const context = {
		client: hooks.client,
		endpoint: hooks.endpoint,
		replayTexts: record.replayTexts,
	};
	const overrides = role === 'policy' ? record.overrides.policy : record.overrides.grader;
	const model = modelFromSpec(spec, context);
	if (model instanceof LocalWorkerModel) await model.load(run.signal);
	const createdAt = new Date(hooks.now()).toISOString();
	for (const entry of storedAnswerEntries(run.stored, spec, role, overrides, createdAt)) {
		await cache.put(entry);
	}
	return withParamOverrides(withResponseCache(model, cache, { spec }), overrides);
}

/** Keeps each sample's events and stores the sample (and the progress) when it finishes. */
function sampleRecorder(
	record: EvalsRunRecord,
	started: number,
	hooks: EvalsRunHooks,
): Required<Pick<RunEvalOptions, 'onSample' | 'onEvent'>> & { pending: Promise<void>[] } {
	const total = record.progress.total;
	const pending: Promise<void>[] = [];
	const sampleEvents = new Map<string, EvalEvent[]>();
	let tokens = 0;
	const store = async (sample: SampleResult, done: number): Promise<void> => {
		const events = sampleEvents.get(sample.sampleId) ?? [];
		tokens += eventTokens(events);
		hooks.setProgress({ done, total, tokens, elapsedMs: hooks.now() - started });
		await saveEvalsSample(record.id, {
			sampleId: sample.sampleId,
			position: done - 1,
			result: sample,
			events,
		});
		await writeEvalsRunUpdate(record.id, { progress: hooks.progress() });
	};
	return {
		pending,
		onSample: (sample, done) => {
			pending.push(store(sample, done));
		},
		onEvent: (event) => {
			const list = sampleEvents.get(event.sample_id) ?? [];
			list.push(event);
			sampleEvents.set(event.sample_id, list);
		},
	};
}
