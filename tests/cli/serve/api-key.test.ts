// `serve`'s key: the Authorization header compared in constant time (only `Bearer <key>` exactly),
// and the key file read under its size cap, without its final newline, never echoing the key.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	authorizationMatches,
	MAX_API_KEY_FILE_BYTES,
	readApiKeyFile,
} from '../../../src/cli/serve/api-key';

describe('authorizationMatches', () => {
	it.each<[string | undefined, boolean]>([
		['Bearer sk-local-1', true],
		['bearer sk-local-1', true],
		['Bearer sk-local-2', false],
		['Bearer sk-local', false],
		['Bearer sk-local-1x', false],
		['Bearer  sk-local-1', false],
		['sk-local-1', false],
		['Basic sk-local-1', false],
		['Bearer ', false],
		['', false],
		[undefined, false],
	])('%j: %s', (header, expected) => {
		expect(authorizationMatches(header, 'sk-local-1')).toBe(expected);
	});
});

describe('readApiKeyFile', () => {
	let dir = '';
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'benchtop-key-'));
	});
	afterAll(async () => {
		await rm(dir, { recursive: true, force: true });
	});
	const file = async (name: string, text: string | Buffer): Promise<string> => {
		const path = join(dir, name);
		await writeFile(path, text);
		return path;
	};

	it.each([
		['no newline', 'sk-a b', 'sk-a b'],
		['a final \\n', 'sk-a b\n', 'sk-a b'],
		['a final \\r\\n', 'sk-a b\r\n', 'sk-a b'],
	])('reads a key with %s', async (name, text, key) => {
		expect(await readApiKeyFile(await file(name, text))).toBe(key);
	});

	it('takes a key of exactly the cap', async () => {
		const key = 'k'.repeat(MAX_API_KEY_FILE_BYTES);
		expect(await readApiKeyFile(await file('at-cap', key))).toBe(key);
	});

	it.each([
		['over the cap', 'k'.repeat(MAX_API_KEY_FILE_BYTES + 1), /at most 4096 bytes/],
		['empty', '', /empty/],
		['only a newline', '\n', /empty/],
		['two lines', 'sk-one\nsk-two\n', /one line/],
	])('refuses a key file %s, naming the file but not the key', async (name, text, message) => {
		const path = await file(name, text);
		const failure = readApiKeyFile(path);
		await expect(failure).rejects.toThrow(message);
		await expect(failure).rejects.toThrow(path);
		await expect(failure).rejects.not.toThrow('sk-');
	});
});
