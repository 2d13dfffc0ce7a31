/** A stored run's status in words, the same on every page that lists or shows runs. */
import { libraryStatusOf, type LibraryStatus } from '../../../core/library/library-entry';
import type { RunStatus } from '../../../core/run/run-types';

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
