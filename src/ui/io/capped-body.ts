/**
 * Reads a fetch response's body as a stream with a byte cap and two clocks: the read stops (and
 * the stream is cancelled, so the connection is dropped) as soon as the cap is passed, when no
 * byte has come for `idleMs`, or at `deadline`. A body that never ends costs at most the cap in
 * memory and the deadline in time. Never throws: each outcome is a result the caller words.
 */

export interface CappedReadOptions {
	/** Most bytes accepted; one byte more stops the read. */
	readonly maxBytes: number;
	/** Longest wait for the next chunk (ms). */
	readonly idleMs: number;
	/** When the whole read must be over (ms since the epoch, as `Date.now()`). */
	readonly deadline: number;
	/** The clock (tests pass their own). */
	readonly now?: () => number;
}

export type CappedReadResult =
	| { readonly ok: true; readonly bytes: Uint8Array }
	/** `bytesRead`: what had come when the read stopped (past the cap for `too-large`). */
	| {
			readonly ok: false;
			readonly reason: 'too-large' | 'idle' | 'deadline';
			readonly bytesRead: number;
	  }
	| {
			readonly ok: false;
			readonly reason: 'error';
			readonly bytesRead: number;
			readonly error: unknown;
	  };

type Chunk = ReadableStreamReadResult<Uint8Array>;

/** The body of `response`, read within the cap and the clocks. */
export async function readCappedBody(
	response: Response,
	options: CappedReadOptions,
): Promise<CappedReadResult> {
	const now = options.now ?? Date.now;
	if (response.body === null) return { ok: true, bytes: new Uint8Array(0) };
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let bytesRead = 0;
	const stop = (): void => {
		// Cancelling drops the connection; a failure to cancel changes nothing for the caller.
		reader.cancel().catch(() => undefined);
	};
	for (;;) {
		const left = options.deadline - now();
		if (left <= 0) {
			stop();
			return { ok: false, reason: 'deadline', bytesRead };
		}
		const wait = Math.min(options.idleMs, left);
		let timer: ReturnType<typeof setTimeout> | undefined;
		const timedOut = new Promise<'timeout'>((resolve) => {
			timer = setTimeout(() => resolve('timeout'), wait);
		});
		let next: Chunk | 'timeout';
		try {
			next = await Promise.race([reader.read(), timedOut]);
		} catch (error) {
			stop();
			return { ok: false, reason: 'error', bytesRead, error };
		} finally {
			clearTimeout(timer);
		}
		if (next === 'timeout') {
			stop();
			return { ok: false, reason: wait < options.idleMs ? 'deadline' : 'idle', bytesRead };
		}
		if (next.done) break;
		bytesRead += next.value.byteLength;
		if (bytesRead > options.maxBytes) {
			stop();
			return { ok: false, reason: 'too-large', bytesRead };
		}
		chunks.push(next.value);
	}
	const bytes = new Uint8Array(bytesRead);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return { ok: true, bytes };
}
