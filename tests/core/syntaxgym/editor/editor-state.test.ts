import { describe, expect, it } from 'vitest';
import {
	addCondition,
	addItem,
	addRegion,
	createEmptyEditorState,
	moveCondition,
	moveItem,
	moveRegion,
	pasteBlock,
	removeCondition,
	removeItem,
	removeRegion,
	renameCondition,
	renameRegion,
	rowPosition,
	setCell,
	splitPastedBlock,
	type EditorState,
} from '../../../../src/core/syntaxgym/editor/editor-state';

/** A 2-item, 2-condition, 2-region grid with distinct cells `i<item>c<cond>r<region>`. */
function grid(): EditorState {
	return deepFreeze({
		meta: { name: 'g', author: '', reference: '', comment: '', metrics: ['sum'] },
		regionNames: ['a', 'b'],
		conditionNames: ['x', 'y'],
		items: [1, 2].map((itemNumber) => ({
			itemNumber,
			cells: [1, 2].map((c) => [1, 2].map((r) => `i${itemNumber}c${c}r${r}`)),
		})),
		predictions: ['(1;%x%) > (1;%y%)'],
		extraMeta: {},
	});
}

function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object') {
		for (const child of Object.values(value)) deepFreeze(child);
		Object.freeze(value);
	}
	return value;
}

/** The grid as rows of cells, items one after the other. */
function rows(state: EditorState): string[][] {
	return state.items.flatMap((item) => item.cells.map((row) => [...row]));
}

describe('grid operations (inputs are frozen: a mutation throws)', () => {
	const cases: [string, (s: EditorState) => EditorState, Partial<Record<string, unknown>>][] = [
		[
			'setCell',
			(s) => setCell(s, 1, 0, 1, 'new'),
			{
				rows: [
					['i1c1r1', 'i1c1r2'],
					['i1c2r1', 'i1c2r2'],
					['i2c1r1', 'new'],
					['i2c2r1', 'i2c2r2'],
				],
			},
		],
		[
			'addItem at the end, numbered max+1',
			(s) => addItem(s),
			{ itemNumbers: [1, 2, 3], rowCount: 6 },
		],
		['addItem at 0', (s) => addItem(s, 0), { itemNumbers: [3, 1, 2] }],
		['removeItem', (s) => removeItem(s, 0), { itemNumbers: [2], rowCount: 2 }],
		['moveItem', (s) => moveItem(s, 1, 0), { itemNumbers: [2, 1] }],
		[
			'addCondition in the middle',
			(s) => addCondition(s, 'z', 1),
			{
				conditionNames: ['x', 'z', 'y'],
				rows: [
					['i1c1r1', 'i1c1r2'],
					['', ''],
					['i1c2r1', 'i1c2r2'],
					['i2c1r1', 'i2c1r2'],
					['', ''],
					['i2c2r1', 'i2c2r2'],
				],
			},
		],
		[
			'removeCondition',
			(s) => removeCondition(s, 0),
			{
				conditionNames: ['y'],
				rows: [
					['i1c2r1', 'i1c2r2'],
					['i2c2r1', 'i2c2r2'],
				],
			},
		],
		[
			'moveCondition moves the rows of every item',
			(s) => moveCondition(s, 0, 1),
			{
				conditionNames: ['y', 'x'],
				rows: [
					['i1c2r1', 'i1c2r2'],
					['i1c1r1', 'i1c1r2'],
					['i2c2r1', 'i2c2r2'],
					['i2c1r1', 'i2c1r2'],
				],
			},
		],
		[
			'renameCondition also renames references in predictions',
			(s) => renameCondition(s, 0, 'match'),
			{ conditionNames: ['match', 'y'], predictions: ['(1;%match%) > (1;%y%)'] },
		],
		[
			'addRegion (default name)',
			(s) => addRegion(s),
			{ regionNames: ['a', 'b', 'region_3'], firstRow: ['i1c1r1', 'i1c1r2', ''] },
		],
		[
			'addRegion at 0',
			(s) => addRegion(s, 'pre', 0),
			{ regionNames: ['pre', 'a', 'b'], firstRow: ['', 'i1c1r1', 'i1c1r2'] },
		],
		['removeRegion', (s) => removeRegion(s, 0), { regionNames: ['b'], firstRow: ['i1c1r2'] }],
		[
			'moveRegion',
			(s) => moveRegion(s, 0, 1),
			{ regionNames: ['b', 'a'], firstRow: ['i1c1r2', 'i1c1r1'] },
		],
		['renameRegion', (s) => renameRegion(s, 1, 'verb'), { regionNames: ['a', 'verb'] }],
	];
	it.each(cases)('%s', (_name, operation, expected) => {
		const after = operation(grid());
		const seen: Record<string, unknown> = {
			rows: rows(after),
			itemNumbers: after.items.map((item) => item.itemNumber),
			rowCount: rows(after).length,
			conditionNames: after.conditionNames,
			regionNames: after.regionNames,
			predictions: after.predictions,
			firstRow: rows(after)[0],
		};
		for (const [key, value] of Object.entries(expected)) expect(seen[key], key).toEqual(value);
		for (const item of after.items) {
			expect(item.cells).toHaveLength(after.conditionNames.length);
			for (const row of item.cells) expect(row).toHaveLength(after.regionNames.length);
		}
	});

	const noOps: [string, (s: EditorState) => EditorState][] = [
		['setCell to the same text', (s) => setCell(s, 0, 0, 0, 'i1c1r1')],
		['setCell outside the grid', (s) => setCell(s, 5, 0, 0, 'x')],
		['removeItem out of range', (s) => removeItem(s, 9)],
		['moveItem to itself', (s) => moveItem(s, 1, 1)],
		['removeRegion out of range', (s) => removeRegion(s, -1)],
		['renameRegion to the same name', (s) => renameRegion(s, 0, 'a')],
		['moveCondition out of range', (s) => moveCondition(s, 0, 2)],
	];
	it.each(noOps)('%s returns the same state', (_name, operation) => {
		const state = grid();
		expect(operation(state)).toBe(state);
	});
});

describe('splitPastedBlock', () => {
	it.each([
		[
			'a\tb\nc\td\n',
			[
				['a', 'b'],
				['c', 'd'],
			],
		],
		[
			'a\tb\r\nc\td',
			[
				['a', 'b'],
				['c', 'd'],
			],
		],
		['one', [['one']]],
		['a\t\tc', [['a', '', 'c']]],
	])('%j', (text, expected) => {
		expect(splitPastedBlock(text)).toEqual(expected);
	});
});

describe('pasteBlock', () => {
	it('pastes inside the grid at a cell, trimming cells', () => {
		const after = pasteBlock(grid(), 1, 1, ' P \nQ');
		expect(rows(after)).toEqual([
			['i1c1r1', 'i1c1r2'],
			['i1c2r1', 'P'],
			['i2c1r1', 'Q'],
			['i2c2r1', 'i2c2r2'],
		]);
	});

	it('grows the grid: new regions to the right, new items below', () => {
		const after = pasteBlock(grid(), 3, 1, 'a\tb\tc\nd\te\tf\ng\th\ti');
		expect(after.regionNames).toEqual(['a', 'b', 'region_3', 'region_4']);
		expect(after.items.map((item) => item.itemNumber)).toEqual([1, 2, 3]);
		expect(rows(after)).toEqual([
			['i1c1r1', 'i1c1r2', '', ''],
			['i1c2r1', 'i1c2r2', '', ''],
			['i2c1r1', 'i2c1r2', '', ''],
			['i2c2r1', 'a', 'b', 'c'],
			['', 'd', 'e', 'f'],
			['', 'g', 'h', 'i'],
		]);
	});

	it('fills a new suite from a whole spreadsheet block', () => {
		const after = pasteBlock(
			createEmptyEditorState(),
			0,
			0,
			'The\tdog\tbarks\nThe\tdogs\tbark\nA\tcat\tsleeps\nThe\tcats\tsleep\n',
		);
		expect(after.items).toHaveLength(2);
		expect(rows(after)).toEqual([
			['The', 'dog', 'barks'],
			['The', 'dogs', 'bark'],
			['A', 'cat', 'sleeps'],
			['The', 'cats', 'sleep'],
		]);
	});

	it('ignores an empty paste', () => {
		const state = grid();
		expect(pasteBlock(state, 0, 0, '')).toEqual(state);
	});
});

describe('rowPosition', () => {
	it.each([
		[0, { itemIndex: 0, conditionIndex: 0 }],
		[1, { itemIndex: 0, conditionIndex: 1 }],
		[3, { itemIndex: 1, conditionIndex: 1 }],
	])('row %i', (row, expected) => {
		expect(rowPosition(grid(), row)).toEqual(expected);
	});
});
