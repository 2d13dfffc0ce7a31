/**
 * Upstream LTM definitions from a virtual file map `{path → text}`: `<Dataset Name>/<id>.def.json`
 * files and `config.yml`. Applies default waits (L2) and checks each test (a question, a script
 * that fits the memory span), reporting every problem located by file and JSON pointer.
 */
import { parse as parseYaml } from 'yaml';
import { findLtmDataset } from './datasets';
import { readDefinitionJson } from './definition-problems';
import type {
	JsonValue,
	LtmBenchmark,
	LtmConfig,
	LtmDiagnostic,
	LtmTestDefinition,
	LtmWait,
} from './shared/types';

/** Sync token counter for the memory-span check (upstream adds 4 tokens per script line). */
export type CountTokens = (text: string) => number;

export interface LoadDefinitionsOptions {
	/** Overrides `memory_span` of config.yml. */
	readonly memorySpan?: number;
	readonly isolated?: boolean;
	/** Token counter for the span check; without one, 1 token per 4 characters (rounded up). */
	readonly countTokens?: CountTokens;
}

export type LoadResult =
	| {
			readonly ok: true;
			readonly benchmark: LtmBenchmark;
			readonly diagnostics: readonly LtmDiagnostic[];
	  }
	| { readonly ok: false; readonly diagnostics: readonly LtmDiagnostic[] };

/** Upstream's default memory span when nothing says otherwise. */
export const DEFAULT_MEMORY_SPAN = 1000;

/** 1 token per 4 characters, rounded up: the fallback when no tokenizer is given. */
export function estimateTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

/**
 * Upstream `default_waits` (L2): line i of n waits until `(i+1)·90/(n−1)` % of the memory span,
 * the last line waits for nothing. `n` is the number of `is_question` entries.
 */
export function defaultWaits(lineCount: number): LtmWait[] {
	if (lineCount <= 1) return lineCount === 1 ? [{}] : [];
	const fraction = 90 / (lineCount - 1);
	const waits: LtmWait[] = [];
	for (let i = 0; i < lineCount - 1; i++) waits.push({ percentage_finished: (i + 1) * fraction });
	waits.push({});
	return waits;
}

/** Token count of a script as upstream's span check counts it (4 extra tokens per line). */
export function scriptTokens(script: readonly string[], countTokens: CountTokens): number {
	return script.reduce((sum, line) => sum + countTokens(line) + 4, 0);
}

/** Loads definitions from a file map. Paths use `/`; any common prefix folder is fine. */
export function loadLtmDefinitions(
	files: Readonly<Record<string, string>>,
	options: LoadDefinitionsOptions = {},
): LoadResult {
	const diagnostics: LtmDiagnostic[] = [];
	const configPath = Object.keys(files)
		.filter((path) => /(^|\/)config\.ya?ml$/.test(path))
		.sort((a, b) => a.length - b.length)[0];
	const fromYaml =
		configPath === undefined
			? {}
			: readConfigYaml(configPath, files[configPath] ?? '', diagnostics);
	const config: LtmConfig = {
		runName: fromYaml.runName ?? 'LTM run',
		memorySpan: options.memorySpan ?? fromYaml.memorySpan ?? DEFAULT_MEMORY_SPAN,
		incompatibilities: fromYaml.incompatibilities ?? [],
		isolated: options.isolated ?? false,
	};
	const tests: LtmTestDefinition[] = [];
	const definitionPaths = Object.keys(files)
		.filter((path) => path.endsWith('.def.json'))
		.sort();
	if (definitionPaths.length === 0) {
		diagnostics.push(
			error(
				configPath ?? '(definitions)',
				'',
				'no test definitions found: expected files named <Dataset Name>/<example id>.def.json',
			),
		);
	}
	for (const path of definitionPaths) {
		const test = readDefinition(path, files[path] ?? '', config, options, diagnostics);
		if (test) tests.push(test);
	}
	const seen = new Set<string>();
	for (const test of tests) {
		if (seen.has(test.uniqueId)) {
			diagnostics.push(
				error(test.source, '', `two tests share the id '${test.uniqueId}': rename one file`),
			);
		}
		seen.add(test.uniqueId);
	}
	tests.sort((a, b) => compareIds(a.uniqueId, b.uniqueId));
	if (diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
		return { ok: false, diagnostics };
	}
	return { ok: true, benchmark: { config, tests }, diagnostics };
}

/** Python's default string order (code points), as upstream's `sorted(unique_id)`. */
export function compareIds(a: string, b: string): number {
	const left = [...a];
	const right = [...b];
	for (let i = 0; i < Math.min(left.length, right.length); i++) {
		const x = left[i]!.codePointAt(0)!;
		const y = right[i]!.codePointAt(0)!;
		if (x !== y) return x - y;
	}
	return left.length - right.length;
}

interface YamlConfig {
	runName?: string;
	memorySpan?: number;
	incompatibilities?: string[][];
}

function readConfigYaml(path: string, text: string, diagnostics: LtmDiagnostic[]): YamlConfig {
	let root: unknown;
	try {
		root = parseYaml(text);
	} catch (cause) {
		diagnostics.push(
			error(path, '', `not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}`),
		);
		return {};
	}
	const result: YamlConfig = {};
	const config = field(root, 'config');
	const runName = field(config, 'run_name');
	if (typeof runName === 'string') result.runName = runName;
	const incompatibilities = field(config, 'incompatibilities');
	if (incompatibilities !== undefined) {
		if (
			Array.isArray(incompatibilities) &&
			incompatibilities.every(
				(set) => Array.isArray(set) && set.every((name) => typeof name === 'string'),
			)
		) {
			result.incompatibilities = incompatibilities as string[][];
		} else {
			diagnostics.push(
				error(path, '/config/incompatibilities', 'must be a list of lists of dataset config names'),
			);
		}
	}
	const span = field(field(field(root, 'datasets'), 'args'), 'memory_span');
	if (span !== undefined) {
		if (typeof span === 'number' && Number.isInteger(span) && span > 0) result.memorySpan = span;
		else
			diagnostics.push(
				error(path, '/datasets/args/memory_span', 'must be a positive whole number of tokens'),
			);
	}
	return result;
}

function field(value: unknown, key: string): unknown {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? (value as Record<string, unknown>)[key]
		: undefined;
}

function readDefinition(
	path: string,
	text: string,
	config: LtmConfig,
	options: LoadDefinitionsOptions,
	diagnostics: LtmDiagnostic[],
): LtmTestDefinition | undefined {
	const located = locateDefinition(path, diagnostics);
	if (!located) return undefined;
	const { dataset, exampleId } = located;
	const parsed = parseDefinitionJson(path, text, diagnostics);
	if (!parsed) return undefined;
	const dynamic = dataset.evaluator === 'dynamic';
	const fields = readFields(parsed.root, path, dataset, diagnostics);
	if (!fields) return undefined;
	const { script, isQuestion, expected } = fields;
	const waits: LtmWait[] = [];
	(fields.rawWaits as unknown[]).forEach((wait, index) => {
		const read = readWait(wait, path, `/waits/${index}`, diagnostics);
		if (read) waits.push(read);
	});
	if (!dynamic) checkScriptedTest(fields, waits, path, config, options, diagnostics);
	return {
		uniqueId: `${dataset.name} - ${exampleId}`,
		datasetName: dataset.name,
		exampleId,
		configName: dataset.configName,
		evaluator: dataset.evaluator,
		description: dataset.description,
		resetMessage: dataset.resetMessage,
		script,
		isQuestion,
		waits: waits.length === 0 && !dynamic ? defaultWaits(isQuestion.length) : waits,
		expectedResponses: Array.isArray(expected) ? (expected as JsonValue[]) : [],
		isTemporal: fields.isTemporal,
		usesCallback: fields.usesCallback,
		canBeInterleaved: fields.canBeInterleaved,
		source: path,
	};
}

type KnownDataset = NonNullable<ReturnType<typeof findLtmDataset>>;

/** The dataset (named by the file's folder) and example id (its name) of a definition file. */
function locateDefinition(
	path: string,
	diagnostics: LtmDiagnostic[],
): { dataset: KnownDataset; exampleId: string } | undefined {
	const parts = path.split('/');
	const fileName = parts[parts.length - 1] ?? path;
	const folder = parts[parts.length - 2];
	const exampleId = fileName.slice(0, -'.def.json'.length);
	if (folder === undefined) {
		diagnostics.push(
			error(
				path,
				'',
				'a definition must sit in a folder named after its dataset (<Dataset Name>/<id>.def.json)',
			),
		);
		return undefined;
	}
	const dataset = findLtmDataset(folder);
	if (!dataset) {
		diagnostics.push(
			error(
				path,
				'',
				`unknown dataset '${folder}': name the folder after an upstream dataset (Colours, Shopping, Spy Meeting, ...) or write an ltm-suite.json with an evaluator`,
			),
		);
		return undefined;
	}
	return { dataset, exampleId };
}

function parseDefinitionJson(
	path: string,
	text: string,
	diagnostics: LtmDiagnostic[],
): { root: unknown } | undefined {
	const read = readDefinitionJson(text);
	if (read.ok) return { root: read.value };
	diagnostics.push(error(path, '', read.message));
	return undefined;
}

/** A definition's fields, each checked for its type; `undefined` when any is wrong. */
interface DefinitionFields {
	readonly script: string[];
	readonly isQuestion: boolean[];
	readonly rawWaits: unknown;
	readonly expected: unknown;
	readonly isTemporal: boolean;
	readonly usesCallback: boolean;
	readonly canBeInterleaved: boolean;
}

function readFields(
	root: unknown,
	path: string,
	dataset: KnownDataset,
	diagnostics: LtmDiagnostic[],
): DefinitionFields | undefined {
	const before = diagnostics.length;
	const script = stringList(root, 'script', path, diagnostics);
	const isQuestion = booleanList(root, 'is_question', path, diagnostics);
	const rawWaits = field(root, 'waits') ?? [];
	const expected = field(root, 'expected_responses') ?? [];
	if (!Array.isArray(expected)) {
		diagnostics.push(error(path, '/expected_responses', 'must be a list'));
	} else if (dataset.evaluator !== 'dynamic' && expected.length === 0) {
		// Without expected answers every evaluator finds nothing missing: a silent full score.
		diagnostics.push(
			error(
				path,
				'/expected_responses',
				`${field(root, 'expected_responses') === undefined ? 'is missing' : 'is empty'}: give the answers the ${dataset.name} evaluator checks (a non-empty list)`,
			),
		);
	}
	if (!Array.isArray(rawWaits)) diagnostics.push(error(path, '/waits', 'must be a list'));
	const flag = (key: string, fallback: boolean): boolean => {
		const value = field(root, key);
		if (value === undefined) return fallback;
		if (typeof value !== 'boolean')
			diagnostics.push(error(path, `/${key}`, 'must be true or false'));
		return value === true;
	};
	const isTemporal = flag('is_temporal', false);
	const usesCallback = flag('uses_callback', false);
	const canBeInterleaved = flag('can_be_interleaved', true);
	if (diagnostics.length > before || !script || !isQuestion) return undefined;
	return { script, isQuestion, rawWaits, expected, isTemporal, usesCallback, canBeInterleaved };
}

/** A scripted (not dynamic) test: one question flag and wait per line, a script that fits the span. */
function checkScriptedTest(
	{ script, isQuestion, isTemporal }: DefinitionFields,
	waits: readonly LtmWait[],
	path: string,
	config: LtmConfig,
	options: LoadDefinitionsOptions,
	diagnostics: LtmDiagnostic[],
): void {
	// Both lists are measured against the script, so the message names the list that is wrong.
	const lineCounts = isTemporal ? [script.length, script.length + 1] : [script.length];
	const perLine = isTemporal
		? `${script.length} script lines (or one more for a temporal test's generated question)`
		: `${script.length} script lines`;
	const questionsFit = lineCounts.includes(isQuestion.length);
	if (!questionsFit) {
		diagnostics.push(
			error(
				path,
				'/is_question',
				`has ${isQuestion.length} entries for ${perLine}: give one per line`,
			),
		);
	}
	if (!isQuestion.includes(true)) {
		diagnostics.push(
			error(path, '/is_question', 'the test has no question: mark at least one line true'),
		);
	}
	const waitsFit =
		waits.length === 0 ||
		(questionsFit ? waits.length === isQuestion.length : lineCounts.includes(waits.length));
	if (!waitsFit) {
		diagnostics.push(
			error(
				path,
				'/waits',
				`has ${waits.length} entries for ${questionsFit ? `${isQuestion.length} lines` : perLine}: give one per line, or none for the defaults`,
			),
		);
	}
	const tokens = scriptTokens(script, options.countTokens ?? estimateTokens);
	if (tokens >= config.memorySpan) {
		diagnostics.push(
			error(
				path,
				'/script',
				`the script takes ${tokens} tokens, which does not fit the memory span of ${config.memorySpan}: raise --memory-span or shorten the script`,
			),
		);
	}
}

/** Reads one wait object (`tokens`, `time` in seconds, `percentage_finished`). */
export function readWait(
	value: unknown,
	path: string,
	pointer: string,
	diagnostics: LtmDiagnostic[],
): LtmWait | undefined {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		diagnostics.push(
			error(path, pointer, 'a wait must be an object like {"percentage_finished": 50}'),
		);
		return undefined;
	}
	const wait: { tokens?: number; time?: number; percentage_finished?: number } = {};
	for (const [key, entry] of Object.entries(value)) {
		if (key !== 'tokens' && key !== 'time' && key !== 'percentage_finished') {
			diagnostics.push(
				error(
					path,
					`${pointer}/${key}`,
					`unknown wait '${key}': use tokens, time (seconds) or percentage_finished`,
				),
			);
			continue;
		}
		if (typeof entry !== 'number' || !Number.isFinite(entry) || entry < 0) {
			diagnostics.push(error(path, `${pointer}/${key}`, 'must be a number ≥ 0'));
			continue;
		}
		wait[key] = entry;
	}
	return wait;
}

function stringList(
	root: unknown,
	key: string,
	path: string,
	diagnostics: LtmDiagnostic[],
): string[] | undefined {
	const value = field(root, key);
	if (!Array.isArray(value)) {
		diagnostics.push(error(path, `/${key}`, 'must be a list of strings'));
		return undefined;
	}
	const bad = value.findIndex((entry) => typeof entry !== 'string');
	if (bad !== -1) {
		diagnostics.push(error(path, `/${key}/${bad}`, 'must be a string'));
		return undefined;
	}
	return value as string[];
}

function booleanList(
	root: unknown,
	key: string,
	path: string,
	diagnostics: LtmDiagnostic[],
): boolean[] | undefined {
	const value = field(root, key);
	if (!Array.isArray(value)) {
		diagnostics.push(error(path, `/${key}`, 'must be a list of true/false'));
		return undefined;
	}
	const bad = value.findIndex((entry) => typeof entry !== 'boolean');
	if (bad !== -1) {
		diagnostics.push(error(path, `/${key}/${bad}`, 'must be true or false'));
		return undefined;
	}
	return value as boolean[];
}

function error(path: string, pointer: string, message: string): LtmDiagnostic {
	return { severity: 'error', path, pointer, message };
}
