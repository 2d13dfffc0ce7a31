import { describe, expect, it } from 'vitest';
import { AlignmentError, BenchtopError } from '../../src/core/errors';
import type { ModelSpec } from '../../src/core/model/model-spec';
import {
	BackendError,
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	NetworkUnavailableError,
	OutOfMemoryError,
	UnsupportedModelError,
	classifyLoadError,
	classifyRunError,
	deserializeError,
	serializeError,
} from '../../src/worker/engine-errors';

describe('serializeError', () => {
	it.each<[unknown, { name: string; message: string }]>([
		[new OutOfMemoryError('heap'), { name: 'OutOfMemoryError', message: 'heap' }],
		[new TypeError('t'), { name: 'TypeError', message: 't' }],
		['plain', { name: 'Error', message: 'plain' }],
		[
			{ name: 'DOMException', message: 'quota' },
			{ name: 'DOMException', message: 'quota' },
		],
		[42, { name: 'Error', message: '42' }],
	])('%s → %j', (input, expected) => {
		expect(serializeError(input)).toEqual(expected);
	});
});

describe('deserializeError', () => {
	it.each([
		CancelledError,
		ModelFileMissingError,
		UnsupportedModelError,
		OutOfMemoryError,
		BackendError,
		ModelNotLoadedError,
		NetworkUnavailableError,
	])('rebuilds %o as its own class, a BenchtopError', (ErrorClass) => {
		const original = new ErrorClass('why');
		const rebuilt = deserializeError(serializeError(original));
		expect(rebuilt).toBeInstanceOf(ErrorClass);
		expect(rebuilt).toBeInstanceOf(BenchtopError);
		expect([rebuilt.name, rebuilt.message]).toEqual([original.name, 'why']);
	});

	it('rebuilds core errors by name and keeps unknown names', () => {
		expect(deserializeError({ name: 'AlignmentError', message: 'm' })).toBeInstanceOf(
			AlignmentError,
		);
		const other = deserializeError({ name: 'RangeError', message: 'r' });
		expect([other.name, other.message, other instanceof BenchtopError]).toEqual([
			'RangeError',
			'r',
			false,
		]);
	});
});

describe('classifyLoadError', () => {
	const hub: ModelSpec = { source: 'hub', id: 'org/m', dtype: 'fp32', backend: 'wasm' };
	const bundled: ModelSpec = { ...hub, source: 'bundled', id: 'm' };
	const named = (name: string, message: string): Error =>
		Object.assign(new Error(message), { name });

	it.each<[string, unknown, ModelSpec, string | undefined, string]>([
		[
			'a failed hub fetch',
			new TypeError('fetch failed'),
			hub,
			undefined,
			'NetworkUnavailableError',
		],
		// transformers.js says "Could not locate" for a request that never got an answer.
		[
			'a missing hub file after a failed fetch',
			new Error('Could not locate file'),
			hub,
			'offline',
			'NetworkUnavailableError',
		],
		[
			'a missing file',
			new Error('Could not locate file "onnx/model.onnx"'),
			bundled,
			undefined,
			'ModelFileMissingError',
		],
		[
			'a bundled model ignores network failures',
			new Error('404'),
			bundled,
			'offline',
			'ModelFileMissingError',
		],
		[
			'transformers.js’s file error by name',
			named('ModelFileNotFoundError', 'x'),
			bundled,
			undefined,
			'ModelFileMissingError',
		],
		[
			'not a causal LM',
			new Error('Unsupported model type: bert'),
			bundled,
			undefined,
			'UnsupportedModelError',
		],
		[
			'a wasm heap that cannot grow',
			new RangeError('Array buffer allocation failed'),
			bundled,
			undefined,
			'OutOfMemoryError',
		],
		['anything else', new Error('boom'), bundled, undefined, 'BackendError'],
		['a thrown string', 'boom', hub, undefined, 'BackendError'],
	])('%s', (_name, error, spec, networkFailure, expected) => {
		expect(classifyLoadError(error, spec, networkFailure).name).toBe(expected);
	});

	it('keeps our own errors and names the model and the cause', () => {
		const cancelled = new CancelledError('stop');
		expect(classifyLoadError(cancelled, hub, 'offline')).toBe(cancelled);
		expect(classifyLoadError(new TypeError('fetch failed'), hub, 'ENOTFOUND').message).toBe(
			"Cannot download the hub model 'org/m' from the Hugging Face Hub (ENOTFOUND). Hub models need a network connection the first time.",
		);
	});
});

describe('classifyRunError', () => {
	it.each<[unknown, string]>([
		[new Error('Failed to allocate a buffer'), 'OutOfMemoryError'],
		[new Error('std::bad_alloc'), 'OutOfMemoryError'],
		[new Error('invalid dims'), 'BackendError'],
		['boom', 'BackendError'],
	])('%s', (error, expected) => {
		expect(classifyRunError(error).name).toBe(expected);
	});

	it('keeps a cancel', () => {
		const cancelled = new CancelledError('stop');
		expect(classifyRunError(cancelled)).toBe(cancelled);
	});
});
