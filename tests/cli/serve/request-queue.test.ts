// The bounded queue of `serve`: one request runs, `maxWaiting` wait in arrival order, the next is
// refused; a release hands the turn on, and a waiting request whose client leaves frees its place.
import { describe, expect, it } from 'vitest';
import { RequestQueue } from '../../../src/cli/serve/request-queue';
import { CancelledError } from '../../../src/worker/engine-errors';

const never = new AbortController().signal;

describe('RequestQueue', () => {
	it('runs one at a time in arrival order and refuses past maxWaiting', async () => {
		const queue = new RequestQueue(2);
		const tickets = [queue.admit(), queue.admit(), queue.admit()];
		expect(queue.admit()).toBeUndefined();
		expect(queue.size).toBe(3);
		const order: number[] = [];
		const turns = tickets.map((t, i) => t?.turn(never).then(() => order.push(i)));
		await turns[0];
		expect(order).toEqual([0]);
		tickets[0]?.release();
		await turns[1];
		expect(order).toEqual([0, 1]);
		expect(queue.admit()).toBeDefined();
		tickets[1]?.release();
		tickets[1]?.release();
		await turns[2];
		expect(order).toEqual([0, 1, 2]);
	});

	it('with maxWaiting 0 admits only the running request', () => {
		const queue = new RequestQueue(0);
		const running = queue.admit();
		expect(running).toBeDefined();
		expect(queue.admit()).toBeUndefined();
		running?.release();
		expect(queue.admit()).toBeDefined();
	});

	it('frees the place of a waiting request whose signal aborts, and skips it', async () => {
		const queue = new RequestQueue(1);
		const first = queue.admit();
		await first?.turn(never);
		const leaving = new AbortController();
		const second = queue.admit();
		const secondTurn = second?.turn(leaving.signal);
		expect(queue.admit()).toBeUndefined();
		leaving.abort();
		await expect(secondTurn).rejects.toBeInstanceOf(CancelledError);
		const third = queue.admit();
		expect(third).toBeDefined();
		first?.release();
		await expect(third?.turn(never)).resolves.toBeUndefined();
		expect(queue.size).toBe(1);
	});
});
