/**
 * `oaieval <model>[,<model>...] <eval> [--registry_path <dir>] [--record_path log.jsonl]
 * [--max_samples N] [--seed N]`: upstream's command line over our core and model specs. Prints
 * the final report as upstream does (`Final report:` then `key: value`), writes the oaieval JSONL
 * log where asked as the run goes (a failed run leaves a readable partial log); a registry problem
 * exits 2 naming the file and line.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
	DEFAULT_EVAL_SEED,
	FLOAT_KEYS,
	PROVIDER_DEFAULT_REPLACED,
	buildInspectLog,
	buildRunSpec,
	commandLine,
	formatFinalReport,
	maxTokensNote,
	maxTokensSent,
	parseAnswerPrompts,
	pythonFloatRepr,
	newRunId,
	preciseNow,
	pythonUtcTimestamp,
	readRegistry,
	resolveEval,
	runEval,
	upstreamParams,
	type AnswerPrompts,
	type EvalRunResult,
	type RegistryFiles,
	type ResolvedEval,
} from '../../core/evals';
import { DEFAULT_MAX_NEW_TOKENS, type TextModel } from '../../core/model/generation';
import { openTextModel, type OpenedTextModel } from '../../providers/open-model';
import { CliInputError, EXIT_OK, type CliCommand, type CliIo } from '../shared/cli-io';
import { OaievalLogFile } from '../shared/oaieval-log-file';
import { refuseLink, writeFileNoFollow } from '../shared/safe-write';
import { parseCommandArgs } from '../shared/parse-command-args';

export const OAIEVAL_USAGE =
	'usage: oaieval <model>[,<model>...] <eval> [--registry_path <dir>] [--record_path <log.jsonl>] ' +
	'[--max_samples N] [--seed N] [--concurrency N] [--default_max_tokens N|none] [--answer_prompts <file.json>] [--inspect_log <file.json>] [--cache-dir <dir>] [--base-url <url>]\n' +
	'  models: a bundled name, hub id, folder, openai/<model> or replay:<file.jsonl>; with several, the last grades model-graded evals\n' +
	'  --registry_path defaults to the bundled example registry (suites/evals)\n' +
	'  --default_max_tokens N: max_tokens sent where the template passes none (Match, Includes; default 256, as the page and the local engine); none sends none, as upstream\n' +
	'  --concurrency N (else EVALS_THREADS=N, as upstream; EVALS_SEQUENTIAL=1 means 1): samples and endpoint requests at once (default 1 sample, 4 requests)';

/** The bundled example registry, next to the sources. */
export const BUNDLED_REGISTRY = fileURLToPath(new URL('../../../suites/evals/', import.meta.url));

/**
 * A registry folder as a file map: paths listed once, texts read on demand (so a large `data/`
 * folder is only read for the eval that runs). A path that is not in the registry but exists on
 * disk (relative to the working directory, as upstream's `os.path.isfile`) is read too.
 */
class RegistryFolder extends Map<string, string> {
	readonly #root: string;
	readonly #paths: string[];

	constructor(root: string) {
		super();
		this.#root = root;
		this.#paths = listFiles(root).map((path) => relative(root, path).split(sep).join('/'));
	}

	override keys(): MapIterator<string> {
		return this.#paths[Symbol.iterator]() as MapIterator<string>;
	}

	override has(path: string): boolean {
		return this.get(path) !== undefined;
	}

	override get(path: string): string | undefined {
		const cached = super.get(path);
		if (cached !== undefined) return cached;
		const file = this.#paths.includes(path)
			? join(this.#root, path)
			: existsSync(path) && statSync(path).isFile()
				? path
				: undefined;
		if (file === undefined) return undefined;
		const text = readFileSync(file, 'utf8');
		super.set(path, text);
		return text;
	}
}

function listFiles(dir: string): string[] {
	const out: string[] = [];
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) out.push(...listFiles(path));
		else if (entry.isFile()) out.push(path);
	}
	return out;
}

function positiveInt(value: string | boolean | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (typeof value !== 'string' || !/^-?\d+$/u.test(value) || !Number.isSafeInteger(number)) {
		throw new CliInputError(
			`${flag} must be an integer, not '${String(value)}'.\n${OAIEVAL_USAGE}`,
		);
	}
	return number;
}

/**
 * Samples (and endpoint requests) at once: `--concurrency`, else upstream's environment
 * (`EVALS_SEQUENTIAL` of 1/true/yes means 1, else `EVALS_THREADS`); undefined when none is set
 * (1 sample at a time, the endpoint client's default).
 */
function threadsOf(flag: string | boolean | undefined): number | undefined {
	const sequential = ['1', 'true', 'yes'].includes(process.env.EVALS_SEQUENTIAL ?? '0');
	if (flag === undefined && sequential) return 1;
	const [value, name] =
		flag !== undefined ? [flag, '--concurrency'] : [process.env.EVALS_THREADS, 'EVALS_THREADS'];
	const threads = positiveInt(value, name);
	if (threads !== undefined && threads < 1) {
		throw new CliInputError(`${name} must be 1 or more, not ${threads}.\n${OAIEVAL_USAGE}`);
	}
	return threads;
}

/** A report value as Python prints `f"{key}: {value}"`: floats by repr, counts as ints. */
function formatReportValue(key: string, value: number): string {
	return FLOAT_KEYS.has(key) ? pythonFloatRepr(value) : String(value);
}

/** `--default_max_tokens N|none` (default: the app default, 256). */
function defaultMaxTokensOf(value: string | boolean | undefined): number | null {
	if (value === 'none') return null;
	const tokens = positiveInt(value, '--default_max_tokens') ?? DEFAULT_MAX_NEW_TOKENS;
	if (tokens < 1) {
		throw new CliInputError(
			`--default_max_tokens must be 1 or more, or none, not ${tokens}.\n${OAIEVAL_USAGE}`,
		);
	}
	return tokens;
}

/** The command line of `oaieval`, read and checked. */
interface OaievalOptions {
	readonly modelSpecs: readonly string[];
	readonly evalName: string;
	readonly maxSamples: number | undefined;
	readonly seed: number;
	readonly threads: number | undefined;
	/** `max_tokens` where the template passes none; null sends none (upstream). */
	readonly defaultMaxTokens: number | null;
	readonly registryPath: string;
	readonly recordPath: string | undefined;
	readonly answerPromptsPath: string | undefined;
	readonly inspectLogPath: string | undefined;
	readonly cacheDir: string | undefined;
	readonly baseUrl: string | undefined;
}

const stringOption = (value: string | boolean | undefined): string | undefined =>
	typeof value === 'string' ? value : undefined;

/**
 * Reads the command line.
 * @throws CliInputError for a missing model or eval, a bad number, or a registry path that is not
 * a folder.
 */
function readOaievalOptions(args: readonly string[]): OaievalOptions {
	const { positionals, values } = parseCommandArgs(args, OAIEVAL_USAGE, {
		registry_path: { type: 'string' },
		record_path: { type: 'string' },
		max_samples: { type: 'string' },
		seed: { type: 'string' },
		concurrency: { type: 'string' },
		default_max_tokens: { type: 'string' },
		answer_prompts: { type: 'string' },
		inspect_log: { type: 'string' },
		'cache-dir': { type: 'string' },
		'base-url': { type: 'string' },
	});
	const [modelList, evalName] = positionals;
	if (modelList === undefined || evalName === undefined || positionals.length > 2) {
		throw new CliInputError(`expected a model list and an eval name.\n${OAIEVAL_USAGE}`);
	}
	const modelSpecs = modelList.split(',').filter((spec) => spec.trim() !== '');
	if (modelSpecs.length === 0) throw new CliInputError(`no model given.\n${OAIEVAL_USAGE}`);
	const maxSamples = positiveInt(values.max_samples, '--max_samples');
	const seed = positiveInt(values.seed, '--seed') ?? DEFAULT_EVAL_SEED;
	const threads = threadsOf(values.concurrency);
	const defaultMaxTokens = defaultMaxTokensOf(values.default_max_tokens);
	const registryPath = resolve(stringOption(values.registry_path) ?? BUNDLED_REGISTRY);
	if (!existsSync(registryPath) || !statSync(registryPath).isDirectory()) {
		throw new CliInputError(
			`--registry_path ${registryPath}: not a folder (expected evals/, data/, modelgraded/)`,
		);
	}
	return {
		modelSpecs,
		evalName,
		maxSamples,
		seed,
		threads,
		defaultMaxTokens,
		registryPath,
		recordPath: stringOption(values.record_path),
		answerPromptsPath: stringOption(values.answer_prompts),
		inspectLogPath: stringOption(values.inspect_log),
		cacheDir: stringOption(values['cache-dir']),
		baseUrl: stringOption(values['base-url']),
	};
}

export const oaievalCommand: CliCommand = async (args, io) => {
	const options = readOaievalOptions(args);
	const { answerPromptsPath, threads } = options;
	const answerPrompts =
		answerPromptsPath !== undefined
			? parseAnswerPrompts(await io.readText(answerPromptsPath), answerPromptsPath)
			: undefined;

	const files: RegistryFiles = new RegistryFolder(options.registryPath);
	const evalSpec = resolveEval(readRegistry(files), options.evalName);
	for (const note of evalSpec.notes ?? []) io.stderr(`Note: ${note}\n`);
	if (options.defaultMaxTokens !== null) {
		// One default everywhere (the page's, the local engine's), said rather than silent.
		const maxTokens = maxTokensSent(upstreamParams(evalSpec).policy, {
			...(options.defaultMaxTokens === DEFAULT_MAX_NEW_TOKENS
				? {}
				: { max_tokens: options.defaultMaxTokens }),
		});
		if (maxTokens.source !== 'template') {
			io.stderr(`Note: ${maxTokensNote(maxTokens)}; ${PROVIDER_DEFAULT_REPLACED}\n`);
		}
	}

	const opened: OpenedTextModel[] = [];
	try {
		for (const spec of options.modelSpecs) {
			opened.push(
				await openTextModel(spec, {
					...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
					...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
					...(threads === undefined ? {} : { concurrency: threads }),
				}),
			);
		}
		const models: TextModel[] = opened.map((item) => item.model);
		await runAndReport(args, io, options, evalSpec, models, answerPrompts);
		return EXIT_OK;
	} finally {
		for (const item of opened) await item.close();
	}
};

/**
 * Runs the eval and reports it: the final report on stdout, the oaieval log (written as the run
 * goes; a failed run closes it as a readable partial log) and the Inspect log where asked.
 */
async function runAndReport(
	args: readonly string[],
	io: CliIo,
	options: OaievalOptions,
	evalSpec: ResolvedEval,
	models: TextModel[],
	answerPrompts: AnswerPrompts | undefined,
): Promise<void> {
	const { maxSamples, seed } = options;
	const startTime = preciseNow();
	const startedAt = new Date(startTime);
	const runId = newRunId(startedAt);
	const total = Math.min(maxSamples ?? evalSpec.samples.length, evalSpec.samples.length);
	// A link where the Inspect log goes is refused now, not after the run.
	if (options.inspectLogPath !== undefined) await refuseLink(options.inspectLogPath);
	io.stderr(`Running eval ${evalSpec.name}: ${total} samples\n`);
	// The log is written as the run goes (spec first, each event as recorded), as upstream's.
	const log =
		options.recordPath !== undefined
			? new OaievalLogFile(
					options.recordPath,
					buildRunSpec({
						completionFns: options.modelSpecs,
						evalSpec,
						runId,
						createdAt: pythonUtcTimestamp(startTime),
						seed,
						...(maxSamples === undefined ? {} : { maxSamples }),
						command: commandLine(['oaieval', ...args]),
						registryPath: options.registryPath,
					}),
				)
			: undefined;
	let result: EvalRunResult;
	try {
		result = await runEval(evalSpec, {
			policy: models,
			seed,
			runId,
			...(maxSamples === undefined ? {} : { maxSamples }),
			concurrency: options.threads ?? 1,
			defaultMaxTokens: options.defaultMaxTokens,
			...(answerPrompts ? { answerPrompts } : {}),
			...(log ? { onEvent: (event) => log.append(event) } : {}),
		});
	} catch (error) {
		if (log) {
			log.close();
			io.stderr(`The run stopped; the partial log (${log.eventCount} events) is in ${log.path}\n`);
		}
		throw error;
	}
	io.stdout(formatFinalReport(result.finalReport, formatReportValue));
	if (log) {
		log.finish(result.finalReport);
		io.stderr(`Logged ${log.eventCount} events to ${log.path}\n`);
	}
	if (options.inspectLogPath !== undefined) {
		const inspect = buildInspectLog({
			evalSpec,
			runId: result.runId,
			modelLabel: options.modelSpecs[0] ?? '',
			samples: result.samples,
			order: result.order,
			finalReport: result.finalReport,
			cancelled: result.cancelled,
			startedAt,
			completedAt: new Date(),
		});
		await writeFileNoFollow(options.inspectLogPath, `${JSON.stringify(inspect, null, 2)}\n`);
		io.stderr(`Wrote the Inspect log to ${options.inspectLogPath}\n`);
	}
}
