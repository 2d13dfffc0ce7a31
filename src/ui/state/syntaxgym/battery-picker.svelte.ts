/**
 * Which suites a battery will run: the bundled suites, the suites saved in this browser, and files
 * added now (several files, a folder, a zip), listed once per suite text, with the picks. Reading
 * files is battery-files.ts's, parsing, merging and totals the core's; nothing here throws.
 */
import { SvelteSet } from 'svelte/reactivity';
import {
	MAX_BATTERY_SUITES,
	batteryTotals,
	mergeBatteryEntries,
	orderBySourceName,
	pickedEntries,
	readBatteryEntry,
	readableKeys,
	brokenBatteryEntry,
	leftOutNotice,
	type BatteryEntry,
	type BatterySource,
	type BatteryTotals,
	type ReadableBatteryEntry,
} from '../../../core/syntaxgym/battery/battery-inputs';
import { describeError } from '../../../core/messages/describe-error';
import { listSuites, type SuiteOrigin } from '../../../storage/syntaxgym/suites-repository';
import { readBatteryFiles } from '../../io/battery-files';
import { listBundledSuites, loadBundledSuiteText } from '../../io/suite-sources';
import type { SuiteRunInput } from './suite-run-session.svelte';

export class BatteryPicker {
	#entries = $state.raw<readonly BatteryEntry[]>([]);
	readonly #picked = new SvelteSet<string>();
	#notice = $state<string | null>(null);
	#loading = $state(false);
	#reading = $state(0);
	#loaded = $state(false);
	/** Adds run one after another (a second drop waits for the first). */
	#adds: Promise<void> = Promise.resolve();
	/** The stored origin of each library suite (recorded with its runs), by key. */
	// eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup, not UI state
	readonly #origins = new Map<string, SuiteOrigin>();

	get entries(): readonly BatteryEntry[] {
		return this.#entries;
	}

	/** The keys picked (only readable entries are ever picked). */
	get picked(): ReadonlySet<string> {
		return this.#picked;
	}

	/** The picked suites in list order: the battery's suite order. */
	get pickedSuites(): readonly ReadableBatteryEntry[] {
		return pickedEntries(this.#entries, this.#picked);
	}

	get totals(): BatteryTotals {
		return batteryTotals(this.pickedSuites);
	}

	/** What the last add left out (duplicates, skipped files, the cap), or a read problem. */
	get notice(): string | null {
		return this.#notice;
	}

	/** Whether suites are being read (the list is not final yet). */
	get busy(): boolean {
		return this.#loading || this.#reading > 0;
	}

	/** Whether added files are being read. */
	get reading(): boolean {
		return this.#reading > 0;
	}

	/** Whether the bundled and library suites have been read. */
	get loaded(): boolean {
		return this.#loaded;
	}

	entriesFrom(source: BatterySource): readonly BatteryEntry[] {
		return this.#entries.filter((entry) => entry.source === source);
	}

	/** Reads the bundled suites and the library (bundled first: a copy saved later is listed once). */
	async load(): Promise<void> {
		if (this.#loaded || this.#loading) return;
		this.#loading = true;
		const bundled: BatteryEntry[] = [];
		for (const entry of listBundledSuites()) {
			const text = await loadBundledSuiteText(entry.file);
			bundled.push(
				text.ok
					? readBatteryEntry(text.text, entry.file, 'bundled')
					: brokenBatteryEntry(entry.file, 'bundled', text.message),
			);
		}
		const library: BatteryEntry[] = [];
		try {
			for (const saved of await listSuites()) {
				if (saved.origin === 'bundled') continue;
				const entry = readBatteryEntry(saved.text, saved.sourceName ?? saved.name, 'library');
				this.#origins.set(entry.key, saved.origin);
				library.push(entry);
			}
		} catch (error) {
			this.#notice = `Saved suites could not be read: ${describeError(error)}`;
		}
		// Files added while the library was read stay after it.
		const listed = mergeBatteryEntries([], [...bundled, ...library]).entries;
		this.#entries = mergeBatteryEntries(listed, this.#entries).entries;
		this.#loaded = true;
		this.#loading = false;
	}

	/**
	 * Adds picked or dropped files (folders' files, zips); their readable suites are picked, and so
	 * is the listed suite an added file repeats (a bundled or saved one).
	 */
	addFiles(files: readonly File[]): Promise<void> {
		if (files.length === 0) return this.#adds;
		this.#reading += 1;
		this.#adds = this.#adds.then(() => this.#add(files));
		return this.#adds;
	}

	async #add(files: readonly File[]): Promise<void> {
		this.#notice = null;
		try {
			const room = MAX_BATTERY_SUITES - this.#entries.length;
			const read = await readBatteryFiles(files, room);
			const merged = mergeBatteryEntries(this.#entries, orderBySourceName(read.entries));
			const added = merged.entries.filter(
				(entry) => entry.ok && entry.source === 'added' && !this.#entries.includes(entry),
			);
			this.#entries = merged.entries;
			for (const entry of added) this.#picked.add(entry.key);
			// A file added on purpose is picked, also when it repeats a suite listed already.
			for (const duplicate of merged.duplicates) this.#picked.add(duplicate.key);
			this.#notice = leftOutNotice({
				duplicates: merged.duplicates,
				skipped: read.skipped,
				notRead: read.notRead + merged.overCap,
			});
		} catch (error) {
			this.#notice = `The files could not be read: ${describeError(error)}`;
		} finally {
			this.#reading -= 1;
		}
	}

	/** Picks or unpicks one readable suite. */
	setPicked(key: string, picked: boolean): void {
		if (picked && this.#entries.some((entry) => entry.ok && entry.key === key)) {
			this.#picked.add(key);
		} else this.#picked.delete(key);
	}

	selectAll(): void {
		this.#picked.clear();
		for (const key of readableKeys(this.#entries)) this.#picked.add(key);
	}

	selectNone(): void {
		this.#picked.clear();
	}

	/** Removes the added files from the list (and the picks). */
	clearAdded(): void {
		this.#entries = this.#entries.filter((entry) => entry.source !== 'added');
		for (const key of [...this.#picked]) {
			if (!this.#entries.some((entry) => entry.key === key)) this.#picked.delete(key);
		}
		this.#notice = null;
	}

	/** The picked suites as run inputs, in list order. */
	inputs(): SuiteRunInput[] {
		return this.pickedSuites.map((entry) => ({
			suiteText: entry.text,
			suite: entry.suite,
			origin: this.#originOf(entry),
			sourceName: entry.sourceName,
		}));
	}

	#originOf(entry: ReadableBatteryEntry): SuiteOrigin {
		if (entry.source === 'bundled') return 'bundled';
		if (entry.source === 'added') return 'file';
		return this.#origins.get(entry.key) ?? 'file';
	}
}
