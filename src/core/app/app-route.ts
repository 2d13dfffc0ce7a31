/**
 * The app's views as URL hashes (`#/results/12/item/3`), both ways. Pure: the UI state class
 * reads and writes `location.hash`; the query string (`?suite=`, `?engine=`) is not touched.
 */

export type AppRoute =
	| { readonly view: 'run' }
	| { readonly view: 'results'; readonly runId: number; readonly itemNumber?: number }
	| { readonly view: 'compare'; readonly suiteSha256?: string }
	| { readonly view: 'history' }
	/** The Evals page (OpenAI Evals registries on generative models). */
	| { readonly view: 'evals' }
	/** Plain-language explanations of the words the app uses. */
	| { readonly view: 'glossary' }
	/** The suite editor: a new suite, or a copy of a library suite (by its SHA-256) to edit. */
	| { readonly view: 'editor'; readonly suiteSha256?: string }
	/** A share link: the whole fragment after `#`, decoded by `src/core/share` (not here). */
	| { readonly view: 'share'; readonly fragment: string };

export const DEFAULT_ROUTE: AppRoute = { view: 'run' };

const POSITIVE_INTEGER = /^[1-9]\d{0,15}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** Reads a hash (with or without `#`); anything unknown is the default route. */
export function parseAppRoute(hash: string): AppRoute {
	const parts = hash.replace(/^#/, '').replace(/^\//, '').split('/');
	const [view, first, second, third] = parts;
	switch (view) {
		case 'results': {
			if (first === undefined || !POSITIVE_INTEGER.test(first)) return DEFAULT_ROUTE;
			const runId = Number(first);
			if (second === 'item' && third !== undefined && /^-?\d{1,15}$/.test(third)) {
				return { view: 'results', runId, itemNumber: Number(third) };
			}
			return { view: 'results', runId };
		}
		case 'compare':
			return first !== undefined && SHA256_HEX.test(first)
				? { view: 'compare', suiteSha256: first }
				: { view: 'compare' };
		case 'history':
			return { view: 'history' };
		case 'evals':
			return { view: 'evals' };
		case 'glossary':
			return { view: 'glossary' };
		case 'editor':
			return first !== undefined && SHA256_HEX.test(first)
				? { view: 'editor', suiteSha256: first }
				: { view: 'editor' };
		case 'share':
			return { view: 'share', fragment: hash.replace(/^#/, '') };
		default:
			return DEFAULT_ROUTE;
	}
}

/** Writes a route as a hash starting with `#/`; parseAppRoute(formatAppRoute(r)) equals r. */
export function formatAppRoute(route: AppRoute): string {
	switch (route.view) {
		case 'run':
			return '#/';
		case 'results':
			return route.itemNumber === undefined
				? `#/results/${route.runId}`
				: `#/results/${route.runId}/item/${route.itemNumber}`;
		case 'compare':
			return route.suiteSha256 === undefined ? '#/compare' : `#/compare/${route.suiteSha256}`;
		case 'history':
			return '#/history';
		case 'evals':
			return '#/evals';
		case 'glossary':
			return '#/glossary';
		case 'editor':
			return route.suiteSha256 === undefined ? '#/editor' : `#/editor/${route.suiteSha256}`;
		case 'share':
			return `#${route.fragment}`;
	}
}
