/**
 * The main thread's view of inference: InferenceClientApi over the module worker (or over any
 * engine in-thread, for tests). Correlates calls by id, rebuilds named errors, maps AbortSignal
 * to `cancel`. Never imports an engine implementation except FakeEngine for in-thread use.
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
	WorkerEvent,
	WorkerRequest,
} from './protocol';

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
export interface RequestPort {
	postMessage(message: WorkerRequest): void;
	/** Installs the one listener for events from the other side. */
	onEvent(listener: (event: WorkerEvent) => void): void;
	close(): void;
}

interface Pending {
	readonly resolve: (result: never) => void;
	readonly reject: (error: Error) => void;
	readonly options: CallOptions | undefined;
	readonly detach: () => void;
}

/** InferenceClientApi over a RequestPort. */
export class PortInferenceClient implements InferenceClientApi {
	readonly #port: RequestPort;
	readonly #pending = new Map<number, Pending>();
	readonly #onLog: (level: 'info' | 'warn', message: string) => void;
	#nextId = 1;
	#disposed = false;

	constructor(port: RequestPort, onLog?: (level: 'info' | 'warn', message: string) => void) {
		this.#port = port;
		this.#onLog = onLog ?? ((level, message) => console[level](`[inference] ${message}`));
		port.onEvent((event) => this.#receive(event));
	}

	call<K extends CallKind>(
		kind: K,
		params: Calls[K]['params'],
		options?: CallOptions,
	): Promise<Calls[K]['result']> {
		if (this.#disposed) {
			return Promise.reject(new CancelledError('The inference client was disposed.'));
		}
		const signal = options?.signal;
		if (signal?.aborted) return Promise.reject(new CancelledError('The request was cancelled.'));
		const id = this.#nextId++;
		return new Promise<Calls[K]['result']>((resolve, reject) => {
			const onAbort = (): void => this.#port.postMessage({ type: 'cancel', id });
			signal?.addEventListener('abort', onAbort, { once: true });
			this.#pending.set(id, {
				resolve: resolve as (result: never) => void,
				reject,
				options,
				detach: () => signal?.removeEventListener('abort', onAbort),
			});
			// NOTE: K is one member of CallKind here; TypeScript cannot tie `kind` to `params`
			// through the generic, so the message is asserted once.
			this.#port.postMessage({ type: 'call', id, kind, params } as WorkerRequest);
		});
	}

	/** Stops the worker; pending calls reject with CancelledError. */
	dispose(): void {
		if (this.#disposed) return;
		this.#disposed = true;
		this.#port.close();
		for (const pending of this.#pending.values()) {
			pending.detach();
			pending.reject(new CancelledError('The inference client was disposed.'));
		}
		this.#pending.clear();
	}

	#receive(event: WorkerEvent): void {
		if (event.type === 'log') {
			this.#onLog(event.level, event.message);
			return;
		}
		const pending = this.#pending.get(event.id);
		if (!pending) return;
		switch (event.type) {
			case 'load-progress':
				pending.options?.onLoadProgress?.(event.progress);
				return;
			case 'score-progress':
				pending.options?.onScoreProgress?.(event.progress);
				return;
			case 'generate-progress':
				pending.options?.onToken?.(event.progress);
				return;
			case 'result':
				this.#pending.delete(event.id);
				pending.detach();
				pending.resolve(event.result as never);
				return;
			case 'error':
				this.#pending.delete(event.id);
				pending.detach();
				pending.reject(deserializeError(event.error));
				return;
		}
	}
}

/** A RequestPort over a dedicated Worker. */
export function workerPort(worker: Worker): RequestPort {
	return {
		postMessage: (message) => worker.postMessage(message),
		onEvent: (listener) =>
			worker.addEventListener('message', (event: MessageEvent<WorkerEvent>) =>
				listener(event.data),
			),
		close: () => worker.terminate(),
	};
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
	let listener: ((event: WorkerEvent) => void) | undefined;
	let closed = false;
	const handle = createRequestHandler(engine, (event) => {
		const copy = structuredClone(event);
		queueMicrotask(() => {
			if (!closed) listener?.(copy);
		});
	});
	const port: RequestPort = {
		postMessage: (message) => {
			const copy = structuredClone(message);
			queueMicrotask(() => handle(copy));
		},
		onEvent: (l) => {
			listener = l;
		},
		close: () => {
			closed = true;
		},
	};
	return new PortInferenceClient(port);
}
