/**
 * The inference client of the editor's tokenization preview and of share-link reproduction: one
 * worker, created on first use, with its own ModelCatalog over the app's one EndpointSettings (it
 * never makes settings of its own). The app shell keeps its client private, and its SuiteRunSession
 * navigates to the results on start, so these views use their own.
 */
import { createInferenceClient } from '../../../worker/inference-client';
import type { InferenceClientApi } from '../../../worker/protocol';
import type { EndpointSettings } from './endpoint-settings.svelte';
import { ModelCatalog } from './model-catalog.svelte';

let shared: { client: InferenceClientApi; catalog: ModelCatalog } | null = null;

/** The side client and its model catalog (created on first call, over `endpoint`). */
export function getSideInference(endpoint: EndpointSettings): {
	client: InferenceClientApi;
	catalog: ModelCatalog;
} {
	if (shared === null) {
		const client = createInferenceClient();
		shared = { client, catalog: new ModelCatalog(client, endpoint) };
	}
	return shared;
}
