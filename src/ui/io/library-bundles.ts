/**
 * The Library's bundles: a stored run of any kind written as its kind's sealed bundle, several in
 * one zip, each by its kind's bundle store (kind-bundle-stores.ts: a family's own, else the
 * generic run store). Names no kind; reads storage only through the stores.
 */
import { libraryBundleFileName, type LibraryEntry } from '../../core/library/library-entry';
import { zipTexts } from '../../core/formats/zip-archive';
import type { DownloadFile } from './download-file';
import { bundleStoreOf } from './kind-bundle-stores';

/** A stored run as its kind's sealed bundle (JSON text). @throws Error when it is gone. */
export async function storedBundleText(entry: Pick<LibraryEntry, 'id' | 'kind'>): Promise<string> {
	return bundleStoreOf(entry.kind).exportText(entry.id);
}

/**
 * The export of `entries`: one run as its bundle (`.benchtop-run.json`), several as a zip of their
 * bundles, one file per run. @throws Error when a run is gone or cannot be written.
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
