// The Library's row of a stored run of each kind (kind, title, models with their facts, counts,
// resume, where it opens), its status words, and its filter and search.
import { describe, expect, it } from 'vitest';
import {
	NO_LIBRARY_FILTER,
	libraryBundleFileName,
	libraryEntryOf,
	libraryModelNames,
	libraryModelOf,
	libraryStatusOf,
	matchesLibraryFilter,
	type LibraryEntry,
	type LibraryRun,
} from '../../../src/core/library/library-entry';
import type { TextModelSpec } from '../../../src/core/model/model-spec';
import { RUN_KIND_REGISTRY } from '../../../src/core/kinds/registered-kinds';
import { formatAppRoute, parseAppRoute } from '../../../src/core/routing/app-route';

const BUNDLED: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'wasm',
};
const HUB: TextModelSpec = {
	source: 'hub',
	id: 'Xenova/distilgpt2',
	revision: 'abc123',
	dtype: 'q8',
	backend: 'webgpu',
};
const ENDPOINT: TextModelSpec = {
	source: 'openai',
	model: 'llama',
	baseUrl: 'http://127.0.0.1:8000/v1',
};
const REPLAY: TextModelSpec = { source: 'replay', file: 'a.replay.jsonl', sha256: 'b'.repeat(64) };

const TIMES = { createdAt: 1_700_000_000_000, updatedAt: 1_700_000_100_000 };

const SUITE_RUN: LibraryRun & Record<string, unknown> = {
	id: 3,
	kind: 'suite',
	title: 'Subject-verb agreement',
	suiteName: 'Subject-verb agreement',
	suiteSha256: 'a'.repeat(64),
	model: BUNDLED,
	convention: 'bos',
	wordBoundaries: true,
	itemCount: 4,
	itemsDone: 1,
	status: 'running',
	appVersion: '0.2.0',
	scoringMs: 10,
	tokenCount: 40,
	battery: { id: '0b5e2a64-3f1c-4d2e-9a7b-1c2d3e4f5a6b', index: 1, size: 5 },
	...TIMES,
};

const EVALS_RUN: LibraryRun & Record<string, unknown> = {
	id: 7,
	kind: 'evals',
	title: 'arithmetic.dev.v0',
	evalName: 'arithmetic.dev.v0',
	models: { policy: [REPLAY], grader: ENDPOINT },
	overrides: { policy: {}, grader: {} },
	seed: 20220722,
	runId: '2401010000001234abcd',
	status: 'done',
	progress: { done: 5, total: 5, tokens: 100, elapsedMs: 1000 },
	report: { accuracy: 0.8 },
	...TIMES,
};

const LTM_RUN = {
	id: 9,
	kind: 'ltm',
	title: 'colours',
	runName: 'colours',
	models: { agent: HUB },
	status: 'cancelled',
	progress: { testsDone: 2, testsTotal: 6, tokens: 300, elapsedMs: 2000 },
	...TIMES,
} as unknown as LibraryRun;

describe('libraryEntryOf', () => {
	it("a suite run's links open the app's compare and matrix pages", () => {
		const { links } = libraryEntryOf(SUITE_RUN);
		expect(links.map(({ route }) => parseAppRoute(route))).toEqual([
			{ view: 'compare', suiteSha256: 'a'.repeat(64) },
			{ view: 'matrix', batteryId: '0b5e2a64-3f1c-4d2e-9a7b-1c2d3e4f5a6b' },
		]);
		expect(links.map(({ route }) => formatAppRoute(parseAppRoute(route)))).toEqual(
			links.map(({ route }) => route),
		);
	});

	it("the suite kind's pick of several runs opens the matrix of those runs", () => {
		const pick = RUN_KIND_REGISTRY.get('suite')?.libraryPick;
		for (const runIds of [[4, 9, 3], [7], []]) {
			const route = pick?.route(runIds) ?? '';
			expect(parseAppRoute(route)).toEqual(
				runIds.length === 0 ? { view: 'matrix' } : { view: 'matrix', runIds },
			);
			expect(formatAppRoute(parseAppRoute(route))).toBe(route);
		}
		// Kinds without a page about several runs are picked only to export.
		expect(RUN_KIND_REGISTRY.get('evals')?.libraryPick).toBeUndefined();
	});

	it('a suite run of a battery: model facts, convention, items, resumable, results page', () => {
		const before = structuredClone(SUITE_RUN);
		const entry = libraryEntryOf(SUITE_RUN);
		expect(entry).toEqual({
			id: 3,
			kind: 'suite',
			kindLabel: 'Suite',
			title: 'Subject-verb agreement',
			detail: 'suite 2 of 5 of a battery',
			fingerprint: 'a'.repeat(64),
			modelDetail: 'bos · word boundaries',
			links: [
				{
					label: 'Compare',
					ariaLabel: 'Compare models on the suite of run 3',
					route: `#/compare/${'a'.repeat(64)}`,
				},
				{
					label: 'Matrix',
					ariaLabel: 'Matrix of the battery of run 3',
					route: '#/matrix/0b5e2a64-3f1c-4d2e-9a7b-1c2d3e4f5a6b',
				},
			],
			models: [
				{
					role: 'model',
					name: 'gpt2-random-tiny',
					provider: 'bundled',
					facts: ['bundled', 'fp32', 'wasm'],
					label: 'gpt2-random-tiny (bundled, fp32)',
					place: 'wasm',
				},
			],
			status: 'running',
			done: 1,
			total: 4,
			noun: 'items',
			countsText: '1 of 4 items',
			resumable: true,
			createdAt: TIMES.createdAt,
			open: { runId: 3, route: '#/results/3' },
			pageRoute: '#/',
		});
		expect(SUITE_RUN).toEqual(before);
	});

	it('an Evals run: policy and grader in order, samples, finished so not resumable', () => {
		const entry = libraryEntryOf(EVALS_RUN);
		expect(entry.kindLabel).toBe('Evals');
		expect(entry.models.map((model) => [model.role, model.name, model.facts])).toEqual([
			['policy', 'replay:a.replay.jsonl', ['replay', `sha256 ${'b'.repeat(12)}…`]],
			['grader', 'openai/llama', ['endpoint', 'http://127.0.0.1:8000/v1']],
		]);
		expect(entry.models.map((model) => model.label)).toEqual([
			'replay:a.replay.jsonl (replay)',
			'openai/llama (endpoint http://127.0.0.1:8000/v1)',
		]);
		expect(entry.countsText).toBe('5 of 5 samples');
		expect(entry.resumable).toBe(false);
		expect(entry.modelDetail).toBeUndefined();
		expect(entry.links).toEqual([]);
		expect(entry.open).toEqual({ runId: 7, route: '#/evals/run/7' });
		expect(entry.pageRoute).toBe('#/evals');
	});

	it('a Memory run: the agent with revision, tests, a cancelled run resumes', () => {
		const entry = libraryEntryOf(LTM_RUN);
		expect(entry.kindLabel).toBe('Memory');
		expect(entry.models).toEqual([
			{
				role: 'agent',
				name: 'Xenova/distilgpt2@abc123',
				provider: 'hub',
				facts: ['hub', 'q8', 'webgpu'],
				label: 'Xenova/distilgpt2@abc123 (hub, q8)',
				place: 'webgpu',
			},
		]);
		expect([entry.done, entry.total, entry.countsText]).toEqual([2, 6, '2 of 6 tests']);
		expect(entry.resumable).toBe(true);
		expect(entry.open).toEqual({ runId: 9, route: '#/memory/run/9' });
		expect(entry.pageRoute).toBe('#/memory');
	});

	it("a hub model on 'main' is named without its revision", () => {
		expect(libraryModelOf('model', { ...HUB, revision: 'main' }).name).toBe('Xenova/distilgpt2');
	});
});

describe('libraryStatusOf', () => {
	it.each([
		['running', true, 'running'],
		['running', false, 'interrupted'],
		['done', false, 'done'],
		['cancelled', true, 'cancelled'],
		['failed', false, 'failed'],
	] as const)('%s, worked on %s → %s', (status, workedOn, word) => {
		expect(libraryStatusOf(status, workedOn)).toBe(word);
	});
});

describe('matchesLibraryFilter', () => {
	const entries = [SUITE_RUN, EVALS_RUN, LTM_RUN].map(libraryEntryOf);
	const nobodyWorks = (entry: LibraryEntry) => libraryStatusOf(entry.status, false);
	const ids = (filter: Partial<typeof NO_LIBRARY_FILTER>) =>
		entries
			.filter((entry) =>
				matchesLibraryFilter(entry, { ...NO_LIBRARY_FILTER, ...filter }, nobodyWorks),
			)
			.map((entry) => entry.id);

	it.each<[string, Partial<typeof NO_LIBRARY_FILTER>, number[]]>([
		['no filter', {}, [3, 7, 9]],
		['kind evals', { kind: 'evals' }, [7]],
		['kind ltm', { kind: 'ltm' }, [9]],
		['a grader model', { model: 'openai/llama' }, [7]],
		['a model no run used', { model: 'gpt2-en-small' }, []],
		['status interrupted (a running record nobody works on)', { status: 'interrupted' }, [3]],
		['status running', { status: 'running' }, []],
		['search by title, any case', { search: 'AGREEMENT' }, [3]],
		['search by two words, both needed', { search: 'subject colours' }, []],
		['search by kind label', { search: 'memory' }, [9]],
		['search by run id', { search: 'run 7' }, [7]],
		['search by base URL', { search: '127.0.0.1:8000' }, [7]],
		['search by battery', { search: 'battery' }, [3]],
		['kind and search together', { kind: 'suite', search: 'arithmetic' }, []],
	])('%s', (_name, filter, expected) => {
		expect(ids(filter)).toEqual(expected);
	});

	it('a run a session works on reads running', () => {
		const working = (entry: LibraryEntry) => libraryStatusOf(entry.status, entry.id === 3);
		expect(
			entries
				.filter((entry) =>
					matchesLibraryFilter(entry, { ...NO_LIBRARY_FILTER, status: 'running' }, working),
				)
				.map((entry) => entry.id),
		).toEqual([3]);
	});
});

describe('libraryModelNames', () => {
	it('every model once, sorted', () => {
		const entries = [SUITE_RUN, EVALS_RUN, LTM_RUN, SUITE_RUN].map(libraryEntryOf);
		expect(libraryModelNames(entries)).toEqual([
			'gpt2-random-tiny',
			'openai/llama',
			'replay:a.replay.jsonl',
			'Xenova/distilgpt2@abc123',
		]);
	});
});

describe('libraryBundleFileName', () => {
	it.each([
		[
			{ id: 3, kind: 'suite', title: 'Subject-verb agreement' },
			'run3-suite-Subject-verb-agreement',
		],
		[{ id: 7, kind: 'evals', title: 'arithmetic.dev.v0' }, 'run7-evals-arithmetic.dev.v0'],
		[{ id: 8, kind: 'ltm', title: '../../etc/passwd' }, 'run8-ltm-etc-passwd'],
		[{ id: 9, kind: 'ltm', title: '…' }, 'run9-ltm-run'],
	] as const)('%j', (entry, stem) => {
		expect(libraryBundleFileName(entry)).toBe(`${stem}.benchtop-run.json`);
	});
});
