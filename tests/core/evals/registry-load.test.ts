import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { registryFiles } from '../../../src/core/evals';
import {
	CHECK_ALL_EVALS_UP_TO,
	MAX_REGISTRY_BYTES,
	NO_EVAL_MESSAGE,
	loadRegistry,
	registryReadPlace,
	unlistedProblem,
	workerRegistryProblems,
	zipRegistryEntries,
} from '../../../src/core/evals/registry-load';

const MATCH = 'evals.elsuite.basic.match:Match';

/** An eval named `name` over `data/<name>.jsonl`. */
function evalYaml(name: string): string {
	return `${name}:\n  id: ${name}.dev.v0\n${name}.dev.v0:\n  class: ${MATCH}\n  args:\n    samples_jsonl: ${name}.jsonl\n`;
}

describe('registryReadPlace', () => {
	it.each<[number, number, 'too-big' | 'worker' | 'here']>([
		[100, 0, 'here'],
		[1000, 0, 'here'],
		[1001, 0, 'worker'],
		[600, 401, 'worker'],
		[MAX_REGISTRY_BYTES, 0, 'worker'],
		[MAX_REGISTRY_BYTES + 1, 0, 'too-big'],
	])('%d bytes dropped over %d loaded: %s', (given, loaded, place) => {
		expect(registryReadPlace(given, loaded, 1000)).toBe(place);
	});
});

describe('zipRegistryEntries', () => {
	it('places YAML and JSONL by content and skips other files and macOS metadata', () => {
		const zip = zipSync({
			'registry/evals/capitals.yaml': strToU8(evalYaml('capitals')),
			'grading.yaml': strToU8('choice_strings: ABC\n'),
			'samples.jsonl': strToU8('{"input": "a", "ideal": "b"}\n'),
			'README.md': strToU8('# notes'),
			'__MACOSX/evals/._capitals.yaml': strToU8('junk'),
		});
		const entries = zipRegistryEntries('registry.zip', zip);
		expect(entries.map(([path]) => path).sort()).toEqual([
			'data/samples.jsonl',
			'evals/capitals.yaml',
			'modelgraded/grading.yaml',
		]);
		expect(new Map(entries).get('evals/capitals.yaml')).toBe(evalYaml('capitals'));
	});

	it('refuses bytes that are not a zip, saying which file', () => {
		expect(() => zipRegistryEntries('notes.zip', strToU8('not a zip'))).toThrow(/notes\.zip/u);
	});
});

describe('loadRegistry', () => {
	it('reads nothing from no files', () => {
		expect(loadRegistry(registryFiles([]), true)).toEqual({
			registry: null,
			evalNames: [],
			problems: [],
		});
	});

	it('lists the evals of a sound registry with no problem', () => {
		const loaded = loadRegistry(
			registryFiles([
				['evals/capitals.yaml', evalYaml('capitals')],
				['data/capitals.jsonl', '{"input": "a", "ideal": "b"}\n'],
			]),
			true,
		);
		expect(loaded.registry).not.toBeNull();
		expect(loaded.evalNames).toEqual(['capitals', 'capitals.dev.v0']);
		expect(loaded.problems).toEqual([]);
	});

	it('says what an eval is when the files hold none', () => {
		const loaded = loadRegistry(registryFiles([['data/a.jsonl', '{"input": "a"}\n']]), true);
		expect(loaded.evalNames).toEqual([]);
		expect(loaded.problems).toEqual([{ message: NO_EVAL_MESSAGE }]);
	});

	it('checks every eval when asked, each problem once and located', () => {
		const files = registryFiles([['evals/capitals.yaml', evalYaml('capitals')]]);
		const checked = loadRegistry(files, true);
		expect(checked.problems).toHaveLength(1);
		expect(checked.problems[0]?.message).toMatch(/capitals\.jsonl/u);
		expect(checked.problems[0]?.location?.file).toBeDefined();
		// Not checked (bundled examples): the problem shows when the eval is picked.
		expect(loadRegistry(files, false).problems).toEqual([]);
	});

	it(`checks no eval of a registry over ${CHECK_ALL_EVALS_UP_TO} evals`, () => {
		const names = Array.from({ length: CHECK_ALL_EVALS_UP_TO }, (_, i) => `task${i}`);
		const loaded = loadRegistry(
			registryFiles(names.map((name) => [`evals/${name}.yaml`, evalYaml(name)])),
			true,
		);
		expect(loaded.evalNames).toHaveLength(2 * CHECK_ALL_EVALS_UP_TO);
		expect(loaded.problems).toEqual([]);
	});

	it('gives the located problem of files that do not read as a registry', () => {
		const loaded = loadRegistry(registryFiles([['evals/broken.yaml', 'a: [unclosed\n']]), true);
		expect(loaded.registry).toBeNull();
		expect(loaded.evalNames).toEqual([]);
		expect(loaded.problems).toHaveLength(1);
		expect(loaded.problems[0]?.location?.file).toBe('evals/broken.yaml');
	});
});

describe('workerRegistryProblems / unlistedProblem', () => {
	const problem = { message: 'YAML error', location: { file: 'evals/a.yaml', line: 2 } };

	it('adds what an eval is only when the worker found no eval', () => {
		expect(workerRegistryProblems(['a'], [problem])).toEqual([problem]);
		expect(workerRegistryProblems([], [problem])).toEqual([problem, { message: NO_EVAL_MESSAGE }]);
	});

	it('gives a picked eval’s problem only when the page does not list its words yet', () => {
		expect(unlistedProblem([], problem)).toBe(problem);
		expect(unlistedProblem([{ message: 'YAML error' }], problem)).toBeNull();
		expect(unlistedProblem([{ message: 'other' }], problem)).toBe(problem);
	});
});
