import { describe, expect, it } from 'vitest';
import { describeError } from '../../../src/core/app/describe-error';

describe('describeError', () => {
	class NamedError extends Error {
		override name = 'NamedError';
	}
	it.each<[unknown, string]>([
		[new Error('disk full'), 'disk full'],
		[new NamedError(''), 'NamedError'],
		['plain text', 'plain text'],
		[42, '42'],
		[null, 'null'],
	])('%o -> %s', (error, expected) => {
		expect(describeError(error)).toBe(expected);
	});
});
