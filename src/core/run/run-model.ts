/**
 * How a run's model is named for people: a local model by its id (revision, dtype, backend), a
 * model behind an endpoint by `openai/<model>` and its base URL. Never a key (specs hold none).
 */
import { formatModelSpec } from '../model/model-spec';
import type { RunModelSpec } from './run-types';

/** Whether the run scored through an OpenAI-compatible endpoint. */
export function isEndpointRun(
	spec: RunModelSpec,
): spec is Extract<RunModelSpec, { source: 'openai' }> {
	return spec.source === 'openai';
}

/** The model's name: a local model's id (`gpt2-en-small`), an endpoint's `openai/<model>`. */
export function runModelName(spec: RunModelSpec): string {
	return spec.source === 'openai' ? formatModelSpec(spec) : spec.id;
}

/**
 * The model in one line for tables and headings: `gpt2-en-small@rev (bundled, fp32)`, or
 * `openai/<model> (endpoint http://host:8000/v1)`.
 */
export function describeRunModel(spec: RunModelSpec): string {
	if (spec.source === 'openai') return `${runModelName(spec)} (endpoint ${spec.baseUrl})`;
	const revision = spec.revision ? `@${spec.revision}` : '';
	return `${spec.id}${revision} (${spec.source}, ${spec.dtype})`;
}

/** Where the model ran: a local model's backend (`wasm`, `webgpu`, `node-cpu`), an endpoint's base URL. */
export function runModelPlace(spec: RunModelSpec): string {
	return spec.source === 'openai' ? spec.baseUrl : spec.backend;
}

/**
 * What tells runs of the same model name apart, in label order: a local model's revision, dtype
 * and backend; an endpoint's base URL. Each part is written as it joins the name.
 */
export function runModelDetails(spec: RunModelSpec): { key: string; text: string }[] {
	if (spec.source === 'openai') return [{ key: 'baseUrl', text: ` @ ${spec.baseUrl}` }];
	return [
		{ key: 'revision', text: spec.revision ? `@${spec.revision}` : '' },
		{ key: 'dtype', text: ` ${spec.dtype}` },
		{ key: 'backend', text: ` ${spec.backend}` },
	];
}

/** Every fact of the model for a list of runs: `id@rev · fp32 · wasm`, `openai/m · http://…/v1`. */
export function listRunModelFacts(spec: RunModelSpec): string[] {
	if (spec.source === 'openai') return [runModelName(spec), spec.baseUrl];
	const revision = spec.revision ? `@${spec.revision}` : '';
	return [`${spec.id}${revision}`, spec.dtype, spec.backend];
}
