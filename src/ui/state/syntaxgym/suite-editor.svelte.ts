/**
 * The suite editor's state: the grid with undo/redo, live validation of the suite it makes,
 * loading a library suite, saving to the library, export, and the tokenization preview of a row.
 * Every edit is a core function (src/core/editor); this class keeps the history and the effects.
 */
import { describeError } from '../../../core/messages/describe-error';
import {
	canRedo,
	canUndo,
	createHistory,
	isDirty,
	markSaved,
	pushHistory,
	redo,
	replacePresent,
	undo,
	type EditorHistory,
} from '../../../core/syntaxgym/editor/editor-history';
import {
	createEmptyEditorState,
	setCell,
	type EditorState,
} from '../../../core/syntaxgym/editor/editor-state';
import { recoverSuite } from '../../../core/syntaxgym/editor/recover-suite';
import { toSuiteJson, type SuiteJson } from '../../../core/syntaxgym/editor/suite-json';
import {
	assignTokensToRegions,
	type PreviewToken,
} from '../../../core/syntaxgym/editor/token-regions';
import type { ModelSpec, SurprisalConvention } from '../../../core/model/model-spec';
import { buildSentence } from '../../../core/syntaxgym/suite/build-sentences';
import { parseSuite } from '../../../core/syntaxgym/suite/parse-suite';
import type { Diagnostic } from '../../../core/syntaxgym/suite/types';
import { getSuite, saveSuite, type SavedSuite } from '../../../storage/syntaxgym/suites-repository';
import type { InferenceClientApi, ModelInfo } from '../../../worker/protocol';

/** What the tokenization preview needs: a model loader and the client that tokenizes. */
export interface TokenizerAccess {
	readonly client: InferenceClientApi;
	load(spec: ModelSpec): Promise<ModelInfo>;
}

export interface TokenPreview {
	readonly itemIndex: number;
	readonly conditionIndex: number;
	readonly text: string;
	readonly tokens: readonly PreviewToken[];
	readonly modelId: string;
}

export class SuiteEditor {
	#history = $state.raw<EditorHistory<EditorState>>(createHistory(createEmptyEditorState()));
	/** The cell being typed into: consecutive edits of it make one undo step. */
	#typingCell: string | null = null;
	#message = $state<string | null>(null);
	#preview = $state.raw<TokenPreview | null>(null);
	#previewStatus = $state<'idle' | 'loading' | 'ready' | 'failed'>('idle');
	#previewMessage = $state<string | null>(null);
	/** A suite that is not JSON, edited as text until it is (null: the grid is edited). */
	#rawText = $state<string | null>(null);
	/** The raw text as last loaded, saved or exported (dirty when it differs). */
	#rawSaved: string | null = null;
	/** What had to change to load a broken suite into the grid. */
	#notes = $state.raw<readonly string[]>([]);

	/** The grid as it is now. */
	get state(): EditorState {
		return this.#history.present;
	}

	/** The suite JSON of the grid and its validation (recomputed on every change). */
	readonly json: SuiteJson = $derived(
		this.#rawText === null
			? toSuiteJson(this.#history.present)
			: { text: this.#rawText, result: parseSuite(this.#rawText) },
	);

	/** The suite's text while it is edited as text (it is not JSON yet), or null. */
	get rawText(): string | null {
		return this.#rawText;
	}

	/** Whether the text being edited is JSON now (so it can go into the grid). */
	get rawIsJson(): boolean {
		return (
			this.#rawText !== null && !this.json.result.diagnostics.some((d) => d.code === 'json-syntax')
		);
	}

	/** The JSON syntax problems of the text being edited (empty once it is JSON). */
	get rawDiagnostics(): readonly Diagnostic[] {
		return this.#rawText === null ? [] : this.json.result.diagnostics;
	}

	/** What had to change to load a broken suite into the grid (empty for a valid suite). */
	get notes(): readonly string[] {
		return this.#notes;
	}

	/** Replaces the text being edited as text. */
	setRawText(text: string): void {
		if (this.#rawText !== null) this.#rawText = text;
	}

	/** Loads the text being edited into the grid once it is JSON; false (and why) if not yet. */
	openRawInGrid(): boolean {
		if (this.#rawText === null) return false;
		if (!this.rawIsJson) {
			this.#message = 'The text is not JSON yet: fix the syntax error shown below first.';
			return false;
		}
		const wasDirty = this.#rawText !== this.#rawSaved;
		this.loadText(this.#rawText);
		// Edited text not saved anywhere yet: the grid starts with unsaved changes.
		if (wasDirty) this.#history = { ...this.#history, saved: { ...this.#history.present } };
		return true;
	}

	get canUndo(): boolean {
		return canUndo(this.#history);
	}

	get canRedo(): boolean {
		return canRedo(this.#history);
	}

	/** Changes not saved to the library or exported. */
	get dirty(): boolean {
		if (this.#rawText !== null) return this.#rawText !== this.#rawSaved;
		return isDirty(this.#history);
	}

	/** The last save/load/export outcome, for the user. */
	get message(): string | null {
		return this.#message;
	}

	get preview(): TokenPreview | null {
		return this.#preview;
	}

	get previewStatus(): 'idle' | 'loading' | 'ready' | 'failed' {
		return this.#previewStatus;
	}

	get previewMessage(): string | null {
		return this.#previewMessage;
	}

	/** Applies one edit as its own undo step (structure edits, pastes, meta changes). */
	apply(edit: (state: EditorState) => EditorState): void {
		this.#typingCell = null;
		this.#history = pushHistory(this.#history, edit(this.#history.present));
	}

	/** Types into a cell: a run of edits to the same cell is one undo step. */
	typeCell(itemIndex: number, conditionIndex: number, regionIndex: number, text: string): void {
		const key = `${itemIndex}/${conditionIndex}/${regionIndex}`;
		const next = setCell(this.#history.present, itemIndex, conditionIndex, regionIndex, text);
		this.#history =
			this.#typingCell === key && this.#history.past.length > 0
				? replacePresent(this.#history, next)
				: pushHistory(this.#history, next);
		this.#typingCell = key;
	}

	/** Ends a typing run (the cell lost focus), so the next keystroke starts a new undo step. */
	endTyping(): void {
		this.#typingCell = null;
	}

	undo(): void {
		this.#typingCell = null;
		this.#history = undo(this.#history);
	}

	redo(): void {
		this.#typingCell = null;
		this.#history = redo(this.#history);
	}

	/** Starts over with a new, empty suite (history cleared). */
	reset(): void {
		this.#typingCell = null;
		this.#history = createHistory(createEmptyEditorState());
		this.#message = null;
		this.#preview = null;
		this.#rawText = this.#rawSaved = null;
		this.#notes = [];
	}

	/**
	 * Loads suite text (history cleared), broken or not, losing nothing the user can fix: a valid
	 * suite or valid JSON goes into the grid (problems then show at their cells; what had to
	 * change to fit is in `notes`); text that is not JSON is edited as text (`rawText`) with its
	 * located syntax error. True when the grid holds a valid-looking load, false for text mode.
	 */
	loadText(text: string): boolean {
		const recovered = recoverSuite(text);
		this.#typingCell = null;
		this.#preview = null;
		this.#rawText = this.#rawSaved = null;
		this.#notes = [];
		this.#message = null;
		if (recovered.kind === 'text') {
			this.#history = createHistory(createEmptyEditorState());
			this.#rawText = this.#rawSaved = recovered.text;
			this.#message =
				'The suite is not valid JSON yet: fix the text below (the error says where), then open it in the grid.';
			return false;
		}
		this.#history = createHistory(recovered.state);
		if (recovered.kind === 'grid') {
			this.#notes = recovered.notes;
			this.#message =
				'The suite has problems: what could be read is in the grid, and each problem below points at its place.';
		}
		return true;
	}

	/** Loads a suite of the library (by the SHA-256 of its text) to edit a copy of it. */
	async loadStored(sha256: string): Promise<boolean> {
		try {
			const stored = await getSuite(sha256);
			if (!stored) {
				this.#message = 'That suite is no longer stored in this browser.';
				return false;
			}
			return this.loadText(stored.text);
		} catch (error) {
			this.#message = `The suite could not be read: ${describeError(error)}`;
			return false;
		}
	}

	/** Saves the suite to the library (only when it validates); marks it saved. */
	async save(): Promise<SavedSuite | null> {
		const { text, result } = this.json;
		if (!result.ok) {
			this.#message = 'The suite has errors: fix them before saving.';
			return null;
		}
		try {
			const saved = await saveSuite({
				text,
				name: result.suite.meta.name,
				origin: 'paste',
				sourceName: 'suite editor',
			});
			this.#history = markSaved(this.#history);
			if (this.#rawText !== null) this.#rawSaved = this.#rawText;
			this.#message = `Saved "${saved.name}" to the library.`;
			return saved;
		} catch (error) {
			this.#message = `The suite could not be saved: ${describeError(error)}`;
			return null;
		}
	}

	/** The suite as a file to download (standard JSON); marks it saved. */
	exportFile(): { readonly fileName: string; readonly text: string } {
		const { text } = this.json;
		this.#history = markSaved(this.#history);
		if (this.#rawText !== null) this.#rawSaved = this.#rawText;
		const { result } = this.json;
		const name = result.ok ? result.suite.meta.name : this.#history.present.meta.name;
		return { fileName: fileNameFor(name), text };
	}

	/** Tokenizes one row's sentence with `spec` and colours its tokens by region. */
	async previewRow(
		itemIndex: number,
		conditionIndex: number,
		spec: ModelSpec,
		convention: SurprisalConvention,
		access: TokenizerAccess,
	): Promise<void> {
		const state = this.#history.present;
		const item = state.items[itemIndex];
		const conditionName = state.conditionNames[conditionIndex];
		const cells = item?.cells[conditionIndex];
		if (!item || conditionName === undefined || !cells) return;
		const sentence = buildSentence(item.itemNumber, {
			conditionName,
			regions: cells.map((content, index) => ({ regionNumber: index + 1, content })),
		});
		this.#previewStatus = 'loading';
		this.#previewMessage = null;
		try {
			const info = await access.load(spec);
			const { tokens } = await access.client.call('tokenize', {
				modelKey: info.modelKey,
				text: sentence.text,
				convention,
			});
			this.#preview = {
				itemIndex,
				conditionIndex,
				text: sentence.text,
				tokens: assignTokensToRegions(sentence, tokens),
				modelId: spec.id,
			};
			this.#previewStatus = 'ready';
		} catch (error) {
			this.#previewStatus = 'failed';
			this.#previewMessage = `The row could not be tokenized: ${describeError(error)}`;
		}
	}
}

/** `My suite!` → `my-suite.json`. */
export function fileNameFor(name: string): string {
	const slug = name
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
	return `${slug || 'suite'}.json`;
}
