import { describe, expect, it } from 'vitest';
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
} from '../../../../src/core/syntaxgym/editor/editor-history';

const a = { v: 'a' };
const b = { v: 'b' };
const c = { v: 'c' };

describe('editor history', () => {
	it('undoes and redoes in order', () => {
		let h = pushHistory(pushHistory(createHistory(a), b), c);
		expect([h.present, canUndo(h), canRedo(h)]).toEqual([c, true, false]);
		h = undo(h);
		expect(h.present).toBe(b);
		h = undo(h);
		expect([h.present, canUndo(h), canRedo(h)]).toEqual([a, false, true]);
		expect(undo(h)).toBe(h);
		h = redo(redo(h));
		expect(h.present).toBe(c);
		expect(redo(h)).toBe(h);
	});

	it('a new edit clears redo', () => {
		const h = pushHistory(undo(pushHistory(createHistory(a), b)), c);
		expect([h.present, h.future.length, h.past]).toEqual([c, 0, [a]]);
	});

	it('records nothing for the same state', () => {
		const h = createHistory(a);
		expect(pushHistory(h, a)).toBe(h);
	});

	it.each([
		[1, 1],
		[2, 2],
		[3, 3],
		[0, 0],
	])('keeps at most cap=%i undo steps', (cap, kept) => {
		let h = createHistory<{ v: string }>(a, cap);
		for (const s of [b, c, a, b, c]) h = pushHistory(h, s);
		expect(h.past).toHaveLength(kept);
		expect(h.present).toBe(c);
	});

	it('is dirty until saved, and clean again when undone back to the saved state', () => {
		let h = createHistory(a);
		expect(isDirty(h)).toBe(false);
		h = pushHistory(h, b);
		expect(isDirty(h)).toBe(true);
		h = undo(h);
		expect(isDirty(h)).toBe(false);
		h = markSaved(redo(h));
		expect(isDirty(h)).toBe(false);
		h = undo(h);
		expect(isDirty(h)).toBe(true);
	});

	it('replacePresent merges typing into the current step', () => {
		let h = pushHistory(createHistory(a), b);
		h = replacePresent(h, c);
		expect([h.past, h.present]).toEqual([[a], c]);
		expect(undo(h).present).toBe(a);
		expect(replacePresent(h, c)).toBe(h);
	});
});
