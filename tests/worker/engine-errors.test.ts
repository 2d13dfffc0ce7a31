import { describe, expect, it } from 'vitest';
import { AlignmentError, BenchtopError } from '../../src/core/errors';
import {
	BackendError,
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	NetworkUnavailableError,
	OutOfMemoryError,
	UnsupportedModelError,
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
