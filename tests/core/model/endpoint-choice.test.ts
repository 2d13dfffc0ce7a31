import { describe, expect, it } from 'vitest';
import {
	checkEndpointBaseUrl,
	checkEndpointModelId,
	normalizeEndpointBaseUrl,
} from '../../../src/core/model/endpoint-choice';

describe('checkEndpointBaseUrl', () => {
	it.each([
		['http://127.0.0.1:8000/v1', 'http:'],
		['https://api.openai.com/v1', 'https:'],
		['http://localhost:11434/v1', 'https:'],
		['http://127.0.0.1:8000', 'https:'],
		['http://[::1]:8000/v1', 'https:'],
		['http://gpu-node-3:8000/v1', 'http:'],
		['  http://127.0.0.1:8000/v1/  ', 'http:'],
	])('accepts %s from a %s page', (url, page) => {
		expect(checkEndpointBaseUrl(url, page)).toBeNull();
	});

	it.each([
		['', 'http:', /Type the endpoint base URL/],
		['127.0.0.1:8000', 'http:', /must start with http/],
		['not a url', 'http:', /must start with http/],
		['http://exa mple.com/v1', 'http:', /is not a URL/],
		['ftp://host/v1', 'http:', /must start with http:\/\/ or https:\/\/ \(got ftp:\)/],
		['http://user:sk-secret@host/v1', 'http:', /user name or password .* key field/],
		['http://host/v1?key=1', 'http:', /no \?query/],
		['http://gpu-node-3:8000/v1', 'https:', /mixed content/],
	])('rejects %j from a %s page', (url, page, message) => {
		expect(checkEndpointBaseUrl(url, page)).toMatch(message);
	});
});

describe('checkEndpointModelId', () => {
	it.each([
		['', /Type the model id/],
		['   ', /Type the model id/],
		['my model', /no spaces/],
	])('rejects %j', (id, message) => {
		expect(checkEndpointModelId(id)).toMatch(message);
	});

	it.each(['gpt2-random-tiny', 'meta-llama/Llama-3.1-70B', ' qwen2.5:7b '])('accepts %j', (id) => {
		expect(checkEndpointModelId(id)).toBeNull();
	});
});

describe('normalizeEndpointBaseUrl', () => {
	it.each([
		['http://h:8000/v1/', 'http://h:8000/v1'],
		[' http://h:8000/v1 ', 'http://h:8000/v1'],
		['http://h:8000//', 'http://h:8000'],
	])('%j → %j', (input, expected) => {
		expect(normalizeEndpointBaseUrl(input)).toBe(expected);
	});
});
