/**
 * The Library (the run history): stored runs of every kind (newest first), deletion, export of
 * runs as sealed bundles (several in a zip), import of a bundle of any kind or a zip of them (each
 * stored by its kind's bundle store, kind-bundle-stores.ts; a big file read in the parse worker),
 * storage usage and the persistent-storage request. Storage only through repositories.
 */
import { describeError } from '../../../core/messages/describe-error';
import { RUN_KIND_REGISTRY } from '../../../core/kinds/registered-kinds';
import { entryText, unzipBounded } from '../../../core/formats/zip-archive';
import {
	libraryEntryOf,
	type LibraryEntry,
	libraryOpenTarget,
	type LibraryOpenTarget,
} from '../../../core/library/library-entry';
import type { SuiteRun } from '../../../core/syntaxgym/run/suite-run';
import { listSuiteRunHistory } from '../../../storage/syntaxgym/suite-runs-repository';
import {
	deleteUnreadableRun,
	listLibraryRuns,
	type UnreadableRun,
} from '../../../storage/shared/runs-repository';
import type { DownloadFile } from '../../io/download-file';
import { readBundleFileOffThread, type BundleFileRead } from '../../io/kind-bundle-store';
import { bundleStoreOf } from '../../io/kind-bundle-stores';
import { libraryExportFile } from '../../io/library-bundles';
import {
	PARSE_IN_WORKER_BYTES,
	ParseInputError,
	parseInputsClient,
	type ParseInputsClient,
} from '../../io/parse-inputs-client';
import {
	estimateStorageUsage,
	readPersistence,
	requestPersistentStorage,
	type PersistenceState,
	type StorageUsage,
} from '../../../storage/shared/storage-usage';
import { ImportCancelledError } from '../../../storage/shared/storage-errors';
import { coalesced } from './coalesced';

/** What is wrong with a bundle that did not read, and where. */
function readProblem(sourceName: string, read: { pointer: string; message: string }): string {
	const where = read.pointer === '' ? '' : ` at ${read.pointer}`;
	return `${sourceName} cannot be imported${where}: ${read.message}.`;
}

/** An import going on: the file, and items stored of all (null while the file is read). */
export interface ImportProgress {
	readonly name: string;
	readonly stored: number;
	readonly total: number | null;
	/** What is counted, in its kind's word (`items`, `samples`); absent while the file is read. */
	readonly noun?: string;
}

export class RunHistory {
	#runs = $state.raw<readonly SuiteRun[]>([]);
	#entries = $state.raw<readonly LibraryEntry[]>([]);
	#unreadable = $state.raw<readonly UnreadableRun[]>([]);
	#usage = $state.raw<StorageUsage | null>(null);
	#persistence = $state<PersistenceState>('unsupported');
	#message = $state<string | null>(null);
	#loaded = $state(false);
	#importing = $state.raw<ImportProgress | null>(null);
	#importAbort: AbortController | null = null;
	/** The last import was cancelled. */
	#cancelled = false;

	/** The suite runs, newest first (what batteries and the matrix group). */
	get runs(): readonly SuiteRun[] {
		return this.#runs;
	}

	/** The Library: stored runs of every kind, newest first. */
	get entries(): readonly LibraryEntry[] {
		return this.#entries;
	}

	/** Stored records of any kind that cannot be shown (a time a date cannot hold, …), listed apart. */
	get unreadable(): readonly UnreadableRun[] {
		return this.#unreadable;
	}

	/** The import going on, or null. */
	get importing(): ImportProgress | null {
		return this.#importing;
	}

	/** Cancels the import going on: nothing of it stays stored. */
	cancelImport(): void {
		this.#importAbort?.abort();
	}

	get loaded(): boolean {
		return this.#loaded;
	}

	get usage(): StorageUsage | null {
		return this.#usage;
	}

	get persistence(): PersistenceState {
		return this.#persistence;
	}

	/** The last problem or confirmation to show (import errors, deletions). */
	get message(): string | null {
		return this.#message;
	}

	/** Re-reads runs, usage and persistence (calls made while a read runs share the next one).
	 * Never throws; a failure becomes `message`. */
	refresh(): Promise<void> {
		return this.#refresh();
	}

	readonly #refresh = coalesced(() => this.#read());

	async #read(): Promise<void> {
		try {
			const [suiteRuns, library] = await Promise.all([listSuiteRunHistory(), listLibraryRuns()]);
			this.#runs = suiteRuns.runs;
			this.#entries = library.runs.map(libraryEntryOf);
			this.#unreadable = library.unreadable;
		} catch (error) {
			this.#message = `The run history could not be read: ${describeError(error)}`;
		}
		this.#loaded = true;
		this.#usage = await estimateStorageUsage();
		this.#persistence = await readPersistence();
	}

	/** Asks the browser to keep our data (done once at start and on request). */
	async requestPersistence(): Promise<PersistenceState> {
		this.#persistence = await requestPersistentStorage();
		return this.#persistence;
	}

	/**
	 * Deletes run `runId` through its kind's session (`deleteRun`, which keeps that page's list
	 * right), re-reads the runs and says whether it is gone.
	 */
	async delete(runId: number, deleteRun: (runId: number) => Promise<void>): Promise<void> {
		try {
			await deleteRun(runId);
		} catch (error) {
			this.#message = `Run ${runId} could not be deleted: ${describeError(error)}`;
			await this.refresh();
			return;
		}
		await this.refresh();
		this.#message = this.#entries.some((entry) => entry.id === runId)
			? `Run ${runId} was not deleted: a run is going on on its page; wait for it or cancel it.`
			: `Run ${runId} deleted.`;
	}

	/** Deletes a stored record that cannot be shown (and everything stored under its id). */
	async deleteUnreadable(runId: number): Promise<void> {
		try {
			await deleteUnreadableRun(runId);
			this.#message = `Unreadable record ${runId} deleted.`;
		} catch (error) {
			this.#message = `Record ${runId} could not be deleted: ${describeError(error)}`;
		}
		await this.refresh();
	}

	/**
	 * Imports a run bundle file of any kind. A file over PARSE_IN_WORKER_BYTES (a big run) is read,
	 * parsed and seal-checked in the parse worker (this thread stays free; its reading shows as
	 * progress and can be cancelled); a smaller one here. Returns where the new run opens, or null with `message` saying what is wrong and where.
	 */
	async importBundleFile(
		file: File,
		client: () => ParseInputsClient = parseInputsClient,
	): Promise<LibraryOpenTarget | null> {
		if (file.size <= PARSE_IN_WORKER_BYTES) return this.importBundle(await file.text(), file.name);
		const sourceName = file.name;
		if (this.#importing) {
			this.#message = `An import is going on (${this.#importing.name}); wait for it or cancel it.`;
			return null;
		}
		this.#cancelled = false;
		const abort = new AbortController();
		this.#importAbort = abort;
		this.#importing = { name: sourceName, stored: 0, total: null };
		try {
			const read = await readBundleFileOffThread(file, { signal: abort.signal, client: client() });
			if (!read.ok) {
				this.#message = readProblem(sourceName, read);
				return null;
			}
			const target = await this.#store(sourceName, read, abort);
			if (target) await this.refresh();
			return target;
		} catch (error) {
			this.#message =
				error instanceof ParseInputError && error.name === 'CancelledError'
					? `Import of ${sourceName} cancelled; nothing of it was stored.`
					: `${sourceName} could not be read: ${describeError(error)}`;
			return null;
		} finally {
			this.#importing = null;
			this.#importAbort = null;
		}
	}

	/**
	 * Imports a run bundle of any kind (JSON text) as a new run of this browser. Returns where the
	 * new run opens, or null with `message` saying what is wrong and where.
	 */
	async importBundle(text: string, sourceName: string): Promise<LibraryOpenTarget | null> {
		if (this.#importing) {
			this.#message = `An import is going on (${this.#importing.name}); wait for it or cancel it.`;
			return null;
		}
		const target = await this.#importOne(text, sourceName);
		if (target) await this.refresh();
		return target;
	}

	/**
	 * Imports every run bundle (`.json`) of a zip, one after the other; says how many were
	 * imported and what was wrong with the others. Returns the new runs' ids.
	 */
	async importZip(bytes: Uint8Array, zipName: string): Promise<number[]> {
		if (this.#importing) {
			this.#message = `An import is going on (${this.#importing.name}); wait for it or cancel it.`;
			return [];
		}
		let entries: Record<string, Uint8Array>;
		try {
			entries = unzipBounded(zipName, bytes, (name) => /\.json$/i.test(name));
		} catch (error) {
			this.#message = describeError(error);
			return [];
		}
		const names = Object.keys(entries).sort();
		const imported: number[] = [];
		const problems: string[] = [];
		for (const name of names) {
			const entry = entries[name];
			if (!entry) continue;
			const target = await this.#importOne(entryText(entry), `${zipName}/${name}`);
			if (target) imported.push(target.runId);
			else if (this.#message) problems.push(this.#message);
			// A cancel stops the whole zip (the runs before it stay imported).
			if (this.#cancelled) break;
		}
		const runs = imported.length === 1 ? 'run' : 'runs';
		this.#message =
			names.length === 0
				? `${zipName} holds no run bundle (.json).`
				: [
						`Imported ${imported.length} of ${names.length} ${runs} from ${zipName}${imported.length > 0 ? ` as ${imported.map((id) => `run ${id}`).join(', ')}` : ''}.`,
						...problems,
					].join(' ');
		await this.refresh();
		return imported;
	}

	/** Reads and stores one bundle; the message says what happened. */
	async #importOne(text: string, sourceName: string): Promise<LibraryOpenTarget | null> {
		this.#cancelled = false;
		const read = RUN_KIND_REGISTRY.readBundle(text);
		if (!read.ok) {
			this.#message = readProblem(sourceName, read);
			return null;
		}
		const abort = new AbortController();
		this.#importAbort = abort;
		try {
			return await this.#store(sourceName, read, abort);
		} finally {
			this.#importing = null;
			this.#importAbort = null;
		}
	}

	/**
	 * Stores a bundle read well by its kind's bundle store, with progress where the store counts
	 * it, and cancel (nothing of it stays stored).
	 */
	async #store(
		sourceName: string,
		read: Extract<BundleFileRead, { ok: true }>,
		abort: AbortController,
	): Promise<LibraryOpenTarget | null> {
		this.#importing = { name: sourceName, stored: 0, total: null };
		const noun = RUN_KIND_REGISTRY.get(read.kind)?.resume.noun ?? 'pieces';
		try {
			const runId = await bundleStoreOf(read.kind).importBundle(read.bundle, {
				sourceName,
				signal: abort.signal,
				onProgress: (stored, total) => {
					this.#importing = { name: sourceName, stored, total, noun };
				},
			});
			const sealed = read.resultsSha256
				? ' Its results match the SHA-256 it was written with.'
				: '';
			this.#message = `Imported ${sourceName} as run ${runId}.${sealed}`;
			return libraryOpenTarget(read.kind, runId);
		} catch (error) {
			this.#cancelled = error instanceof ImportCancelledError;
			this.#message = this.#cancelled
				? `Import of ${sourceName} cancelled; nothing of it was stored.`
				: `${sourceName} could not be stored: ${describeError(error)}`;
			return null;
		}
	}

	/**
	 * The export of `entries` (one bundle, or a zip of bundles); null with `message` saying why
	 * when a run cannot be written.
	 */
	async exportFile(entries: readonly LibraryEntry[]): Promise<DownloadFile | null> {
		if (entries.length === 0) return null;
		try {
			const file = await libraryExportFile(entries);
			const runs = entries.length === 1 ? 'run' : 'runs';
			this.#message = `Exported ${entries.length} ${runs} as ${file.fileName}.`;
			return file;
		} catch (error) {
			this.#message = `The export failed: ${describeError(error)}`;
			return null;
		}
	}

	clearMessage(): void {
		this.#message = null;
	}
}
