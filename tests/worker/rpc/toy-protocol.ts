// A small protocol for the generic RPC tests: two call kinds, a progress event, a notice.
import type { RpcReply, RpcRequest } from '../../../src/worker/rpc/rpc-protocol';
import type { RpcPort } from '../../../src/worker/rpc/rpc-port';

export interface ToyCalls {
	echo: { params: { readonly text: string }; result: { readonly text: string } };
	count: { params: { readonly to: number }; result: number };
}

export interface ToyError {
	readonly name: string;
	readonly message: string;
	readonly line?: number;
}

export interface ToyStep {
	readonly type: 'step';
	readonly id: number;
	readonly step: number;
}

export interface ToyNote {
	readonly type: 'note';
	readonly text: string;
}

export type ToyRequest = RpcRequest<ToyCalls>;
export type ToyEvent = RpcReply<ToyCalls, ToyError> | ToyStep | ToyNote;

/** A port that records what the client sends and lets the test play the other side. */
export function recordingPort(): RpcPort<ToyRequest, ToyEvent> & {
	readonly sent: ToyRequest[];
	readonly closed: () => boolean;
	emit(event: ToyEvent): void;
} {
	const sent: ToyRequest[] = [];
	let listener: ((event: ToyEvent) => void) | undefined;
	let closed = false;
	return {
		sent,
		closed: () => closed,
		emit: (event) => listener?.(event),
		postMessage: (message) => sent.push(message),
		onEvent: (l) => {
			listener = l;
		},
		close: () => {
			closed = true;
		},
	};
}
