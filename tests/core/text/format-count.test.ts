import { describe, expect, it } from 'vitest';
import { formatCount } from '../../../src/core/text/format-count';

describe('formatCount', () => {
	it.each<[number, string, string | undefined, string]>([
		[1, 'prediction', undefined, '1 prediction'],
		[0, 'prediction', undefined, '0 predictions'],
		[2, 'item', undefined, '2 items'],
		[1, 'query', 'queries', '1 query'],
		[3, 'query', 'queries', '3 queries'],
	])('%d %s', (count, noun, plural, text) => {
		expect(formatCount(count, noun, plural)).toBe(text);
	});
});
