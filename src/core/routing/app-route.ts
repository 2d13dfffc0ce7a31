/**
 * The app's views as URL hashes (`#/results/12/item/3`), both ways. Pure: the UI state class
 * reads and writes `location.hash`; the query string (`?suite=`, `?engine=`) is not touched.
 */
import { SHA256_HEX } from '../hash/sha256';
import { RUN_KIND_REGISTRY } from '../kinds/registered-kinds';

export type AppRoute =
	| { readonly view: 'run' }
	| { readonly view: 'results'; readonly runId: number; readonly itemNumber?: number }
	| { readonly view: 'compare'; readonly suiteSha256?: string }
	| { readonly view: 'history' }
	/** The battery page: pick several suites, run them as one battery with one model. */
	| { readonly view: 'battery' }
	/**
	 * The model × suite matrix: of a battery (`#/matrix/<batteryId>`: every battery run of the same
	 * suite set is a column), of runs picked from History (`#/matrix?runs=3,4,9`), or of the newest
	 * battery (`#/matrix`).
	 */
	| { readonly view: 'matrix'; readonly batteryId?: string; readonly runIds?: readonly number[] }
	/**
	 * A registered kind's own page (`#/evals`, `#/memory`, `#/stimuli`: its `page.route`), by the
	 * kind's name; `share`: a shared run's payload (`#/evals/share/2/…`); `runId`: a stored run to
	 * show (`#/evals/run/<id>`, where the Library opens it). The suite's page is `run`.
	 */
	| {
			readonly view: 'kind';
			readonly kind: string;
			readonly share?: string;
			readonly runId?: number;
	  }
	/** Plain-language explanations of the words the app uses. */
	| { readonly view: 'glossary' }
	/** The suite editor: a new suite, or a copy of a library suite (by its SHA-256) to edit. */
	| { readonly view: 'editor'; readonly suiteSha256?: string }
	/**
	 * The explorer: any text scored by a model (and a second one to compare), as
	 * `#/explore?text=…&model=…&compare=…&unit=words&bow=1`; every field optional (`bow=1`: words
	 * with the beginning-of-word correction).
	 */
	| {
			readonly view: 'explore';
			readonly text?: string;
			readonly model?: string;
			readonly compare?: string;
			readonly unit?: 'tokens' | 'words';
			readonly bow?: boolean;
	  }
	/** A share link: the whole fragment after `#`, decoded by `src/core/share` (not here). */
	| { readonly view: 'share'; readonly fragment: string };

export const DEFAULT_ROUTE: AppRoute = { view: 'run' };

/**
 * The kind whose own page has the path `path` (`ltm` for `memory`, as `#/memory`), read from the
 * registry when asked (a kind registered later has its page too); the suite's page is `#/`.
 */
function kindOfPage(path: string): string | undefined {
	return RUN_KIND_REGISTRY.kinds.find(
		({ page }) => page.route !== '#/' && page.route === `#/${path}`,
	)?.kind;
}

/** The hash of `kind`'s page (`#/memory`). @throws Error for a kind without a page of its own. */
export function kindPageRoute(kind: string): string {
	const route = RUN_KIND_REGISTRY.get(kind)?.page.route;
	if (route === undefined || route === '#/') throw new Error(`Kind "${kind}" has no page.`);
	return route;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,15}$/;

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
		case 'battery':
			return { view: 'battery' };
		case 'glossary':
			return { view: 'glossary' };
		case 'editor':
			return first !== undefined && SHA256_HEX.test(first)
				? { view: 'editor', suiteSha256: first }
				: { view: 'editor' };
		case 'share':
			return { view: 'share', fragment: hash.replace(/^#/, '') };
		default: {
			const kind = view === undefined ? undefined : kindOfPage(view);
			if (kind !== undefined) {
				if (first === 'run' && second !== undefined && POSITIVE_INTEGER.test(second)) {
					return { view: 'kind', kind, runId: Number(second) };
				}
				// A share link's data: `2/<data>` (format 2), or the bare data of a 0.1.0 link.
				const share = first === 'share' ? parts.slice(2).join('/') : '';
				return share === '' ? { view: 'kind', kind } : { view: 'kind', kind, share };
			}
			if (view?.startsWith('matrix') && /^matrix(\?|$)/.test(view)) {
				return parseMatrixRoute(view.slice('matrix'.length), first);
			}
			if (view?.startsWith('explore') && /^explore(\?|$)/.test(view)) {
				return parseExploreRoute(hash.slice(hash.indexOf('explore') + 'explore'.length));
			}
			return DEFAULT_ROUTE;
		}
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
		case 'battery':
			return '#/battery';
		case 'matrix':
			if (route.batteryId !== undefined) return `#/matrix/${route.batteryId}`;
			return route.runIds === undefined || route.runIds.length === 0
				? '#/matrix'
				: `#/matrix?runs=${route.runIds.join(',')}`;
		case 'kind': {
			const page = kindPageRoute(route.kind);
			if (route.share !== undefined) return `${page}/share/${route.share}`;
			return route.runId === undefined ? page : `${page}/run/${route.runId}`;
		}
		case 'glossary':
			return '#/glossary';
		case 'editor':
			return route.suiteSha256 === undefined ? '#/editor' : `#/editor/${route.suiteSha256}`;
		case 'share':
			return `#${route.fragment}`;
		case 'explore': {
			const fields: string[] = [];
			for (const key of ['text', 'model', 'compare', 'unit'] as const) {
				const value = route[key];
				if (value !== undefined) fields.push(`${key}=${encodeURIComponent(value)}`);
			}
			if (route.bow) fields.push('bow=1');
			return fields.length === 0 ? '#/explore' : `#/explore?${fields.join('&')}`;
		}
	}
}

const BATTERY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Most runs a matrix link names. */
export const MAX_MATRIX_RUNS = 500;

/** `#/matrix/<batteryId>` or `#/matrix?runs=1,2`: a malformed id or list is the newest battery. */
function parseMatrixRoute(query: string, batteryId: string | undefined): AppRoute {
	if (batteryId !== undefined && BATTERY_ID.test(batteryId)) return { view: 'matrix', batteryId };
	const runs = /^\?runs=([0-9,]{1,8000})$/.exec(query)?.[1];
	if (runs === undefined) return { view: 'matrix' };
	const runIds = [
		...new Set(
			runs
				.split(',')
				.filter((id) => POSITIVE_INTEGER.test(id))
				.map(Number),
		),
	].slice(0, MAX_MATRIX_RUNS);
	return runIds.length === 0 ? { view: 'matrix' } : { view: 'matrix', runIds };
}

/** Longest explorer text carried in a link (characters); longer texts are cut. */
export const MAX_EXPLORE_TEXT_CHARS = 2000;

/** `?text=…&model=…` after `#/explore`: unknown keys and undecodable values are ignored. */
function parseExploreRoute(query: string): AppRoute {
	const fields: Record<string, string> = {};
	for (const pair of query.replace(/^\?/, '').split('&')) {
		const equals = pair.indexOf('=');
		if (equals <= 0) continue;
		try {
			fields[pair.slice(0, equals)] = decodeURIComponent(
				pair.slice(equals + 1).replace(/\+/g, ' '),
			);
		} catch {
			// A malformed escape: leave the field out.
		}
	}
	const unit = fields['unit'];
	return {
		view: 'explore',
		...(fields['text'] ? { text: fields['text'].slice(0, MAX_EXPLORE_TEXT_CHARS) } : {}),
		...(fields['model'] ? { model: fields['model'] } : {}),
		...(fields['compare'] ? { compare: fields['compare'] } : {}),
		...(unit === 'tokens' || unit === 'words' ? { unit } : {}),
		...(fields['bow'] === '1' ? { bow: true } : {}),
	};
}
