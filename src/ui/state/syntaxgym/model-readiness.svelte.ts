/**
 * What the pages that run a model (Run, Battery) share about the picked model: why it cannot be
 * used now (offline and not cached, or it will not fit the device), why Run must wait (the choice
 * is incomplete, or its default convention is still being read), and the warm-up that loads it
 * while the user reads.
 */
import type { ModelCatalog } from '../shared/model-catalog.svelte';
import { pwaStatus } from '../shared/pwa-status.svelte';

/** Quiet time after the last change of input or model before the model is warmed up. */
export const WARM_UP_DELAY_MS = 1500;

export class ModelReadiness {
	readonly #catalog: ModelCatalog;

	/**
	 * Call while a component initialises: `ready` says whether the page has its input (a suite,
	 * picked suites) and no run is active; the model then warms up after a quiet moment.
	 */
	constructor(catalog: ModelCatalog, ready: () => boolean) {
		this.#catalog = catalog;
		// Offline with a hub model chosen: re-read the cache so a downloaded model stays usable.
		$effect(() => {
			if (!pwaStatus.online && catalog.source === 'hub') void catalog.refreshCached();
		});
		// A quick change of model restarts the wait instead of loading twice.
		$effect(() => {
			if (!ready() || catalog.spec === null || this.offlineReason) return;
			const timer = setTimeout(() => void catalog.warmUp(), WARM_UP_DELAY_MS);
			return () => clearTimeout(timer);
		});
	}

	/** Why the chosen hub model cannot be used now (offline and not cached), or null. */
	get offlineReason(): string | null {
		const catalog = this.#catalog;
		return catalog.spec
			? pwaStatus.modelUnavailableReason(
					catalog.spec,
					catalog.cached.map((model) => model.id),
				)
			: null;
	}

	/**
	 * Why Run must wait for the model, or null: offline, an incomplete choice, a model that will
	 * not fit this device, or a default convention not known yet (a run is scored under the
	 * convention shown, never before).
	 */
	get problem(): string | null {
		if (this.offlineReason) return 'Offline: this model is not in the cache.';
		return (
			this.#catalog.specProblem ?? this.#catalog.fitProblemShort ?? this.#catalog.conventionProblem
		);
	}
}
