/** What the suite run session's status says to the user, the same in every progress panel. */
import type { SuiteRunSessionStatus } from './suite-run-session.svelte';

export const SUITE_RUN_STATUS_LABELS: Readonly<Record<SuiteRunSessionStatus, string>> = {
	idle: '',
	'loading-model': 'Loading the model…',
	scoring: 'Scoring…',
	cancelling: 'Cancelling…',
	done: 'Done',
	cancelled: 'Cancelled',
	failed: 'Stopped',
};
