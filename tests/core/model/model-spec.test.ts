import { describe, expect, it } from 'vitest';
import {
	baseUrlProblem,
	describeModelSpec,
	formatModelSpec,
	localModelSpec,
	parseModelSpecString,
	type TextModelSpec,
} from '../../../src/core/model/model-spec';
import { normalizeEndpointBaseUrl } from '../../../src/core/model/endpoint-choice';

describe('parseModelSpecString', () => {
	it.each([
		['gpt2-en-small', { kind: 'bundled', id: 'gpt2-en-small' }],
		[' gpt2-random-tiny ', { kind: 'bundled', id: 'gpt2-random-tiny' }],
		['openai/Qwen/Qwen2.5-0.5B-Instruct', { kind: 'openai', model: 'Qwen/Qwen2.5-0.5B-Instruct' }],
		['openai/gpt-4o-mini', { kind: 'openai', model: 'gpt-4o-mini' }],
		['replay:runs/old.jsonl', { kind: 'replay', file: 'runs/old.jsonl' }],
		['./models/my-gpt2', { kind: 'folder', path: './models/my-gpt2' }],
		['/srv/models/x', { kind: 'folder', path: '/srv/models/x' }],
		['C:\\models\\x', { kind: 'folder', path: 'C:\\models\\x' }],
		['Xenova/distilgpt2', { kind: 'hub-or-folder', id: 'Xenova/distilgpt2' }],
		['Xenova/distilgpt2@v1', { kind: 'hub-or-folder', id: 'Xenova/distilgpt2', revision: 'v1' }],
	])('%s', (text, expected) => {
		expect(parseModelSpecString(text)).toEqual(expected);
	});

	it.each(['', '   ', 'openai/', 'replay:'])('rejects %j with what is accepted', (text) => {
		expect(() => parseModelSpecString(text)).toThrow(RangeError);
	});
});

describe('formatModelSpec / describeModelSpec', () => {
	const cases: [TextModelSpec, string, string][] = [
		[
			{ source: 'bundled', id: 'gpt2-en-small', dtype: 'fp32', backend: 'wasm' },
			'gpt2-en-small',
			'gpt2-en-small',
		],
		[
			{ source: 'hub', id: 'Xenova/gpt2', revision: 'main', dtype: 'q8', backend: 'wasm' },
			'Xenova/gpt2',
			'Xenova/gpt2',
		],
		[
			{ source: 'hub', id: 'Xenova/gpt2', revision: 'abc123', dtype: 'q8', backend: 'wasm' },
			'Xenova/gpt2@abc123',
			'Xenova/gpt2@abc123',
		],
		[
			{ source: 'openai', model: 'llama-3', baseUrl: 'http://gpu:8000/v1' },
			'openai/llama-3',
			'openai/llama-3@http://gpu:8000/v1',
		],
		[{ source: 'replay', file: 'a.jsonl', sha256: 'ff' }, 'replay:a.jsonl', 'replay:a.jsonl'],
	];
	it.each(cases)('%j → %s', (spec, formatted, described) => {
		expect(formatModelSpec(spec)).toBe(formatted);
		expect(describeModelSpec(spec)).toBe(described);
	});

	it('round-trips through parseModelSpecString', () => {
		expect(parseModelSpecString(formatModelSpec(cases[2]![0]))).toEqual({
			kind: 'hub-or-folder',
			id: 'Xenova/gpt2',
			revision: 'abc123',
		});
		expect(parseModelSpecString(formatModelSpec(cases[3]![0]))).toEqual({
			kind: 'openai',
			model: 'llama-3',
		});
	});
});

describe('normalizeEndpointBaseUrl', () => {
	it.each([
		['http://127.0.0.1:8000/v1/', 'http://127.0.0.1:8000/v1'],
		[' https://api.openai.com/v1 ', 'https://api.openai.com/v1'],
	])('%s → %s', (input, output) => expect(normalizeEndpointBaseUrl(input)).toBe(output));
});

describe('baseUrlProblem (issue 19: no secrets in URLs)', () => {
	it.each([
		['http://127.0.0.1:8000/v1', undefined],
		['https://api.example.org/v1', undefined],
		['  http://[::1]:8000/v1/  ', undefined],
		['http://user:secret@127.0.0.1:8000/v1', /user name or password/],
		['https://sk-abc@api.example.org/v1', /user name or password/],
		['ftp://127.0.0.1/v1', /must start with http/],
		['http://127.0.0.1:8000/v1?x=1', /no \?query/],
		['127.0.0.1:8000/v1', /must start with http/],
		['', /Type the endpoint base URL/],
	])('%j', (url, problem) => {
		const said = baseUrlProblem(url);
		if (problem === undefined) expect(said).toBeUndefined();
		else expect(said).toMatch(problem);
	});

	it('never repeats the password in its reason', () => {
		expect(baseUrlProblem('http://alice:hunter2@h/v1')).not.toContain('hunter2');
	});
});

describe('localModelSpec', () => {
	it('trims the id, gives a hub model its revision (main unless given), none to the others', () => {
		expect(localModelSpec('hub', ' Xenova/distilgpt2 ', 'q8', 'webgpu', ' v2 ')).toEqual({
			source: 'hub',
			id: 'Xenova/distilgpt2',
			revision: 'v2',
			dtype: 'q8',
			backend: 'webgpu',
		});
		expect(localModelSpec('hub', 'a/b', 'fp32', 'wasm', '  ')).toMatchObject({ revision: 'main' });
		expect(localModelSpec('bundled', 'gpt2-en-small', 'fp32', 'wasm', 'x')).toEqual({
			source: 'bundled',
			id: 'gpt2-en-small',
			dtype: 'fp32',
			backend: 'wasm',
		});
	});
});
