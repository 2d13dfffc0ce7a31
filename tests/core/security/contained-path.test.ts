// Untrusted names as path segments: ordinary names unchanged, hostile ones encoded or refused, and
// a join that refuses any segment that could leave its base folder.
import { describe, expect, it } from 'vitest';
import {
	MAX_SEGMENT_BYTES,
	UnsafePathError,
	containedPath,
	isSafePathSegment,
	safePathSegment,
	safeRelativePath,
} from '../../../src/core/security/contained-path';

describe('safePathSegment', () => {
	it.each([
		'Delayed Recall',
		'Prospective Memory',
		'Colours',
		'0_0.json',
		'summary.json',
		'Café crème',
		'日本語',
		'..hidden',
		'a..b',
		'.config',
		'console',
		'CONNECT.json',
		'com10',
	])('keeps the ordinary name %j', (name) => {
		expect(safePathSegment(name)).toBe(name);
		expect(isSafePathSegment(name)).toBe(true);
	});

	it.each([
		['..', '%2E%2E'],
		['.', '%2E'],
		['...', '%2E%2E%2E'],
		['../../escaped', '..%2F..%2Fescaped'],
		['/etc/passwd', '%2Fetc%2Fpasswd'],
		['C:', 'C%3A'],
		['C:\\Windows', 'C%3A%5CWindows'],
		['..\\..\\x', '..%5C..%5Cx'],
		['\\\\server\\share', '%5C%5Cserver%5Cshare'],
		['a\u0000b', 'a%00b'],
		['line\nbreak', 'line%0Abreak'],
		['tab\there', 'tab%09here'],
		['bell\u0007', 'bell%07'],
		['del\u007f', 'del%7F'],
		['c1\u0085', 'c1%C2%85'],
		['name.', 'name%2E'],
		['name. .', 'name%2E%20%2E'],
		['trailing ', 'trailing%20'],
		['NUL', '%4EUL'],
		['nul.json', '%6Eul.json'],
		['CON', '%43ON'],
		['Aux.tar.gz', '%41ux.tar.gz'],
		['COM1', '%43OM1'],
		['lpt9.txt', '%6Cpt9.txt'],
		['COM¹', '%43OM¹'],
		['CONOUT$', '%43ONOUT$'],
		['a*b?c"d<e>f|g', 'a%2Ab%3Fc%22d%3Ce%3Ef%7Cg'],
		['stream:$DATA', 'stream%3A$DATA'],
	])('encodes %j as %j, which decodes back', (name, expected) => {
		const segment = safePathSegment(name);
		expect(segment).toBe(expected);
		expect(decodeURIComponent(segment)).toBe(name);
		expect(isSafePathSegment(segment)).toBe(true);
		expect(isSafePathSegment(name)).toBe(false);
		// eslint-disable-next-line no-control-regex -- no control character may be left
		expect(segment).not.toMatch(/[/\\:\u0000-\u001f]/u);
	});

	it.each([
		['100%', '100%25'],
		['%2E%2E', '%252E%252E'],
	])('encodes the %% of %j (one-to-one), though it would do as a segment', (name, expected) => {
		expect(isSafePathSegment(name)).toBe(true);
		expect(safePathSegment(name)).toBe(expected);
		expect(decodeURIComponent(expected)).toBe(name);
	});

	it.each([
		['', /empty/],
		['\ud800x', /not valid Unicode/],
		['x\udc00', /not valid Unicode/],
		['a'.repeat(MAX_SEGMENT_BYTES + 1), /too long/],
		['é'.repeat(MAX_SEGMENT_BYTES / 2 + 1), /too long/],
		['/'.repeat(MAX_SEGMENT_BYTES / 3 + 1), /too long/],
	])('refuses %j', (name, message) => {
		expect(() => safePathSegment(name)).toThrow(UnsafePathError);
		expect(() => safePathSegment(name)).toThrow(message);
		expect(isSafePathSegment(name)).toBe(false);
	});

	it('keeps a name of exactly MAX_SEGMENT_BYTES bytes', () => {
		const name = 'a'.repeat(MAX_SEGMENT_BYTES);
		expect(safePathSegment(name)).toBe(name);
	});

	it('never maps two different names to one segment', () => {
		const names = ['..', '%2E%2E', '%252E%252E', 'a/b', 'a%2Fb', 'NUL', '%4EUL', 'a.', 'a%2E'];
		const segments = names.map(safePathSegment);
		expect(new Set(segments).size).toBe(names.length);
	});
});

describe('safeRelativePath and containedPath', () => {
	it('joins ordinary names as upstream lays out results', () => {
		expect(safeRelativePath('Delayed Recall', '3_0.json')).toBe('Delayed Recall/3_0.json');
		expect(containedPath('out/run', 'Delayed Recall/3_0.json')).toBe(
			'out/run/Delayed Recall/3_0.json',
		);
		expect(containedPath('out/run/', 'summary.json')).toBe('out/run/summary.json');
		expect(containedPath('', 'summary.json')).toBe('summary.json');
	});

	it('makes a hostile dataset name one folder inside the base', () => {
		const relative = safeRelativePath('../../escaped', '0_0.json');
		expect(relative).toBe('..%2F..%2Fescaped/0_0.json');
		expect(containedPath('a/b/out', relative)).toBe('a/b/out/..%2F..%2Fescaped/0_0.json');
	});

	it.each([
		'../escaped.json',
		'a/../../escaped.json',
		'./x.json',
		'/etc/passwd',
		'a//b.json',
		'',
		'C:/x.json',
		'C:',
		'a\\..\\..\\x',
		'NUL/x.json',
		'x\u0000.json',
		'dir/',
	])('refuses the relative path %j', (relative) => {
		expect(() => containedPath('out', relative)).toThrow(UnsafePathError);
	});

	it('refuses an empty list of names', () => {
		expect(() => safeRelativePath()).toThrow(UnsafePathError);
	});
});
