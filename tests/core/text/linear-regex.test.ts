import { describe, expect, it } from 'vitest';
import {
	compileLinearRegex,
	MAX_PATTERN_CHARS,
	RegexRefused,
} from '../../../src/core/text/linear-regex';

const texts = [
	'',
	'a',
	'abc',
	'ABC',
	'a\nb',
	'a\rb',
	'a\u2028b',
	'x\n',
	'line one\nline two',
	'tab\there',
	'nbsp\u00a0here',
	'vt\u000bhere',
	'I will have pasta, thanks',
	'Locker 7, shelf 3',
	'{"a": 1}',
	'p{L}',
	'Ünïcödé word',
	'back\bspace',
	'dash-x and [x] and :',
	'aaaaab',
	'café 😀',
];

// Ordinary patterns as definitions use them: same answers as JavaScript's RegExp on every text.
const parity: [string, string][] = [
	['^(a|aa)+$', ''],
	['(\\d+)', ''],
	['I will have (\\w+)', ''],
	['^abc$', 'i'],
	['^line', 'm'],
	['one$', 'm'],
	['a.b', ''],
	['a.b', 's'],
	['x$', ''],
	['\\s', ''],
	['\\S+', ''],
	['[\\s]here', ''],
	['[^\\S]here', ''],
	['[\\s-x]', ''],
	['\\bword\\b', ''],
	['\\Bor', ''],
	['\\u0041BC', ''],
	['\\u{1F600}', 'u'],
	['\\x41', 'i'],
	['[^]', ''],
	['[]', ''],
	['[\\b]', ''],
	['[[:alpha:]]', ''],
	['\\p{L}+word', 'u'],
	['(?<n>\\d) ?,', ''],
	['(?:ab)+c', ''],
	['a{2,}b', ''],
	['a{,3}', ''],
	['\\{"a"', ''],
	['\\/|\\-x', ''],
	['\\[x\\]', ''],
	['\\cI', ''],
	['\\0', ''],
	['colou?r|café', 'iu'],
	['[A-Z][a-z]+', ''],
	['locker ([1-9])', 'i'],
	['pasta', 'g'],
];

describe('compileLinearRegex', () => {
	it('answers ^(a|aa)+$ against 60 and 10,000 "a"s then "b" (backtracking would not end)', () => {
		const pattern = compileLinearRegex('^(a|aa)+$');
		expect(pattern.test(`${'a'.repeat(60)}b`)).toBe(false);
		expect(pattern.test(`${'a'.repeat(10_000)}b`)).toBe(false);
		expect(pattern.test('a'.repeat(10_000))).toBe(true);
	});

	it.each(parity)('%s (flags %s) agrees with RegExp', (source, flags) => {
		const linear = compileLinearRegex(source, flags);
		const js = new RegExp(source, flags.replace('g', ''));
		for (const text of texts) {
			expect([text, linear.test(text)]).toEqual([text, js.test(text)]);
			const want = js.exec(text);
			expect([text, linear.exec(text)]).toEqual([text, want === null ? null : [...want]]);
		}
	});

	const refused: [string, string, RegExp][] = [
		['(a)\\1', '', /backreference '\\1' at character 4 needs backtracking/],
		['(?<n>a)\\k<n>', '', /named backreference '\\k'/],
		['a(?=b)', '', /lookahead '\(\?=' at character 2/],
		['a(?!b)', '', /lookahead '\(\?!'/],
		['(?<=a)b', '', /lookbehind '\(\?<='/],
		['(?<!a)b', '', /lookbehind '\(\?<!'/],
		['a{1001}', '', /linear-time engine \(RE2\): .*repeat count/],
		['\\e', '', /escape '\\e' at character 1 is not supported/],
		['\\p{L}', '', /add the u flag/],
		['(', '', /not a valid regular expression/],
		['a', 'y', /flag 'y' is not supported/],
		['a', 'ii', /flag 'i' is given twice/],
		['a'.repeat(MAX_PATTERN_CHARS + 1), '', /at most 10000/],
	];
	it.each(refused)('refuses %s (flags %s) and says why', (source, flags, message) => {
		expect(() => compileLinearRegex(source, flags)).toThrow(RegexRefused);
		expect(() => compileLinearRegex(source, flags)).toThrow(message);
	});
});
