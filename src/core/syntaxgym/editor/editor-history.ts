/**
 * Undo/redo for the suite editor as a pure history (past, present, future) with a size cap, and
 * the "unsaved changes" notion: the present differs from the state last saved. Pure.
 */

/** Default number of undo steps kept. */
export const DEFAULT_HISTORY_CAP = 200;

export interface EditorHistory<S> {
	/** Oldest first; at most `cap` entries. */
	readonly past: readonly S[];
	readonly present: S;
	/** Next redo first. */
	readonly future: readonly S[];
	/** The state last saved or exported (by identity); `present !== saved` means unsaved changes. */
	readonly saved: S;
	readonly cap: number;
}

export function createHistory<S>(initial: S, cap: number = DEFAULT_HISTORY_CAP): EditorHistory<S> {
	return { past: [], present: initial, future: [], saved: initial, cap: Math.max(0, cap) };
}

/**
 * Records `next` as the new present (clearing redo). The same object as the present records
 * nothing, so no-op edits do not fill the undo list. The oldest step is dropped beyond the cap.
 */
export function pushHistory<S>(history: EditorHistory<S>, next: S): EditorHistory<S> {
	if (next === history.present) return history;
	const past = [...history.past, history.present];
	return {
		...history,
		past: past.length > history.cap ? past.slice(past.length - history.cap) : past,
		present: next,
		future: [],
	};
}

/**
 * Replaces the present without a new undo step: for typing, where one undo step should undo a
 * whole run of keystrokes in one cell rather than one character.
 */
export function replacePresent<S>(history: EditorHistory<S>, next: S): EditorHistory<S> {
	if (next === history.present) return history;
	return { ...history, present: next, future: [] };
}

export function canUndo<S>(history: EditorHistory<S>): boolean {
	return history.past.length > 0;
}

export function canRedo<S>(history: EditorHistory<S>): boolean {
	return history.future.length > 0;
}

export function undo<S>(history: EditorHistory<S>): EditorHistory<S> {
	const previous = history.past[history.past.length - 1];
	if (previous === undefined) return history;
	return {
		...history,
		past: history.past.slice(0, -1),
		present: previous,
		future: [history.present, ...history.future],
	};
}

export function redo<S>(history: EditorHistory<S>): EditorHistory<S> {
	const [next, ...rest] = history.future;
	if (next === undefined) return history;
	return { ...history, past: [...history.past, history.present], present: next, future: rest };
}

/** Marks the present as saved (after save to the library or export). */
export function markSaved<S>(history: EditorHistory<S>): EditorHistory<S> {
	return { ...history, saved: history.present };
}

/** Whether the present has changes that were not saved (undoing back to the saved state clears it). */
export function isDirty<S>(history: EditorHistory<S>): boolean {
	return history.present !== history.saved;
}
