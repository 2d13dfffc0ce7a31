/**
 * The Evals family's bundles in the Library: a stored Evals run written as its sealed bundle, and
 * a bundle stored as a new run of this browser (a new id): the record, every sample (counted as
 * progress, a cancel heeded between them), then its status, progress and report. Replay files'
 * text does not travel in bundles, so a run on replay models that did not finish cannot be
 * resumed here. All or nothing: a failure or a cancel deletes what was stored.
 */
import type { EvalsRunBundle } from '../../core/evals/evals-run-bundle';
import {
	createEvalsRun,
	deleteEvalsRun,
	saveEvalsSample,
	updateEvalsRun,
} from '../../storage/evals/evals-runs-repository';
import { storedRunBundleText } from './evals-stored-runs';
import { stopIfCancelled, type KindBundleStore } from './kind-bundle-store';

export const EVALS_BUNDLE_STORE: KindBundleStore<EvalsRunBundle> = {
	async exportText(runId) {
		const text = await storedRunBundleText(runId);
		if (text === null) throw new Error(`Run ${runId} is no longer stored.`);
		return text;
	},

	async importBundle(bundle, { signal, onProgress }) {
		stopIfCancelled(signal);
		const { status, progress, updatedAt, report, errorMessage, ...rest } = bundle.run;
		const total = bundle.samples.length;
		onProgress?.(0, total);
		const record = await createEvalsRun(
			{ ...rest, replayTexts: {}, total: progress.total },
			updatedAt,
		);
		try {
			let stored = 0;
			for (const sample of bundle.samples) {
				stopIfCancelled(signal);
				await saveEvalsSample(record.id, sample, updatedAt);
				onProgress?.(++stored, total);
			}
			stopIfCancelled(signal);
			await updateEvalsRun(
				record.id,
				{
					status,
					progress,
					...(report === undefined ? {} : { report }),
					errorMessage,
				},
				updatedAt,
			);
		} catch (error) {
			await deleteEvalsRun(record.id);
			throw error;
		}
		return record.id;
	},
};
