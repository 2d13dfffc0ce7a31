// Watches the run store for a run's end being written (its status set to done, cancelled or
// failed) and records whether the page's session still read as running at that write. A page
// that reads as idle before its run's end is stored lets a list read in between (the Library
// refreshes when a page goes idle) show the finished run as interrupted.
import { db } from '../../src/storage/shared/db';

const END_STATUSES = new Set(['done', 'cancelled', 'failed']);

export interface RunEndWrite {
	readonly status: string;
	readonly runningAtWrite: boolean;
}

export function watchRunEndWrites(running: () => boolean): {
	readonly writes: readonly RunEndWrite[];
	stop(): void;
} {
	const writes: RunEndWrite[] = [];
	const hook = (modifications: object): void => {
		const status = (modifications as { status?: unknown }).status;
		if (typeof status === 'string' && END_STATUSES.has(status)) {
			writes.push({ status, runningAtWrite: running() });
		}
	};
	db.runs.hook('updating', hook);
	return {
		writes,
		stop: () => db.runs.hook('updating').unsubscribe(hook),
	};
}
