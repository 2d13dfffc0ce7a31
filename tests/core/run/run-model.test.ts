import { describe, expect, it } from 'vitest';
import {
	describeRunModel,
	isEndpointRun,
	listRunModelFacts,
	runModelName,
	runModelPlace,
} from '../../../src/core/run/run-model';
import type { RunModelSpec } from '../../../src/core/run/run-types';

const bundled: RunModelSpec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'q8',
	backend: 'wasm',
};
const hub: RunModelSpec = {
	source: 'hub',
	id: 'Xenova/distilgpt2',
	revision: 'v2',
	dtype: 'fp32',
	backend: 'webgpu',
};
const endpoint: RunModelSpec = {
	source: 'openai',
	model: 'meta-llama/Llama-3-70B',
	baseUrl: 'https://gpu.example.org/v1',
};

describe('run model names', () => {
	it.each([
		{
			spec: bundled,
			endpoint: false,
			name: 'gpt2-en-small',
			described: 'gpt2-en-small (bundled, q8)',
			place: 'wasm',
			facts: ['gpt2-en-small', 'q8', 'wasm'],
		},
		{
			spec: hub,
			endpoint: false,
			name: 'Xenova/distilgpt2',
			described: 'Xenova/distilgpt2@v2 (hub, fp32)',
			place: 'webgpu',
			facts: ['Xenova/distilgpt2@v2', 'fp32', 'webgpu'],
		},
		{
			spec: endpoint,
			endpoint: true,
			name: 'openai/meta-llama/Llama-3-70B',
			described: 'openai/meta-llama/Llama-3-70B (endpoint https://gpu.example.org/v1)',
			place: 'https://gpu.example.org/v1',
			facts: ['openai/meta-llama/Llama-3-70B', 'https://gpu.example.org/v1'],
		},
	])('$name', ({ spec, endpoint: isEndpoint, name, described, place, facts }) => {
		expect(isEndpointRun(spec)).toBe(isEndpoint);
		expect(runModelName(spec)).toBe(name);
		expect(describeRunModel(spec)).toBe(described);
		expect(runModelPlace(spec)).toBe(place);
		expect(listRunModelFacts(spec)).toEqual(facts);
	});
});
