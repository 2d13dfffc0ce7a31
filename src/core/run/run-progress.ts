/**
 * Progress arithmetic of a run: share done, time left, throughput. Pure; the run session feeds
 * it counts and elapsed milliseconds it measured.
 */

/**
 * Time left for a run, in milliseconds, assuming the pace so far holds. `null` until there is
 * a pace (nothing finished yet or no time elapsed), 0 when everything is done.
 */
export function estimateRemainingMs(done: number, total: number, elapsedMs: number): number | null {
	if (total <= 0 || done >= total) return 0;
	if (done <= 0 || elapsedMs <= 0) return null;
	return (elapsedMs / done) * (total - done);
}

/** `count` per second over `elapsedMs`; 0 when no time has passed. */
export function ratePerSecond(count: number, elapsedMs: number): number {
	return elapsedMs > 0 ? (count * 1000) / elapsedMs : 0;
}

/** Share done in [0, 1]; 1 for an empty run. */
export function shareDone(done: number, total: number): number {
	if (total <= 0) return 1;
	return Math.min(1, Math.max(0, done / total));
}
