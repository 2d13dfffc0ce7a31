/**
 * The Library's bundle stores, one line per family whose runs keep tables of their own (as
 * `ui/kind-pages.ts` lists the kinds' pages): how a run of that kind is exported as its sealed
 * bundle and a bundle of it imported. A kind with no line here (Stimuli, a kind registered only in
 * a test) is exported and imported by the generic run store, through its kind's `toStored` /
 * `fromStored`. Adding a family that keeps its own tables is its store file in this folder plus
 * one line here; the Library's code (library-bundles.ts, the RunHistory state) names no kind.
 */
import { RUN_KIND_REGISTRY } from '../../core/kinds/registered-kinds';
import { EVALS_BUNDLE_STORE } from './evals-bundle-store';
import { runStoreBundles, type KindBundleStore } from './kind-bundle-store';
import { LTM_BUNDLE_STORE } from './ltm-bundle-store';
import { SUITE_BUNDLE_STORE } from './suite-bundle-store';

/** A bundle of a registered kind, read: its kind and bundle. */
type RegisteredBundle = Extract<ReturnType<typeof RUN_KIND_REGISTRY.readBundle>, { ok: true }>;

/** The stores by kind, each typed to take its kind's bundle. */
type StoresByKind = {
	readonly [Name in RegisteredBundle['kind']]?: KindBundleStore<
		Extract<RegisteredBundle, { kind: Name }>['bundle']
	>;
};

const KIND_BUNDLE_STORES: StoresByKind = {
	suite: SUITE_BUNDLE_STORE,
	evals: EVALS_BUNDLE_STORE,
	ltm: LTM_BUNDLE_STORE,
};

/** The table with each store's bundle type forgotten (the registry's reader pairs kind and bundle). */
const STORES = new Map(
	Object.entries(KIND_BUNDLE_STORES).map(
		([kind, store]) => [kind, store as unknown as KindBundleStore] as const,
	),
);

/** The store of runs of `kind`: its family's own, else the generic run store's. */
export function bundleStoreOf(kind: string): KindBundleStore {
	return STORES.get(kind) ?? runStoreBundles(kind);
}
