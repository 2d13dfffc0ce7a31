/**
 * The message shapes every worker RPC shares: types only, for the inference and parse protocols
 * (protocol.ts, ui/io/parse-inputs-protocol.ts) and the generic client and handler beside this file.
 * Messages are plain data (structured clone): no classes, no functions.
 */

/** A request map: each call kind → its params and result. `C` is the map itself. */
export type RpcCallMap<C> = { readonly [K in keyof C]: { params: unknown; result: unknown } };

/** A call kind of the map `C`. */
export type RpcKind<C> = keyof C & string;

/** Any result of the map `C`. */
export type RpcResult<C extends RpcCallMap<C>> = C[RpcKind<C>]['result'];

/** Main → worker: a call, its kind tied to its params. */
export type RpcCallRequest<C extends RpcCallMap<C>> = {
	[K in RpcKind<C>]: {
		readonly type: 'call';
		readonly id: number;
		readonly kind: K;
		readonly params: C[K]['params'];
	};
}[RpcKind<C>];

/** Main → worker: stop the call `id` at its next step; it then ends with the cancelled error. */
export interface RpcCancelRequest {
	readonly type: 'cancel';
	readonly id: number;
}

/** Main → worker. */
export type RpcRequest<C extends RpcCallMap<C>> = RpcCallRequest<C> | RpcCancelRequest;

/** Worker → main: how a call ended, once per call, after its other events. `E` is the error as
 * it crosses (at least `{ name, message }`). */
export type RpcReply<C extends RpcCallMap<C>, E> =
	| { readonly type: 'result'; readonly id: number; readonly result: RpcResult<C> }
	| { readonly type: 'error'; readonly id: number; readonly error: E };

/** Worker → main: something about one call before its reply (progress, a piece of the result). */
export interface RpcCallEvent {
	readonly type: string;
	readonly id: number;
}
