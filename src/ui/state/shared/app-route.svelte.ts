/**
 * Which view is shown, kept in `location.hash` so reload and the back button work. Wraps the
 * pure parse/format of core/routing/app-route.ts; listens to `hashchange`.
 */
import {
	DEFAULT_ROUTE,
	formatAppRoute,
	parseAppRoute,
	type AppRoute,
} from '../../../core/routing/app-route';

export class AppRouter {
	#route = $state.raw<AppRoute>(DEFAULT_ROUTE);
	#onHashChange = (): void => {
		this.#route = parseAppRoute(location.hash);
	};

	constructor() {
		if (typeof location !== 'undefined') {
			this.#route = parseAppRoute(location.hash);
			addEventListener('hashchange', this.#onHashChange);
		}
	}

	get route(): AppRoute {
		return this.#route;
	}

	/** Shows `route` and records it in the history (or replaces the entry). */
	go(route: AppRoute, options: { replace?: boolean } = {}): void {
		this.#route = route;
		if (typeof location === 'undefined') return;
		const hash = formatAppRoute(route);
		if (location.hash === hash) return;
		if (options.replace) history.replaceState(history.state, '', hash);
		else history.pushState(history.state, '', hash);
	}

	dispose(): void {
		if (typeof location !== 'undefined') removeEventListener('hashchange', this.#onHashChange);
	}
}
