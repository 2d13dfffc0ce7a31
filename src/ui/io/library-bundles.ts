/**
 * The Library's bundles: a stored run of any kind written as its kind's sealed bundle
 * (each kind's `bundle.write`), several in one zip; and an Evals or Memory bundle
 * stored as a new run of this browser (a suite bundle imports through RunHistory, with progress).
 * Reads and writes storage through repositories only.
 */
import { buildLtmRunBundle, type LtmRunBundle } from '../../core/ltm/ltm-run-bundle';
import type { EvalsRunBundle } from '../../core/evals/evals-run-bundle';
import { LTM_RUN_KIND } from '../../core/ltm/ltm-run-kind';
import { SUITE_RUN_KIND } from '../../core/syntaxgym/suite-run-kind';
import {
	libraryBundleFileName,
	type LibraryEntry,
	libraryOpenTarget,
	type LibraryOpenTarget,
} from '../../core/library/library-entry';
import { exportRunBundleOfAnyKind, importRunBundleOfAnyKind } from '../../storage/shared/run-store';
import { zipTexts } from '../../core/formats/zip-archive';
import {
	createEvalsRun,
	deleteEvalsRun,
	saveEvalsSample,
	updateEvalsRun,
} from '../../storage/evals/evals-runs-repository';
import {
	createLtmRun,
	deleteLtmRun,
	getLtmRun,
	getLtmState,
	saveLtmState,
	updateLtmRun,
} from '../../storage/ltm/ltm-runs-repository';
import { listItemResults } from '../../storage/syntaxgym/suite-results-repository';
import type { DownloadFile } from './download-file';
import { storedRunBundleText } from './evals-stored-runs';
import { loadRunWithSuite } from './stored-run';

/** A stored run as its kind's sealed bundle (JSON text). @throws Error when it is gone. */
export async function storedBundleText(entry: Pick<LibraryEntry, 'id' | 'kind'>): Promise<string> {
	const gone = new Error(`Run ${entry.id} is no longer stored.`);
	switch (entry.kind) {
		case 'suite': {
			const { run, suiteText, suite } = await loadRunWithSuite(entry.id);
			const order = new Map(suite.items.map((item, index) => [item.itemNumber, index]));
			const items = (await listItemResults(entry.id))
				.filter((item) => order.has(item.itemNumber))
				.sort((a, b) => (order.get(a.itemNumber) ?? 0) - (order.get(b.itemNumber) ?? 0));
			const { id: _id, itemsDone: _itemsDone, ...portable } = run;
			return SUITE_RUN_KIND.bundle.write({ run: portable, suiteText, items });
		}
		case 'evals': {
			const text = await storedRunBundleText(entry.id);
			if (text === null) throw gone;
			return text;
		}
		case 'ltm': {
			const run = await getLtmRun(entry.id);
			if (!run) throw gone;
			const state = (await getLtmState(entry.id)) ?? null;
			return LTM_RUN_KIND.bundle.write(buildLtmRunBundle(run, state));
		}
		default:
			// Any other registered kind: the generic run store writes it by its kind.
			return exportRunBundleOfAnyKind(entry.id);
	}
}

/**
 * Stores a bundle of a registered kind that is not one of the app's own pages' (the generic run
 * store, by its kind's `toStored`); where the new run opens is its kind's route.
 * @throws Error naming what is wrong
 */
export async function storeBundleOfAnyKind(text: string): Promise<LibraryOpenTarget> {
	const run = await importRunBundleOfAnyKind(text);
	return libraryOpenTarget(run.kind, run.id);
}

/**
 * The export of `entries`: one run as its bundle (`.benchtop-run.json`), several as a zip of their
 * bundles, one file per run. @throws Error when a run is gone or its suite no longer reads.
 */
export async function libraryExportFile(
	entries: readonly Pick<LibraryEntry, 'id' | 'kind' | 'title'>[],
	now: Date = new Date(),
): Promise<DownloadFile> {
	const [only] = entries;
	if (entries.length === 1 && only) {
		return {
			fileName: libraryBundleFileName(only),
			mimeType: 'application/json',
			text: await storedBundleText(only),
		};
	}
	const files: Record<string, string> = {};
	for (const entry of entries) files[libraryBundleFileName(entry)] = await storedBundleText(entry);
	const stamp = now.toISOString().slice(0, 10);
	return {
		fileName: `benchtop-runs-${stamp}-${entries.length}.zip`,
		mimeType: 'application/zip',
		bytes: zipTexts(files) as Uint8Array<ArrayBuffer>,
	};
}

/**
 * Stores an Evals run bundle as a new run of this browser (a new id): the record, every sample,
 * then its status, progress and report. Replay files' text does not travel in bundles, so a run
 * on replay models that did not finish cannot be resumed here. All or nothing: a failure deletes
 * what was stored.
 */
export async function storeEvalsBundle(bundle: EvalsRunBundle): Promise<number> {
	const { status, progress, updatedAt, report, errorMessage, ...rest } = bundle.run;
	const record = await createEvalsRun(
		{ ...rest, replayTexts: {}, total: progress.total },
		updatedAt,
	);
	try {
		for (const sample of bundle.samples) await saveEvalsSample(record.id, sample, updatedAt);
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
}

/**
 * Stores a Memory (LTM) run bundle as a new run of this browser: the record, the scheduler state
 * with its log, then status, progress and summary. All or nothing, as {@link storeEvalsBundle}.
 */
export async function storeLtmBundle(bundle: LtmRunBundle): Promise<number> {
	const { status, progress, updatedAt, summary, errorMessage, ...rest } = bundle.run;
	const record = await createLtmRun({ ...rest, replayTexts: {} }, updatedAt);
	try {
		if (bundle.state) await saveLtmState(record.id, bundle.state, 0, progress, updatedAt);
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
}
