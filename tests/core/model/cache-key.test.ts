import { describe, expect, it } from 'vitest';
import { responseCacheKey, responseCacheKeyMaterial } from '../../../src/core/model/cache-key';
import type { GenerateRequest, ModelCall } from '../../../src/core/model/generation';
import type { TextModelSpec } from '../../../src/core/model/model-spec';

const ENDPOINT: TextModelSpec = { source: 'openai', model: 'm', baseUrl: 'http://h:8000/v1' };
const LOCAL: TextModelSpec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'wasm',
};
const GREEDY: GenerateRequest = {
	prompt: { kind: 'chat', messages: [{ role: 'user', content: 'Hi' }] },
	params: { temperature: 0, max_tokens: 16 },
};

const CALL: Pick<ModelCall, 'sampleId' | 'role' | 'callIndex'> = {
	sampleId: 'capitals.dev.0',
	role: 'policy',
};

describe('responseCacheKey', () => {
	const key = (spec: TextModelSpec, request: GenerateRequest, seed?: string) =>
		responseCacheKey(spec, request, CALL, seed);

	it('keys each call of each sample apart, the run apart (issue 18: samples never share)', () => {
		const other = (call: Pick<ModelCall, 'sampleId' | 'role' | 'callIndex'>) =>
			responseCacheKey(ENDPOINT, GREEDY, call);
		const base = other(CALL);
		expect(other({ ...CALL, sampleId: 'capitals.dev.1' })).not.toBe(base);
		expect(other({ ...CALL, role: 'grader' })).not.toBe(base);
		expect(other({ ...CALL, callIndex: 1 })).not.toBe(base);
		expect(other({ ...CALL, callIndex: 0 })).toBe(base);
		// The run id is not part of the key: a re-run of the same samples hits.
		const withRun: ModelCall = { ...CALL, runId: 'another-run' };
		expect(other(withRun)).toBe(base);
	});

	it('is a SHA-256 hex that ignores key order', () => {
		const reordered: GenerateRequest = {
			params: { max_tokens: 16, temperature: 0 },
			prompt: { messages: [{ content: 'Hi', role: 'user' }], kind: 'chat' },
		};
		expect(key(ENDPOINT, GREEDY)).toMatch(/^[0-9a-f]{64}$/);
		expect(key(ENDPOINT, reordered)).toBe(key(ENDPOINT, GREEDY));
	});

	it.each([
		['base URL', { ...ENDPOINT, baseUrl: 'http://other:8000/v1' }, GREEDY],
		['model', { ...ENDPOINT, model: 'm2' }, GREEDY],
		['provider', LOCAL, GREEDY],
		['revision', { ...LOCAL, source: 'hub', id: 'a/b', revision: 'v2' }, GREEDY],
		['prompt', ENDPOINT, { ...GREEDY, prompt: { kind: 'text', text: 'Hi' } }],
		['max_tokens', ENDPOINT, { ...GREEDY, params: { temperature: 0, max_tokens: 17 } }],
		['an added parameter', ENDPOINT, { ...GREEDY, params: { ...GREEDY.params, top_p: 1 } }],
		['stop', ENDPOINT, { ...GREEDY, params: { ...GREEDY.params, stop: ['\n'] } }],
	] as [string, TextModelSpec, GenerateRequest][])(
		'changes with the %s',
		(_what, spec, request) => {
			expect(key(spec, request)).not.toBe(key(ENDPOINT, GREEDY));
		},
	);

	it('keys greedy calls without the seed and sampled calls per seed', () => {
		expect(key(ENDPOINT, GREEDY, 'sample.1:1')).toBe(key(ENDPOINT, GREEDY, 'sample.1:2'));
		const sampled = { ...GREEDY, params: { temperature: 0.7 } };
		expect(key(ENDPOINT, sampled, 'sample.1:1')).not.toBe(key(ENDPOINT, sampled, 'sample.1:2'));
		const unset = { ...GREEDY, params: {} };
		expect(key(ENDPOINT, unset, 'a')).not.toBe(key(ENDPOINT, unset, 'b'));
	});

	it('never contains an API key (specs have none)', () => {
		const material = responseCacheKeyMaterial(ENDPOINT, GREEDY, CALL);
		expect(material).not.toMatch(/key|authorization/i);
	});
});
