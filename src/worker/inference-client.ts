/**
 * The main thread's view of inference: InferenceClientApi over the module worker (or over any
 * engine in-thread, for tests): the generic rpc/rpc-client.ts with named errors rebuilt, progress
 * handed to the call's callbacks, and the worker's logs. Never imports an engine implementation
 * except FakeEngine for in-thread use.
 */
import type { InferenceEngine } from './engine';
import { engineChoiceFromSearch, workerNameFor, type EngineChoice } from './engine-choice';
import { CancelledError, deserializeError } from './engine-errors';
import { createRequestHandler } from './handler';
import type {
	CallKind,
	CallOptions,
	Calls,
	InferenceClientApi,
	SerializedError,
	WorkerEvent,
	WorkerLogEvent,
	WorkerProgressEvent,
	WorkerRequest,
} from './protocol';
import { RpcClient } from './rpc/rpc-client';
import { inThreadPort, workerPort as rpcWorkerPort, type RpcPort } from './rpc/rpc-port';

export {
	BackendError,
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	NetworkUnavailableError,
	OutOfMemoryError,
	UnsupportedModelError,
} from './engine-errors';
export { engineChoiceFromSearch, type EngineChoice } from './engine-choice';

/** The part of `Worker` the client uses (a MessagePort-like pair also fits, for tests). */
export type RequestPort = RpcPort<WorkerRequest, WorkerEvent>;

/** InferenceClientApi over a RequestPort. */
export class PortInferenceClient implements InferenceClientApi {
	readonly #rpc: RpcClient<Calls, SerializedError, WorkerProgressEvent, WorkerLogEvent>;

	constructor(port: RequestPort, onLog?: (level: 'info' | 'warn', message: string) => void) {
		const log = onLog ?? ((level, message) => console[level](`[inference] ${message}`));
		this.#rpc = new RpcClient<Calls, SerializedError, WorkerProgressEvent, WorkerLogEvent>(port, {
			rebuildError: deserializeError,
			cancelledError: (reason) =>
				new CancelledError(
					reason === 'disposed'
						? 'The inference client was disposed.'
						: 'The request was cancelled.',
				),
			// The worker stops the engine within one batch, then answers with its CancelledError.
			abort: 'await-reply',
			onNotice: (event) => log(event.level, event.message),
		});
	}

	call<K extends CallKind>(
		kind: K,
		params: Calls[K]['params'],
		options?: CallOptions,
	): Promise<Calls[K]['result']> {
		return this.#rpc.call(kind, params, {
			signal: options?.signal,
			onEvent: (event) => reportProgress(event, options),
		});
	}

	/** Stops the worker; pending calls reject with CancelledError. */
	dispose(): void {
		this.#rpc.dispose();
	}
}

/** Hands a progress event to its callback in the call's options. */
function reportProgress(event: WorkerProgressEvent, options: CallOptions | undefined): void {
	switch (event.type) {
		case 'load-progress':
			options?.onLoadProgress?.(event.progress);
			return;
		case 'score-progress':
			options?.onScoreProgress?.(event.progress);
			return;
		case 'generate-progress':
			options?.onToken?.(event.progress);
			return;
	}
}

/** A RequestPort over a dedicated Worker. */
export function workerPort(worker: Worker): RequestPort {
	return rpcWorkerPort(worker);
}

/**
 * The client the app uses: a module worker running the engine named by `choice` (default: read
 * from the page URL, `?engine=fake` selects FakeEngine inside the worker).
 */
export function createInferenceClient(
	choice: EngineChoice = engineChoiceFromSearch(globalThis.location?.search ?? ''),
): InferenceClientApi {
	const worker = new Worker(new URL('./inference.worker.ts', import.meta.url), {
		type: 'module',
		name: workerNameFor(choice),
	});
	return new PortInferenceClient(workerPort(worker));
}

/**
 * A client over `engine` in this thread, through the same handler and the same structured-clone
 * boundary as the worker (messages are cloned both ways, events delivered asynchronously).
 */
export function createInThreadClient(engine: InferenceEngine): InferenceClientApi {
	return new PortInferenceClient(
		inThreadPort<WorkerRequest, WorkerEvent>((post) => createRequestHandler(engine, post)),
	);
}
