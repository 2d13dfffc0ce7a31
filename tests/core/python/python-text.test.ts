// Python string behaviour the Evals port relies on; expected values printed by CPython 3.11.
import { describe, expect, it } from 'vitest';
import {
	pythonFloatRepr,
	pythonJsonDumps,
	pythonRepr,
	pythonSplitWhitespace,
	pythonStrip,
} from '../../../src/core/python/python-text';

describe('pythonFloatRepr', () => {
	it.each([
		[0.1, '0.1'],
		[1.0, '1.0'],
		[1e16, '1e+16'],
		[1.5e-7, '1.5e-07'],
		[123456789.125, '123456789.125'],
		[2 / 3, '0.6666666666666666'],
		[1e-4, '0.0001'],
		[0.00012, '0.00012'],
		[1e22, '1e+22'],
		[-2.5, '-2.5'],
		[5e-324, '5e-324'],
		[1.7976931348623157e308, '1.7976931348623157e+308'],
		[NaN, 'nan'],
	])('repr(%s) = %s', (value, expected) => {
		expect(pythonFloatRepr(value)).toBe(expected);
	});
});

describe('pythonRepr', () => {
	it.each([
		[['a', 'b'], "['a', 'b']"],
		[{ k: "it's" }, `{'k': "it's"}`],
		[true, 'True'],
		[null, 'None'],
		[[1, 2.5, 'x\ny'], "[1, 2.5, 'x\\ny']"],
		[['both\'"'], `['both\\'"']`],
		[
			['é\u200b', 'tab\tz\x01\x7f', '😀', 'a\\b'],
			"['é\\u200b', 'tab\\tz\\x01\\x7f', '😀', 'a\\\\b']",
		],
		[{ n: [1e16, 0.5, false] }, "{'n': [1e+16, 0.5, False]}"],
	])('repr(%j)', (value, expected) => {
		expect(pythonRepr(value)).toBe(expected);
	});
});

describe('whitespace', () => {
	it('strip and split use Python’s whitespace set (NEL, ideographic space; not ZWSP or BOM)', () => {
		expect(pythonStrip('\x85\u3000 a b \x1c')).toBe('a b');
		expect(pythonStrip('\ufeffa\u200b')).toBe('\ufeffa\u200b');
		expect(pythonSplitWhitespace(' a\u2003b\n\nc ')).toEqual(['a', 'b', 'c']);
	});
});

describe('pythonJsonDumps', () => {
	it('matches json.dumps(ensure_ascii=False)', () => {
		expect(pythonJsonDumps({ a: [1, 2.5, null, true], b: 'é\n"', c: NaN, d: 1e16 })).toBe(
			'{"a": [1, 2.5, null, true], "b": "é\\n\\"", "c": NaN, "d": 1e+16}',
		);
		expect(pythonJsonDumps({ accuracy: 1, counts: 1 })).toBe('{"accuracy": 1.0, "counts": 1}');
	});
});
