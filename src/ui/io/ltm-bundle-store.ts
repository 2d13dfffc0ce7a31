/**
 * The Memory (LTM) family's bundles in the Library: a stored Memory run written as its sealed
 * bundle (its record and scheduler state with the log), and a bundle stored as a new run of this
 * browser: the record, the state with its log, then status, progress and summary. A cancel is
 * heeded between those steps (no pieces to count). All or nothing: a failure or a cancel deletes
 * what was stored.
 */
import { buildLtmRunBundle, type LtmRunBundle } from '../../core/ltm/ltm-run-bundle';
import { LTM_RUN_KIND } from '../../core/ltm/ltm-run-kind';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	saveLtmState,
	updateLtmRun,
} from '../../storage/ltm/ltm-runs-repository';
import { stopIfCancelled, type KindBundleStore } from './kind-bundle-store';

export const LTM_BUNDLE_STORE: KindBundleStore<LtmRunBundle> = {
	async exportText(runId) {
		const run = await getLtmRun(runId);
		if (!run) throw new Error(`Run ${runId} is no longer stored.`);
		const state = (await getLtmState(runId)) ?? null;
		return LTM_RUN_KIND.bundle.write(buildLtmRunBundle(run, state));
	},

	async importBundle(bundle, { signal }) {
		stopIfCancelled(signal);
		const { status, progress, updatedAt, summary, errorMessage, ...rest } = bundle.run;
		const record = await createLtmRun({ ...rest, replayTexts: {} }, updatedAt);
		try {
			stopIfCancelled(signal);
			if (bundle.state) await saveLtmState(record.id, bundle.state, 0, progress, updatedAt);
			stopIfCancelled(signal);
			await updateLtmRun(
				record.id,
				{
					status,
					progress,
					...(summary === undefined ? {} : { summary }),
					errorMessage,
				},
				updatedAt,
			);
		} catch (error) {
			await deleteLtmRun(record.id);
			throw error;
		}
		return record.id;
	},
};
