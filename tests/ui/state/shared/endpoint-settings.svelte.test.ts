// EndpointSettings: the spec as chosen (never the key), problems in words, Test connection over a
// lister, and what is remembered in storage (the key only when asked, and forgotten on untick).
import { describe, expect, it } from 'vitest';
import {
	EndpointAuthError,
	EndpointUnreachableError,
} from '../../../../src/providers/openai-client';
import {
	ENDPOINT_KEY_STORAGE_KEY,
	ENDPOINT_STORAGE_KEY,
	EndpointSettings,
	type KeyValueStorage,
	type ListEndpointModels,
	type ProbeEndpointScoring,
} from '../../../../src/ui/state/shared/endpoint-settings.svelte';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & {
	data: Map<string, string>;
} {
	const data = new Map(Object.entries(initial));
	return {
		data,
		getItem: (key) => data.get(key) ?? null,
		setItem: (key, value) => void data.set(key, value),
		removeItem: (key) => void data.delete(key),
	};
}

function settings(
	listModels: ListEndpointModels = async () => ['tiny'],
	storage = memoryStorage(),
	pageProtocol = 'http:',
	probeScoring: ProbeEndpointScoring = async () => true,
): EndpointSettings {
	return new EndpointSettings({ listModels, storage, pageProtocol, probeScoring });
}

describe('EndpointSettings', () => {
	it('builds an openai spec without the key, or says what is missing', () => {
		const endpoint = settings();
		expect(endpoint.spec).toBeNull();
		expect(endpoint.problem).toMatch(/Type the model id/);
		endpoint.baseUrl = 'http://127.0.0.1:9000/v1/';
		endpoint.modelId = ' tiny ';
		endpoint.apiKey = 'sk-secret';
		expect(endpoint.spec).toEqual({
			source: 'openai',
			model: 'tiny',
			baseUrl: 'http://127.0.0.1:9000/v1',
		});
		expect(JSON.stringify(endpoint.spec)).not.toContain('sk-secret');
		expect(endpoint.keyForRequests).toBe('sk-secret');
		endpoint.baseUrl = 'gpu-node:8000';
		expect(endpoint.spec).toBeNull();
		expect(endpoint.problem).toMatch(/must start with http/);
	});

	it('tests the connection with the key, lists the models and picks the only one', async () => {
		const asked: { baseUrl: string; apiKey?: string }[] = [];
		const endpoint = settings(async (e) => {
			asked.push(e);
			return ['gpt2-random-tiny'];
		});
		endpoint.apiKey = ' key-1 ';
		const testing = endpoint.testConnection();
		expect(endpoint.status).toBe('testing');
		await testing;
		expect(asked).toEqual([{ baseUrl: 'http://127.0.0.1:8000/v1', apiKey: 'key-1' }]);
		expect(endpoint.status).toBe('ok');
		expect(endpoint.models).toEqual(['gpt2-random-tiny']);
		expect(endpoint.modelId).toBe('gpt2-random-tiny');
		expect(endpoint.message).toBe('Connected to http://127.0.0.1:8000/v1: 1 model.');
		expect(endpoint.testedCurrentUrl).toBe(true);
		endpoint.baseUrl = 'http://127.0.0.1:8001/v1';
		expect(endpoint.testedCurrentUrl).toBe(false);
	});

	it('says when the typed model is not listed, and sends no key when none is typed', async () => {
		const asked: object[] = [];
		const endpoint = settings(async (e) => {
			asked.push(e);
			return ['a', 'b'];
		});
		endpoint.modelId = 'c';
		await endpoint.testConnection();
		expect(asked).toEqual([{ baseUrl: 'http://127.0.0.1:8000/v1' }]);
		expect(endpoint.modelId).toBe('c');
		expect(endpoint.message).toBe(
			'Connected to http://127.0.0.1:8000/v1: 2 models. It does not list "c": pick one of its models.',
		);
	});

	it('shows the lister error (what to do) and a bad URL without calling out', async () => {
		let calls = 0;
		const endpoint = settings(async () => {
			calls++;
			throw new EndpointAuthError(
				'401 from http://127.0.0.1:8000/v1: the API key was refused. Check it.',
				'unauthorized',
				401,
			);
		});
		await endpoint.testConnection();
		expect(endpoint.status).toBe('failed');
		expect(endpoint.message).toMatch(/API key was refused/);
		expect(endpoint.models).toEqual([]);
		endpoint.baseUrl = 'ftp://x';
		await endpoint.testConnection();
		expect(calls).toBe(1);
		expect(endpoint.message).toMatch(/must start with http/);
	});

	it('flags mixed content from an https page', () => {
		const endpoint = settings(undefined, memoryStorage(), 'https:');
		endpoint.baseUrl = 'http://gpu-node:8000/v1';
		expect(endpoint.baseUrlProblem).toMatch(/mixed content/);
		endpoint.baseUrl = 'http://localhost:8000/v1';
		expect(endpoint.baseUrlProblem).toBeNull();
	});

	it('remembers URL and model, but the key only while "remember the key" is ticked', () => {
		const storage = memoryStorage();
		const endpoint = settings(undefined, storage);
		endpoint.baseUrl = 'http://h:1/v1';
		endpoint.modelId = 'm';
		endpoint.apiKey = 'sk-1';
		expect(JSON.parse(storage.data.get(ENDPOINT_STORAGE_KEY) ?? '')).toEqual({
			baseUrl: 'http://h:1/v1',
			modelId: 'm',
		});
		expect([...storage.data.values()].join()).not.toContain('sk-1');
		endpoint.rememberKey = true;
		expect(storage.data.get(ENDPOINT_KEY_STORAGE_KEY)).toBe('sk-1');
		const reopened = settings(undefined, storage);
		expect([reopened.baseUrl, reopened.modelId, reopened.apiKey, reopened.rememberKey]).toEqual([
			'http://h:1/v1',
			'm',
			'sk-1',
			true,
		]);
		reopened.rememberKey = false;
		expect(storage.data.has(ENDPOINT_KEY_STORAGE_KEY)).toBe(false);
		expect(settings(undefined, storage).apiKey).toBe('');
	});

	it('ignores malformed stored settings', () => {
		const storage = memoryStorage({ [ENDPOINT_STORAGE_KEY]: '{"baseUrl": 3}' });
		expect(settings(undefined, storage).baseUrl).toBe('http://127.0.0.1:8000/v1');
		const broken = memoryStorage({ [ENDPOINT_STORAGE_KEY]: 'not json' });
		expect(settings(undefined, broken).modelId).toBe('');
	});

	it('shows abilities: score as checked for the listed model, unknown otherwise', async () => {
		const probed: string[] = [];
		const endpoint = settings(
			async () => ['scorer', 'chatty'],
			memoryStorage(),
			'http:',
			async (spec) => {
				probed.push(spec.model);
				return spec.model === 'scorer';
			},
		);
		expect(endpoint.abilities).toEqual({ score: null, generate: true, chat: true });
		endpoint.modelId = 'scorer';
		await endpoint.testConnection();
		expect(endpoint.abilities.score).toBe(true);
		endpoint.modelId = 'chatty';
		expect(endpoint.abilities.score).toBeNull();
		await endpoint.testConnection();
		expect(endpoint.abilities.score).toBe(false);
		endpoint.modelId = 'unlisted';
		await endpoint.testConnection();
		expect(probed).toEqual(['scorer', 'chatty']);
		expect(endpoint.abilities.score).toBeNull();
	});

	it('keeps score unknown when the probe fails for another reason', async () => {
		const endpoint = settings(
			async () => ['m'],
			memoryStorage(),
			'http:',
			async () => {
				throw new EndpointUnreachableError('gone', 'network');
			},
		);
		endpoint.modelId = 'm';
		await endpoint.testConnection();
		expect(endpoint.status).toBe('ok');
		expect(endpoint.abilities.score).toBeNull();
	});

	it('makes a TextModel for the chosen spec, none while incomplete', () => {
		const endpoint = settings();
		expect(endpoint.textModel()).toBeNull();
		endpoint.modelId = 'tiny';
		const model = endpoint.textModel();
		expect(model?.spec).toEqual({
			source: 'openai',
			model: 'tiny',
			baseUrl: 'http://127.0.0.1:8000/v1',
		});
		expect(model?.abilities.generate).toBe(true);
	});
});
