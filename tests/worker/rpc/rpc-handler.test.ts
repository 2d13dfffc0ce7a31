// The generic RPC handler: results and errors posted under the call's id, a signal per call that a
// cancel aborts, cancels for unknown ids ignored, and the postResult hook.
import { describe, expect, it } from 'vitest';
import { createRpcHandler, type RpcHandlerConfig } from '../../../src/worker/rpc/rpc-handler';
import type { RpcReply } from '../../../src/worker/rpc/rpc-protocol';
import type { ToyCalls, ToyError, ToyRequest } from './toy-protocol';

type ToyReply = RpcReply<ToyCalls, ToyError>;

function setup(
	run: RpcHandlerConfig<ToyCalls, ToyError>['run'],
	postResult?: RpcHandlerConfig<ToyCalls, ToyError>['postResult'],
) {
	const posted: ToyReply[] = [];
	const waiters = new Map<number, () => void>();
	const handle = createRpcHandler<ToyCalls, ToyError>({
		run,
		serializeError: (error) =>
			error instanceof Error
				? { name: error.name, message: error.message }
				: { name: 'Error', message: String(error) },
		post: (reply) => {
			posted.push(reply);
			waiters.get(reply.id)?.();
		},
		...(postResult ? { postResult } : {}),
	});
	return {
		posted,
		handle,
		/** Sends a call and waits for its reply. */
		send(request: Extract<ToyRequest, { type: 'call' }>): Promise<void> {
			const ended = new Promise<void>((resolve) => waiters.set(request.id, resolve));
			handle(request);
			return ended;
		},
	};
}

/** Rejects once `signal` aborts, as the engines do. */
function untilAborted(signal: AbortSignal): Promise<never> {
	return new Promise((_, reject) =>
		signal.addEventListener('abort', () => reject(new Error('Stopped.')), { once: true }),
	);
}

describe('createRpcHandler', () => {
	it('runs a call with its id and posts its result under that id', async () => {
		const ids: number[] = [];
		const h = setup(async (request, call) => {
			ids.push(call.id);
			return request.kind === 'echo' ? { text: request.params.text } : request.params.to;
		});
		await h.send({ type: 'call', id: 4, kind: 'echo', params: { text: 'hi' } });
		await h.send({ type: 'call', id: 5, kind: 'count', params: { to: 2 } });
		expect(ids).toEqual([4, 5]);
		expect(h.posted).toEqual([
			{ type: 'result', id: 4, result: { text: 'hi' } },
			{ type: 'result', id: 5, result: 2 },
		]);
	});

	it('posts what a call throws, serialized by the hook, a synchronous throw included', async () => {
		const h = setup((request) => {
			if (request.kind === 'count') throw new RangeError('too far');
			return Promise.reject(new TypeError('no text'));
		});
		await h.send({ type: 'call', id: 1, kind: 'echo', params: { text: '' } });
		await h.send({ type: 'call', id: 2, kind: 'count', params: { to: 1e9 } });
		expect(h.posted).toEqual([
			{ type: 'error', id: 1, error: { name: 'TypeError', message: 'no text' } },
			{ type: 'error', id: 2, error: { name: 'RangeError', message: 'too far' } },
		]);
	});

	it('aborts the signal of the cancelled call only', async () => {
		const signals = new Map<number, AbortSignal>();
		const h = setup((_request, call) => {
			signals.set(call.id, call.signal);
			return call.id === 1 ? untilAborted(call.signal) : Promise.resolve(7);
		});
		const first = h.send({ type: 'call', id: 1, kind: 'count', params: { to: 7 } });
		await h.send({ type: 'call', id: 2, kind: 'count', params: { to: 7 } });
		h.handle({ type: 'cancel', id: 1 });
		await first;
		expect(signals.get(1)?.aborted).toBe(true);
		expect(signals.get(2)?.aborted).toBe(false);
		expect(h.posted).toEqual([
			{ type: 'result', id: 2, result: 7 },
			{ type: 'error', id: 1, error: { name: 'Error', message: 'Stopped.' } },
		]);
	});

	it('ignores a cancel for an unknown or finished id', async () => {
		const h = setup(async () => 1);
		await h.send({ type: 'call', id: 1, kind: 'count', params: { to: 1 } });
		expect(() => h.handle({ type: 'cancel', id: 1 })).not.toThrow();
		expect(() => h.handle({ type: 'cancel', id: 99 })).not.toThrow();
		expect(h.posted).toEqual([{ type: 'result', id: 1, result: 1 }]);
	});

	it('sends results through postResult when given', async () => {
		const sent: [number, string, unknown][] = [];
		const h = setup(
			async () => 3,
			(request, result) => sent.push([request.id, request.kind, result]),
		);
		h.handle({ type: 'call', id: 8, kind: 'count', params: { to: 3 } });
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(sent).toEqual([[8, 'count', 3]]);
		expect(h.posted).toEqual([]);
	});
});
