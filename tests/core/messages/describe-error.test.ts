import { describe, expect, it } from 'vitest';
import {
	asSentence,
	describeEngineMessage,
	describeError,
	explainEarlyEnd,
} from '../../../src/core/messages/describe-error';

describe('describeError with endpoint errors', () => {
	// Our endpoint errors name the server and what to do; their words (401, Failed to fetch,
	// Not Found) are about the endpoint, never the hub, so they are kept as they are.
	function endpointError(name: string, message: string): Error {
		const error = new Error(message);
		error.name = name;
		return error;
	}
	it.each([
		[
			'EndpointAuthError',
			'http://127.0.0.1:8000/v1 refused the API key (401). Check the key and that it is allowed to use this model. The server said: 401 Unauthorized at /srv/auth.js:12:7.',
		],
		[
			'EndpointUnreachableError',
			'Cannot reach http://127.0.0.1:9/v1 (Failed to fetch): check that the server runs and allows this origin.',
		],
		[
			'EndpointNotFoundError',
			"http://127.0.0.1:8000/v1 does not serve 'x'; it lists: gpt2-random-tiny. 404 Not Found.",
		],
		[
			'EndpointCannotScoreError',
			'http://h/v1 cannot score text: it does not return prompt logprobs.',
		],
	])('%s keeps its message', (name, message) => {
		expect(describeError(endpointError(name, message))).toBe(message);
	});

	it('still rewrites the same text from an error that is not ours', () => {
		expect(describeError(new Error('Cannot reach it (Failed to fetch)'))).toMatch(
			/^The download failed/,
		);
		expect(describeError(new Error('401 Unauthorized at /srv/auth.js:12:7'))).toMatch(
			/^The hub refused the download/,
		);
	});
});

describe('describeError', () => {
	class NamedError extends Error {
		override name = 'NamedError';
	}
	it.each<[unknown, string | RegExp]>([
		[new Error('disk full'), 'disk full'],
		[new NamedError(''), 'NamedError'],
		['plain text', 'plain text'],
		[42, '42'],
		[null, 'null'],
		// Library text inside our own message is replaced by our words.
		[
			new Error(
				'A file of the bundled model \'gpt2-en-small\' is missing: `local_files_only=true` or `env.allowRemoteModels=false` and file was not found locally at "/models/gpt2-en-small/config.json".',
			),
			/^The model files are not in this browser yet and cannot be downloaded now \(offline\)/,
		],
		[new TypeError('Failed to fetch'), /^The download failed: the network is unreachable/],
		[
			new Error(
				"Loading the local model 'broken-model' failed: Cannot read properties of undefined (reading 'tokenizer_class').",
			),
			/^The model files could not be read/,
		],
		[
			new Error(
				'Could not locate file: "https://huggingface.co/x/y/resolve/main/onnx/model.onnx".',
			),
			/^A model file was not found/,
		],
		[
			new Error(
				"Loading failed: Can't create a session. ERROR_CODE: 1, ERROR_MESSAGE: onnxruntime",
			),
			/^The model runtime \(ONNX Runtime\) failed/,
		],
	])('%o -> %s', (error, expected) => {
		const described = describeError(error);
		if (typeof expected === 'string') expect(described).toBe(expected);
		else expect(described).toMatch(expected);
		expect(described).not.toMatch(/local_files_only|ERROR_CODE/);
	});
});

describe('describeEngineMessage', () => {
	it.each<[string, RegExp | null]>([
		['net::ERR_INTERNET_DISCONNECTED', /network is unreachable/],
		['401 Unauthorized', /private or gated/],
		['RangeError: Array buffer allocation failed', /ran out of memory/],
		['Unsupported model type: bert', /causal/],
		['something else entirely', null],
	])('%s', (message, expected) => {
		const described = describeEngineMessage(message);
		if (expected === null) expect(described).toBeNull();
		else expect(described).toMatch(expected);
	});
});

describe('asSentence', () => {
	it.each<[string, string]>([
		['The model stopped', 'The model stopped.'],
		['The model stopped.', 'The model stopped.'],
		['The model stopped..', 'The model stopped.'],
		['  Really?  ', 'Really?'],
		['', ''],
	])('%j -> %j', (text, sentence) => {
		expect(asSentence(text)).toBe(sentence);
	});
});

describe('explainEarlyEnd', () => {
	it.each<[string, boolean]>([
		["invalid JSON: expected '}' (found end of file)", true],
		['Unexpected end of JSON input', true],
		["invalid JSON: expected ',' (found ']')", false],
	])('%s', (message, early) => {
		expect(explainEarlyEnd(message) !== null).toBe(early);
	});
});
