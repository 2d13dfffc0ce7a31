// SuiteEditor: typing in one cell is one undo step, save goes to the library (valid suites only)
// and clears the dirty flag, a library suite loads into the grid, export names the file.
import { beforeEach, describe, expect, it } from 'vitest';
import { addPrediction, pasteBlock } from '../../../../src/core/syntaxgym/editor/editor-state';
import { getSuite } from '../../../../src/storage/syntaxgym/suites-repository';
import { SuiteEditor, fileNameFor } from '../../../../src/ui/state/syntaxgym/suite-editor.svelte';
import { clearDatabase } from '../../../storage/clear-database';

beforeEach(clearDatabase);

function validEditor(): SuiteEditor {
	const editor = new SuiteEditor();
	editor.apply((s) => pasteBlock(s, 0, 0, 'The\tdog\truns\nThe\tdog\trun'));
	editor.apply((s) => addPrediction(s, '(3;%condition_2%) > (3;%condition_1%)'));
	return editor;
}

describe('SuiteEditor', () => {
	it('makes one undo step of a typing run in one cell', () => {
		const editor = new SuiteEditor();
		for (const text of ['T', 'Th', 'The']) editor.typeCell(0, 0, 0, text);
		editor.endTyping();
		editor.typeCell(0, 0, 1, 'dog');
		expect(editor.state.items[0]?.cells[0]).toEqual(['The', 'dog', '']);
		editor.undo();
		expect(editor.state.items[0]?.cells[0]).toEqual(['The', '', '']);
		editor.undo();
		expect(editor.state.items[0]?.cells[0]).toEqual(['', '', '']);
		expect(editor.canUndo).toBe(false);
		expect(editor.dirty).toBe(false);
	});

	it('saves a valid suite to the library and is clean afterwards', async () => {
		const editor = validEditor();
		expect(editor.dirty).toBe(true);
		expect(editor.json.result.ok).toBe(true);
		const saved = await editor.save();
		expect(saved).not.toBeNull();
		expect(editor.dirty).toBe(false);
		expect((await getSuite(saved!.sha256))?.text).toBe(editor.json.text);
	});

	it('refuses to save a suite with errors', async () => {
		const editor = validEditor();
		editor.apply((s) => addPrediction(s, '(9;%nope%) > 1'));
		expect(await editor.save()).toBeNull();
		expect(editor.message).toMatch(/errors/);
	});

	it('loads a stored suite and exports it under its name', async () => {
		const saved = await validEditor().save();
		const editor = new SuiteEditor();
		expect(await editor.loadStored(saved!.sha256)).toBe(true);
		expect(editor.state.items[0]?.cells[1]).toEqual(['The', 'dog', 'run']);
		expect(editor.dirty).toBe(false);
		expect(editor.exportFile()).toEqual({ fileName: 'new-suite.json', text: editor.json.text });
		expect(await editor.loadStored('0'.repeat(64))).toBe(false);
	});

	it.each([
		['Subject–verb agreement (PP)', 'subject-verb-agreement-pp.json'],
		['!!!', 'suite.json'],
	])('fileNameFor(%j) = %s', (name, file) => {
		expect(fileNameFor(name)).toBe(file);
	});
});
