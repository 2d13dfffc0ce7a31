/**
 * Script of harness/engine.html, a page for Playwright parity checks and the bench (not linked
 * from the app): exposes `window.benchtopEngine`, which drives the real inference worker.
 */
import type { ModelSpec, SurprisalConvention } from '../core/model/model-spec';
import { createInferenceClient } from './inference-client';
import type { ModelInfo, ScoreTextsResult } from './protocol';

export interface EngineHarness {
	/** Loads `spec` in the worker (real engine); resolves with the worker's ModelInfo. */
	load(spec: ModelSpec): Promise<ModelInfo>;
	/** Scores `texts` with the loaded model; `wallMs` is measured on the page. */
	score(
		modelKey: string,
		texts: readonly string[],
		convention: SurprisalConvention,
		maxBatchSize?: number,
	): Promise<ScoreTextsResult & { readonly wallMs: number }>;
	readonly crossOriginIsolated: boolean;
	readonly hardwareConcurrency: number;
	readonly logs: string[];
}

declare global {
	interface Window {
		benchtopEngine?: EngineHarness;
	}
}

const logs: string[] = [];
const client = createInferenceClient({ kind: 'real' });

window.benchtopEngine = {
	load: (spec) => client.call('loadModel', { spec }),
	async score(modelKey, texts, convention, maxBatchSize) {
		const started = performance.now();
		const result = await client.call('scoreTexts', {
			modelKey,
			texts,
			convention,
			...(maxBatchSize !== undefined ? { maxBatchSize } : {}),
		});
		return { ...result, wallMs: performance.now() - started };
	},
	crossOriginIsolated: self.crossOriginIsolated,
	hardwareConcurrency: navigator.hardwareConcurrency,
	logs,
};

const status = document.getElementById('status');
if (status) status.textContent = 'ready';
