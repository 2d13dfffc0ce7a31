import { describe, expect, it } from 'vitest';
import { formatAppRoute, parseAppRoute, type AppRoute } from '../../../src/core/routing/app-route';

const SHA = 'ab'.repeat(32);

describe('parseAppRoute', () => {
	it.each<[string, AppRoute]>([
		['', { view: 'run' }],
		['#/', { view: 'run' }],
		['#/history', { view: 'history' }],
		['#/glossary', { view: 'glossary' }],
		['#/editor', { view: 'editor' }],
		['#/editor/' + 'ab'.repeat(32), { view: 'editor', suiteSha256: 'ab'.repeat(32) }],
		['#/editor/nothex', { view: 'editor' }],
		['#/share/1/AbC_-9', { view: 'share', fragment: '/share/1/AbC_-9' }],
		['#/results/12', { view: 'results', runId: 12 }],
		['#/results/12/item/3', { view: 'results', runId: 12, itemNumber: 3 }],
		['#/results/0', { view: 'run' }],
		['#/results/abc', { view: 'run' }],
		['#/results/12/item/x', { view: 'results', runId: 12 }],
		['#/compare', { view: 'compare' }],
		[`#/compare/${SHA}`, { view: 'compare', suiteSha256: SHA }],
		['#/compare/not-a-hash', { view: 'compare' }],
		['#/nowhere', { view: 'run' }],
		['#/explore', { view: 'explore' }],
		[
			'#/explore?text=The%20dog%2Fcat%20%26%20me&model=gpt2-random-tiny&unit=words',
			{ view: 'explore', text: 'The dog/cat & me', model: 'gpt2-random-tiny', unit: 'words' },
		],
		['#/explore?text=a+b&unit=letters&x=1&bad=%E0%A4', { view: 'explore', text: 'a b' }],
		['#/explore?unit=words&bow=1', { view: 'explore', unit: 'words', bow: true }],
		['#/explore?bow=yes', { view: 'explore' }],
		['#/explorer', { view: 'run' }],
		['#/evals', { view: 'kind', kind: 'evals' }],
		['#/evals/share/AbC_-9', { view: 'kind', kind: 'evals', share: 'AbC_-9' }],
		['#/evals/share/2/AbC_-9', { view: 'kind', kind: 'evals', share: '2/AbC_-9' }],
		['#/evals/share/', { view: 'kind', kind: 'evals' }],
		['#/evals/share', { view: 'kind', kind: 'evals' }],
		['#/evals/other/AbC', { view: 'kind', kind: 'evals' }],
		['#/evals/run/12', { view: 'kind', kind: 'evals', runId: 12 }],
		['#/memory/run/7', { view: 'kind', kind: 'ltm', runId: 7 }],
		['#/evals/run/0', { view: 'kind', kind: 'evals' }],
		['#/memory/run/x', { view: 'kind', kind: 'ltm' }],
		['#/memory', { view: 'kind', kind: 'ltm' }],
		['memory', { view: 'kind', kind: 'ltm' }],
		['#/memory/share/AbC_-9', { view: 'kind', kind: 'ltm', share: 'AbC_-9' }],
		['#/memory/share/2/AbC_-9', { view: 'kind', kind: 'ltm', share: '2/AbC_-9' }],
		['#/memory/share/', { view: 'kind', kind: 'ltm' }],
		['#/memory/share', { view: 'kind', kind: 'ltm' }],
		['#/memory/other/AbC', { view: 'kind', kind: 'ltm' }],
		['#/stimuli', { view: 'kind', kind: 'stimuli' }],
		['#/stimuli/run/3', { view: 'kind', kind: 'stimuli', runId: 3 }],
		['#/stimuli/run/0', { view: 'kind', kind: 'stimuli' }],
		['#/stimuli/run/../x', { view: 'kind', kind: 'stimuli' }],
		['#/memorys', { view: 'run' }],
	])('%j -> %j', (hash, expected) => {
		expect(parseAppRoute(hash)).toEqual(expected);
	});
});

describe('formatAppRoute', () => {
	it.each<AppRoute>([
		{ view: 'run' },
		{ view: 'history' },
		{ view: 'glossary' },
		{ view: 'explore' },
		{
			view: 'explore',
			text: 'He said "no" & left?\n100%',
			model: 'gpt2-en-small',
			compare: 'gpt2-random-tiny',
			unit: 'tokens',
		},
		{ view: 'explore', text: 'Dogs bark.', unit: 'words', bow: true },
		{ view: 'editor' },
		{ view: 'editor', suiteSha256: 'cd'.repeat(32) },
		{ view: 'share', fragment: '/share/1/xyz' },
		{ view: 'results', runId: 7 },
		{ view: 'results', runId: 7, itemNumber: 12 },
		{ view: 'compare' },
		{ view: 'compare', suiteSha256: SHA },
		{ view: 'kind', kind: 'evals' },
		{ view: 'kind', kind: 'evals', share: 'AbC_-9' },
		{ view: 'kind', kind: 'ltm' },
		{ view: 'kind', kind: 'ltm', share: 'AbC_-9' },
	])('round-trips %j', (route) => {
		expect(parseAppRoute(formatAppRoute(route))).toEqual(route);
	});
});

describe('formatAppRoute for the Evals page', () => {
	it.each<[AppRoute, string]>([
		[{ view: 'kind', kind: 'evals' }, '#/evals'],
		[{ view: 'kind', kind: 'evals', share: 'AbC_-9' }, '#/evals/share/AbC_-9'],
	])('%j -> %s', (route, hash) => {
		expect(formatAppRoute(route)).toBe(hash);
	});
});

describe('formatAppRoute for the Memory page', () => {
	it.each<[AppRoute, string]>([
		[{ view: 'kind', kind: 'ltm' }, '#/memory'],
		[{ view: 'kind', kind: 'ltm', share: 'AbC_-9' }, '#/memory/share/AbC_-9'],
		[{ view: 'kind', kind: 'stimuli' }, '#/stimuli'],
		[{ view: 'kind', kind: 'stimuli', runId: 3 }, '#/stimuli/run/3'],
	])('%j -> %s', (route, hash) => {
		expect(formatAppRoute(route)).toBe(hash);
	});
});

describe('the battery and matrix routes', () => {
	const id = '0b7e4c9a-1f2d-4c3b-9a8e-7d6c5b4a3f21';
	it.each<[AppRoute, string]>([
		[{ view: 'battery' }, '#/battery'],
		[{ view: 'matrix' }, '#/matrix'],
		[{ view: 'matrix', batteryId: id }, `#/matrix/${id}`],
		[{ view: 'matrix', runIds: [3, 4, 9] }, '#/matrix?runs=3,4,9'],
	])('%j <-> %s', (route, hash) => {
		expect(formatAppRoute(route)).toBe(hash);
		expect(parseAppRoute(hash)).toEqual(route);
	});

	it.each([
		['#/matrix/not-an-id', { view: 'matrix' }],
		['#/matrix/../../evals', { view: 'matrix' }],
		['#/matrix?runs=', { view: 'matrix' }],
		['#/matrix?runs=0,x', { view: 'matrix' }],
		['#/matrix?runs=2,2,5', { view: 'matrix', runIds: [2, 5] }],
		['#/matrix?other=1', { view: 'matrix' }],
	])('a hostile or malformed hash %s is read safely', (hash, route) => {
		expect(parseAppRoute(hash)).toEqual(route);
	});

	it('caps the runs a matrix link names', () => {
		const hash = `#/matrix?runs=${Array.from({ length: 900 }, (_, i) => i + 1).join(',')}`;
		const route = parseAppRoute(hash);
		expect(route.view === 'matrix' && route.runIds?.length).toBe(500);
	});
});
