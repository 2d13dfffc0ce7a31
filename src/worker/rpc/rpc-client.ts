/**
 * The main thread's half of a worker RPC: calls correlated by id and settled by their reply (errors
 * rebuilt by a hook), an AbortSignal sent as `cancel`, a call's other events handed to that call
 * only, and disposing rejecting every pending call. Knows no call kinds and no transport.
 */
import type { RpcPort } from './rpc-port';
import type {
	RpcCallEvent,
	RpcCallMap,
	RpcCallRequest,
	RpcKind,
	RpcReply,
	RpcRequest,
} from './rpc-protocol';

/** Why a call was given up on this side, without waiting for its reply. */
export type RpcCancelReason = 'aborted' | 'disposed';

/** What a concrete client decides: its errors, and what an abort does. */
export interface RpcClientConfig<E, N> {
	/** Rebuilds an error as it crossed (`E`) into the error the call rejects with. */
	readonly rebuildError: (error: E) => Error;
	/** The error of a call given up on this side: its signal aborted, or the client disposed. */
	readonly cancelledError: (reason: RpcCancelReason) => Error;
	/**
	 * What an abort does besides posting `cancel`: `reject-at-once` (later events of the call are
	 * ignored), or `await-reply`: the call settles with what the other side answers (its cancelled
	 * error, or a result that was ready first). A signal aborted before the call rejects at once.
	 */
	readonly abort: 'reject-at-once' | 'await-reply';
	/** Receives events about no call (no `id`), such as logs. */
	readonly onNotice?: (event: N) => void;
}

/** Per call: its cancel signal, its events before the reply, and a last touch to its result. */
export interface RpcCallHooks<P, R> {
	readonly signal?: AbortSignal | undefined;
	readonly onEvent?: ((event: P) => void) | undefined;
	/** Turns the result as received into the one the call resolves with. */
	readonly completeResult?: ((result: R) => R) | undefined;
}

interface Pending<P> {
	readonly onEvent: ((event: P) => void) | undefined;
	readonly resolve: (result: unknown) => void;
	readonly reject: (error: Error) => void;
	/** Removes the abort listener. */
	readonly detach: () => void;
}

/**
 * Calls over an RpcPort. `C`: the request map; `E`: the error as it crosses; `P`: the events about
 * one call before its reply (progress); `N`: events about no call.
 */
export class RpcClient<C extends RpcCallMap<C>, E, P extends RpcCallEvent = never, N = never> {
	readonly #port: RpcPort<RpcRequest<C>, RpcReply<C, E> | P | N>;
	readonly #config: RpcClientConfig<E, N>;
	readonly #pending = new Map<number, Pending<P>>();
	#nextId = 1;
	#disposed = false;

	constructor(port: RpcPort<RpcRequest<C>, RpcReply<C, E> | P | N>, config: RpcClientConfig<E, N>) {
		this.#port = port;
		this.#config = config;
		port.onEvent((event) => this.#receive(event));
	}

	/** Posts a call; it settles with its reply, or rejects as cancelled (see the config's `abort`). */
	call<K extends RpcKind<C>>(
		kind: K,
		params: C[K]['params'],
		hooks: RpcCallHooks<P, C[K]['result']> = {},
	): Promise<C[K]['result']> {
		if (this.#disposed) return Promise.reject(this.#config.cancelledError('disposed'));
		const { signal, onEvent, completeResult } = hooks;
		if (signal?.aborted) return Promise.reject(this.#config.cancelledError('aborted'));
		const id = this.#nextId++;
		return new Promise<C[K]['result']>((resolve, reject) => {
			const onAbort = (): void => {
				this.#port.postMessage({ type: 'cancel', id });
				if (this.#config.abort === 'await-reply') return;
				this.#pending.delete(id);
				reject(this.#config.cancelledError('aborted'));
			};
			signal?.addEventListener('abort', onAbort, { once: true });
			this.#pending.set(id, {
				onEvent,
				resolve: (received) => {
					// NOTE: the reply under `id` answers this call, so its result is of kind K.
					const result = received as C[K]['result'];
					resolve(completeResult ? completeResult(result) : result);
				},
				reject,
				detach: () => signal?.removeEventListener('abort', onAbort),
			});
			// NOTE: TypeScript cannot tie `kind` to `params` through the generic: asserted once.
			this.#port.postMessage({ type: 'call', id, kind, params } as RpcCallRequest<C>);
		});
	}

	/** Closes the port; pending calls reject as cancelled, later calls too. */
	dispose(): void {
		if (this.#disposed) return;
		this.#disposed = true;
		this.#port.close();
		for (const pending of this.#pending.values()) {
			pending.detach();
			pending.reject(this.#config.cancelledError('disposed'));
		}
		this.#pending.clear();
	}

	#receive(event: RpcReply<C, E> | P | N): void {
		const { id } = event as { readonly id?: unknown };
		if (typeof id !== 'number') {
			this.#config.onNotice?.(event as N);
			return;
		}
		const pending = this.#pending.get(id);
		if (!pending) return;
		// NOTE: every event with an id is a reply or a P; `type` tells which.
		const addressed = event as RpcReply<C, E> | P;
		if (addressed.type !== 'result' && addressed.type !== 'error') {
			pending.onEvent?.(addressed as P);
			return;
		}
		this.#pending.delete(id);
		pending.detach();
		const reply = addressed as RpcReply<C, E>;
		if (reply.type === 'result') pending.resolve(reply.result);
		else pending.reject(this.#config.rebuildError(reply.error));
	}
}
