// readCappedBody: a body read as a stream stops as soon as the cap is passed, when nothing comes
// for idleMs, or at the deadline, and cancels the stream each time (a body that never ends costs
// at most the cap and the deadline).
import { describe, expect, it } from 'vitest';
import { readCappedBody } from '../../../src/ui/io/capped-body';

/** A body of `chunkSize`-byte chunks, `count` of them (Infinity: never ends); counts pulls. */
function streamed(chunkSize: number, count: number) {
	const state = { pulled: 0, cancelled: false };
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (state.pulled >= count) {
				controller.close();
				return;
			}
			state.pulled += 1;
			controller.enqueue(new Uint8Array(chunkSize).fill(0x20));
		},
		cancel() {
			state.cancelled = true;
		},
	});
	return { response: new Response(body), state };
}

/** A body that sends `first` bytes, then nothing and never ends. */
function stalled(first: number) {
	const state = { cancelled: false };
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			controller.enqueue(new Uint8Array(first));
		},
		cancel() {
			state.cancelled = true;
		},
	});
	return { response: new Response(body), state };
}

const far = (): number => Date.now() + 60_000;

describe('readCappedBody', () => {
	it('returns the whole body when it fits, byte for byte', async () => {
		const { response } = streamed(1000, 5);
		const result = await readCappedBody(response, {
			maxBytes: 5000,
			idleMs: 1000,
			deadline: far(),
		});
		expect(result.ok).toBe(true);
		if (result.ok) expect(result.bytes).toEqual(new Uint8Array(5000).fill(0x20));
	});

	it('stops at the first chunk past the cap and cancels an endless body', async () => {
		const { response, state } = streamed(1000, Infinity);
		const result = await readCappedBody(response, {
			maxBytes: 4500,
			idleMs: 1000,
			deadline: far(),
		});
		expect(result).toEqual({ ok: false, reason: 'too-large', bytesRead: 5000 });
		expect(state.cancelled).toBe(true);
		// Pulled at most the chunks read plus the stream's one-chunk read-ahead.
		expect(state.pulled).toBeLessThanOrEqual(6);
	});

	it('stops when nothing comes for idleMs', async () => {
		const { response, state } = stalled(300);
		const result = await readCappedBody(response, { maxBytes: 1000, idleMs: 20, deadline: far() });
		expect(result).toEqual({ ok: false, reason: 'idle', bytesRead: 300 });
		expect(state.cancelled).toBe(true);
	});

	it('stops at the deadline, even while bytes keep coming', async () => {
		let clock = 0;
		const { response, state } = streamed(10, Infinity);
		const result = await readCappedBody(response, {
			maxBytes: 1_000_000,
			idleMs: 1000,
			deadline: 50,
			// Each look at the clock is 10 ms later.
			now: () => (clock += 10),
		});
		expect(result).toMatchObject({ ok: false, reason: 'deadline' });
		expect(state.cancelled).toBe(true);
	});

	it('calls a stall that outlasts the deadline a deadline, not idleness', async () => {
		const { response } = stalled(0);
		const result = await readCappedBody(response, {
			maxBytes: 1000,
			idleMs: 60_000,
			deadline: Date.now() + 20,
		});
		expect(result).toMatchObject({ ok: false, reason: 'deadline' });
	});

	it('reports a stream error with what had been read', async () => {
		const body = new ReadableStream<Uint8Array>({
			start(controller) {
				controller.enqueue(new Uint8Array(7));
				controller.error(new Error('connection reset'));
			},
		});
		const result = await readCappedBody(new Response(body), {
			maxBytes: 1000,
			idleMs: 1000,
			deadline: far(),
		});
		expect(result).toMatchObject({ ok: false, reason: 'error' });
	});

	it('reads a response without a body as empty', async () => {
		const result = await readCappedBody(new Response(null, { status: 204 }), {
			maxBytes: 10,
			idleMs: 10,
			deadline: far(),
		});
		expect(result).toEqual({ ok: true, bytes: new Uint8Array(0) });
	});
});
