// SuiteLibrary: opening bundled, pasted and file suites; located diagnostics; bad input gives a
// message and never throws; suites the user brings are saved in the library.
import { beforeEach, describe, expect, it } from 'vitest';
import { SuiteLibrary } from '../../../../src/ui/state/syntaxgym/suite-library.svelte';
import { MAX_SUITE_BYTES } from '../../../../src/ui/io/suite-sources';
import { clearDatabase } from '../../../storage/clear-database';

const GOOD_SUITE = JSON.stringify({
	meta: { name: 'tiny agreement', metric: 'sum' },
	region_meta: { '1': 'subject', '2': 'verb' },
	predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
	items: [
		{
			item_number: 1,
			conditions: [
				{
					condition_name: 'good',
					regions: [
						{ region_number: 1, content: 'The dog' },
						{ region_number: 2, content: 'runs' },
					],
				},
				{
					condition_name: 'bad',
					regions: [
						{ region_number: 1, content: 'The dog' },
						{ region_number: 2, content: 'run' },
					],
				},
			],
		},
	],
});

beforeEach(clearDatabase);

describe('SuiteLibrary', () => {
	it('lists the bundled suites from suites/index.json and opens one', async () => {
		const library = new SuiteLibrary();
		expect(library.bundled.length).toBeGreaterThanOrEqual(6);
		const first = library.bundled[0];
		if (!first) throw new Error('no bundled suite');
		expect(await library.openBundled(first.file)).toBe(true);
		expect(library.suite?.meta.name).toBe(first.name);
		expect(library.opened?.origin).toBe('bundled');
		expect(library.opened?.sha256).toMatch(/^[0-9a-f]{64}$/);
		await library.refresh();
		expect(library.saved).toEqual([]);
	});

	it('opens pasted JSON and saves it in the library', async () => {
		const library = new SuiteLibrary();
		expect(await library.openText(GOOD_SUITE)).toBe(true);
		expect(library.suite?.items).toHaveLength(1);
		expect(library.saved.map((suite) => suite.name)).toEqual(['tiny agreement']);
		expect(library.saved[0]?.origin).toBe('paste');
	});

	it('reports malformed JSON with its line and column, and does not save it', async () => {
		const library = new SuiteLibrary();
		const text = '{\n  "meta": {"name": "x",\n}';
		expect(await library.openText(text)).toBe(false);
		expect(library.suite).toBeNull();
		const error = library.diagnostics.find((d) => d.severity === 'error');
		// The trailing comma after "x" (line 2, column 23) is the first problem found.
		expect(error?.line).toBe(2);
		expect(error?.column).toBe(23);
		expect(library.saved).toEqual([]);
	});

	it('locates a formula problem by JSON pointer and formula column', async () => {
		const broken = GOOD_SUITE.replace('(2;%bad%) > (2;%good%)', '(2;%bad%) > > (2;%good%)');
		const library = new SuiteLibrary();
		expect(await library.openText(broken)).toBe(false);
		const error = library.diagnostics.find((d) => d.formulaColumn !== undefined);
		expect(error?.pointer).toBe('/predictions/0/formula');
		expect(error?.formulaColumn).toBe(13);
	});

	it('refuses non-UTF-8 bytes with a message', async () => {
		const library = new SuiteLibrary();
		const file = new File([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])], 'latin.json');
		expect(await library.openFile(file)).toBe(false);
		expect(library.problem).toMatch(/not UTF-8/);
		expect(library.opened).toBeNull();
	});

	it('refuses a file over the size limit before reading it', async () => {
		const library = new SuiteLibrary();
		const file = new File([new Uint8Array(MAX_SUITE_BYTES + 1)], 'huge.json');
		expect(await library.openFile(file)).toBe(false);
		expect(library.problem).toMatch(/huge\.json is 10\.0 MB/);
	});

	it('opens a suite from a saved one and removes it from the library', async () => {
		const library = new SuiteLibrary();
		await library.openText(GOOD_SUITE);
		const sha256 = library.opened?.sha256 ?? '';
		library.close();
		expect(library.opened).toBeNull();
		expect(await library.openStored(sha256)).toBe(true);
		expect(library.suite?.meta.name).toBe('tiny agreement');
		await library.remove(sha256);
		expect(library.saved).toEqual([]);
	});
});
