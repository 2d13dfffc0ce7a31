/**
 * The parse worker's request handler as a plain function (parse-inputs.worker.ts wires it to
 * `self`; tests call it in Node): reads files with progress, runs the core's pure parsers (and
 * what a run bundle's kind builds from it before import) and posts plain results, errors as
 * `{ name, message, location }`. Cancel acts between steps.
 */
import {
	dedupeProblems,
	evalChoices,
	isRegistryFileName,
	listEvalNames,
	readRegistry,
	registryFiles,
	registryPathOf,
	resolveEval,
	type EvalChoice,
	type EvalsProblem,
} from '../../core/evals';
import { EvalsError } from '../../core/evals/shared/errors';
import { registryProblemOf } from '../../core/evals/registry-input';
import { CHECK_ALL_EVALS_UP_TO, zipRegistryEntries } from '../../core/evals/registry-load';
import { sha256Hex } from '../../core/hash/sha256';
import { describeError } from '../../core/messages/describe-error';
import { ReplayFileError, parseReplayFile } from '../../core/model/replay-file';
import type { LoadResult } from '../../core/ltm';
import { RUN_KIND_REGISTRY } from '../../core/kinds/registered-kinds';
import { sealVerdict } from '../../core/run/task-run-json';
import { createRpcHandler } from '../../worker/rpc/rpc-handler';
import { bundleForTransfer } from './kind-bundle-transfers';
import { loadGivenDefinitions, type MemoryDefinitions } from './memory-definitions';
import type {
	ErrorLocation,
	LoadDefinitionsParams,
	InputFile,
	ParseCallKind,
	ParseCalls,
	ParseEvent,
	ParseProgress,
	ParseRequest,
	ReadRegistryParams,
	ReadRegistryResult,
	ResolveEvalResult,
	SerializedParseError,
	RunBundleFileRead,
} from './parse-inputs-protocol';
import { sha256HexOfText } from './platform-sha256';

/** What a call can do besides parsing: report progress, and learn it was cancelled. */
export interface ParseContext {
	readonly onProgress: (progress: ParseProgress) => void;
	readonly cancelled: () => boolean;
}

/** Long arrays of each result, sent in pieces of {@link CHUNK_ITEMS} before the result. */
const CHUNKED_PATHS: { readonly [K in ParseCallKind]: readonly (readonly string[])[] } = {
	replayFile: [
		['answers', 'samples'],
		['answers', 'whens'],
	],
	readRegistry: [],
	resolveEval: [
		['resolved', 'samples'],
		['resolved', 'sampleLocations'],
	],
	ltmDefinitions: [['benchmark', 'tests']],
	runBundle: [],
};

/** Items per piece: a few milliseconds of structured clone each on the receiving side. */
export const CHUNK_ITEMS = 5000;

/** Thrown between steps of a cancelled call. */
class ParseCancelledError extends Error {
	override name = 'CancelledError';
	constructor() {
		super('Cancelled.');
	}
}

function stopIfCancelled(context: ParseContext): void {
	if (context.cancelled()) throw new ParseCancelledError();
}

/**
 * Bytes read per step of {@link readText}: few steps (each posts its progress to the page), yet
 * progress moves and a cancel is seen within one step.
 */
export const READ_SLICE_BYTES = 16 * 2 ** 20;

/**
 * Reads a blob as UTF-8 text (a leading BOM dropped, as `Blob.text()`), reporting bytes read. The
 * bytes are read in a few slices and decoded at once: a picked 30 MiB bundle took 1.4-1.6 s in
 * Chromium's worker as the stream's 64 KiB chunks (a progress message and a decode each), 1.3-1.4
 * s so (0.45-0.75 s reading the file, 0.6-0.9 s decoding it).
 */
async function readText(
	file: Blob,
	context: ParseContext,
	read: { done: number; total: number },
): Promise<string> {
	const bytes = new Uint8Array(file.size);
	for (let start = 0; start < file.size; start += READ_SLICE_BYTES) {
		const slice = await file.slice(start, start + READ_SLICE_BYTES).arrayBuffer();
		bytes.set(new Uint8Array(slice), start);
		read.done += slice.byteLength;
		context.onProgress({ phase: 'reading', done: read.done, total: read.total });
		stopIfCancelled(context);
	}
	return new TextDecoder().decode(bytes);
}

async function parseReplay(
	input: InputFile,
	context: ParseContext,
): Promise<ParseCalls['replayFile']['result']> {
	const text = await readText(input.file, context, { done: 0, total: input.file.size });
	context.onProgress({ phase: 'parsing', done: 0, total: 1 });
	const answers = parseReplayFile(text, input.path);
	stopIfCancelled(context);
	context.onProgress({ phase: 'hashing', done: 0, total: 1 });
	const sha256 = sha256Hex(text);
	return {
		name: input.path,
		text,
		sha256,
		answers,
		answerLines: answers.samples.length + answers.whens.length,
	};
}

/** Registry entries (path → text) of dropped files: YAML and JSONL as they are, zips unpacked. */
async function registryEntries(
	inputs: readonly InputFile[],
	context: ParseContext,
): Promise<[string, string][]> {
	const read = { done: 0, total: inputs.reduce((sum, input) => sum + input.file.size, 0) };
	const entries: [string, string][] = [];
	for (const input of inputs) {
		const name = input.path.split('/').pop() ?? input.path;
		if (/\.zip$/iu.test(name)) {
			const bytes = new Uint8Array(await input.file.arrayBuffer());
			read.done += bytes.byteLength;
			context.onProgress({ phase: 'reading', done: read.done, total: read.total });
			entries.push(...zipRegistryEntries(name, bytes));
		} else if (isRegistryFileName(name)) {
			const text = await readText(input.file, context, read);
			entries.push([registryPathOf(input.path, text), text]);
		} else {
			read.done += input.file.size;
		}
		stopIfCancelled(context);
	}
	return entries;
}

async function readRegistryCall(
	params: ReadRegistryParams,
	context: ParseContext,
): Promise<ReadRegistryResult> {
	const entries = await registryEntries(params.inputs, context);
	const merged = new Map(params.previous);
	for (const [path, text] of entries) merged.set(path, text);
	const files = registryFiles(merged);
	context.onProgress({ phase: 'parsing', done: 0, total: 1 });
	let evalNames: string[] = [];
	let choices: EvalChoice[] = [];
	const problems: EvalsProblem[] = [];
	try {
		const registry = readRegistry(files);
		evalNames = listEvalNames(registry);
		choices = evalChoices(registry, evalNames);
		if (evalNames.length <= CHECK_ALL_EVALS_UP_TO) {
			for (const name of evalNames) {
				stopIfCancelled(context);
				try {
					resolveEval(registry, name);
				} catch (error) {
					problems.push(registryProblemOf(error));
				}
			}
		}
	} catch (error) {
		problems.push(registryProblemOf(error));
	}
	context.onProgress({ phase: 'hashing', done: 0, total: 1 });
	const hashes: Record<string, string> = {};
	for (const [path, text] of files) hashes[path] = sha256Hex(text);
	return {
		files: [...files],
		hashes,
		evalNames,
		evalChoices: choices,
		problems: dedupeProblems(problems),
		foundFiles: entries.length > 0,
	};
}

function resolveEvalCall(params: ParseCalls['resolveEval']['params']): ResolveEvalResult {
	try {
		const registry = readRegistry(registryFiles(params.files));
		return { ok: true, resolved: resolveEval(registry, params.name) };
	} catch (error) {
		return { ok: false, problem: registryProblemOf(error) };
	}
}

async function loadDefinitionsCall(
	params: LoadDefinitionsParams,
	context: ParseContext,
): Promise<LoadResult> {
	context.onProgress({ phase: 'parsing', done: 0, total: 1 });
	// Loaded on demand: the cl100k rank table is large, and only definitions need it.
	const { countCl100kTokens } = await import('../../providers/token-count');
	const { definitions, memorySpan, isolated } = params;
	const given: MemoryDefinitions =
		definitions.kind === 'zip' ? definitions : { kind: 'texts', files: new Map(definitions.files) };
	return loadGivenDefinitions(given, {
		countTokens: countCl100kTokens,
		...(memorySpan === undefined ? {} : { memorySpan }),
		...(isolated === undefined ? {} : { isolated }),
	});
}

/**
 * Reads a run bundle of any registered kind (its envelope says which) as RUN_KIND_REGISTRY's
 * readBundle does, its seal hashed by the platform's hash where there is one (platform-sha256.ts),
 * then makes of it what its kind's import stores (kind-bundle-transfers.ts).
 */
async function readRunBundleCall(
	input: InputFile,
	context: ParseContext,
): Promise<RunBundleFileRead> {
	const text = await readText(input.file, context, { done: 0, total: input.file.size });
	context.onProgress({ phase: 'parsing', done: 0, total: 1 });
	const opened = RUN_KIND_REGISTRY.openBundle(text);
	if (!opened.ok) return opened;
	let verdict;
	if (opened.seal) {
		stopIfCancelled(context);
		verdict = sealVerdict(opened.seal.claimed, await sha256HexOfText(opened.seal.canonical));
		if (!verdict.ok) return verdict;
	}
	stopIfCancelled(context);
	const read = RUN_KIND_REGISTRY.readOpenedBundle(opened, verdict);
	if (!read.ok) return read;
	stopIfCancelled(context);
	const { kind, bundle, ...seal } = read;
	return { ...seal, kind, bundle: bundleForTransfer(kind, bundle) };
}

/** Runs one call; resolves with its plain result. @throws the parser's error. */
export async function runParseCall<K extends ParseCallKind>(
	kind: K,
	params: ParseCalls[K]['params'],
	context: ParseContext,
): Promise<ParseCalls[K]['result']> {
	type Result = ParseCalls[K]['result'];
	switch (kind) {
		case 'replayFile':
			return (await parseReplay(params as InputFile, context)) as Result;
		case 'readRegistry':
			return (await readRegistryCall(params as ReadRegistryParams, context)) as Result;
		case 'ltmDefinitions':
			return (await loadDefinitionsCall(params as LoadDefinitionsParams, context)) as Result;
		case 'runBundle':
			return (await readRunBundleCall(params as InputFile, context)) as Result;
		default:
			return resolveEvalCall(params as ParseCalls['resolveEval']['params']) as Result;
	}
}

/** An error as plain data: name, message and where the parser located it. */
export function serializeParseError(error: unknown): SerializedParseError {
	if (error instanceof ReplayFileError) {
		return { name: error.name, message: error.message, location: { line: error.line } };
	}
	if (error instanceof EvalsError && error.location) {
		const location: ErrorLocation = { ...error.location };
		return { name: error.name, message: error.message, location };
	}
	if (error instanceof Error) return { name: error.name, message: error.message };
	return { name: 'Error', message: describeError(error) };
}

/** `value` with the array at `path` replaced by `[]` (objects on the path copied), and its items. */
function detachArray(value: unknown, path: readonly string[]): { rest: unknown; items: unknown[] } {
	const [head, ...tail] = path;
	if (head === undefined)
		return Array.isArray(value) ? { rest: [], items: value } : { rest: value, items: [] };
	if (value === null || typeof value !== 'object' || !(head in value))
		return { rest: value, items: [] };
	const record = value as Record<string, unknown>;
	const inner = detachArray(record[head], tail);
	return { rest: { ...record, [head]: inner.rest }, items: inner.items };
}

/** Posts a result: its long arrays first, in pieces, then the rest. */
function postResult(
	post: (event: ParseEvent) => void,
	id: number,
	kind: ParseCallKind,
	result: ParseCalls[ParseCallKind]['result'],
): void {
	let rest: unknown = result;
	for (const path of CHUNKED_PATHS[kind]) {
		const detached = detachArray(rest, path);
		if (detached.items.length <= CHUNK_ITEMS) continue;
		rest = detached.rest;
		for (let start = 0; start < detached.items.length; start += CHUNK_ITEMS) {
			post({ type: 'chunk', id, path, items: detached.items.slice(start, start + CHUNK_ITEMS) });
		}
	}
	post({ type: 'result', id, result: rest as ParseCalls[ParseCallKind]['result'] });
}

/** The context of call `id`: progress posted at most once per percent of the reading and once per
 * phase after it; cancelled once its signal is aborted. */
function callContext(
	post: (event: ParseEvent) => void,
	id: number,
	signal: AbortSignal,
): ParseContext {
	let last = '';
	return {
		cancelled: () => signal.aborted,
		onProgress: (progress) => {
			const step = Math.floor((progress.done / Math.max(1, progress.total)) * 100);
			const key = progress.phase === 'reading' ? `reading ${step}` : progress.phase;
			if (key === last) return;
			last = key;
			post({ type: 'progress', id, progress });
		},
	};
}

/**
 * A handler of requests (the id bookkeeping is src/worker/rpc/rpc-handler.ts's): each call runs
 * and ends with one `result` or `error` event under its id, after any `progress` events; `cancel`
 * makes the call stop at its next step.
 */
export function createParseHandler(
	post: (event: ParseEvent) => void,
): (request: ParseRequest) => void {
	return createRpcHandler<ParseCalls, SerializedParseError>({
		run: (request, { id, signal }) =>
			runParseCall(request.kind, request.params, callContext(post, id, signal)),
		serializeError: serializeParseError,
		post,
		postResult: (request, result) => postResult(post, request.id, request.kind, result),
	});
}
