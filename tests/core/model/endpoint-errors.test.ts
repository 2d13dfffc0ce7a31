import { describe, expect, it } from 'vitest';
import {
	endpointFailureMessage,
	failureKindOfStatus,
	failureOfFetchError,
	isRetryableFailure,
} from '../../../src/core/model/endpoint-errors';

describe('failureKindOfStatus', () => {
	it.each([
		[200, undefined],
		[400, 'bad-request'],
		[401, 'unauthorized'],
		[403, 'unauthorized'],
		[404, 'not-found'],
		[422, 'bad-request'],
		[429, 'rate-limited'],
		[500, 'server'],
		[503, 'server'],
	])('%i → %s', (status, kind) => expect(failureKindOfStatus(status)).toBe(kind));

	it('retries 429 and 5xx only', () => {
		expect(isRetryableFailure('rate-limited')).toBe(true);
		expect(isRetryableFailure('server')).toBe(true);
		expect(isRetryableFailure('unauthorized')).toBe(false);
		expect(isRetryableFailure('bad-request')).toBe(false);
	});
});

describe('failureOfFetchError', () => {
	it.each([
		['https://app.example', 'http://10.0.0.5:8000/v1', 'mixed-content'],
		['https://app.example', 'http://127.0.0.1:8000/v1', 'network'],
		['https://app.example', 'http://localhost:8000/v1', 'network'],
		['https://app.example', 'https://gpu.example/v1', 'network'],
		['http://127.0.0.1:4173', 'http://10.0.0.5:8000/v1', 'network'],
		[undefined, 'http://10.0.0.5:8000/v1', 'network'],
	])('page %s → %s: %s', (pageOrigin, baseUrl, kind) => {
		expect(failureOfFetchError({ baseUrl, ...(pageOrigin ? { pageOrigin } : {}) }).kind).toBe(kind);
	});
});

describe('endpointFailureMessage', () => {
	const context = {
		baseUrl: 'http://gpu:8000/v1',
		model: 'llama',
		pageOrigin: 'http://127.0.0.1:4173',
	};
	it.each([
		[
			'network',
			['--allowed-origins \'["http://127.0.0.1:4173"]\'', '--cors-origins', 'OLLAMA_ORIGINS'],
		],
		['mixed-content', ['HTTPS', 'localhost']],
		['unauthorized', ['API key', 'OPENAI_API_KEY']],
		['not-found', ['/v1/models', "'llama'"]],
		['rate-limited', ['concurrency']],
		['server', ["server's log"]],
		['cannot-score', ['cannot score text', 'vLLM']],
	] as const)('%s says where and what to do', (kind, phrases) => {
		const message = endpointFailureMessage({ kind }, context);
		expect(message).toContain('http://gpu:8000/v1');
		for (const phrase of phrases) expect(message).toContain(phrase);
	});

	it('quotes the status and what the server said', () => {
		expect(
			endpointFailureMessage(
				{ kind: 'bad-request', status: 400, detail: 'max_tokens too big' },
				context,
			),
		).toBe(
			'http://gpu:8000/v1 rejected the request (HTTP 400). The server said: max_tokens too big',
		);
	});
});
