// The kinds' own pages (src/ui/kind-pages.ts): each is a registered kind's, the menu's names and
// routes come from the registry, and every page's route reaches that page.
import { describe, expect, it } from 'vitest';
import { RUN_KIND_REGISTRY } from '../../src/core/kinds/registered-kinds';
import { parseAppRoute } from '../../src/core/routing/app-route';
import { KIND_PAGES, kindPageLinks, type KindPage } from '../../src/ui/kind-pages';

describe('kind pages', () => {
	it('name their menu entries and routes from the kind registry', () => {
		expect(kindPageLinks()).toEqual([
			{ kind: 'evals', label: 'Evals', hash: '#/evals' },
			{ kind: 'ltm', label: 'Memory', hash: '#/memory' },
			{ kind: 'stimuli', label: 'Stimuli', hash: '#/stimuli' },
		]);
	});

	it('are one per registered kind but the suite (whose page is Run), each reached by its route', () => {
		const kinds = KIND_PAGES.map(({ kind }) => kind);
		expect(new Set(kinds).size).toBe(kinds.length);
		expect(kinds).toEqual(RUN_KIND_REGISTRY.names.filter((name) => name !== 'suite'));
		for (const { kind, hash } of kindPageLinks()) {
			expect(parseAppRoute(hash)).toEqual({ view: 'kind', kind });
		}
		expect(RUN_KIND_REGISTRY.get('suite')?.page.route).toBe('#/');
	});

	it('refuse a page of a kind the registry does not know', () => {
		const stray = { ...KIND_PAGES[0], kind: 'nothing' } as KindPage;
		expect(() => kindPageLinks([stray])).toThrow(/The page of kind "nothing" has no kind/);
	});
});
