/**
 * The main thread's side of the parse worker: calls by id with progress and cancel (AbortSignal),
 * errors rebuilt with their name and location; the caps on input files (parsed in the worker over
 * 1 MiB, refused over 64 MiB) and `readReplayFile`, which picks the thread by size.
 */
import { parseReplayFile } from '../../core/model/replay-file';
import { sha256Hex } from '../../core/hash/sha256';
import { createParseHandler } from './parse-inputs-handler';
import { RpcClient } from '../../worker/rpc/rpc-client';
import { inThreadPort, workerPort, type RpcPort } from '../../worker/rpc/rpc-port';
import type {
	ErrorLocation,
	InputFile,
	ParseCallEvent,
	ParseCallKind,
	ParseCalls,
	ParseEvent,
	ParseProgress,
	ParseRequest,
	ParsedReplay,
	SerializedParseError,
} from './parse-inputs-protocol';

export type { ParseProgress, ParsedReplay } from './parse-inputs-protocol';

const MIB = 1024 * 1024;

/**
 * Inputs over this many bytes are parsed in the worker. JSON lines parse at roughly 20-50 MB/s on
 * a laptop, so 1 MiB stays within one 50 ms frame budget on the main thread, where starting the
 * worker and copying the text across would cost more than it saves.
 */
export const PARSE_IN_WORKER_BYTES = 1 * MIB;

/** No input file over this many bytes is read (checked on `file.size`, before reading). */
export const MAX_INPUT_FILE_BYTES = 64 * MIB;

/** An input file over {@link MAX_INPUT_FILE_BYTES}. */
export class InputTooLargeError extends Error {
	override name = 'InputTooLargeError';
}

/** An error the worker sent: the parser's name and message, and where it is when known. */
export class ParseInputError extends Error {
	constructor(
		override readonly name: string,
		message: string,
		readonly location?: ErrorLocation,
	) {
		super(message);
	}
}

/** `file` too large to read, said before reading it. @throws InputTooLargeError */
export function checkInputSize(file: { readonly name: string; readonly size: number }): void {
	if (file.size <= MAX_INPUT_FILE_BYTES) return;
	throw new InputTooLargeError(
		`${file.name} is ${(file.size / MIB).toFixed(1)} MiB: Benchtop reads input files of up to ${MAX_INPUT_FILE_BYTES / MIB} MiB. Split it into smaller files.`,
	);
}

/** The part of a Worker the client uses (a pair of functions in tests). */
export type ParsePort = RpcPort<ParseRequest, ParseEvent>;

/** Per-call options: cancel, and progress as it comes. */
export interface ParseCallOptions {
	readonly signal?: AbortSignal;
	readonly onProgress?: (progress: ParseProgress) => void;
}

/** Puts `items` at `path` of `value` (a fresh structured clone, so writable). */
function attachArray(value: unknown, path: readonly string[], items: unknown[]): void {
	let target = value as Record<string, unknown>;
	for (const key of path.slice(0, -1)) target = target[key] as Record<string, unknown>;
	const last = path.at(-1);
	if (last !== undefined) target[last] = items;
}

function cancelledError(): Error {
	return new ParseInputError('CancelledError', 'Cancelled.');
}

/** Calls over a ParsePort, correlated by id (src/worker/rpc/rpc-client.ts). */
export class ParseInputsClient {
	readonly #rpc: RpcClient<ParseCalls, SerializedParseError, ParseCallEvent>;

	constructor(port: ParsePort) {
		this.#rpc = new RpcClient<ParseCalls, SerializedParseError, ParseCallEvent>(port, {
			rebuildError: ({ name, message, location }) => new ParseInputError(name, message, location),
			cancelledError,
			abort: 'reject-at-once',
		});
	}

	/** Runs `kind` in the worker; an abort rejects at once with an error named CancelledError. */
	call<K extends ParseCallKind>(
		kind: K,
		params: ParseCalls[K]['params'],
		options: ParseCallOptions = {},
	): Promise<ParseCalls[K]['result']> {
		const { signal, onProgress } = options;
		/** Pieces of the result's long arrays received so far, by path. */
		const chunks = new Map<string, { path: readonly string[]; items: unknown[] }>();
		return this.#rpc.call(kind, params, {
			signal,
			onEvent: (event) => {
				if (event.type === 'progress') {
					onProgress?.(event.progress);
					return;
				}
				const key = event.path.join('/');
				const collected = chunks.get(key) ?? { path: event.path, items: [] };
				for (const item of event.items) collected.items.push(item);
				chunks.set(key, collected);
			},
			completeResult: (result) => {
				for (const { path, items } of chunks.values()) attachArray(result, path, items);
				return result;
			},
		});
	}

	/** Stops the worker; pending calls reject as cancelled, later calls too. */
	dispose(): void {
		this.#rpc.dispose();
	}
}

/** A client over the handler in this thread, its events structured-cloned (tests). */
export function createInThreadParseClient(): ParseInputsClient {
	// Requests pass as they are: their blobs are shared by reference, as postMessage does.
	return new ParseInputsClient(inThreadPort(createParseHandler, { cloneRequests: false }));
}

let shared: ParseInputsClient | null = null;

/** The app's one parse worker, started on first use. */
export function parseInputsClient(): ParseInputsClient {
	if (shared) return shared;
	const worker = new Worker(new URL('./parse-inputs.worker.ts', import.meta.url), {
		type: 'module',
		name: 'parse-inputs',
	});
	shared = new ParseInputsClient(workerPort(worker));
	return shared;
}

/**
 * Starts the parse worker when this thread is next idle, so that a big file dropped soon after
 * is read at once: the worker takes a few hundred milliseconds to start.
 */
export function warmParseWorker(): void {
	if (typeof Worker !== 'function') return;
	const warm = () => void parseInputsClient();
	if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 1000 });
	else setTimeout(warm, 0);
}

/** Parses replay-file text here, as the worker does. @throws ReplayFileError naming the line. */
export function parseReplayText(name: string, text: string): ParsedReplay {
	const answers = parseReplayFile(text, name);
	return {
		name,
		text,
		sha256: sha256Hex(text),
		answers,
		answerLines: answers.samples.length + answers.whens.length,
	};
}

/**
 * Reads and parses a replay file: in this thread up to {@link PARSE_IN_WORKER_BYTES}, in the
 * worker (`client`, with progress) above; refused over {@link MAX_INPUT_FILE_BYTES}.
 * @throws InputTooLargeError, ReplayFileError (here) or ParseInputError (worker)
 */
export async function readReplayFile(
	file: File,
	options: ParseCallOptions & { readonly client?: () => ParseInputsClient } = {},
): Promise<ParsedReplay> {
	checkInputSize(file);
	if (file.size <= PARSE_IN_WORKER_BYTES) return parseReplayText(file.name, await file.text());
	const input: InputFile = { path: file.name, file };
	return (options.client ?? parseInputsClient)().call('replayFile', input, options);
}
