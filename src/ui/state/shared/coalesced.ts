/**
 * An async read (a list re-read from storage) that calls in a burst share: a call made while a
 * read runs waits for one more read after it, which every other call made meanwhile shares. Each
 * caller's promise settles after a read that began after its call, so it sees what was stored
 * before it called; a battery's 34 runs changing at once read twice, not 34 times.
 */
export function coalesced(read: () => Promise<void>): () => Promise<void> {
	let running: Promise<void> | null = null;
	let queued: Promise<void> | null = null;
	const start = (): Promise<void> => {
		const run = read().finally(() => {
			if (running === run) running = null;
		});
		running = run;
		return run;
	};
	return () => {
		if (queued) return queued;
		if (!running) return start();
		const next = running
			.catch(() => undefined)
			.then(() => {
				queued = null;
				return start();
			});
		queued = next;
		return next;
	};
}
