// The Memory page's sources, read: a dropped folder keeps each definition's dataset folder and is
// named by its paths, other files are left out, a zip is read as bytes, a drop the core refuses
// is said at (files); the bundled examples as cards; small definitions load in this thread.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
	bundledMemoryCards,
	bundledMemorySuite,
	loadDefinitionsInThreadOrWorker,
	readDefinitionsDrop,
	type DefinitionsReading,
} from '../../../src/ui/io/memory-sources';

const countTokens = (text: string): number => Math.ceil(text.length / 4);

/** A file of a dropped folder (`webkitRelativePath` set, as a folder drop gives it). */
function inFolder(path: string, text: string): File {
	const file = new File([text], path.split('/').at(-1)!);
	Object.defineProperty(file, 'webkitRelativePath', { value: path });
	return file;
}

describe('readDefinitionsDrop', () => {
	it('keeps a folder’s definitions by dataset folder, leaves other files out, names the drop', async () => {
		const drop = await readDefinitionsDrop([
			inFolder('defs/Colours/0.def.json', '{"a": 1}'),
			inFolder('defs/config.yml', 'x: 1'),
			inFolder('defs/notes.txt', 'hello'),
		]);
		if (!drop.ok) throw new Error(JSON.stringify(drop.diagnostics));
		expect(drop.definitions).toEqual({
			kind: 'texts',
			files: new Map([
				['Colours/0.def.json', '{"a": 1}'],
				['config.yml', 'x: 1'],
			]),
		});
		expect(drop.name).toBe('defs/Colours/0.def.json, defs/config.yml, defs/notes.txt');
	});

	it('reads a zip alone as bytes, named by the zip', async () => {
		const drop = await readDefinitionsDrop([new File([new Uint8Array([1, 2, 3])], 'defs.zip')]);
		if (!drop.ok) throw new Error(JSON.stringify(drop.diagnostics));
		expect(drop.definitions).toEqual({
			kind: 'zip',
			name: 'defs.zip',
			bytes: new Uint8Array([1, 2, 3]),
		});
		expect(drop.name).toBe('defs.zip');
	});

	it('says a refused drop at (files), and a drop without definitions by its files', async () => {
		const refused = await readDefinitionsDrop([
			new File(['x'], 'a.zip'),
			new File(['{}'], 'b.ltm-suite.json'),
		]);
		expect(refused).toEqual({
			ok: false,
			diagnostics: [
				{
					severity: 'error',
					path: '(files)',
					pointer: '',
					message: 'a.zip: drop a zip on its own (one zip, no other files).',
				},
			],
		});
		const empty = await readDefinitionsDrop([new File(['hi'], 'notes.txt')]);
		expect(empty.ok).toBe(false);
		if (!empty.ok) expect(empty.diagnostics[0]?.path).toBe('notes.txt');
	});
});

describe('bundled examples', () => {
	it('lists every bundled example that loads as a card, and reads one by its file name', async () => {
		const cards = await bundledMemoryCards(countTokens);
		expect(cards.map((card) => card.path).sort()).toEqual([
			'classroom-basics.ltm-suite.json',
			'restaurant.ltm-suite.json',
		]);
		const load = bundledMemorySuite('classroom-basics.ltm-suite.json');
		expect(await load?.()).toBe(
			readFileSync('suites/memory/classroom-basics.ltm-suite.json', 'utf8'),
		);
		expect(bundledMemorySuite('missing.ltm-suite.json')).toBeUndefined();
	});
});

describe('loadDefinitionsInThreadOrWorker', () => {
	it('loads small definitions in this thread, with the counter, and no progress', async () => {
		const text = readFileSync('suites/memory/classroom-basics.ltm-suite.json', 'utf8');
		const readings: (DefinitionsReading | null)[] = [];
		const result = await loadDefinitionsInThreadOrWorker(
			{ kind: 'texts', files: new Map([['c.ltm-suite.json', text]]) },
			{ memorySpan: 500 },
			'c.ltm-suite.json',
			{
				countTokens: () => Promise.resolve(countTokens),
				onReading: (reading) => readings.push(reading),
			},
		);
		if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
		expect(result.benchmark.config.memorySpan).toBe(500);
		expect(readings).toEqual([]);
	});
});
