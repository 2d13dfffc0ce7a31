import { describe, expect, it } from 'vitest';
import {
	groupRunsBySuite,
	labelComparedRun,
} from '../../../../src/core/syntaxgym/run/compare-runs';
import type { ModelSpec } from '../../../../src/core/model/model-spec';
import type { SuiteRun } from '../../../../src/core/syntaxgym/run/suite-run';

function run(
	id: number,
	overrides: Partial<SuiteRun> = {},
	model: Partial<ModelSpec> = {},
): SuiteRun {
	return {
		id,
		suiteSha256: 'a'.repeat(64),
		suiteName: 'agreement',
		model: { source: 'bundled', id: 'gpt2-random-tiny', dtype: 'fp32', backend: 'wasm', ...model },
		convention: 'reference',
		itemCount: 12,
		appVersion: '0.1.0',
		createdAt: id * 1000,
		status: 'done',
		itemsDone: 12,
		updatedAt: id * 1000,
		scoringMs: 10,
		tokenCount: 100,
		...overrides,
	};
}

function endpointRun(id: number, model: string, baseUrl: string): SuiteRun {
	return run(id, { model: { source: 'openai', model, baseUrl } });
}

describe('groupRunsBySuite', () => {
	it('groups by suite text, most runs first, then by name, model ids distinct', () => {
		const runs = [
			run(1),
			run(2, { suiteSha256: 'b'.repeat(64), suiteName: 'npi' }),
			run(3, {}, { id: 'gpt2-en-small' }),
			run(4),
			run(5, { suiteSha256: 'c'.repeat(64), suiteName: 'filler-gap' }),
		];
		expect(groupRunsBySuite(runs)).toEqual([
			{
				suiteSha256: 'a'.repeat(64),
				suiteName: 'agreement',
				runCount: 3,
				modelIds: ['gpt2-random-tiny', 'gpt2-en-small'],
			},
			{
				suiteSha256: 'c'.repeat(64),
				suiteName: 'filler-gap',
				runCount: 1,
				modelIds: ['gpt2-random-tiny'],
			},
			{
				suiteSha256: 'b'.repeat(64),
				suiteName: 'npi',
				runCount: 1,
				modelIds: ['gpt2-random-tiny'],
			},
		]);
	});

	it('names endpoint runs openai/<model>, beside local runs of the same suite', () => {
		const runs = [
			run(1),
			endpointRun(2, 'gpt2-random-tiny', 'http://127.0.0.1:8000/v1'),
			endpointRun(3, 'gpt2-random-tiny', 'http://10.0.0.2:8000/v1'),
		];
		expect(groupRunsBySuite(runs)).toEqual([
			{
				suiteSha256: 'a'.repeat(64),
				suiteName: 'agreement',
				runCount: 3,
				modelIds: ['gpt2-random-tiny', 'openai/gpt2-random-tiny'],
			},
		]);
	});

	it('gives nothing for no runs', () => {
		expect(groupRunsBySuite([])).toEqual([]);
	});
});

describe('labelComparedRun', () => {
	it.each([
		{
			name: 'distinct models: the model id',
			runs: [run(1), run(2, {}, { id: 'gpt2-en-small' })],
			expected: ['gpt2-random-tiny', 'gpt2-en-small'],
		},
		{
			name: 'same model, other dtype',
			runs: [run(1), run(2, {}, { dtype: 'q8' })],
			expected: ['gpt2-random-tiny fp32', 'gpt2-random-tiny q8'],
		},
		{
			name: 'same model, other backend',
			runs: [run(1), run(2, {}, { backend: 'webgpu' })],
			expected: ['gpt2-random-tiny wasm', 'gpt2-random-tiny webgpu'],
		},
		{
			name: 'same model, other revision',
			runs: [
				run(1, {}, { source: 'hub', revision: 'main' }),
				run(2, {}, { source: 'hub', revision: 'v2' }),
			],
			expected: ['gpt2-random-tiny@main', 'gpt2-random-tiny@v2'],
		},
		{
			name: 'a local model and the same model behind an endpoint',
			runs: [run(1), endpointRun(2, 'gpt2-random-tiny', 'http://127.0.0.1:8000/v1')],
			expected: ['gpt2-random-tiny', 'openai/gpt2-random-tiny'],
		},
		{
			name: 'same endpoint model on two servers: the base URL',
			runs: [
				endpointRun(1, 'llama-70b', 'http://127.0.0.1:8000/v1'),
				endpointRun(2, 'llama-70b', 'https://gpu.example.org/v1'),
			],
			expected: [
				'openai/llama-70b @ http://127.0.0.1:8000/v1',
				'openai/llama-70b @ https://gpu.example.org/v1',
			],
		},
		{
			name: 'same endpoint model on the same server: the run id',
			runs: [
				endpointRun(1, 'llama-70b', 'http://127.0.0.1:8000/v1'),
				endpointRun(2, 'llama-70b', 'http://127.0.0.1:8000/v1'),
			],
			expected: ['openai/llama-70b (run 1)', 'openai/llama-70b (run 2)'],
		},
		{
			name: 'identical models: the run id tells them apart',
			runs: [run(1), run(2)],
			expected: ['gpt2-random-tiny (run 1)', 'gpt2-random-tiny (run 2)'],
		},
	])('$name', ({ runs, expected }) => {
		expect(runs.map((r) => labelComparedRun(r, runs))).toEqual(expected);
	});
});
