// SuiteEditor with a broken suite: text that is not JSON is kept as text with its located
// syntax error, fixed there, opened in the grid and saved; valid JSON that is not a valid suite
// loads into the grid with notes.
import { beforeEach, describe, expect, it } from 'vitest';
import { getSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { SuiteEditor } from '../../../../src/ui/state/syntaxgym/suite-editor.svelte';
import { clearDatabase } from '../../../storage/clear-database';

beforeEach(clearDatabase);

const SUITE = `{
	"meta": { "name": "Tiny", "metric": "sum" },
	"region_meta": { "1": "subject", "2": "verb" },
	"predictions": [{ "type": "formula", "formula": "(2;%bad%) > (2;%good%)" }],
	"items": [
		{
			"item_number": 1,
			"conditions": [
				{ "condition_name": "good", "regions": [{ "region_number": 1, "content": "The dog" }, { "region_number": 2, "content": "runs" }] },
				{ "condition_name": "bad", "regions": [{ "region_number": 1, "content": "The dog" }, { "region_number": 2, "content": "run" }] }
			]
		}
	]
}
`;

describe('SuiteEditor with a broken suite', () => {
	it('keeps truncated text as text, then runs the fixed text as it is', async () => {
		const editor = new SuiteEditor();
		const truncated = SUITE.slice(0, SUITE.lastIndexOf(']'));
		expect(editor.loadText(truncated)).toBe(false);
		expect(editor.rawText).toBe(truncated);
		expect(editor.rawIsJson).toBe(false);
		expect(editor.rawDiagnostics[0]?.code).toBe('json-syntax');
		expect(editor.rawDiagnostics[0]?.line).toBeGreaterThan(1);
		expect(editor.dirty).toBe(false);
		expect(editor.openRawInGrid()).toBe(false);
		expect(editor.rawText).toBe(truncated);

		editor.setRawText(SUITE);
		expect(editor.dirty).toBe(true);
		expect(editor.rawIsJson).toBe(true);
		expect(editor.json.result.ok).toBe(true);
		const saved = await editor.save();
		expect(saved).not.toBeNull();
		// Saved exactly as typed: nothing of the user's text reformatted or lost.
		expect((await getSuite(saved!.sha256))?.text).toBe(SUITE);
		expect(editor.dirty).toBe(false);
	});

	it('opens fixed text in the grid, unsaved', () => {
		const editor = new SuiteEditor();
		editor.loadText(SUITE.replace('"metric": "sum" }', '"metric": "sum" },,'));
		editor.setRawText(SUITE);
		expect(editor.openRawInGrid()).toBe(true);
		expect(editor.rawText).toBeNull();
		expect(editor.state.conditionNames).toEqual(['good', 'bad']);
		expect(editor.json.result.ok).toBe(true);
		expect(editor.dirty).toBe(true);
	});

	it('loads valid JSON with suite errors into the grid, with notes', () => {
		const editor = new SuiteEditor();
		const broken = SUITE.replace('"item_number": 1', '"item_number": "one"').replace(
			'"content": "run"',
			'"content": ""',
		);
		expect(editor.loadText(broken)).toBe(true);
		expect(editor.rawText).toBeNull();
		expect(editor.state.items[0]?.cells[1]).toEqual(['The dog', '']);
		expect(editor.notes).toEqual(['item 1: item_number is not a whole number, numbered 1']);
		expect(
			editor.json.result.diagnostics.some(
				(d) => d.pointer === '/items/0/conditions/1/regions/1/content',
			),
		).toBe(true);
	});
});
