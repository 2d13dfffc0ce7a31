import { describe, expect, it } from 'vitest';
import {
	evalCards,
	evalChoices,
	isRegistryFileName,
	isRegistryZipEntry,
	listEvalNames,
	pastedRegistryEntries,
	readRegistry,
	registryFiles,
	resolveEval,
	type EvalsCard,
} from '../../../src/core/evals';
import { EvalsError } from '../../../src/core/evals/shared/errors';
import {
	addRegistryFiles,
	addToRegistry,
	registryProblemOf,
} from '../../../src/core/evals/registry-input';
import type { EvalsLocation } from '../../../src/core/evals/shared/types';

describe('isRegistryFileName / isRegistryZipEntry', () => {
	it.each<[string, boolean, boolean]>([
		['evals/capitals.yaml', true, true],
		['evals/capitals.YML', true, true],
		['data/capitals/samples.jsonl', true, true],
		['data/notes.json', false, false],
		['README.md', false, false],
		['evals/', false, false],
		['__MACOSX/evals/._capitals.yaml', true, false],
	])('%s: file %s, zip entry %s', (path, file, zipEntry) => {
		expect(isRegistryFileName(path)).toBe(file);
		expect(isRegistryZipEntry(path)).toBe(zipEntry);
	});
});

describe('pastedRegistryEntries', () => {
	const SAMPLES = '{"input": "Capital of France?", "ideal": "Paris"}\n';
	it.each([
		['match', 'evals.elsuite.basic.match:Match', 'match'],
		['includes', 'evals.elsuite.basic.includes:Includes', 'includes'],
		['fuzzy_match', 'evals.elsuite.basic.fuzzy_match:FuzzyMatch', 'fuzzy_match'],
		['json_match', 'evals.elsuite.basic.json_match:JsonMatch', 'json_match'],
	] as const)(
		'%s: the eval `pasted` of %s over the pasted samples',
		(template, className, kind) => {
			const registry = readRegistry(registryFiles(pastedRegistryEntries(template, SAMPLES)));
			expect(listEvalNames(registry)).toContain('pasted');
			const resolved = resolveEval(registry, 'pasted');
			expect(resolved).toMatchObject({ name: 'pasted.dev.v0', className, kind });
			expect(resolved.samples).toEqual([{ input: 'Capital of France?', ideal: 'Paris' }]);
		},
	);
});

describe('evalCards', () => {
	const registry = readRegistry(
		registryFiles([
			[
				'evals/a.yaml',
				[
					'capitals:',
					'  id: capitals.dev.v0',
					'  description: Capital cities',
					'capitals.dev.v0:',
					'  class: evals.elsuite.basic.match:Match',
					'  args:',
					'    samples_jsonl: capitals.jsonl',
					'broken:',
					'  id: broken.dev.v0',
					'broken.dev.v0:',
					'  class: evals.elsuite.basic.match:Match',
					'  args:',
					'    samples_jsonl: missing.jsonl',
					'',
				].join('\n'),
			],
			['data/capitals.jsonl', '{"input": "a", "ideal": "b"}\n{"input": "c", "ideal": "d"}\n'],
		]),
	);
	it.each<[string[], EvalsCard[]]>([
		[
			['capitals', 'capitals.dev.v0'],
			[{ name: 'capitals', description: 'Capital cities', kind: 'match', sampleCount: 2 }],
		],
		[['broken'], [{ name: 'broken', description: '', kind: null, sampleCount: 0 }]],
		[[], []],
	])('%j', (names, cards) => {
		expect(evalCards(registry, names)).toEqual(cards);
	});
});

describe('evalChoices', () => {
	it('lists each eval once: aliases with their id, ids without an alias on their own', () => {
		const yaml = [
			'greetings:',
			'  id: greetings.dev.v0',
			'greetings.dev.v0:',
			'  class: evals.elsuite.basic.match:Match',
			'  args: {samples_jsonl: greetings/samples.jsonl}',
			'short: greetings.dev.v0',
			'lonely.dev.v0:',
			'  class: evals.elsuite.basic.match:Match',
			'  args: {samples_jsonl: greetings/samples.jsonl}',
		].join('\n');
		const registry = readRegistry(registryFiles([['evals/greetings.yaml', yaml]]));
		const names = listEvalNames(registry);
		expect(evalChoices(registry, names)).toEqual([
			{ name: 'greetings', id: 'greetings.dev.v0' },
			{ name: 'lonely.dev.v0', id: null },
			{ name: 'short', id: 'greetings.dev.v0' },
		]);
		expect(names).toEqual(['greetings', 'greetings.dev.v0', 'lonely.dev.v0', 'short']);
	});
});

describe('adding files to a loaded registry (issue 18: files add up)', () => {
	const capitals =
		'capitals:\n  id: capitals.dev.v0\ncapitals.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: capitals.jsonl\n';
	const rivers =
		'rivers:\n  id: rivers.dev.v0\nrivers.dev.v0:\n  class: evals.elsuite.basic.match:Match\n  args:\n    samples_jsonl: rivers.jsonl\n';
	const loaded = registryFiles([
		['evals/capitals.yaml', capitals],
		['data/capitals.jsonl', '{"input": "France?", "ideal": "Paris"}\n'],
	]);

	it('merges added files with the loaded ones; the same path takes the added text', () => {
		const samples = '{"input": "Peru?", "ideal": "Lima"}\n';
		const files = addRegistryFiles(loaded, [
			['evals/rivers.yaml', rivers],
			['data\\capitals.jsonl', samples],
		]);
		expect([...files.keys()].sort()).toEqual([
			'data/capitals.jsonl',
			'evals/capitals.yaml',
			'evals/rivers.yaml',
		]);
		expect(files.get('data/capitals.jsonl')).toBe(samples);
		expect(loaded.get('data/capitals.jsonl')).toContain('Paris');
		const added = addToRegistry(loaded, [['evals/rivers.yaml', rivers]]);
		expect(added.ok && listEvalNames(added.registry)).toEqual([
			'capitals',
			'capitals.dev.v0',
			'rivers',
			'rivers.dev.v0',
		]);
	});

	it('reports a broken YAML once, located by file and line, and leaves the loaded files', () => {
		// Line 3 nests a mapping in a compact one, a YAML syntax error.
		const broken = 'rivers:\n  id: rivers.dev.v0\n  class: a: b\n';
		const added = addToRegistry(loaded, [['evals/broken.yaml', broken]]);
		expect(added.ok).toBe(false);
		if (added.ok) return;
		expect(added.problem.location).toEqual({ file: 'evals/broken.yaml', line: 3 });
		expect(added.problem.message).toMatch(/^YAML error: /u);
		expect(added.problem.message).not.toContain('evals/broken.yaml');
		expect(added.problem.message).not.toMatch(/line \d/u);
		expect([...loaded.keys()]).toEqual(['evals/capitals.yaml', 'data/capitals.jsonl']);
	});
});

describe('registryProblemOf', () => {
	it.each<[string, EvalsLocation | undefined, string]>([
		[
			'evals/a.yaml:4: YAML error: bad at line 4, column 1:',
			{ file: 'evals/a.yaml', line: 4 },
			'YAML error: bad (column 1)',
		],
		['data/s.jsonl: not valid JSON (x)', { file: 'data/s.jsonl' }, 'not valid JSON (x)'],
		['the eval has no samples', { file: 'evals/a.yaml', line: 2 }, 'the eval has no samples'],
		['evals/a.yaml:3: no class', undefined, 'evals/a.yaml:3: no class'],
	])('%s', (message, location, shown) => {
		expect(registryProblemOf(new EvalsError(message, location)).message).toBe(shown);
	});
});
