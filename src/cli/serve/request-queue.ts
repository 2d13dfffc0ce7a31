/**
 * `serve`'s bounded queue of model requests: one runs at a time (one model, one decoding loop) and
 * at most `maxWaiting` wait behind it, first come first served; a request past that is refused.
 */
import { CancelledError } from '../../worker/engine-errors';

/** A place in the queue, held from admission until `release`. */
export interface QueueTicket {
	/** Resolves when it is this request's turn; CancelledError if `signal` aborts first. */
	turn(signal: AbortSignal): Promise<void>;
	/** Gives the place (and the turn, if held) to the next request. Idempotent. */
	release(): void;
}

export class RequestQueue {
	readonly #maxWaiting: number;
	/** Admitted and not released: the running one plus those waiting. */
	#admitted = 0;
	#running = false;
	readonly #waiting: (() => void)[] = [];

	constructor(maxWaiting: number) {
		this.#maxWaiting = maxWaiting;
	}

	/** Requests admitted and not yet released (running and waiting). */
	get size(): number {
		return this.#admitted;
	}

	/** A ticket, or undefined when one request runs and `maxWaiting` already wait. */
	admit(): QueueTicket | undefined {
		if (this.#admitted >= this.#maxWaiting + 1) return undefined;
		this.#admitted++;
		let state: 'admitted' | 'waiting' | 'running' | 'released' = 'admitted';
		let wake: (() => void) | undefined;
		const release = (): void => {
			if (state === 'released') return;
			if (wake) this.#waiting.splice(this.#waiting.indexOf(wake), 1);
			const wasRunning = state === 'running';
			state = 'released';
			this.#admitted--;
			if (wasRunning) this.#next();
		};
		const turn = (signal: AbortSignal): Promise<void> => {
			if (state !== 'admitted') return Promise.reject(new Error('A ticket takes one turn.'));
			if (signal.aborted) return Promise.reject(new CancelledError('The request was cancelled.'));
			if (!this.#running) {
				this.#running = true;
				state = 'running';
				return Promise.resolve();
			}
			state = 'waiting';
			return new Promise<void>((resolve, reject) => {
				const onAbort = (): void => {
					release();
					reject(new CancelledError('The request was cancelled.'));
				};
				wake = () => {
					wake = undefined;
					signal.removeEventListener('abort', onAbort);
					state = 'running';
					resolve();
				};
				signal.addEventListener('abort', onAbort, { once: true });
				this.#waiting.push(wake);
			});
		};
		return { turn, release };
	}

	#next(): void {
		const wake = this.#waiting.shift();
		if (wake) wake();
		else this.#running = false;
	}
}
