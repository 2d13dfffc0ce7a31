// The generic RPC client against a port the test drives: correlation by id, progress to its call
// only, abort (both modes), errors rebuilt by the hook, dispose, notices, replies for no call.
import { describe, expect, it } from 'vitest';
import {
	RpcClient,
	type RpcCancelReason,
	type RpcClientConfig,
} from '../../../src/worker/rpc/rpc-client';
import {
	recordingPort,
	type ToyCalls,
	type ToyError,
	type ToyNote,
	type ToyStep,
} from './toy-protocol';

class ToyFailure extends Error {
	constructor(
		override readonly name: string,
		message: string,
		readonly line?: number,
	) {
		super(message);
	}
}

class ToyCancelled extends Error {
	override name = 'ToyCancelled';
	constructor(readonly reason: RpcCancelReason) {
		super(`Cancelled (${reason}).`);
	}
}

function setup(config: Partial<RpcClientConfig<ToyError, ToyNote>> = {}) {
	const port = recordingPort();
	const client = new RpcClient<ToyCalls, ToyError, ToyStep, ToyNote>(port, {
		rebuildError: ({ name, message, line }) => new ToyFailure(name, message, line),
		cancelledError: (reason) => new ToyCancelled(reason),
		abort: 'reject-at-once',
		...config,
	});
	return { port, client };
}

/** Lets pending promise callbacks run. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('RpcClient', () => {
	it('posts a call under a fresh id and resolves it with the reply under that id', async () => {
		const { port, client } = setup();
		const first = client.call('echo', { text: 'a' });
		const second = client.call('count', { to: 3 });
		expect(port.sent).toEqual([
			{ type: 'call', id: 1, kind: 'echo', params: { text: 'a' } },
			{ type: 'call', id: 2, kind: 'count', params: { to: 3 } },
		]);
		port.emit({ type: 'result', id: 2, result: 3 });
		port.emit({ type: 'result', id: 1, result: { text: 'a' } });
		expect(await first).toEqual({ text: 'a' });
		expect(await second).toBe(3);
	});

	it('hands a progress event to its own call only, before the reply', async () => {
		const { port, client } = setup();
		const steps1: number[] = [];
		const steps2: number[] = [];
		const call1 = client.call('count', { to: 2 }, { onEvent: (event) => steps1.push(event.step) });
		const call2 = client.call('count', { to: 2 }, { onEvent: (event) => steps2.push(event.step) });
		port.emit({ type: 'step', id: 2, step: 1 });
		port.emit({ type: 'step', id: 1, step: 7 });
		port.emit({ type: 'step', id: 2, step: 2 });
		port.emit({ type: 'result', id: 2, result: 2 });
		port.emit({ type: 'step', id: 2, step: 3 });
		port.emit({ type: 'result', id: 1, result: 1 });
		await Promise.all([call1, call2]);
		expect(steps1).toEqual([7]);
		expect(steps2).toEqual([1, 2]);
	});

	it('passes the result through completeResult before resolving', async () => {
		const { port, client } = setup();
		const call = client.call(
			'echo',
			{ text: 'x' },
			{ completeResult: (result) => ({ text: `${result.text}!` }) },
		);
		port.emit({ type: 'result', id: 1, result: { text: 'x' } });
		expect(await call).toEqual({ text: 'x!' });
	});

	it('reject-at-once: an abort sends cancel and rejects with the cancelled error; later events are ignored', async () => {
		const { port, client } = setup();
		const controller = new AbortController();
		const steps: number[] = [];
		const call = client.call(
			'count',
			{ to: 5 },
			{ signal: controller.signal, onEvent: (event) => steps.push(event.step) },
		);
		controller.abort();
		expect(port.sent.at(-1)).toEqual({ type: 'cancel', id: 1 });
		const error = await call.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ToyCancelled);
		expect((error as ToyCancelled).reason).toBe('aborted');
		port.emit({ type: 'step', id: 1, step: 1 });
		port.emit({ type: 'result', id: 1, result: 5 });
		expect(steps).toEqual([]);
	});

	it('await-reply: an abort sends cancel and the call settles with what the other side answers', async () => {
		const { port, client } = setup({ abort: 'await-reply' });
		const controller = new AbortController();
		const cancelled = client.call('count', { to: 5 }, { signal: controller.signal });
		const other = new AbortController();
		const finished = client.call('count', { to: 1 }, { signal: other.signal });
		controller.abort();
		other.abort();
		expect(port.sent.filter((message) => message.type === 'cancel')).toEqual([
			{ type: 'cancel', id: 1 },
			{ type: 'cancel', id: 2 },
		]);
		let settled = false;
		void cancelled.catch(() => (settled = true));
		await settle();
		expect(settled).toBe(false);
		port.emit({ type: 'error', id: 1, error: { name: 'ToyCancelled', message: 'Stopped.' } });
		port.emit({ type: 'result', id: 2, result: 1 });
		await expect(cancelled).rejects.toMatchObject({ name: 'ToyCancelled', message: 'Stopped.' });
		expect(await finished).toBe(1);
	});

	it('rejects at once, posting nothing, for a signal aborted before the call', async () => {
		const { port, client } = setup({ abort: 'await-reply' });
		const error = await client
			.call('echo', { text: 'a' }, { signal: AbortSignal.abort() })
			.catch((e: unknown) => e);
		expect((error as ToyCancelled).reason).toBe('aborted');
		expect(port.sent).toEqual([]);
	});

	it('rebuilds an error reply with the hook, keeping its name and location', async () => {
		const { port, client } = setup();
		const call = client.call('echo', { text: 'a' });
		port.emit({ type: 'error', id: 1, error: { name: 'ParseError', message: 'bad', line: 4 } });
		const error = await call.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ToyFailure);
		expect(error).toMatchObject({ name: 'ParseError', message: 'bad', line: 4 });
	});

	it('dispose closes the port once and rejects every pending call and later calls', async () => {
		const { port, client } = setup();
		const controller = new AbortController();
		const calls = [
			client.call('echo', { text: 'a' }, { signal: controller.signal }),
			client.call('count', { to: 2 }),
		];
		client.dispose();
		client.dispose();
		expect(port.closed()).toBe(true);
		for (const call of calls) {
			await expect(call).rejects.toMatchObject({ name: 'ToyCancelled', reason: 'disposed' });
		}
		await expect(client.call('count', { to: 1 })).rejects.toMatchObject({ reason: 'disposed' });
		// The abort listener was removed: aborting now sends no cancel.
		const sentBefore = port.sent.length;
		controller.abort();
		expect(port.sent).toHaveLength(sentBefore);
	});

	it('ignores events for an unknown id, and for a call already settled', async () => {
		const { port, client } = setup();
		const call = client.call('count', { to: 1 });
		expect(() => port.emit({ type: 'result', id: 99, result: 0 })).not.toThrow();
		expect(() =>
			port.emit({ type: 'error', id: 42, error: { name: 'Error', message: 'x' } }),
		).not.toThrow();
		port.emit({ type: 'step', id: 99, step: 1 });
		port.emit({ type: 'result', id: 1, result: 1 });
		port.emit({ type: 'error', id: 1, error: { name: 'Error', message: 'late' } });
		expect(await call).toBe(1);
	});

	it('hands events without an id to onNotice', () => {
		const notes: string[] = [];
		const { port } = setup({ onNotice: (event) => notes.push(event.text) });
		port.emit({ type: 'note', text: 'warming up' });
		expect(notes).toEqual(['warming up']);
	});
});
