// Which origins `serve` grants: loopback pages on any port (as Ollama), listed origins, `*` only
// when listed; look-alike hosts, other schemes and `null` get nothing.
import { describe, expect, it } from 'vitest';
import { corsGrant, isLoopbackOrigin } from '../../../src/cli/serve/cors';

describe('isLoopbackOrigin', () => {
	it.each([
		'http://127.0.0.1:4173',
		'http://127.0.0.1',
		'http://localhost:5173',
		'https://localhost',
		'http://[::1]:8080',
	])('%s is a page of this machine', (origin) => {
		expect(isLoopbackOrigin(origin)).toBe(true);
	});

	it.each([
		'http://127.0.0.1.evil.test',
		'http://localhost.evil.test:80',
		'http://evil.test/http://localhost',
		'http://127.0.0.2:4173',
		'http://0.0.0.0:8000',
		'http://[::1]:8080/',
		'file://localhost',
		'null',
		'',
	])('%s is not', (origin) => {
		expect(isLoopbackOrigin(origin)).toBe(false);
	});
});

describe('corsGrant', () => {
	it.each<[readonly string[], string | undefined, string | undefined]>([
		[[], undefined, undefined],
		[[], 'http://127.0.0.1:4173', 'http://127.0.0.1:4173'],
		[[], 'http://evil.test', undefined],
		[['http://lab.test'], 'http://lab.test', 'http://lab.test'],
		[['http://lab.test'], 'http://lab.test:8080', undefined],
		[['http://lab.test'], 'http://localhost:3000', 'http://localhost:3000'],
		[['*'], 'http://evil.test', '*'],
		[['*'], undefined, undefined],
	])('listed %j, origin %s: %s', (listed, origin, granted) => {
		expect(corsGrant(listed, origin)).toBe(granted);
	});
});
