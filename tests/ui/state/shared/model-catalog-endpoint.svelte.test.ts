// ModelCatalog's endpoint choice and TextModel: the run spec of an endpoint (no key), the
// endpoint's problems as the catalog's, and the local choice as a generating TextModel.
import { describe, expect, it } from 'vitest';
import { generateCompletion } from '../../../../src/core/model/generation';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import { ModelCatalog } from '../../../../src/ui/state/shared/model-catalog.svelte';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

function catalog(): ModelCatalog {
	const endpoint = new EndpointSettings({
		listModels: async () => [],
		probeScoring: async () => false,
		storage: null,
	});
	return new ModelCatalog(createInThreadClient(new FakeEngine()), endpoint);
}

describe('ModelCatalog with an endpoint', () => {
	it('gives the endpoint spec for runs, and the endpoint problem while incomplete', () => {
		const models = catalog();
		models.source = 'openai';
		expect(models.spec).toBeNull();
		expect(models.runSpec).toBeNull();
		expect(models.specProblem).toMatch(/Type the model id/);
		models.endpoint.modelId = 'gpt2-random-tiny';
		models.endpoint.apiKey = 'sk-never-recorded';
		// A complete endpoint choice runs suites (scored through the endpoint).
		expect(models.specProblem).toBeNull();
		expect(models.runSpec).toEqual({
			source: 'openai',
			model: 'gpt2-random-tiny',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect(models.textModel).not.toBeNull();
		models.source = 'bundled';
		expect(models.runSpec).toEqual(models.spec);
	});

	it('blocks a run when Test connection found that the endpoint cannot score text', async () => {
		const endpoint = new EndpointSettings({
			listModels: async () => ['chat-only'],
			probeScoring: async () => false,
			storage: null,
		});
		const models = new ModelCatalog(createInThreadClient(new FakeEngine()), endpoint);
		models.source = 'openai';
		await endpoint.testConnection();
		expect(endpoint.modelId).toBe('chat-only');
		expect(models.specProblem).toMatch(/^This endpoint cannot score text/);
		// Try it still works: the choice is complete, only suite runs need prompt logprobs.
		expect(models.runSpec).not.toBeNull();
		expect(models.textModel).not.toBeNull();
	});

	it('gives the local choice as a TextModel that loads through the catalog', async () => {
		const models = catalog();
		models.bundledId = 'gpt2-random-tiny';
		const open = models.textModel;
		expect(open).not.toBeNull();
		const model = await open!();
		expect(models.loaded?.spec.id).toBe('gpt2-random-tiny');
		const done = await generateCompletion(
			model,
			{ prompt: { kind: 'text', text: 'Hi' }, params: { temperature: 0 } },
			{ runId: 'r', sampleId: 's', role: 'try' },
		);
		expect(done.usage?.completionTokens).toBe(FAKE_GREEDY_TOKENS);
	});
});
