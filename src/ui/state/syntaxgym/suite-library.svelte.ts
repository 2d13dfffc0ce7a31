/**
 * The suite library and the suite in hand: bundled suites, suites saved in this browser, and
 * opening one from a file, pasted text, a URL or storage. Parsing is parseSuite's (core); this
 * class keeps the result and the diagnostics for the UI, and never throws for bad input.
 */
import { describeError } from '../../../core/messages/describe-error';
import { sha256Hex } from '../../../core/hash/sha256';
import { parseSuite } from '../../../core/syntaxgym/suite/parse-suite';
import type { Diagnostic, ParseSuiteResult, Suite } from '../../../core/syntaxgym/suite/types';
import {
	deleteSuite,
	getSuite,
	listSuites,
	saveSuite,
	type SavedSuite,
	type SuiteOrigin,
} from '../../../storage/syntaxgym/suites-repository';
import {
	fetchSuiteText,
	fileNameOfUrl,
	listBundledSuites,
	loadBundledSuiteText,
	readSuiteFile,
	type BundledSuiteEntry,
	type SuiteTextResult,
} from '../../io/suite-sources';

/** The suite currently opened: its exact text, fingerprint, origin and parse result. */
export interface OpenedSuite {
	readonly text: string;
	readonly sha256: string;
	readonly origin: SuiteOrigin;
	/** File name, URL or bundled file the text came from. */
	readonly sourceName: string;
	readonly result: ParseSuiteResult;
}

export class SuiteLibrary {
	readonly bundled: readonly BundledSuiteEntry[];
	#saved = $state.raw<readonly SavedSuite[]>([]);
	#opened = $state.raw<OpenedSuite | null>(null);
	#problem = $state<string | null>(null);
	#busy = $state(false);
	#forEditor: string | null = null;

	constructor(bundled: readonly BundledSuiteEntry[] = listBundledSuites()) {
		this.bundled = bundled;
	}

	/** Suites the user brought (files, pastes, URLs, imports), newest first. */
	get saved(): readonly SavedSuite[] {
		return this.#saved;
	}

	get opened(): OpenedSuite | null {
		return this.#opened;
	}

	/** The parsed suite when the opened text has no errors (warnings allowed). */
	get suite(): Suite | null {
		const result = this.#opened?.result;
		return result?.ok ? result.suite : null;
	}

	get diagnostics(): readonly Diagnostic[] {
		return this.#opened?.result.diagnostics ?? [];
	}

	/** Why the last input could not even be parsed (unreadable file, failed fetch), or null. */
	get problem(): string | null {
		return this.#problem;
	}

	get busy(): boolean {
		return this.#busy;
	}

	async refresh(): Promise<void> {
		try {
			this.#saved = (await listSuites()).filter((suite) => suite.origin !== 'bundled');
		} catch (error) {
			this.#problem = `Saved suites could not be read: ${describeError(error)}`;
		}
	}

	async openBundled(file: string): Promise<boolean> {
		return this.#openFrom(() => loadBundledSuiteText(file), 'bundled', file);
	}

	async openFile(file: File): Promise<boolean> {
		return this.#openFrom(() => readSuiteFile(file), 'file', file.name);
	}

	async openUrl(url: string): Promise<boolean> {
		return this.#openFrom(() => fetchSuiteText(url), 'url', fileNameOfUrl(url));
	}

	/** Opens pasted JSON. */
	async openText(text: string, sourceName = 'pasted JSON'): Promise<boolean> {
		return this.#openFrom(async () => ({ ok: true, text }), 'paste', sourceName);
	}

	/** Opens a suite stored in this browser (library or a run's suite). */
	async openStored(sha256: string): Promise<boolean> {
		const stored = await getSuite(sha256).catch(() => undefined);
		if (!stored) {
			this.#problem = 'That suite is no longer stored in this browser.';
			return false;
		}
		return this.#openFrom(
			async () => ({ ok: true, text: stored.text }),
			stored.origin,
			stored.sourceName ?? stored.name,
		);
	}

	async remove(sha256: string): Promise<void> {
		try {
			await deleteSuite(sha256);
		} catch (error) {
			this.#problem = `The suite could not be removed: ${describeError(error)}`;
		}
		await this.refresh();
	}

	/** Hands the opened suite's text (broken or not) to the editor, which takes it when it opens. */
	sendToEditor(): void {
		this.#forEditor = this.#opened?.text ?? null;
	}

	/** The text handed to the editor, once (null when none was). */
	takeForEditor(): string | null {
		const text = this.#forEditor;
		this.#forEditor = null;
		return text;
	}

	/** Closes the opened suite (and any input problem). */
	close(): void {
		this.#opened = null;
		this.#problem = null;
	}

	async #openFrom(
		read: () => Promise<SuiteTextResult>,
		origin: SuiteOrigin,
		sourceName: string,
	): Promise<boolean> {
		this.#busy = true;
		this.#problem = null;
		try {
			const input = await read();
			if (!input.ok) {
				this.#problem = input.message;
				return false;
			}
			const result = parseSuite(input.text);
			this.#opened = {
				text: input.text,
				sha256: sha256Hex(input.text),
				origin,
				sourceName,
				result,
			};
			if (result.ok && origin !== 'bundled') {
				try {
					await saveSuite({ text: input.text, name: result.suite.meta.name, origin, sourceName });
					await this.refresh();
				} catch (error) {
					this.#problem = `The suite is open but could not be saved in this browser: ${describeError(error)}`;
				}
			}
			return result.ok;
		} catch (error) {
			this.#problem = `${sourceName} could not be opened: ${describeError(error)}`;
			return false;
		} finally {
			this.#busy = false;
		}
	}
}
