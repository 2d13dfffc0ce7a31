/** What the run session's status says to the user, the same in every progress panel. */
import type { RunSessionStatus } from './state/run-session.svelte';

export const RUN_STATUS_LABELS: Readonly<Record<RunSessionStatus, string>> = {
	idle: '',
	'loading-model': 'Loading the model…',
	scoring: 'Scoring…',
	cancelling: 'Cancelling…',
	done: 'Done',
	cancelled: 'Cancelled',
	failed: 'Stopped',
};
