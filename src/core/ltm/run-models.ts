/**
 * What an `ltm run` was started with (`run-models.json`): the agent and judge as given and as
 * resolved (never an API key), and the agent parameters; read back with valibot and compared with
 * what a resume is given, field by field. No I/O here.
 */
import * as v from 'valibot';
import type { TextModelSpec } from '../model/model-spec';
import { LtmStateReadError } from './run-state-checkpoint';

export const LTM_RUN_MODELS_FORMAT = 'ltm-run-models/1';

/** A model of a run: the spec string as given, and the spec it resolved to. */
export interface LtmRunModel {
	readonly given: string;
	readonly spec: TextModelSpec;
}

/** The agent parameters of a run; null: not given (the default). */
export interface LtmRunParams {
	readonly maxTokens: number | null;
	readonly temperature: number | null;
	readonly contextTokens: number | null;
	readonly maxMessageTokens: number | null;
}

/** The record of a run's models and parameters, as `run-models.json` holds it. */
export interface LtmRunModels {
	readonly format: typeof LTM_RUN_MODELS_FORMAT;
	readonly agent: LtmRunModel;
	/** null: the run has no judge. */
	readonly judge: LtmRunModel | null;
	readonly params: LtmRunParams;
}

/** One field whose stored and given values differ (`agent sha256`, `temperature`). */
export interface LtmRunModelsDifference {
	readonly field: string;
	readonly stored: string;
	readonly given: string;
}

const SpecSchema = v.variant('source', [
	v.strictObject({
		source: v.picklist(['bundled', 'hub', 'local']),
		id: v.string(),
		revision: v.optional(v.string()),
		dtype: v.picklist(['fp32', 'fp16', 'q8']),
		backend: v.picklist(['webgpu', 'wasm', 'node-cpu']),
	}),
	v.strictObject({ source: v.literal('openai'), model: v.string(), baseUrl: v.string() }),
	v.strictObject({
		source: v.literal('replay'),
		file: v.string(),
		sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/u)),
	}),
]);

const ModelSchema = v.strictObject({ given: v.string(), spec: SpecSchema });
const Param = v.nullable(v.pipe(v.number(), v.minValue(0)));

const RunModelsSchema = v.strictObject({
	format: v.literal(LTM_RUN_MODELS_FORMAT),
	agent: ModelSchema,
	judge: v.nullable(ModelSchema),
	params: v.strictObject({
		maxTokens: Param,
		temperature: Param,
		contextTokens: Param,
		maxMessageTokens: Param,
	}),
});

/**
 * Reads a `run-models.json` text (untrusted).
 * @throws LtmStateReadError naming the pointer of the first problem.
 */
export function readLtmRunModels(text: string): LtmRunModels {
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch (error) {
		throw new LtmStateReadError(`the run's models: not JSON (${(error as Error).message})`);
	}
	const read = v.safeParse(RunModelsSchema, json);
	if (!read.success) {
		const issue = read.issues[0];
		const at = v.getDotPath(issue) ?? '(top)';
		throw new LtmStateReadError(`the run's models, at ${at}: ${issue.message}`);
	}
	return read.output as LtmRunModels;
}

/** What identifies a spec, field by field (the file name of a replay does not: its hash does). */
function identityFields(spec: TextModelSpec): Record<string, string> {
	switch (spec.source) {
		case 'openai':
			return { source: 'openai', 'base URL': spec.baseUrl, model: spec.model };
		case 'replay':
			return { source: 'replay', sha256: spec.sha256 };
		default:
			return {
				source: spec.source,
				id: spec.id,
				revision: spec.revision ?? '(none)',
				dtype: spec.dtype,
			};
	}
}

function modelDifferences(
	role: 'agent' | 'judge',
	stored: LtmRunModel | null,
	given: LtmRunModel | null,
): LtmRunModelsDifference[] {
	if (stored === null || given === null) {
		if (stored === given) return [];
		return [{ field: role, stored: stored?.given ?? '(none)', given: given?.given ?? '(none)' }];
	}
	const before = identityFields(stored.spec);
	const now = identityFields(given.spec);
	if (before['source'] !== now['source']) {
		return [{ field: role, stored: stored.given, given: given.given }];
	}
	return Object.keys(before)
		.filter((key) => before[key] !== now[key])
		.map((key) => ({
			field: `${role} ${key}`,
			stored: `${before[key]} (${stored.given})`,
			given: `${now[key]} (${given.given})`,
		}));
}

const PARAM_NAMES: Readonly<Record<keyof LtmRunParams, string>> = {
	maxTokens: '--max-tokens',
	temperature: '--temperature',
	contextTokens: '--context-tokens',
	maxMessageTokens: '--max-message-tokens',
};

/** Each field of `given` that differs from `stored`: models first, then parameters. */
export function ltmRunModelsDifferences(
	stored: LtmRunModels,
	given: LtmRunModels,
): LtmRunModelsDifference[] {
	const shown = (value: number | null): string => (value === null ? '(default)' : String(value));
	const params = (Object.keys(PARAM_NAMES) as (keyof LtmRunParams)[])
		.filter((key) => stored.params[key] !== given.params[key])
		.map((key) => ({
			field: PARAM_NAMES[key],
			stored: shown(stored.params[key]),
			given: shown(given.params[key]),
		}));
	return [
		...modelDifferences('agent', stored.agent, given.agent),
		...modelDifferences('judge', stored.judge, given.judge),
		...params,
	];
}

/** The options that give `stored` again, for the refusal's advice. */
export function ltmRunModelsOptions(stored: LtmRunModels): string {
	const options = [`--agent ${stored.agent.given}`];
	if (stored.judge) options.push(`--judge ${stored.judge.given}`);
	const endpoint = [stored.agent, stored.judge].find((model) => model?.spec.source === 'openai');
	if (endpoint?.spec.source === 'openai') options.push(`--base-url ${endpoint.spec.baseUrl}`);
	for (const key of Object.keys(PARAM_NAMES) as (keyof LtmRunParams)[]) {
		const value = stored.params[key];
		if (value !== null) options.push(`${PARAM_NAMES[key]} ${value}`);
	}
	return options.join(' ');
}
