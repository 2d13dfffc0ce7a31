/**
 * The suite run session as the Library asks of every kind's session (KindSession): busy, on which
 * runs (a battery's at once), resume and delete. A suite run's page opens when its run starts, so
 * a resume here opens it itself.
 */
import { deleteSuiteRun } from '../../../storage/syntaxgym/suite-runs-repository';
import type { KindSession } from '../shared/task-session.svelte';
import type { SuiteRunSession } from './suite-run-session.svelte';

export function suiteKindSession(session: SuiteRunSession): KindSession {
	return {
		isWorkingOn: (runId) => session.isWorkingOn(runId),
		get running() {
			return session.active;
		},
		resume: async (runId) => void (await session.resume(runId)),
		deleteRun: (runId) => deleteSuiteRun(runId),
		resumeOpensPage: true,
	};
}
