// The in-thread port: a generic client and handler over it behave as across a worker (clones,
// asynchronous delivery, nothing after close).
import { describe, expect, it } from 'vitest';
import { RpcClient } from '../../../src/worker/rpc/rpc-client';
import { createRpcHandler } from '../../../src/worker/rpc/rpc-handler';
import { inThreadPort } from '../../../src/worker/rpc/rpc-port';
import type { ToyCalls, ToyError, ToyEvent, ToyNote, ToyRequest, ToyStep } from './toy-protocol';

function toyClient(options: { readonly cloneRequests?: boolean } = {}) {
	const seen: unknown[] = [];
	const port = inThreadPort<ToyRequest, ToyEvent>(
		(post) =>
			createRpcHandler<ToyCalls, ToyError>({
				run: async (request, call) => {
					seen.push(request.params);
					if (request.kind === 'echo') return { text: request.params.text };
					for (let step = 1; step <= request.params.to; step++) {
						post({ type: 'step', id: call.id, step });
						await new Promise((resolve) => setTimeout(resolve, 0));
					}
					return request.params.to;
				},
				serializeError: () => ({ name: 'Error', message: 'failed' }),
				post,
			}),
		options,
	);
	const client = new RpcClient<ToyCalls, ToyError, ToyStep, ToyNote>(port, {
		rebuildError: ({ message }) => new Error(message),
		cancelledError: () => new Error('Cancelled.'),
		abort: 'reject-at-once',
	});
	return { client, seen };
}

describe('inThreadPort', () => {
	it('carries calls, progress and results between a client and a handler, cloned', async () => {
		const { client, seen } = toyClient();
		const params = { text: 'a' };
		const steps: number[] = [];
		expect(await client.call('echo', params)).toEqual({ text: 'a' });
		expect(await client.call('count', { to: 3 }, { onEvent: (e) => steps.push(e.step) })).toBe(3);
		expect(steps).toEqual([1, 2, 3]);
		expect(seen[0]).toEqual(params);
		expect(seen[0]).not.toBe(params);
	});

	it('passes requests as they are with cloneRequests false', async () => {
		const { client, seen } = toyClient({ cloneRequests: false });
		const params = { text: 'a' };
		await client.call('echo', params);
		expect(seen[0]).toBe(params);
	});

	it('delivers events in a later microtask, and none after close', async () => {
		const port = inThreadPort<string, string>((post) => (request) => post(`got ${request}`));
		const events: string[] = [];
		port.onEvent((event) => events.push(event));
		port.postMessage('a');
		expect(events).toEqual([]);
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(events).toEqual(['got a']);
		port.postMessage('b');
		port.close();
		await new Promise((resolve) => setTimeout(resolve, 0));
		expect(events).toEqual(['got a']);
	});
});
