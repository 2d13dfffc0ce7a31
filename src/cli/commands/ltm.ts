/**
 * `ltm run <definitions folder | ltm-suite.json> --agent <model> [--judge <model>]
 * [--memory-span N] [--isolated] [--out <dir>] [--trivia <trivia.json>] [--resume]`: runs
 * long-term-memory tests (GoodAI LTM benchmark) against an agent model, after checking that its
 * prompts fit the models; writes upstream's result files, runstats.json and master_log.jsonl (as
 * GoodAI's reporting reads them) and a summary, and prints a table. Tokens are counted with
 * cl100k_base, as upstream reports gaps.
 */
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import {
	buildLtmReport,
	findLtmDataset,
	generateDefinition,
	readGenerationPrompt,
	type GenerationPromptFile,
	loadLtmDefinitions,
	loadLtmSuite,
	loadLtmZip,
	readUpstreamTrivia,
	runLtm,
	type LoadResult,
	type LtmBenchmark,
	type LtmDiagnostic,
	type LtmReport,
	type LtmRunState,
	type LtmTestDefinition,
	type TriviaItem,
} from '../../core/ltm';
import { preciseNow } from '../../core/evals/shared/recorder';
import { goodaiTestResultText } from '../../core/ltm/goodai-files';
import { isoWithMicros } from '../../core/ltm/goodai-log';
import type { LtmRunModels } from '../../core/ltm/run-models';
import { checkPromptFit, describePromptFitProblem, type FitModel } from '../../core/ltm/prompt-fit';
import { generateCompletion, type TextModel } from '../../core/model/generation';
import {
	UnsafePathError,
	safePathSegment,
	safeRelativePath,
} from '../../core/security/contained-path';
import { openTextModel } from '../../providers/open-model';
import { countCl100kTokens } from '../../providers/token-count';
import {
	CliInputError,
	EXIT_BAD_INPUT,
	EXIT_FAILURE,
	EXIT_OK,
	type CliCommand,
	type CliIo,
} from '../shared/cli-io';
import { LtmRunFilesWriter, readLtmRunFiles } from '../shared/ltm-run-files';
import {
	checkLtmResumeModels,
	resolveLtmRunModels,
	writeLtmRunModels,
} from '../shared/ltm-run-models';
import { outputPath, writeOutputFile } from '../shared/output-files';
import { parseCommandArgs } from '../shared/parse-command-args';

export const LTM_GENERATE_USAGE =
	'usage: ltm generate <prompt.json> --generator <model> --out <definitions folder> [--dataset "<Dataset Name>"] [--examples N] [--cache-dir <dir>]';

export const LTM_USAGE =
	'usage: ltm run <definitions folder | definitions .zip | ltm-suite.json> --agent <model> [--judge <model>] [--memory-span N] [--isolated] [--out <dir>] [--trivia <trivia.json>] [--resume] [--cache-dir <dir>] [--max-tokens N] [--temperature T] [--context-tokens N] [--max-message-tokens N] [--threads N] [--base-url <url>] [--concurrency N]';

/** Opens a model spec string (`gpt2-en-small`, `openai/<m>`, `replay:<file>`) as a TextModel. */
export type OpenModel = (
	spec: string,
	options: { cacheDir?: string; threads?: number; baseUrl?: string; concurrency?: number },
) => Promise<{ model: TextModel; close(): Promise<void> }>;

const defaultOpenModel: OpenModel = (spec, options) => openTextModel(spec, options);

/** The `ltm` command with an injectable model opener (tests pass in-process models). */
export function createLtmCommand(openModel: OpenModel = defaultOpenModel): CliCommand {
	return async (args, io) => {
		const [sub, ...rest] = args;
		if (sub === '--help' || sub === '-h') {
			io.stdout(`${LTM_USAGE}\n${LTM_GENERATE_USAGE}\n`);
			return EXIT_OK;
		}
		if (sub === 'generate') return generateCommand(rest, io, openModel);
		if (sub !== 'run') {
			throw new CliInputError(
				`expected 'ltm run ...' or 'ltm generate ...'.\n${LTM_USAGE}\n${LTM_GENERATE_USAGE}`,
			);
		}
		return runCommand(rest, io, openModel);
	};
}

export const ltmCommand: CliCommand = createLtmCommand();

async function runCommand(
	args: readonly string[],
	io: CliIo,
	openModel: OpenModel,
): Promise<number> {
	const run = readRunArgs(args);
	const loaded = await loadInput(run.input, io, {
		countTokens: countCl100kTokens,
		isolated: run.isolated,
		...(run.memorySpan !== undefined ? { memorySpan: run.memorySpan } : {}),
	});
	if (!loaded.ok) {
		for (const diagnostic of loaded.diagnostics) io.stderr(formatLtmDiagnostic(diagnostic));
		io.stderr(`${run.input}: not runnable: ${loaded.diagnostics.length} error(s)\n`);
		return EXIT_BAD_INPUT;
	}
	// Refuse names no result file can have before the run, not after it.
	for (const test of loaded.benchmark.tests) resultPath(test);
	const trivia = run.trivia === undefined ? undefined : await readTrivia(run.trivia, io);
	const resumeFrom = await readResumeState(run);
	const runModels = await checkRunModels(run, resumeFrom, io);
	const prepared: PreparedRun = { run, benchmark: loaded.benchmark, trivia, resumeFrom, runModels };
	const models = await openRunModels(run, openModel);
	const countShortTexts = cachedTokenCounter(countCl100kTokens);
	await refuseUnfitRun(prepared, models, countShortTexts);
	const state = await executeRun(prepared, models, countShortTexts, io);
	const report = buildLtmReport(state);
	if (run.out !== undefined) await writeReport(run.out, report);
	io.stdout(formatLtmTable(report));
	for (const warning of state.warnings) io.stderr(`warning: ${warning}\n`);
	return EXIT_OK;
}

/** `ltm run`'s options, read and checked before anything is loaded or opened. */
interface RunArgs {
	readonly input: string;
	readonly agent: string;
	readonly judge: string | undefined;
	readonly memorySpan: number | undefined;
	readonly isolated: boolean;
	readonly out: string | undefined;
	readonly trivia: string | undefined;
	readonly resume: boolean;
	readonly cacheDir: string | undefined;
	readonly baseUrl: string | undefined;
	readonly maxTokens: number | undefined;
	readonly temperature: number | undefined;
	readonly contextTokens: number | undefined;
	readonly maxMessageTokens: number | undefined;
	readonly threads: number | undefined;
	readonly concurrency: number | undefined;
}

function readRunArgs(args: readonly string[]): RunArgs {
	const { positionals, values } = parseCommandArgs(args, LTM_USAGE, {
		agent: { type: 'string' },
		judge: { type: 'string' },
		'memory-span': { type: 'string' },
		isolated: { type: 'boolean' },
		out: { type: 'string' },
		trivia: { type: 'string' },
		resume: { type: 'boolean' },
		'cache-dir': { type: 'string' },
		'max-tokens': { type: 'string' },
		temperature: { type: 'string' },
		'context-tokens': { type: 'string' },
		'max-message-tokens': { type: 'string' },
		threads: { type: 'string' },
		'base-url': { type: 'string' },
		concurrency: { type: 'string' },
	});
	const maxMessageTokens = wholeNumberOption(values['max-message-tokens'], '--max-message-tokens');
	const maxTokens = wholeNumberOption(values['max-tokens'], '--max-tokens');
	const contextTokens = wholeNumberOption(values['context-tokens'], '--context-tokens');
	const threads = wholeNumberOption(values.threads, '--threads');
	// Endpoint requests at once (the agent and the judge each have a client); at least 1.
	const concurrency = wholeNumberOption(values.concurrency, '--concurrency');
	const temperature = temperatureOption(values.temperature);
	const [input] = positionals;
	if (input === undefined || positionals.length > 1)
		throw new CliInputError(
			`expected one definitions folder, .zip of definitions or ltm-suite.json.\n${LTM_USAGE}`,
		);
	if (typeof values.agent !== 'string')
		throw new CliInputError(`--agent <model> is required.\n${LTM_USAGE}`);
	return {
		input,
		agent: values.agent,
		judge: stringOption(values.judge),
		memorySpan: memorySpanOption(values['memory-span']),
		isolated: values.isolated === true,
		out: stringOption(values.out),
		trivia: stringOption(values.trivia),
		resume: values.resume === true,
		cacheDir: stringOption(values['cache-dir']),
		baseUrl: stringOption(values['base-url']),
		maxTokens,
		temperature,
		contextTokens,
		maxMessageTokens,
		threads,
		concurrency,
	};
}

function stringOption(value: string | boolean | undefined): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

function temperatureOption(value: string | boolean | undefined): number | undefined {
	if (typeof value !== 'string') return undefined;
	const temperature = Number(value);
	if (!Number.isFinite(temperature) || temperature < 0) {
		throw new CliInputError(`--temperature must be a number ≥ 0, not '${value}'.`);
	}
	return temperature;
}

function memorySpanOption(value: string | boolean | undefined): number | undefined {
	if (typeof value !== 'string') return undefined;
	const memorySpan = Number(value);
	if (!Number.isInteger(memorySpan) || memorySpan <= 0) {
		throw new CliInputError(
			`--memory-span must be a positive whole number of tokens, not '${value}'.`,
		);
	}
	return memorySpan;
}

async function readTrivia(path: string, io: CliIo): Promise<TriviaItem[]> {
	try {
		return readUpstreamTrivia(await io.readText(path));
	} catch (error) {
		throw new CliInputError(`${path}: ${error instanceof Error ? error.message : String(error)}`);
	}
}

async function readResumeState(run: RunArgs): Promise<LtmRunState | undefined> {
	if (!run.resume) return undefined;
	if (run.out === undefined)
		throw new CliInputError('--resume needs --out <dir> (the run state is kept there).');
	return readLtmRunFiles(run.out);
}

/** What the run is started with, checked on --resume before any model is opened (issue 18). */
async function checkRunModels(
	run: RunArgs,
	resumeFrom: LtmRunState | undefined,
	io: CliIo,
): Promise<LtmRunModels | undefined> {
	if (run.out === undefined) return undefined;
	const runModels = await resolveLtmRunModels({
		agent: run.agent,
		...(run.judge !== undefined ? { judge: run.judge } : {}),
		...(run.baseUrl !== undefined ? { baseUrl: run.baseUrl } : {}),
		params: {
			maxTokens: run.maxTokens ?? null,
			temperature: run.temperature ?? null,
			contextTokens: run.contextTokens ?? null,
			maxMessageTokens: run.maxMessageTokens ?? null,
		},
	});
	if (resumeFrom) await checkLtmResumeModels(run.out, runModels, io.stderr);
	return runModels;
}

/** Everything a run needs before its models are opened. */
interface PreparedRun {
	readonly run: RunArgs;
	readonly benchmark: LtmBenchmark;
	readonly trivia: TriviaItem[] | undefined;
	readonly resumeFrom: LtmRunState | undefined;
	readonly runModels: LtmRunModels | undefined;
}

type OpenedModel = Awaited<ReturnType<OpenModel>>;

interface RunModels {
	readonly agent: OpenedModel;
	readonly judge: OpenedModel | undefined;
}

async function openRunModels(run: RunArgs, openModel: OpenModel): Promise<RunModels> {
	const modelOptions = {
		...(run.cacheDir !== undefined ? { cacheDir: run.cacheDir } : {}),
		...(run.threads !== undefined ? { threads: run.threads } : {}),
		...(run.baseUrl !== undefined ? { baseUrl: run.baseUrl } : {}),
		...(run.concurrency !== undefined ? { concurrency: run.concurrency } : {}),
	};
	const agent = await openModel(run.agent, modelOptions);
	const judge = run.judge !== undefined ? await openModel(run.judge, modelOptions) : undefined;
	return { agent, judge };
}

/** Models are open: close them when a prompt cannot fit, before any reply is asked. */
async function refuseUnfitRun(
	{ run, benchmark, trivia, resumeFrom }: PreparedRun,
	{ agent, judge }: RunModels,
	countShortTexts: (text: string) => number,
): Promise<void> {
	await refuseUnfitPrompts({
		benchmark: resumeFrom
			? { ...benchmark, config: resumeFrom.config, tests: resumeFrom.tests }
			: benchmark,
		...fitModelOf(agent.model, 'agent'),
		...(judge ? fitModelOf(judge.model, 'judge') : {}),
		...(run.contextTokens !== undefined ? { maxContextTokens: run.contextTokens } : {}),
		...(run.maxMessageTokens !== undefined ? { maxMessageTokens: run.maxMessageTokens } : {}),
		...(run.maxTokens !== undefined ? { maxNewTokens: run.maxTokens } : {}),
		countTokens: countShortTexts,
		...(trivia ? { trivia } : {}),
	}).catch(async (error: unknown) => {
		await agent.close();
		await judge?.close();
		throw error;
	});
}

/** Runs the benchmark, saving its state under `--out` as it goes; closes the models after. */
async function executeRun(
	{ run, benchmark, trivia, resumeFrom, runModels }: PreparedRun,
	{ agent, judge }: RunModels,
	countShortTexts: (text: string) => number,
	io: CliIo,
): Promise<LtmRunState> {
	const { out, maxTokens, temperature, contextTokens, maxMessageTokens } = run;
	// An ltm-suite.json may ask for the agent's own tokenizer (upstream schedules with it); filler
	// is still sized with cl100k (the state machine needs a synchronous counter).
	const tokenizer = (resumeFrom?.config ?? benchmark.config).tokenizer ?? 'cl100k';
	const started = Date.now();
	const files = out === undefined ? undefined : new LtmRunFilesWriter(out);
	try {
		if (out !== undefined) await mkdir(out, { recursive: true });
		if (out !== undefined && runModels) await writeLtmRunModels(out, runModels);
		let exchanges = 0;
		const state = await runLtm(benchmark, {
			agent: agent.model,
			...(judge ? { judge: judge.model } : {}),
			countTokens:
				tokenizer === 'agent' ? (text: string) => agent.model.countTokens(text) : countShortTexts,
			agentParams: {
				...(maxTokens !== undefined ? { max_tokens: maxTokens } : {}),
				...(temperature !== undefined ? { temperature } : {}),
			},
			...(contextTokens !== undefined ? { maxContextTokens: contextTokens } : {}),
			...(maxMessageTokens !== undefined ? { maxMessageTokens } : {}),
			environment: { countTokens: countShortTexts, ...(trivia ? { trivia } : {}) },
			triviaSource: trivia ? 'upstream' : 'ours',
			startTime: isoWithMicros(preciseNow()),
			...(resumeFrom ? { resumeFrom } : {}),
			runId: benchmark.config.runName,
			onEvent: async ({ action, state: current, logFrom }) => {
				if (action.kind === 'send') exchanges++;
				files?.save(current, logFrom, action.kind === 'send' && action.cannedReply !== undefined);
				if (action.kind === 'evaluate') io.stderr(`finished ${action.testId}\n`);
			},
		});
		io.stderr(
			`${exchanges} exchanges, ${state.totalTokens} tokens (${tokenizer === 'agent' ? "the agent's tokenizer" : 'cl100k'}), ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
		);
		return state;
	} catch (error) {
		if (error instanceof RangeError && /attends to \d+ at most/.test(error.message)) {
			throw new CliInputError(
				`${error.message} Give the agent a shorter conversation: --context-tokens N (history kept) and --max-message-tokens N (filler size), with room left for --max-tokens.`,
			);
		}
		throw error;
	} finally {
		files?.close();
		await agent.close();
		await judge?.close();
	}
}

/** A model's limit for the fit check: local models know their positions; endpoints have none here. */
function fitModelOf(
	model: TextModel,
	role: 'agent' | 'judge',
): { agent?: FitModel; judge?: FitModel } {
	const info = (model as { info?: { maxPositions?: unknown } }).info;
	if (typeof info?.maxPositions !== 'number') return {};
	const fit: FitModel = {
		label: model.label,
		maxPositions: info.maxPositions,
		countTokens: (text) => model.countTokens(text),
	};
	return { [role]: fit };
}

/**
 * Stops before the run when a prompt known in advance cannot fit its model (issue: the run used
 * to stop at its first long prompt), naming the model, the prompt and what would fit.
 */
async function refuseUnfitPrompts(input: Parameters<typeof checkPromptFit>[0]): Promise<void> {
	const problems = await checkPromptFit(input);
	if (problems.length === 0) return;
	throw new CliInputError(problems.map(describePromptFitProblem).join('\n'));
}

/**
 * `count`, remembered for short texts: filler lines, their answers and short replies come back
 * again and again, and encoding a short text costs mostly js-tiktoken's per-call setup.
 */
function cachedTokenCounter(count: (text: string) => number): (text: string) => number {
	const cache = new Map<string, number>();
	return (text) => {
		if (text.length > 200) return count(text);
		let tokens = cache.get(text);
		if (tokens === undefined) {
			tokens = count(text);
			if (cache.size < 100_000) cache.set(text, tokens);
		}
		return tokens;
	};
}

function wholeNumberOption(value: string | boolean | undefined, name: string): number | undefined {
	if (typeof value !== 'string') return undefined;
	const number = Number(value);
	if (!Number.isInteger(number) || number <= 0) {
		throw new CliInputError(`${name} must be a positive whole number, not '${value}'.`);
	}
	return number;
}

/** The dataset name of a prompt file name: `1-1_delayed_recall.json` → `Delayed Recall`. */
export function datasetNameOfPromptFile(path: string): string {
	const base = path
		.split(/[\\/]/)
		.pop()!
		.replace(/\.json$/, '')
		.replace(/^\d+-\d+_/, '');
	return base
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
}

async function generateCommand(
	args: readonly string[],
	io: CliIo,
	openModel: OpenModel,
): Promise<number> {
	const { positionals, values } = parseCommandArgs(args, LTM_GENERATE_USAGE, {
		generator: { type: 'string' },
		out: { type: 'string' },
		dataset: { type: 'string' },
		examples: { type: 'string' },
		'cache-dir': { type: 'string' },
	});
	const [promptPath] = positionals;
	if (promptPath === undefined || positionals.length > 1)
		throw new CliInputError(`expected one prompt file.\n${LTM_GENERATE_USAGE}`);
	if (typeof values.generator !== 'string')
		throw new CliInputError(`--generator <model> is required.\n${LTM_GENERATE_USAGE}`);
	if (typeof values.out !== 'string')
		throw new CliInputError(`--out <definitions folder> is required.\n${LTM_GENERATE_USAGE}`);
	const examples = wholeNumberOption(values.examples, '--examples') ?? 1;
	const dataset =
		typeof values.dataset === 'string' ? values.dataset : datasetNameOfPromptFile(promptPath);
	let prompt: GenerationPromptFile;
	try {
		prompt = readGenerationPrompt(promptPath, await io.readText(promptPath));
	} catch (error) {
		throw new CliInputError(error instanceof Error ? error.message : String(error));
	}
	const cacheDir = typeof values['cache-dir'] === 'string' ? values['cache-dir'] : undefined;
	const folder = datasetFolder(values.out, dataset);
	const generator = await openModel(values.generator, cacheDir !== undefined ? { cacheDir } : {});
	try {
		for (let index = 0; index < examples; index++) {
			const definition = await generateDefinition(prompt, async (messages, params) => {
				const done = await generateCompletion(
					generator.model,
					{ prompt: { kind: 'chat', messages }, params },
					{ runId: 'ltm-generate', sampleId: `${dataset} - ${index}`, role: 'generator' },
				);
				return done.completion;
			});
			const path = await writeOutputFile(
				values.out,
				`${folder}/${index}.def.json`,
				`${JSON.stringify(definition, null, 2)}\n`,
			);
			io.stdout(`${path}: ${definition.expected_responses.length} questions\n`);
		}
	} catch (error) {
		if (error instanceof Error && error.message.startsWith('the generator gave no usable JSON')) {
			io.stderr(`${promptPath}: ${error.message}\n`);
			return EXIT_FAILURE;
		}
		throw error;
	} finally {
		await generator.close();
	}
	if (findLtmDataset(dataset) === undefined) {
		io.stderr(
			`note: '${dataset}' is not a dataset name 'ltm run' knows; pass --dataset "Delayed Recall" (or another checklist-graded name) so the folder name picks an evaluator\n`,
		);
	}
	return EXIT_OK;
}

/**
 * The folder (one safe segment) of a dataset under `out`: the name as it is when ordinary, else
 * percent-encoded (so `../x` cannot leave `out`); checked before the generator is opened.
 */
function datasetFolder(out: string, dataset: string): string {
	let folder: string;
	try {
		folder = safePathSegment(dataset);
	} catch (error) {
		if (error instanceof UnsafePathError)
			throw new CliInputError(`--dataset: ${error.message}.\n${LTM_GENERATE_USAGE}`);
		throw error;
	}
	outputPath(out, folder);
	return folder;
}

/** A located definitions problem: `path#pointer: error: message`. */
export function formatLtmDiagnostic(diagnostic: LtmDiagnostic): string {
	const at =
		diagnostic.pointer === '' ? diagnostic.path : `${diagnostic.path}#${diagnostic.pointer}`;
	return `${at}: ${diagnostic.severity}: ${diagnostic.message}\n`;
}

async function loadInput(
	input: string,
	io: CliIo,
	options: { countTokens: (text: string) => number; isolated: boolean; memorySpan?: number },
): Promise<LoadResult> {
	const info = await stat(input).catch(() => undefined);
	if (info === undefined) throw new CliInputError(`${input}: no such file or folder`);
	if (info.isFile() && /\.zip$/i.test(input))
		return loadLtmZip(basename(input), new Uint8Array(await readFile(input)), options);
	if (info.isFile()) return loadLtmSuite(input, await io.readText(input), options);
	const files: Record<string, string> = {};
	for (const path of await listFiles(input)) {
		if (path.endsWith('.def.json') || /(^|\/)config\.ya?ml$/.test(path)) {
			files[path] = await io.readText(join(input, path));
		}
	}
	const result = loadLtmDefinitions(files, options);
	if (result.ok || Object.keys(files).length > 0) return result;
	return {
		ok: false,
		diagnostics: [
			{
				severity: 'error',
				path: input,
				pointer: '',
				message: 'no <Dataset Name>/<id>.def.json files in this folder',
			},
		],
	};
}

async function listFiles(root: string): Promise<string[]> {
	const entries = await readdir(root, { recursive: true, withFileTypes: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
		.sort();
}

/** Where a test's result file goes under `--out`. @throws CliInputError for a name no file can have. */
function resultPath(test: LtmTestDefinition): string {
	try {
		return safeRelativePath(test.datasetName, `${test.exampleId}_0.json`);
	} catch (error) {
		if (error instanceof UnsafePathError)
			throw new CliInputError(`${test.uniqueId}: no result file can be named so: ${error.message}`);
		throw error;
	}
}

/**
 * Upstream's result files, `<Dataset Name>/<example_id>_0.json` as `TestResult.save` writes them
 * (names from the definitions, so made safe segments: a hostile name is percent-encoded, never a
 * way out of `out`), and summary.json (ours).
 */
async function writeReport(out: string, report: LtmReport): Promise<void> {
	for (const entry of report.tests) {
		await writeOutputFile(out, entry.path, goodaiTestResultText(entry.result));
	}
	await writeOutputFile(out, 'summary.json', `${JSON.stringify(report.summary, null, 2)}\n`);
}

/** The table printed at the end: one row per dataset, then the totals. */
export function formatLtmTable(report: LtmReport): string {
	const { summary } = report;
	const rows = Object.entries(summary.datasets).map(([name, stats]) => [
		name,
		String(stats.tests),
		stats.mean.toFixed(3),
		stats.std.toFixed(3),
	]);
	const header = ['dataset', 'tests', 'mean', 'std'];
	const widths = header.map((title, column) =>
		Math.max(title.length, ...rows.map((row) => row[column]!.length)),
	);
	const line = (cells: string[]) =>
		cells
			.map((cell, column) =>
				column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
			)
			.join('  ');
	const lines = [line(header), ...rows.map(line)];
	lines.push(
		`score ${summary.score.toFixed(3)} / ${rows.length} (std ${summary.score_std.toFixed(3)}), accuracy ${summary.accuracy.toFixed(1)} %, ltm ${summary.ltm.toFixed(1)} tokens, memory span ${summary.memory_span}`,
	);
	for (const skipped of summary.skipped) lines.push(`skipped ${skipped.test}: ${skipped.reason}`);
	if (summary.overruns.length > 0)
		lines.push(`gap over the memory span: ${summary.overruns.join(', ')}`);
	return `${lines.join('\n')}\n`;
}
