// coalesced: a burst of calls shares reads, and each caller still sees a read that began after
// its call.
import { describe, expect, it } from 'vitest';
import { coalesced } from '../../../../src/ui/state/shared/coalesced';

/** A read whose runs end when the test says, with the calls' and the reads' order. */
function controlledRead() {
	const events: string[] = [];
	const ends: (() => void)[] = [];
	let reads = 0;
	const read = (): Promise<void> => {
		reads += 1;
		const number = reads;
		events.push(`read ${number} began`);
		return new Promise<void>((resolve) => {
			ends.push(() => {
				events.push(`read ${number} ended`);
				resolve();
			});
		});
	};
	const endNext = async (): Promise<void> => {
		ends.shift()?.();
		// Lets the promise chain after the read run.
		for (let turn = 0; turn < 5; turn++) await Promise.resolve();
	};
	return { read, events, endNext, reads: () => reads };
}

describe('coalesced', () => {
	it('reads twice for a burst of calls, and every call settles after a read begun after it', async () => {
		const { read, events, endNext, reads } = controlledRead();
		const refresh = coalesced(read);
		const settled: number[] = [];
		const calls = Array.from({ length: 34 }, (_, index) =>
			refresh().then(() => {
				settled.push(index);
				events.push(`call ${index} settled`);
			}),
		);
		expect(reads()).toBe(1);
		await endNext();
		// The first call's read is done; the other 33 wait for the one read begun after them.
		expect(settled).toEqual([0]);
		expect(reads()).toBe(2);
		await endNext();
		await Promise.all(calls);
		expect(reads()).toBe(2);
		expect(settled).toHaveLength(34);
		expect(events.indexOf('read 2 began')).toBeLessThan(events.indexOf('call 1 settled'));
		expect(events.indexOf('read 2 ended')).toBeLessThan(events.indexOf('call 33 settled'));
	});

	it('reads again for a call after every read has ended', async () => {
		const { read, endNext, reads } = controlledRead();
		const refresh = coalesced(read);
		const first = refresh();
		await endNext();
		await first;
		const second = refresh();
		expect(reads()).toBe(2);
		await endNext();
		await second;
		expect(reads()).toBe(2);
	});

	it('a failed read fails its own callers and the next read still runs', async () => {
		let reads = 0;
		let fail = true;
		const refresh = coalesced(async () => {
			reads += 1;
			await Promise.resolve();
			if (fail) {
				fail = false;
				throw new Error('storage gone');
			}
		});
		const first = refresh();
		const second = refresh();
		await expect(first).rejects.toThrow('storage gone');
		await expect(second).resolves.toBeUndefined();
		expect(reads).toBe(2);
	});
});
