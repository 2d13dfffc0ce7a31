// Definitions from a zip: upstream .def.json files under any top folder (same tests as the
// folder), a single ltm-suite.json, and located errors for unreadable or empty zips.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadLtmDefinitions } from '../../../src/core/ltm/definitions';
import { loadLtmZip } from '../../../src/core/ltm/zip-input';

const TINY = new URL('../../fixtures/ltm/tiny-definitions/', import.meta.url).pathname;

function tinyFiles(): Record<string, string> {
	const files: Record<string, string> = {};
	for (const entry of readdirSync(TINY, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const path = join(entry.parentPath, entry.name);
		files[relative(TINY, path)] = readFileSync(path, 'utf8');
	}
	return files;
}

describe('loadLtmZip', () => {
	it('reads .def.json files and config.yml under a top folder, like the folder itself', () => {
		const files = tinyFiles();
		const zip = zipSync({
			...Object.fromEntries(
				Object.entries(files).map(([path, text]) => [`run/definitions/${path}`, strToU8(text)]),
			),
			'__MACOSX/run/._config.yml': strToU8('junk'),
			'run/.DS_Store': strToU8('junk'),
		});
		const fromZip = loadLtmZip('defs.zip', zip);
		const fromFolder = loadLtmDefinitions(files);
		expect(fromZip.ok && fromFolder.ok).toBe(true);
		if (!fromZip.ok || !fromFolder.ok) return;
		expect(fromZip.benchmark.config).toEqual(fromFolder.benchmark.config);
		expect(fromZip.benchmark.tests.map((test) => test.uniqueId)).toEqual(
			fromFolder.benchmark.tests.map((test) => test.uniqueId),
		);
		expect(fromZip.benchmark.tests.map((test) => ({ ...test, source: '' }))).toEqual(
			fromFolder.benchmark.tests.map((test) => ({ ...test, source: '' })),
		);
		expect(fromZip.benchmark.tests[0]!.source).toMatch(/^defs\.zip\/run\/definitions\//);
	});

	it('reads a single ltm-suite.json', () => {
		const suite = {
			format: 'ltm-suite/1',
			datasets: [
				{
					name: 'Colours',
					evaluator: 'colours',
					examples: [
						{
							script: ['My favourite colour is teal.', 'What is my favourite colour?'],
							is_question: [false, true],
							expected_responses: ['teal'],
						},
					],
				},
			],
		};
		const loaded = loadLtmZip(
			'suite.zip',
			zipSync({ 'my.ltm-suite.json': strToU8(JSON.stringify(suite)) }),
		);
		expect(loaded.ok && loaded.benchmark.tests.map((test) => test.uniqueId)).toEqual([
			'Colours - 0',
		]);
	});

	it('says what is wrong with an unreadable, empty or ambiguous zip', () => {
		const messages = (bytes: Uint8Array) =>
			loadLtmZip('x.zip', bytes).diagnostics.map((d) => `${d.path}: ${d.message}`);
		expect(messages(strToU8('not a zip at all'))[0]).toMatch(/^x\.zip: not a readable zip/);
		expect(messages(zipSync({ 'notes.txt': strToU8('hi') }))).toEqual([
			'x.zip: holds no <Dataset Name>/<id>.def.json files and no ltm-suite.json',
		]);
		expect(messages(zipSync({ 'a.json': strToU8('{}'), 'b.json': strToU8('{}') }))).toEqual([
			'x.zip: holds 2 JSON files and no .def.json: zip one ltm-suite.json at a time',
		]);
	});

	it('locates junk JSON in a zip entry: the entry, line, column and a short reason', () => {
		const messages = (bytes: Uint8Array) =>
			loadLtmZip('x.zip', bytes).diagnostics.map((d) => `${d.path}: ${d.message}`);
		expect(
			messages(zipSync({ 'defs/Colours/1.def.json': strToU8('{"script": [\n oops ]}') })),
		).toEqual([
			"x.zip/defs/Colours/1.def.json: not JSON at line 2, column 2: invalid symbol (found 'oops') (JSON allows only objects, arrays, strings, numbers, true, false and null)",
		]);
		// A binary file: its bytes are shown as escapes, never raw.
		const binary = messages(
			zipSync({ 'ltm-suite.json': new Uint8Array([0, 1, 2, 0x7b, 0xff, 0xfe]) }),
		);
		expect(binary[0]).toMatch(/^x\.zip\/ltm-suite\.json: not JSON at line 1, column 1: .*\\u0000/);
		// eslint-disable-next-line no-control-regex -- no raw control character in the message
		expect(binary[0]).not.toMatch(/[\u0000-\u001f]/);
	});
});
