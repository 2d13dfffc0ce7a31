// AppRouter: the route follows location.hash both ways.
import { afterEach, describe, expect, it } from 'vitest';
import { AppRouter } from '../../../../src/ui/state/shared/app-route.svelte';

afterEach(() => history.replaceState(null, '', '#/'));

describe('AppRouter', () => {
	it('reads the hash at start and writes it on go()', () => {
		history.replaceState(null, '', '#/results/4/item/2');
		const router = new AppRouter();
		expect(router.route).toEqual({ view: 'results', runId: 4, itemNumber: 2 });
		router.go({ view: 'history' });
		expect(location.hash).toBe('#/history');
		router.go({ view: 'results', runId: 9 }, { replace: true });
		expect(location.hash).toBe('#/results/9');
		expect(router.route).toEqual({ view: 'results', runId: 9 });
		router.dispose();
	});

	it('follows hashchange (back button, typed links)', async () => {
		const router = new AppRouter();
		location.hash = '#/compare';
		await new Promise((resolve) => setTimeout(resolve, 0));
		dispatchEvent(new HashChangeEvent('hashchange'));
		expect(router.route).toEqual({ view: 'compare' });
		router.dispose();
	});
});
