/**
 * The worker's half of a worker RPC: runs each call with an AbortSignal of its own (aborted by a
 * `cancel` for its id) and posts how it ended under its id, a result or an error serialized by a
 * hook. Knows no call kinds and no transport; progress events are the calls' own.
 */
import type { RpcCallMap, RpcCallRequest, RpcReply, RpcRequest, RpcResult } from './rpc-protocol';

/** What a running call knows of itself: its id (for the events it posts) and its cancel signal. */
export interface RpcCallContext {
	readonly id: number;
	readonly signal: AbortSignal;
}

/** What a concrete handler decides: how a call runs, and how its end crosses. */
export interface RpcHandlerConfig<C extends RpcCallMap<C>, E> {
	/** Runs one call to its result; any progress it posts itself, under `call.id`. */
	readonly run: (request: RpcCallRequest<C>, call: RpcCallContext) => Promise<RpcResult<C>>;
	/** Turns anything thrown into plain data that survives structured clone. */
	readonly serializeError: (error: unknown) => E;
	/** Sends a reply to the main thread. */
	readonly post: (reply: RpcReply<C, E>) => void;
	/** Sends a call's result (default: one `result` event), e.g. its long arrays first, in pieces. */
	readonly postResult?: (request: RpcCallRequest<C>, result: RpcResult<C>) => void;
}

/**
 * Returns the function that handles one incoming request: each call ends with one `result` or
 * `error` under its id; a `cancel` aborts its call's signal (one for an unknown id is ignored).
 */
export function createRpcHandler<C extends RpcCallMap<C>, E>(
	config: RpcHandlerConfig<C, E>,
): (request: RpcRequest<C>) => void {
	const { run, serializeError, post } = config;
	const postResult =
		config.postResult ??
		((request: RpcCallRequest<C>, result: RpcResult<C>) =>
			post({ type: 'result', id: request.id, result }));
	const inFlight = new Map<number, AbortController>();
	return (request) => {
		if (request.type === 'cancel') {
			inFlight.get(request.id)?.abort();
			return;
		}
		const { id } = request;
		const controller = new AbortController();
		inFlight.set(id, controller);
		// Started now (progress may be posted at once); a synchronous throw becomes an error reply.
		const running = (async () => run(request, { id, signal: controller.signal }))();
		running.then(
			(result) => {
				inFlight.delete(id);
				postResult(request, result);
			},
			(error: unknown) => {
				inFlight.delete(id);
				post({ type: 'error', id, error: serializeError(error) });
			},
		);
	};
}
