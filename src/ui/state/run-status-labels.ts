/** What the run session's status says to the user, the same in every progress panel. */
import { libraryStatusOf, type LibraryStatus } from '../../core/library/library-entry';
import type { RunStatus } from '../../core/run/run-types';
import type { RunSessionStatus } from './run-session.svelte';

export const RUN_STATUS_LABELS: Readonly<Record<RunSessionStatus, string>> = {
	idle: '',
	'loading-model': 'Loading the model…',
	scoring: 'Scoring…',
	cancelling: 'Cancelling…',
	done: 'Done',
	cancelled: 'Cancelled',
	failed: 'Stopped',
};

/** A stored run's status in words: `interrupted` stands for a `running` record no one scores. */
export type StoredRunStatusWord = LibraryStatus;

/**
 * The status word of a stored run on every page that lists or shows runs (the Library, the Evals
 * and Memory past runs, the results page). A record stays `running` in storage when the page that
 * scored it was reloaded or closed, so `running` is said only while a session of this tab is
 * working on it (`workedOnNow`); otherwise the run is `interrupted`, and the page offers Resume.
 */
export function storedRunStatusWord(status: RunStatus, workedOnNow: boolean): StoredRunStatusWord {
	return libraryStatusOf(status, workedOnNow);
}
