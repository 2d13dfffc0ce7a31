// A text-model choice (Evals, Memory) with a share link's endpoint: a proposal that blocks the
// run until the user runs it once or saves it, and never changes the saved endpoint.
import { describe, expect, it } from 'vitest';
import type { EndpointModelSpec } from '../../../../src/core/model/model-spec';
import { EndpointModel } from '../../../../src/providers/endpoint-model';
import { EndpointSettings } from '../../../../src/ui/state/shared/endpoint-settings.svelte';
import {
	TextModelChoice,
	modelFromSpec,
	specOfChoice,
} from '../../../../src/ui/state/shared/text-models.svelte';
import { FakeEngine } from '../../../../src/worker/fake-engine';
import { createInThreadClient } from '../../../../src/worker/inference-client';

const LINKED: EndpointModelSpec = {
	source: 'openai',
	model: 'their-model',
	baseUrl: 'https://their.example/v1',
};

function mySettings(): EndpointSettings {
	const settings = new EndpointSettings({ storage: null, pageProtocol: 'http:' });
	settings.baseUrl = 'http://127.0.0.1:8000/v1';
	settings.modelId = 'my-model';
	return settings;
}

describe('TextModelChoice with a link endpoint', () => {
	it('is a proposal: the run waits, the settings stay, "run once" uses the link endpoint', () => {
		const settings = mySettings();
		const choice = new TextModelChoice();
		choice.proposeEndpoint(LINKED, settings);
		expect(choice.kind).toBe('endpoint');
		expect(choice.problem(settings)).toMatch(/their-model at https:\/\/their\.example\/v1/);
		expect(settings.spec?.baseUrl).toBe('http://127.0.0.1:8000/v1');
		const context = {
			client: createInThreadClient(new FakeEngine()),
			endpoint: settings,
			replayTexts: {},
		};
		expect(() => modelFromSpec(LINKED, context)).toThrow(
			/never mixes answers of two servers\. Set Endpoint to https:\/\/their\.example\/v1/,
		);

		choice.proposal?.useOnce();
		expect(choice.problem(settings)).toBeNull();
		expect(specOfChoice(choice, settings).spec).toEqual(LINKED);
		const model = modelFromSpec(LINKED, context);
		expect(model).toBeInstanceOf(EndpointModel);
		expect((model as EndpointModel).spec).toEqual(LINKED);
		expect(settings.spec).toEqual({
			source: 'openai',
			model: 'my-model',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
	});

	it('without a proposal uses the endpoint as set', () => {
		const settings = mySettings();
		const choice = new TextModelChoice();
		choice.kind = 'endpoint';
		expect(choice.problem(settings)).toBeNull();
		expect(specOfChoice(choice, settings).spec).toEqual(settings.spec);
	});
});
