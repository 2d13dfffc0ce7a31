/**
 * The run history: stored runs (newest first), deletion, import of a run bundle (a big one read
 * in the parse worker), storage usage and the persistent-storage request. Storage only through
 * repositories.
 */
import { describeError } from '../../core/messages/describe-error';
import { SUITE_RUN_KIND } from '../../core/syntaxgym/run/suite-run-kind';
import type { ItemResult, SuiteRun } from '../../core/run/run-types';
import {
	deleteRun,
	deleteUnreadableRun,
	importRun,
	listRunHistory,
	type RunToImport,
	type UnreadableRun,
} from '../../storage/runs-repository';
import type { SuiteItemChunk } from '../../storage/suite-item-chunks';
import {
	PARSE_IN_WORKER_BYTES,
	ParseInputError,
	parseInputsClient,
	type ParseInputsClient,
} from '../parse-inputs-client';
import {
	estimateStorageUsage,
	readPersistence,
	requestPersistentStorage,
	type PersistenceState,
	type StorageUsage,
} from '../../storage/storage-usage';
import { ImportCancelledError } from '../../storage/storage-errors';

/** An import going on: the file, and items stored of all (null while the file is read). */
export interface ImportProgress {
	readonly name: string;
	readonly stored: number;
	readonly total: number | null;
}

export class RunHistory {
	#runs = $state.raw<readonly SuiteRun[]>([]);
	#unreadable = $state.raw<readonly UnreadableRun[]>([]);
	#usage = $state.raw<StorageUsage | null>(null);
	#persistence = $state<PersistenceState>('unsupported');
	#message = $state<string | null>(null);
	#loaded = $state(false);
	#importing = $state.raw<ImportProgress | null>(null);
	#importAbort: AbortController | null = null;

	get runs(): readonly SuiteRun[] {
		return this.#runs;
	}

	/** Stored records that cannot be shown (a time a date cannot hold, …), listed apart. */
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

	/** Re-reads runs, usage and persistence. Never throws; a failure becomes `message`. */
	async refresh(): Promise<void> {
		try {
			const { runs, unreadable } = await listRunHistory();
			this.#runs = runs;
			this.#unreadable = unreadable;
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

	async delete(runId: number): Promise<void> {
		try {
			await deleteRun(runId);
			this.#message = `Run ${runId} deleted.`;
		} catch (error) {
			this.#message = `Run ${runId} could not be deleted: ${describeError(error)}`;
		}
		await this.refresh();
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
	 * Imports a run bundle file: read, parsed and seal-checked in the parse worker when it is over
	 * PARSE_IN_WORKER_BYTES (this thread stays free; the file's reading shows as progress and can
	 * be cancelled), here otherwise. Returns the new run, or null with `message` saying what is
	 * wrong and where.
	 */
	async importBundleFile(
		file: File,
		client: () => ParseInputsClient = parseInputsClient,
	): Promise<SuiteRun | null> {
		if (file.size <= PARSE_IN_WORKER_BYTES) return this.importBundle(await file.text(), file.name);
		const sourceName = file.name;
		if (this.#refuseSecondImport()) return null;
		const abort = new AbortController();
		this.#importAbort = abort;
		this.#importing = { name: sourceName, stored: 0, total: null };
		try {
			const read = await client().call(
				'suiteBundle',
				{ path: file.name, file },
				{ signal: abort.signal },
			);
			if (!read.ok) {
				this.#refuseBundle(sourceName, read);
				return null;
			}
			const { run, suiteText, chunks, resultsSha256 } = read;
			return await this.#store(sourceName, run, suiteText, { chunks }, resultsSha256, abort);
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
	 * Imports a run bundle (JSON text). Returns the new run, or null with `message` saying what
	 * is wrong and where.
	 */
	async importBundle(text: string, sourceName: string): Promise<SuiteRun | null> {
		if (this.#refuseSecondImport()) return null;
		const parsed = SUITE_RUN_KIND.bundle.read(text);
		if (!parsed.ok) {
			this.#refuseBundle(sourceName, parsed);
			return null;
		}
		const { run, suiteText, items } = parsed.bundle;
		const abort = new AbortController();
		this.#importAbort = abort;
		try {
			return await this.#store(sourceName, run, suiteText, { items }, parsed.resultsSha256, abort);
		} finally {
			this.#importing = null;
			this.#importAbort = null;
		}
	}

	#refuseSecondImport(): boolean {
		if (!this.#importing) return false;
		this.#message = `An import is going on (${this.#importing.name}); wait for it or cancel it.`;
		return true;
	}

	#refuseBundle(sourceName: string, problem: { pointer: string; message: string }): void {
		const where = problem.pointer === '' ? '' : ` at ${problem.pointer}`;
		this.#message = `${sourceName} cannot be imported${where}: ${problem.message}.`;
	}

	/** Stores a bundle read well; the caller clears `importing` after. */
	async #store(
		sourceName: string,
		run: RunToImport['run'],
		suiteText: string,
		items:
			{ readonly items: readonly ItemResult[] } | { readonly chunks: readonly SuiteItemChunk[] },
		resultsSha256: string | undefined,
		abort: AbortController,
	): Promise<SuiteRun | null> {
		const total =
			'items' in items
				? items.items.length
				: items.chunks.reduce((sum, chunk) => sum + chunk.itemNumbers.length, 0);
		this.#importing = { name: sourceName, stored: 0, total };
		try {
			const record = await importRun(
				{
					run,
					suite: { text: suiteText, name: run.suiteName, origin: 'import', sourceName },
					...items,
				},
				{
					signal: abort.signal,
					onProgress: (stored, total) => {
						this.#importing = { name: sourceName, stored, total };
					},
				},
			);
			const sealed = resultsSha256 ? ' Its results match the SHA-256 it was written with.' : '';
			this.#message = `Imported ${sourceName} as run ${record.id}.${sealed}`;
			await this.refresh();
			return record;
		} catch (error) {
			this.#message =
				error instanceof ImportCancelledError
					? `Import of ${sourceName} cancelled; nothing of it was stored.`
					: `${sourceName} could not be stored: ${describeError(error)}`;
			return null;
		}
	}

	clearMessage(): void {
		this.#message = null;
	}
}
