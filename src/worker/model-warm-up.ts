/**
 * Runs a freshly loaded model for a while on texts of our own, in the background, so that the
 * first real request does not pay for a cold engine. In the browser, V8 first compiles
 * onnxruntime's wasm with its baseline compiler and optimizes a function only once it has run
 * enough. Measured on a 2-core machine with gpt2-en-small (engine harness): the 34 suites' first
 * pooled run took 12.5 s right after loading and 9.9-10.1 s once warm; after 1.5-3 s of warm-up
 * the first run took 10.0-10.9 s. On the Battery page, where the warm-up shares the cores with
 * the first visit's offline install, Run battery → done took 12.6-13.5 s without it (median
 * 12.8 s of 3), 11.9-13.0 s with 2 s (12.5 s) and 11.9-12.8 s with 4 s (12.1 s).
 * A request that runs the model stops the warm-up first: it waits for the one small batch in
 * flight, never for the rest. The first pass scores one sentence; a pass slower than
 * {@link MAX_PASS_MS} ends the warm-up (a large model warms up on real work soon enough, and a
 * request must not wait long behind a pass of ours).
 */

/** The longest a warm-up pass may take before the warm-up ends. */
export const MAX_PASS_MS = 500;

/** Sentences with shared prefixes, as suites have, so the shared-prefix path warms up too. */
export const WARM_UP_TEXTS: readonly string[] = [
	'The dog that the cat saw near the river ran away.',
	'The dog that the cat heard near the river ran away.',
	'The dogs that the cat saw near the river ran away.',
	'The dog that the cats saw near the river were running.',
	'No student who the teachers liked has ever failed.',
	'No student who the teachers liked have ever failed.',
	'The keys to the old cabinet are on the table.',
	'The keys to the old cabinet is on the table.',
];

/** One pass of the warm-up: scores `texts` once; rejects when `signal` aborts. */
export type WarmUpPass = (texts: readonly string[], signal: AbortSignal) => Promise<unknown>;

interface Running {
	readonly controller: AbortController;
	readonly done: Promise<void>;
}

export class ModelWarmUp {
	readonly #budgetMs: number;
	readonly #now: () => number;
	#running: Running | undefined;

	/** `budgetMs`: how long one model's warm-up may run (0: never). */
	constructor(budgetMs: number, now: () => number = () => performance.now()) {
		this.#budgetMs = budgetMs;
		this.#now = now;
	}

	/**
	 * Starts warming up with `pass` for at most the budget, after the warm-up under way (stopped)
	 * has finished its batch. Synchronous: a `stop()` right after it stops this one.
	 */
	start(pass: WarmUpPass): void {
		if (this.#budgetMs <= 0) return;
		const previous = this.#running;
		previous?.controller.abort();
		const controller = new AbortController();
		const done = (async () => {
			await previous?.done;
			const started = this.#now();
			let texts: readonly string[] = WARM_UP_TEXTS.slice(0, 1);
			while (!controller.signal.aborted && this.#now() - started < this.#budgetMs) {
				const passStarted = this.#now();
				try {
					await pass(texts, controller.signal);
				} catch {
					// Cancelled, or the model cannot run: the real request will say so, not this.
					return;
				}
				if (this.#now() - passStarted > MAX_PASS_MS) return;
				texts = WARM_UP_TEXTS;
			}
		})();
		const running: Running = { controller, done };
		this.#running = running;
		void done.finally(() => {
			if (this.#running === running) this.#running = undefined;
		});
	}

	/** Stops the warm-up under way, if any; resolves once its batch in flight has finished. */
	async stop(): Promise<void> {
		const running = this.#running;
		if (!running) return;
		running.controller.abort();
		await running.done;
	}

	/** Whether a warm-up is under way (for tests). */
	get running(): boolean {
		return this.#running !== undefined;
	}
}
