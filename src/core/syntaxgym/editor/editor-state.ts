/**
 * The suite editor's grid as pure, immutable data: columns = regions (named), rows grouped by
 * item with one row per condition. Every operation returns a new state; none mutates its input.
 */
import type { MetricName } from '../suite/types';

/** The meta form. `metrics` is never empty in a valid suite (one or several of the six). */
export interface EditorMeta {
	readonly name: string;
	readonly author: string;
	readonly reference: string;
	readonly comment: string;
	readonly metrics: readonly MetricName[];
}

export interface EditorItem {
	readonly itemNumber: number;
	/** `cells[conditionIndex][regionIndex]`: region content, exactly as typed. */
	readonly cells: readonly (readonly string[])[];
}

/**
 * Invariant: every item has `conditionNames.length` rows of `regionNames.length` cells.
 * Predictions are formula text (the builder writes formulas too).
 */
export interface EditorState {
	readonly meta: EditorMeta;
	readonly regionNames: readonly string[];
	readonly conditionNames: readonly string[];
	readonly items: readonly EditorItem[];
	readonly predictions: readonly string[];
	/** `meta` fields of a loaded suite that the form does not show (tags, ...), kept as they were. */
	readonly extraMeta: Readonly<Record<string, unknown>>;
}

/** Where a grid row is: item index and condition index (row = item × conditions + condition). */
export interface RowPosition {
	readonly itemIndex: number;
	readonly conditionIndex: number;
}

/** A new suite: one item, two conditions, three regions, metric sum, no predictions. */
export function createEmptyEditorState(): EditorState {
	const regionNames = ['region_1', 'region_2', 'region_3'];
	const conditionNames = ['condition_1', 'condition_2'];
	return {
		meta: { name: 'New suite', author: '', reference: '', comment: '', metrics: ['sum'] },
		regionNames,
		conditionNames,
		items: [{ itemNumber: 1, cells: emptyRows(conditionNames.length, regionNames.length) }],
		predictions: [],
		extraMeta: {},
	};
}

/** Number of grid rows (items × conditions). */
export function countRows(state: EditorState): number {
	return state.items.length * state.conditionNames.length;
}

/** The item and condition of flat grid row `row` (0-based). */
export function rowPosition(state: EditorState, row: number): RowPosition {
	const perItem = Math.max(1, state.conditionNames.length);
	return { itemIndex: Math.floor(row / perItem), conditionIndex: row % perItem };
}

/** The text of one cell; '' outside the grid. */
export function getCell(
	state: EditorState,
	itemIndex: number,
	conditionIndex: number,
	regionIndex: number,
): string {
	return state.items[itemIndex]?.cells[conditionIndex]?.[regionIndex] ?? '';
}

export function setCell(
	state: EditorState,
	itemIndex: number,
	conditionIndex: number,
	regionIndex: number,
	text: string,
): EditorState {
	if (!inRange(itemIndex, state.items.length)) return state;
	if (!inRange(conditionIndex, state.conditionNames.length)) return state;
	if (!inRange(regionIndex, state.regionNames.length)) return state;
	if (getCell(state, itemIndex, conditionIndex, regionIndex) === text) return state;
	return mapItems(state, (item, index) =>
		index !== itemIndex
			? item
			: {
					...item,
					cells: item.cells.map((row, c) =>
						c !== conditionIndex ? row : row.map((cell, r) => (r === regionIndex ? text : cell)),
					),
				},
	);
}

export function setMeta(state: EditorState, patch: Partial<EditorMeta>): EditorState {
	return { ...state, meta: { ...state.meta, ...patch } };
}

/** Adds an empty item at `index` (default: the end), numbered one above the largest number. */
export function addItem(state: EditorState, index: number = state.items.length): EditorState {
	const itemNumber = nextItemNumber(state);
	const item: EditorItem = {
		itemNumber,
		cells: emptyRows(state.conditionNames.length, state.regionNames.length),
	};
	return { ...state, items: insertAt(state.items, clamp(index, 0, state.items.length), item) };
}

export function removeItem(state: EditorState, index: number): EditorState {
	if (!inRange(index, state.items.length)) return state;
	return { ...state, items: removeAt(state.items, index) };
}

export function moveItem(state: EditorState, from: number, to: number): EditorState {
	const items = moveWithin(state.items, from, to);
	return items === state.items ? state : { ...state, items };
}

/** Sets an item's number (SyntaxGym's `item_number`); duplicates are left to validation. */
export function setItemNumber(state: EditorState, index: number, itemNumber: number): EditorState {
	if (!inRange(index, state.items.length)) return state;
	return mapItems(state, (item, i) => (i === index ? { ...item, itemNumber } : item));
}

/** Adds a condition (an empty row in every item) at `index` (default: last). */
export function addCondition(
	state: EditorState,
	name: string = freshName('condition', state.conditionNames),
	index: number = state.conditionNames.length,
): EditorState {
	const at = clamp(index, 0, state.conditionNames.length);
	const blank = state.regionNames.map(() => '');
	return {
		...mapItems(state, (item) => ({ ...item, cells: insertAt(item.cells, at, blank) })),
		conditionNames: insertAt(state.conditionNames, at, name),
	};
}

/** Removes a condition (its row in every item). Predictions naming it are left to validation. */
export function removeCondition(state: EditorState, index: number): EditorState {
	if (!inRange(index, state.conditionNames.length)) return state;
	return {
		...mapItems(state, (item) => ({ ...item, cells: removeAt(item.cells, index) })),
		conditionNames: removeAt(state.conditionNames, index),
	};
}

export function moveCondition(state: EditorState, from: number, to: number): EditorState {
	const conditionNames = moveWithin(state.conditionNames, from, to);
	if (conditionNames === state.conditionNames) return state;
	return {
		...mapItems(state, (item) => ({ ...item, cells: moveWithin(item.cells, from, to) })),
		conditionNames,
	};
}

/**
 * Renames a condition and every `%old%` reference to it in the predictions, so formulas keep
 * meaning the same sentences.
 */
export function renameCondition(state: EditorState, index: number, name: string): EditorState {
	const old = state.conditionNames[index];
	if (old === undefined || old === name) return state;
	return {
		...state,
		conditionNames: state.conditionNames.map((n, i) => (i === index ? name : n)),
		predictions: state.predictions.map((formula) => formula.split(`%${old}%`).join(`%${name}%`)),
	};
}

/** Adds a region (an empty column) at `index` (default: last). */
export function addRegion(
	state: EditorState,
	name: string = freshName('region', state.regionNames),
	index: number = state.regionNames.length,
): EditorState {
	const at = clamp(index, 0, state.regionNames.length);
	return {
		...mapItems(state, (item) => ({
			...item,
			cells: item.cells.map((row) => insertAt(row, at, '')),
		})),
		regionNames: insertAt(state.regionNames, at, name),
	};
}

/** Removes a region column. Formulas refer to regions by number: check them after this. */
export function removeRegion(state: EditorState, index: number): EditorState {
	if (!inRange(index, state.regionNames.length)) return state;
	return {
		...mapItems(state, (item) => ({
			...item,
			cells: item.cells.map((row) => removeAt(row, index)),
		})),
		regionNames: removeAt(state.regionNames, index),
	};
}

export function moveRegion(state: EditorState, from: number, to: number): EditorState {
	const regionNames = moveWithin(state.regionNames, from, to);
	if (regionNames === state.regionNames) return state;
	return {
		...mapItems(state, (item) => ({
			...item,
			cells: item.cells.map((row) => moveWithin(row, from, to)),
		})),
		regionNames,
	};
}

export function renameRegion(state: EditorState, index: number, name: string): EditorState {
	if (!inRange(index, state.regionNames.length) || state.regionNames[index] === name) return state;
	return { ...state, regionNames: state.regionNames.map((n, i) => (i === index ? name : n)) };
}

export function addPrediction(state: EditorState, formula: string): EditorState {
	return { ...state, predictions: [...state.predictions, formula] };
}

export function setPrediction(state: EditorState, index: number, formula: string): EditorState {
	if (!inRange(index, state.predictions.length) || state.predictions[index] === formula) {
		return state;
	}
	return { ...state, predictions: state.predictions.map((f, i) => (i === index ? formula : f)) };
}

export function removePrediction(state: EditorState, index: number): EditorState {
	if (!inRange(index, state.predictions.length)) return state;
	return { ...state, predictions: removeAt(state.predictions, index) };
}

/**
 * Splits a spreadsheet paste into rows of cells: lines by CRLF/LF/CR, cells by tab. A final
 * line break (spreadsheets add one) makes no extra row. Quoted cells are not unquoted.
 */
export function splitPastedBlock(text: string): string[][] {
	const lines = text.split(/\r\n|\n|\r/);
	if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
	return lines.map((line) => line.split('\t'));
}

/**
 * Pastes a tab-separated block with its top-left cell at grid row `row` (flat: item ×
 * conditions + condition) and region column `column`. The grid grows as needed: new regions to
 * the right, new items below (each with every condition). Cells are trimmed of surrounding
 * whitespace, as spreadsheet cells carry none that matters.
 */
export function pasteBlock(
	state: EditorState,
	row: number,
	column: number,
	text: string,
): EditorState {
	if (text.replace(/[\r\n]/g, '') === '') return state;
	const block = splitPastedBlock(text);
	const width = Math.max(0, ...block.map((cells) => cells.length));
	if (block.length === 0 || width === 0 || row < 0 || column < 0) return state;
	let next = state;
	while (next.regionNames.length < column + width) next = addRegion(next);
	if (next.conditionNames.length === 0) next = addCondition(next);
	const perItem = next.conditionNames.length;
	while (countRows(next) < row + block.length) next = addItem(next);
	const rows = block.length;
	const items = next.items.map((item, itemIndex) => {
		const firstRow = itemIndex * perItem;
		if (firstRow + perItem <= row || firstRow >= row + rows) return item;
		return {
			...item,
			cells: item.cells.map((cells, conditionIndex) => {
				const pasted = block[firstRow + conditionIndex - row];
				if (pasted === undefined) return cells;
				return cells.map((cell, regionIndex) => {
					const value = pasted[regionIndex - column];
					return value === undefined ? cell : value.trim();
				});
			}),
		};
	});
	return { ...next, items };
}

function emptyRows(conditions: number, regions: number): string[][] {
	return Array.from({ length: conditions }, () => Array.from({ length: regions }, () => ''));
}

function nextItemNumber(state: EditorState): number {
	return state.items.reduce((max, item) => Math.max(max, item.itemNumber), 0) + 1;
}

/** `base_1`, `base_2`, ...: the first not in `taken`. */
function freshName(base: string, taken: readonly string[]): string {
	for (let n = taken.length + 1; ; n += 1) {
		const name = `${base}_${n}`;
		if (!taken.includes(name)) return name;
	}
}

function mapItems(
	state: EditorState,
	map: (item: EditorItem, index: number) => EditorItem,
): EditorState {
	return { ...state, items: state.items.map(map) };
}

function inRange(index: number, length: number): boolean {
	return Number.isInteger(index) && index >= 0 && index < length;
}

function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, Math.trunc(value)));
}

function insertAt<T>(list: readonly T[], index: number, value: T): T[] {
	return [...list.slice(0, index), value, ...list.slice(index)];
}

function removeAt<T>(list: readonly T[], index: number): T[] {
	return [...list.slice(0, index), ...list.slice(index + 1)];
}

/** `list` with the element at `from` moved to `to`; the same array when nothing moves. */
function moveWithin<T>(list: readonly T[], from: number, to: number): readonly T[] {
	if (!inRange(from, list.length) || !inRange(to, list.length) || from === to) return list;
	const copy = [...list];
	const [moved] = copy.splice(from, 1) as [T];
	copy.splice(to, 0, moved);
	return copy;
}
