/**
 * The models of a stored Memory run, loaded: the agent (its calls and tokens reported for the
 * live conversation, never cached) and the judge (its answers cached across reloads).
 */
import { streamingModel } from '../../../core/ltm/live-reply';
import type { LtmRunRecord } from '../../../core/kinds/run-record';
import type { ModelCall, TextModel } from '../../../core/model/generation';
import type { TextModelSpec } from '../../../core/model/model-spec';
import { withResponseCache, type ResponseCacheStore } from '../../../providers/response-cache';
import type { InferenceClientApi } from '../../../worker/protocol';
import { LocalWorkerModel } from '../../io/local-worker-model';
import type { EndpointSettings } from '../shared/endpoint-settings.svelte';
import { modelFromSpec } from '../shared/text-models.svelte';

/** What the run's models are built with, and where the agent's calls and tokens go. */
export interface LtmModelsContext {
	readonly client: InferenceClientApi;
	readonly endpoint: EndpointSettings;
	readonly cache: ResponseCacheStore;
	readonly signal: AbortSignal;
	readonly onStart: (call: ModelCall) => void;
	readonly onToken: (text: string) => void;
}

/** The run's agent and judge (if it has one), local models loaded. */
export async function buildLtmModels(
	record: LtmRunRecord,
	context: LtmModelsContext,
): Promise<{ agent: TextModel; judge?: TextModel }> {
	const specContext = {
		client: context.client,
		endpoint: context.endpoint,
		replayTexts: record.replayTexts,
	};
	const build = async (spec: TextModelSpec): Promise<TextModel> => {
		const model = modelFromSpec(spec, specContext);
		if (model instanceof LocalWorkerModel) await model.load(context.signal);
		return model;
	};
	// The agent is not cached (its state is stored after every reply, and a cached reply
	// would make the speed figure meaningless); the judge's calls are, by test and call
	// index, so a judge interrupted mid-test is not asked again after a reload.
	const agent = streamingModel(await build(record.models.agent), context.onStart, context.onToken);
	const judgeSpec = record.models.judge;
	if (!judgeSpec) return { agent };
	return {
		agent,
		judge: withResponseCache(await build(judgeSpec), context.cache, { spec: judgeSpec }),
	};
}
