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
