import { describe, expect, it } from 'vitest';
import { formatCount, formatNameList } from '../../../src/core/text/format-count';

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

describe('formatNameList', () => {
	it.each<[string[], number | undefined, string]>([
		[[], undefined, ''],
		[['config.yml'], undefined, 'config.yml'],
		[
			['a/config.yml', 'a/B/0.def.json', 'a/C/0.def.json'],
			undefined,
			'a/config.yml, a/B/0.def.json, a/C/0.def.json',
		],
		[['a', 'b', 'c', 'd', 'e'], undefined, 'a, b, c and 2 more'],
		[['x', 'x', 'y'], undefined, 'x, y'],
		[['a', 'b', 'c'], 1, 'a and 2 more'],
	])('%j (%s shown)', (names, shown, text) => {
		const before = [...names];
		expect(formatNameList(names, shown)).toBe(text);
		expect(names).toEqual(before);
	});
});
