// sanitize_and_parse_json port: strict JSON, fences, and the repairs driven by Python's errors.
import { describe, expect, it } from 'vitest';
import {
	parsePythonJson,
	PythonJsonError,
	PythonFloat,
} from '../../../../src/core/python/python-json';
import {
	JsonSanitizeError,
	sanitizeAndParseJson,
} from '../../../../src/core/ltm/shared/sanitize-json';

describe('parsePythonJson: Python json.loads errors', () => {
	const errors: [string, string, number][] = [
		['', 'Expecting value', 0],
		['[1,]', 'Expecting value', 3],
		['{"a":1,}', 'Expecting property name enclosed in double quotes', 7],
		['{"a" 1}', "Expecting ':' delimiter", 5],
		['[1 2]', "Expecting ',' delimiter", 3],
		['{"a":1} x', 'Extra data', 8],
		['"a\nb"', 'Invalid control character at', 2],
	];
	it.each(errors)('%j → %s at %d', (text, msg, pos) => {
		try {
			parsePythonJson(text);
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(PythonJsonError);
			expect((error as PythonJsonError).msg).toBe(msg);
			expect((error as PythonJsonError).pos).toBe(pos);
		}
	});

	it('accepts NaN and Infinity and keeps floats apart on request', () => {
		expect(parsePythonJson('[NaN, -Infinity]')).toEqual([Number.NaN, Number.NEGATIVE_INFINITY]);
		expect(parsePythonJson('[3.0, 3]', { keepFloats: true })).toEqual([new PythonFloat(3), 3]);
	});
});

describe('sanitizeAndParseJson', () => {
	const cases: [string, string, unknown][] = [
		['strict JSON', '{"a": 1}', { a: 1 }],
		['a json fence', 'Sure!\n```json\n["x", "y"]\n```\nDone.', ['x', 'y']],
		['a javascript fence first', '```\n[1]\n```\n```javascript\n[2]\n```', [2]],
		['leading text', 'The list is ["a", "b"]', ['a', 'b']],
		['trailing text', '["a"] and that is all', ['a']],
		['a trailing comma in a list', '["a", "b",]', ['a', 'b']],
		['a trailing comma in an object', '{"a": 1,}', { a: 1 }],
		['a line comment', '[1, // one\n 2]', [1, 2]],
		['an ellipsis', '[1, 2, ...]', [1, 2]],
		['a missing comma', '{"a": 1 "b": 2}', { a: 1, b: 2 }],
		['a missing value', '{"a", "b": 2}', { a: null, b: 2 }],
		['a raw newline in a string', '["a\nb"]', ['ab']],
	];
	it.each(cases)('%s', (_name, text, want) => {
		expect(sanitizeAndParseJson(text)).toEqual(want);
	});

	it('fails on text with no JSON', () => {
		expect(() => sanitizeAndParseJson('no json here')).toThrow(JsonSanitizeError);
	});
});
