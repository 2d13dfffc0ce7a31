import { describe, expect, it } from 'vitest';
import {
	escapePointerSegment,
	jsonPointer,
	locateJsonPointers,
	readJsonText,
	splitJsonPointer,
} from '../../../../src/core/syntaxgym/suite/json-source';

describe('readJsonText', () => {
	it.each([
		['{"a": [1, 2]}', { a: [1, 2] }],
		['"text"', 'text'],
		['{"__proto__": 1}', JSON.parse('{"__proto__": 1}') as unknown],
	])('%s parses', (text, value) => {
		expect(readJsonText(text)).toEqual({ ok: true, value });
	});

	it('a "__proto__" key stays plain data', () => {
		const result = readJsonText('{"__proto__": {"polluted": true}}');
		expect(result.ok && Object.hasOwn(result.value as object, '__proto__')).toBe(true);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});

	it.each([
		// text, line, column, message start
		['{"a": 1,}', 1, 8, 'trailing comma before'],
		['[1, 2,\n]', 1, 6, 'trailing comma before'],
		['{"a": 1 "b": 2}', 1, 9, "expected ','"],
		['{a: 1}', 1, 2, "invalid symbol (found 'a')"],
		['{"a" 1}', 1, 6, "expected ':' after the property name"],
		['{"a": 01}', 1, 7, "numbers must not start with a zero (found '01')"],
		['{"a": [1, 2}', 1, 12, "expected ',' (found '}')"],
		['// note\n{}', 1, 1, 'comments are not allowed in JSON'],
		// The string holding the raw tab, from its opening quote.
		['{"a": "x\ty"}', 1, 7, 'invalid character in string'],
		['{}\n{}', 2, 1, 'expected end of file'],
	])('%j: problem at %i:%i', (text, line, column, message) => {
		const result = readJsonText(text);
		expect(result.ok).toBe(false);
		if (result.ok) return;
		const [first] = result.problems;
		expect(first?.message.startsWith(message)).toBe(true);
		expect([first?.line, first?.column]).toEqual([line, column]);
		expect(first?.hint).not.toBe('');
	});

	it('an empty text is a located problem, not a throw', () => {
		const result = readJsonText('');
		expect(result.ok).toBe(false);
		if (!result.ok) expect(result.problems[0]?.line).toBe(1);
	});

	it('lists at most maxProblems problems', () => {
		const result = readJsonText('[01, 02, 03, 04]', 2);
		expect(result.ok ? [] : result.problems.map((p) => p.column)).toEqual([2, 6]);
	});
});

describe('JSON pointers', () => {
	it.each([
		[['items', 3, 'conditions'], '/items/3/conditions'],
		[['a/b', 'c~d'], '/a~1b/c~0d'],
		[[], ''],
		[[''], '/'],
	] as const)('jsonPointer(%j) = %j and splits back', (segments, pointer) => {
		expect(jsonPointer(...segments)).toBe(pointer);
		expect(splitJsonPointer(pointer)).toEqual(segments.map(String));
	});

	it('escapePointerSegment: ~ before / (so ~1 in a key survives)', () => {
		expect(escapePointerSegment('~1')).toBe('~01');
		expect(splitJsonPointer(`/${escapePointerSegment('~1')}`)).toEqual(['~1']);
	});
});

describe('locateJsonPointers', () => {
	const text =
		'{\n  "meta": {"name": "s"},\n  "items": [\n    {"n": 1},\n    {"n": 2, "a/b": true}\n  ]\n}';

	it.each([
		['', 1, 1],
		['/meta', 2, 11],
		['/meta/name', 2, 20],
		['/items/1', 5, 5],
		['/items/1/n', 5, 11],
		['/items/1/a~1b', 5, 21],
		// A missing member: its nearest existing ancestor.
		['/items/1/missing', 5, 5],
		['/items/7', 3, 12],
	])('%j at %i:%i', (pointer, line, column) => {
		const location = locateJsonPointers(text, [pointer]).get(pointer);
		expect([location?.line, location?.column]).toEqual([line, column]);
		expect(
			text.slice(location?.offset).startsWith(text.split('\n')[line - 1]?.slice(column - 1) ?? ''),
		).toBe(true);
	});

	it('finds many pointers in one pass, the first of duplicate keys', () => {
		const located = locateJsonPointers('{"a": 1, "a": 2, "b": [true]}', ['/a', '/b/0']);
		expect(located.get('/a')?.column).toBe(7);
		expect(located.get('/b/0')?.column).toBe(24);
	});

	it('no pointers: an empty map', () => {
		expect(locateJsonPointers(text, []).size).toBe(0);
	});
});
