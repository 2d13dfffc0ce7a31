/**
 * `run-models.json` in an `ltm run --out` folder: the agent and judge specs resolved (base URL,
 * local id / revision / dtype, replay file hash; never a key) and the agent parameters, written
 * when a run starts and checked by `--resume` before any model is opened.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { sha256Hex } from '../../core/hash/sha256';
import {
	LTM_RUN_MODELS_FORMAT,
	ltmRunModelsDifferences,
	ltmRunModelsOptions,
	readLtmRunModels,
	type LtmRunModel,
	type LtmRunModels,
	type LtmRunParams,
} from '../../core/ltm/run-models';
import { LtmStateReadError } from '../../core/ltm/run-state-checkpoint';
import { parseModelSpecString, type TextModelSpec } from '../../core/model/model-spec';
import { endpointSpecOf, resolveLocalSpec } from '../../providers/open-model';
import { CliInputError } from './cli-io';
import { writeOutputFile } from './output-files';

export const LTM_MODELS_FILE = 'run-models.json';

/** The spec `openTextModel` opens for `spec` (no model loaded, no server asked). */
async function resolveSpec(
	spec: string,
	baseUrl: string | undefined,
	env: Readonly<Record<string, string | undefined>>,
): Promise<TextModelSpec> {
	const parsed = parseModelSpecString(spec);
	if (parsed.kind === 'openai') return endpointSpecOf(parsed.model, baseUrl, env);
	if (parsed.kind === 'replay') {
		let text: string;
		try {
			text = await readFile(resolve(parsed.file), 'utf8');
		} catch (error) {
			throw new CliInputError(`${parsed.file}: cannot read (${(error as Error).message})`);
		}
		const name = parsed.file.split(/[\\/]/u).pop() ?? parsed.file;
		return { source: 'replay', file: name, sha256: sha256Hex(text) };
	}
	return resolveLocalSpec(spec);
}

/** The record of a run given these options (`baseUrl`: `--base-url`, else OPENAI_BASE_URL). */
export async function resolveLtmRunModels(given: {
	readonly agent: string;
	readonly judge?: string;
	readonly baseUrl?: string;
	readonly params: LtmRunParams;
	readonly env?: Readonly<Record<string, string | undefined>>;
}): Promise<LtmRunModels> {
	const env = given.env ?? process.env;
	const model = async (spec: string): Promise<LtmRunModel> => ({
		given: spec,
		spec: await resolveSpec(spec, given.baseUrl, env),
	});
	return {
		format: LTM_RUN_MODELS_FORMAT,
		agent: await model(given.agent),
		judge: given.judge === undefined ? null : await model(given.judge),
		params: given.params,
	};
}

/** Writes the record into `out`, replacing one there whole (temporary file, then rename). */
export async function writeLtmRunModels(out: string, models: LtmRunModels): Promise<void> {
	await writeOutputFile(out, LTM_MODELS_FILE, `${JSON.stringify(models, null, 2)}\n`);
}

/**
 * Checks a resume of the run in `out` against what it is given. A folder without a record (a
 * run from before the record) is not checked: `note` says so.
 * @throws CliInputError naming each field that differs (stored, given) and what to do.
 */
export async function checkLtmResumeModels(
	out: string,
	given: LtmRunModels,
	note: (text: string) => void,
): Promise<void> {
	const path = join(out, LTM_MODELS_FILE);
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		if ((error as { code?: unknown }).code !== 'ENOENT') {
			throw new CliInputError(`${path}: cannot read (${(error as Error).message})`);
		}
		note(
			`note: ${out} has no ${LTM_MODELS_FILE} (a run from an earlier release): the resumed run's models and parameters cannot be checked against the first part's; they are recorded now.\n`,
		);
		return;
	}
	let stored: LtmRunModels;
	try {
		stored = readLtmRunModels(text);
	} catch (error) {
		if (error instanceof LtmStateReadError) throw new CliInputError(`${path}: ${error.message}`);
		throw error;
	}
	const differences = ltmRunModelsDifferences(stored, given);
	if (differences.length === 0) return;
	const lines = differences.map(
		(difference) => `  ${difference.field}: stored ${difference.stored}, given ${difference.given}`,
	);
	throw new CliInputError(
		[
			`${path}: --resume refused: this run was started with other models or parameters:`,
			...lines,
			`Resume with the options it was started with (${ltmRunModelsOptions(stored)}), or start a new run with another --out folder.`,
		].join('\n'),
	);
}
