/**
 * The main thread's side of the parse worker: calls by id with progress and cancel (AbortSignal),
 * errors rebuilt with their name and location; the caps on input files (parsed in the worker over
 * 1 MiB, refused over 64 MiB) and `readReplayFile`, which picks the thread by size.
 */
import { parseReplayFile } from '../core/model/replay-file';
import { sha256Hex } from '../core/hash/sha256';
import { createParseHandler } from './parse-inputs-handler';
import type {
	ErrorLocation,
	InputFile,
	ParseCallKind,
	ParseCalls,
	ParseEvent,
	ParseProgress,
	ParseRequest,
	ParsedReplay,
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
export interface ParsePort {
	postMessage(message: ParseRequest): void;
	onEvent(listener: (event: ParseEvent) => void): void;
	close(): void;
}

/** Per-call options: cancel, and progress as it comes. */
export interface ParseCallOptions {
	readonly signal?: AbortSignal;
	readonly onProgress?: (progress: ParseProgress) => void;
}

interface Pending {
	readonly resolve: (result: never) => void;
	readonly reject: (error: Error) => void;
	readonly onProgress: ((progress: ParseProgress) => void) | undefined;
	readonly detach: () => void;
	/** Pieces of the result's long arrays received so far, by path. */
	readonly chunks: Map<string, { path: readonly string[]; items: unknown[] }>;
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

/** Calls over a ParsePort, correlated by id. */
export class ParseInputsClient {
	readonly #port: ParsePort;
	readonly #pending = new Map<number, Pending>();
	#nextId = 1;

	constructor(port: ParsePort) {
		this.#port = port;
		port.onEvent((event) => this.#receive(event));
	}

	/** Runs `kind` in the worker; an abort rejects at once with an error named CancelledError. */
	call<K extends ParseCallKind>(
		kind: K,
		params: ParseCalls[K]['params'],
		options: ParseCallOptions = {},
	): Promise<ParseCalls[K]['result']> {
		const { signal, onProgress } = options;
		if (signal?.aborted) return Promise.reject(cancelledError());
		const id = this.#nextId++;
		return new Promise<ParseCalls[K]['result']>((resolve, reject) => {
			const onAbort = (): void => {
				this.#port.postMessage({ type: 'cancel', id });
				this.#pending.delete(id);
				reject(cancelledError());
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.#pending.set(id, {
				resolve: resolve as (result: never) => void,
				reject,
				onProgress,
				detach: () => signal?.removeEventListener('abort', onAbort),
				chunks: new Map(),
			});
			// NOTE: TypeScript cannot tie `kind` to `params` through the generic: asserted once.
			this.#port.postMessage({ type: 'call', id, kind, params } as ParseRequest);
		});
	}

	/** Stops the worker; pending calls reject as cancelled. */
	dispose(): void {
		this.#port.close();
		for (const pending of this.#pending.values()) {
			pending.detach();
			pending.reject(cancelledError());
		}
		this.#pending.clear();
	}

	#receive(event: ParseEvent): void {
		const pending = this.#pending.get(event.id);
		if (!pending) return;
		if (event.type === 'progress') {
			pending.onProgress?.(event.progress);
			return;
		}
		if (event.type === 'chunk') {
			const key = event.path.join('/');
			const collected = pending.chunks.get(key) ?? { path: event.path, items: [] };
			for (const item of event.items) collected.items.push(item);
			pending.chunks.set(key, collected);
			return;
		}
		this.#pending.delete(event.id);
		pending.detach();
		if (event.type === 'result') {
			for (const { path, items } of pending.chunks.values()) attachArray(event.result, path, items);
			pending.resolve(event.result as never);
		} else {
			const { name, message, location } = event.error;
			pending.reject(new ParseInputError(name, message, location));
		}
	}
}

/** A client over the handler in this thread, its events structured-cloned (tests). */
export function createInThreadParseClient(): ParseInputsClient {
	let listener: ((event: ParseEvent) => void) | undefined;
	let closed = false;
	const handle = createParseHandler((event) => {
		const copy = structuredClone(event);
		queueMicrotask(() => {
			if (!closed) listener?.(copy);
		});
	});
	return new ParseInputsClient({
		// Requests pass as they are: their blobs are shared by reference, as postMessage does.
		postMessage: (message) => queueMicrotask(() => handle(message)),
		onEvent: (l) => {
			listener = l;
		},
		close: () => {
			closed = true;
		},
	});
}

let shared: ParseInputsClient | null = null;

/** The app's one parse worker, started on first use. */
export function parseInputsClient(): ParseInputsClient {
	if (shared) return shared;
	const worker = new Worker(new URL('./parse-inputs.worker.ts', import.meta.url), {
		type: 'module',
		name: 'parse-inputs',
	});
	shared = new ParseInputsClient({
		postMessage: (message) => worker.postMessage(message),
		onEvent: (listener) =>
			worker.addEventListener('message', (event: MessageEvent<ParseEvent>) => listener(event.data)),
		close: () => worker.terminate(),
	});
	return shared;
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
