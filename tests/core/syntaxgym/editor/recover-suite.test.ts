import { describe, expect, it } from 'vitest';
import {
	gridFromJsonValue,
	recoverSuite,
	textOffset,
} from '../../../../src/core/syntaxgym/editor/recover-suite';
import { toSuiteJson } from '../../../../src/core/syntaxgym/editor/suite-json';
import { locateGridPlace } from '../../../../src/core/syntaxgym/editor/locate-grid-cell';

const VALID = JSON.stringify({
	meta: { name: 'Agreement', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [
		{
			item_number: 1,
			conditions: [
				{
					condition_name: 'good',
					regions: [
						{ region_number: 1, content: 'The key' },
						{ region_number: 2, content: 'is' },
					],
				},
				{
					condition_name: 'bad',
					regions: [
						{ region_number: 1, content: 'The key' },
						{ region_number: 2, content: 'are' },
					],
				},
			],
		},
	],
});

describe('recoverSuite', () => {
	it('loads a valid suite into the grid', () => {
		const recovered = recoverSuite(VALID);
		expect(recovered.kind).toBe('suite');
		if (recovered.kind !== 'suite') return;
		expect(recovered.state.conditionNames).toEqual(['good', 'bad']);
		expect(recovered.state.items[0]?.cells).toEqual([
			['The key', 'is'],
			['The key', 'are'],
		]);
	});

	it.each([
		['truncated', VALID.slice(0, VALID.indexOf('"items"') + 9), 'found end of file'],
		['a doubled comma', '{"meta": {"name": "x",, "metric": "sum"}}', "found ','"],
		['not JSON at all', 'meta: name x', 'invalid JSON'],
		['empty', '', 'invalid JSON'],
	])('keeps %s text as it is, with its located syntax error', (_, text, message) => {
		const recovered = recoverSuite(text);
		expect(recovered.kind).toBe('text');
		if (recovered.kind !== 'text') return;
		expect(recovered.text).toBe(text);
		const syntax = recovered.diagnostics.find((d) => d.code === 'json-syntax');
		expect(syntax?.message).toContain(message);
		expect(syntax?.line).toBeGreaterThanOrEqual(1);
	});

	it('loads valid JSON that is an invalid suite into the grid; validation finds the cell', () => {
		const broken = JSON.parse(VALID) as {
			items: { conditions: { regions: { content: unknown }[] }[] }[];
		};
		const region = broken.items[0]?.conditions[1]?.regions[1];
		if (region) region.content = '';
		const text = JSON.stringify({ ...broken, meta: { metric: 'sum' } });
		const recovered = recoverSuite(text);
		expect(recovered.kind).toBe('grid');
		if (recovered.kind !== 'grid') return;
		expect(recovered.state.items[0]?.cells[1]).toEqual(['The key', '']);
		const { result } = toSuiteJson(recovered.state);
		const places = result.diagnostics.map((d) => locateGridPlace(d.pointer));
		expect(places).toContainEqual({
			kind: 'cell',
			itemIndex: 0,
			conditionIndex: 1,
			regionIndex: 1,
		});
		// The missing name is an error of the meta form, not lost silently.
		expect(result.ok).toBe(false);
		expect(result.diagnostics.some((d) => d.pointer.startsWith('/meta'))).toBe(true);
	});
});

describe('gridFromJsonValue', () => {
	it.each<[string, unknown, Partial<Record<'regions' | 'conditions' | 'items', unknown>>, RegExp]>([
		['not an object', [1, 2], { items: 1 }, /not a JSON object/],
		[
			'items not a list',
			{ meta: { name: 'x', metric: 'sum' }, items: 'none' },
			{ items: 1 },
			/items is not a list/,
		],
		[
			'a condition without a name',
			{ items: [{ item_number: 1, conditions: [{ regions: [{ content: 'a' }] }] }] },
			{ conditions: ['condition_1'] },
			/no condition_name, named "condition_1"/,
		],
		[
			'a number as content',
			{
				items: [
					{
						item_number: 1,
						conditions: [{ condition_name: 'c', regions: [{ region_number: 1, content: 7 }] }],
					},
				],
			},
			{ regions: ['region_1'] },
			/content is not text, kept as "7"/,
		],
		[
			'an item number as text',
			{ items: [{ item_number: 'two', conditions: [] }] },
			{ items: 1 },
			/item_number is not a whole number, numbered 1/,
		],
		[
			'an unknown metric',
			{ meta: { name: 'x', metric: ['sum', 'entropy'] } },
			{ items: 1 },
			/"entropy" is not one of/,
		],
	])('%s: loads with a note', (_, value, shape, note) => {
		const { state, notes } = gridFromJsonValue(value);
		if (shape.items !== undefined) expect(state.items).toHaveLength(shape.items as number);
		if (shape.conditions !== undefined) expect(state.conditionNames).toEqual(shape.conditions);
		if (shape.regions !== undefined) expect(state.regionNames).toEqual(shape.regions);
		expect(notes.some((n) => note.test(n))).toBe(true);
		// The grid invariant holds: every item has one row per condition, one cell per region.
		for (const item of state.items) {
			expect(item.cells).toHaveLength(state.conditionNames.length);
			for (const row of item.cells) expect(row).toHaveLength(state.regionNames.length);
		}
	});

	it('places regions by region_number and rows by condition name', () => {
		const { state, notes } = gridFromJsonValue({
			meta: { name: 'x', metric: 'sum', tags: ['t'] },
			region_meta: { '1': 'a', '3': 'c' },
			items: [
				{
					item_number: 4,
					conditions: [
						{ condition_name: 'q', regions: [{ region_number: 3, content: 'three' }] },
						{ condition_name: 'p', regions: [{ region_number: 1, content: 'one' }] },
					],
				},
				{
					item_number: 5,
					conditions: [{ condition_name: 'p', regions: [{ region_number: 2, content: 'two' }] }],
				},
			],
			predictions: [{ type: 'formula', formula: '(1;%p%) > (1;%q%)' }, { type: 'formula' }],
		});
		expect(state.regionNames).toEqual(['a', 'region_2', 'c']);
		expect(state.conditionNames).toEqual(['q', 'p']);
		expect(state.items.map((item) => item.itemNumber)).toEqual([4, 5]);
		expect(state.items[0]?.cells).toEqual([
			['', '', 'three'],
			['one', '', ''],
		]);
		expect(state.items[1]?.cells).toEqual([
			['', '', ''],
			['', 'two', ''],
		]);
		expect(state.predictions).toEqual(['(1;%p%) > (1;%q%)']);
		expect(state.extraMeta).toEqual({ tags: ['t'] });
		expect(notes).toEqual([
			'item 2 has no condition "q": its row was added, empty',
			'prediction 2 has no formula text and was left out: {"type":"formula"}',
		]);
	});
});

describe('textOffset', () => {
	it.each([
		['abc\ndef', 1, 1, 0],
		['abc\ndef', 1, 3, 2],
		['abc\ndef', 2, 1, 4],
		['abc\ndef', 2, 9, 7],
		['abc\ndef', 5, 1, 7],
		['', 1, 1, 0],
	])('%j line %i column %i → %i', (text, line, column, offset) => {
		expect(textOffset(text, line, column)).toBe(offset);
	});
});
