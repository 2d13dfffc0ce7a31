// Dropped files as definitions: which count, their paths inside the definitions, the drop's
// limits (a zip alone, 50 MB in all, the page's per-file check first) and the diagnostics.
import { describe, expect, it } from 'vitest';
import {
	MAX_DEFINITIONS_BYTES,
	checkDefinitionsDrop,
	definitionsPathOf,
	droppedPathOf,
	dropProblemDiagnostic,
	isDefinitionsPath,
	isZipName,
	noDefinitionsDiagnostic,
	type DroppedFileFacts,
} from '../../../src/core/ltm/dropped-definitions';

const MB = 1024 * 1024;
const noCheck = (): void => undefined;

describe('definitionsPathOf', () => {
	it.each([
		['defs/Colours/0.def.json', 'Colours/0.def.json'],
		['a/b/Shopping/3.def.json', 'Shopping/3.def.json'],
		['defs/config.yml', 'config.yml'],
		['my.ltm-suite.json', 'my.ltm-suite.json'],
		['defs\\Names\\1.def.json', 'Names/1.def.json'],
		['./Colours/0.def.json', 'Colours/0.def.json'],
		['0.def.json', '0.def.json'],
	])('%s → %s', (path, expected) => {
		expect(definitionsPathOf(path)).toBe(expected);
	});
});

describe('which files count', () => {
	it.each([
		['Colours/0.def.json', true],
		['config.yml', true],
		['config.YAML', true],
		['x.ltm-suite.json', true],
		['notes.txt', false],
		['archive.zip', false],
		['json', false],
	])('%s: %s', (path, expected) => {
		expect(isDefinitionsPath(path)).toBe(expected);
	});

	it.each([
		['defs.zip', true],
		['DEFS.ZIP', true],
		['defs.zip.json', false],
	])('%s is a zip: %s', (name, expected) => {
		expect(isZipName(name)).toBe(expected);
	});

	it('names a file by its folder path when a folder was dropped, else by its name', () => {
		expect(
			droppedPathOf({ name: '0.def.json', webkitRelativePath: 'defs/Colours/0.def.json' }),
		).toBe('defs/Colours/0.def.json');
		expect(droppedPathOf({ name: '0.def.json', webkitRelativePath: '' })).toBe('0.def.json');
	});
});

describe('checkDefinitionsDrop', () => {
	it('takes a zip alone, and files within 50 MB in all', () => {
		expect(() => checkDefinitionsDrop([{ name: 'a.zip', size: 10 }], noCheck)).not.toThrow();
		const files = [
			{ name: 'a.json', size: 25 * MB },
			{ name: 'b.json', size: MAX_DEFINITIONS_BYTES - 25 * MB },
		];
		expect(() => checkDefinitionsDrop(files, noCheck)).not.toThrow();
	});

	it('asks for a zip on its own, naming every zip dropped with other files', () => {
		const files = [
			{ name: 'a.zip', size: 1 },
			{ name: 'b.ltm-suite.json', size: 1 },
			{ name: 'c.ZIP', size: 1 },
		];
		expect(() => checkDefinitionsDrop(files, noCheck)).toThrow(
			'a.zip, c.ZIP: drop a zip on its own (one zip, no other files).',
		);
	});

	it('refuses files over 50 MB in all', () => {
		const files = [
			{ name: 'a.json', size: 30 * MB },
			{ name: 'b.json', size: 21 * MB },
		];
		expect(() => checkDefinitionsDrop(files, noCheck)).toThrow(
			'These files are over 50 MB: drop fewer definitions.',
		);
	});

	it('checks each file before adding it up, and stops at the first problem', () => {
		const checked: string[] = [];
		const check = (file: DroppedFileFacts): void => {
			checked.push(file.name);
			if (file.size > 64 * MB) throw new Error(`${file.name} is too large`);
		};
		// The first two pass the 50 MB total before the third's own check runs.
		const overTotal = [
			{ name: 'a.json', size: 30 * MB },
			{ name: 'b.json', size: 30 * MB },
			{ name: 'c.json', size: 70 * MB },
		];
		expect(() => checkDefinitionsDrop(overTotal, check)).toThrow('over 50 MB');
		expect(checked).toEqual(['a.json', 'b.json']);
		checked.length = 0;
		const tooLarge = [
			{ name: 'big.json', size: 70 * MB },
			{ name: 'b.json', size: 1 },
		];
		expect(() => checkDefinitionsDrop(tooLarge, check)).toThrow('big.json is too large');
		expect(checked).toEqual(['big.json']);
	});
});

describe('drop diagnostics', () => {
	it('says a drop could not be read, at (files)', () => {
		expect(dropProblemDiagnostic('broken')).toEqual({
			severity: 'error',
			path: '(files)',
			pointer: '',
			message: 'broken',
		});
	});

	it('says nothing dropped is a definition, naming the files and what to drop', () => {
		const diagnostic = noDefinitionsDiagnostic(['notes.txt', 'a.png']);
		expect(diagnostic.severity).toBe('error');
		expect(diagnostic.path).toBe('notes.txt, a.png');
		expect(diagnostic.message).toMatch(
			/^no definitions found: drop .*\.def\.json.*ltm-suite\.json$/u,
		);
	});
});
