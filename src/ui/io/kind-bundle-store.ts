/**
 * What the Library asks of a family for its sealed bundles (a KindBundleStore): a stored run
 * written as its kind's bundle, and a bundle read well stored as a new run of this browser, with
 * progress and cancel where the family's storage can say them. A family that keeps its own tables
 * has a store of its own beside its other edges in this folder (`suite-bundle-store.ts`, …),
 * listed by kind in `kind-bundle-stores.ts`; every other kind goes through the generic run store
 * ({@link runStoreBundles}), by its kind's `toStored` / `fromStored`. Nothing here names a kind.
 */
import { exportRunBundleOfAnyKind, storeRunBundleOfAnyKind } from '../../storage/shared/run-store';
import { ImportCancelledError } from '../../storage/shared/storage-errors';
import type { ParseInputsClient } from './parse-inputs-client';
import type { RunBundleFileRead } from './parse-inputs-protocol';

/** How an import goes: where the bundle came from, cancel, and pieces stored so far. */
export interface BundleImportOptions {
	/** The file (or `zip/entry`) the bundle was read from, as a family may record it. */
	readonly sourceName: string;
	/** Aborting it rolls the import back (nothing of it stays stored): ImportCancelledError. */
	readonly signal?: AbortSignal;
	/** Pieces (items, samples) stored so far of all; a store that cannot count them never calls it. */
	readonly onProgress?: (stored: number, total: number) => void;
}

/**
 * A bundle read: its kind and bundle (as its kind's store takes it: a suite bundle read in the
 * parse worker has its items as chunk rows), or where and what is wrong.
 */
export type BundleFileRead = RunBundleFileRead;

/**
 * Reads a bundle file too big to parse on this thread in the parse worker, as its kind's reader
 * would (a failure says where and what, in the same words); its reading shows as progress.
 * @throws the parse worker's errors (a cancel: ParseInputError named CancelledError)
 */
export function readBundleFileOffThread(
	file: File,
	options: { readonly signal: AbortSignal; readonly client: ParseInputsClient },
): Promise<BundleFileRead> {
	return options.client.call('runBundle', { path: file.name, file }, { signal: options.signal });
}

/** A family's bundles in the Library, for a kind whose runs keep their own tables. */
export interface KindBundleStore<Bundle = unknown> {
	/** The stored run `runId` as its kind's sealed bundle (JSON text). @throws Error when it is gone */
	readonly exportText: (runId: number) => Promise<string>;
	/**
	 * Stores `bundle` (read by its kind's reader) as a new run of this browser; resolves with the
	 * new run's id. All or nothing: a failure or a cancel deletes what it stored.
	 * @throws ImportCancelledError when `signal` aborts; Error (StorageQuotaError, …) otherwise
	 */
	readonly importBundle: (bundle: Bundle, options: BundleImportOptions) => Promise<number>;
}

/** @throws ImportCancelledError when `signal` has aborted. */
export function stopIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new ImportCancelledError();
}

/**
 * The bundles of `kind` through the generic run store (its kind's `toStored` / `fromStored`): one
 * transaction, so a cancel is heeded before it starts and no progress is counted.
 */
export function runStoreBundles(kind: string): KindBundleStore {
	return {
		exportText: exportRunBundleOfAnyKind,
		async importBundle(bundle, { signal }) {
			stopIfCancelled(signal);
			return (await storeRunBundleOfAnyKind(kind, bundle)).id;
		},
	};
}
