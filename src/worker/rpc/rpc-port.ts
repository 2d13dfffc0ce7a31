/**
 * The transport under an RPC client: RpcPort, over a dedicated Worker or over a handler in this
 * thread (tests, in-thread engines). Carries messages; knows nothing of calls.
 */

/** The part of a Worker a client uses (a pair of functions also fits, in tests). */
export interface RpcPort<Req, Ev> {
	postMessage(message: Req): void;
	/** Installs the one listener for events from the other side. */
	onEvent(listener: (event: Ev) => void): void;
	close(): void;
}

/** An RpcPort over a dedicated Worker; `close` terminates it. */
export function workerPort<Req, Ev>(worker: Worker): RpcPort<Req, Ev> {
	return {
		postMessage: (message) => worker.postMessage(message),
		onEvent: (listener) =>
			worker.addEventListener('message', (event: MessageEvent<Ev>) => listener(event.data)),
		close: () => worker.terminate(),
	};
}

/** How an in-thread port treats requests. */
export interface InThreadPortOptions {
	/**
	 * Structured-clone each request, as postMessage does (default true). False passes them as they
	 * are, for requests holding Blobs: postMessage shares those by reference anyway.
	 */
	readonly cloneRequests?: boolean;
}

/**
 * An RpcPort to a handler in this thread, across the same boundary as a worker: events are
 * structured-cloned and delivered in a later microtask (none after `close`), requests likewise.
 * `createHandler` receives the function that posts an event back.
 */
export function inThreadPort<Req, Ev>(
	createHandler: (post: (event: Ev) => void) => (request: Req) => void,
	options: InThreadPortOptions = {},
): RpcPort<Req, Ev> {
	const cloneRequests = options.cloneRequests ?? true;
	let listener: ((event: Ev) => void) | undefined;
	let closed = false;
	const handle = createHandler((event) => {
		const copy = structuredClone(event);
		queueMicrotask(() => {
			if (!closed) listener?.(copy);
		});
	});
	return {
		postMessage: (message) => {
			const copy = cloneRequests ? structuredClone(message) : message;
			queueMicrotask(() => handle(copy));
		},
		onEvent: (l) => {
			listener = l;
		},
		close: () => {
			closed = true;
		},
	};
}
