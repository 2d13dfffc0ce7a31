// The `serve` command: options and the API key (BENCHTOP_SERVE_API_KEY, --api-key-file, --api-key),
// servers started from them refusing the wrong key, its --help, and the real process stopped with
// SIGTERM mid-generation: exit 0, nothing printed but its startup lines, the key never printed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readServeOptions, serveCommand } from '../../../src/cli/commands/serve';
import { startServer } from '../../../src/cli/serve/server';
import { FakeEngine } from '../../../src/worker/fake-engine';
import { runCliCommand } from '../run-cli-command';

vi.setConfig({ testTimeout: 120_000 });

const KEY = 'sk-benchtop-sentinel-5d1f';
let dir = '';
beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), 'benchtop-serve-'));
});
afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

/** Status of GET /v1/models on a server started from `serve` arguments, with `key` sent. */
async function modelsStatus(
	args: readonly string[],
	env: Record<string, string>,
	key: string,
): Promise<number> {
	const options = await readServeOptions(
		[...args, '--model', 'gpt2-random-tiny', '--port', '0'],
		env,
	);
	const server = await startServer({ ...options, engine: new FakeEngine() });
	try {
		const headers = { authorization: `Bearer ${key}` };
		return (await fetch(`${server.baseUrl}/models`, { headers })).status;
	} finally {
		await server.close();
	}
}

describe('serve options', () => {
	it('takes the key from BENCHTOP_SERVE_API_KEY', async () => {
		const env = { BENCHTOP_SERVE_API_KEY: KEY };
		expect(await modelsStatus([], env, KEY)).toBe(200);
		expect(await modelsStatus([], env, `${KEY}x`)).toBe(401);
	});

	it('takes the key from --api-key-file, without its final newline', async () => {
		const file = join(dir, 'key.txt');
		await writeFile(file, `${KEY}\n`);
		expect((await readServeOptions(['--api-key-file', file], {})).apiKey).toBe(KEY);
		expect(await modelsStatus(['--api-key-file', file], {}, KEY)).toBe(200);
		expect(await modelsStatus(['--api-key-file', file], {}, 'wrong')).toBe(401);
		// The file wins over the environment.
		expect(
			await modelsStatus(['--api-key-file', file], { BENCHTOP_SERVE_API_KEY: 'other' }, KEY),
		).toBe(200);
	});

	it('still takes --api-key', async () => {
		expect(await modelsStatus(['--api-key', KEY], {}, KEY)).toBe(200);
		expect(await modelsStatus(['--api-key', KEY], {}, 'wrong')).toBe(401);
	});

	it('has no key (and no 401) when none is given, and the caps by default', async () => {
		const options = await readServeOptions([], { BENCHTOP_SERVE_API_KEY: '' });
		expect(options.apiKey).toBeUndefined();
		expect(options.maxQueue).toBeUndefined();
		expect(options.requestTimeoutMs).toBeUndefined();
		expect(options.port).toBe(8000);
	});

	it('reads --max-queue and --request-timeout (seconds)', async () => {
		const options = await readServeOptions(['--max-queue', '0', '--request-timeout', '2.5'], {});
		expect(options.maxQueue).toBe(0);
		expect(options.requestTimeoutMs).toBe(2500);
	});

	it.each([
		[['--api-key', 'a', '--api-key-file', 'f'], /not both/],
		[
			['--api-key-file', '/nonexistent/benchtop.key'],
			/\/nonexistent\/benchtop\.key: cannot read the key file \(ENOENT\)/,
		],
		[['--api-key', ''], /the key is empty/],
		[['--max-queue=-1'], /--max-queue must be a whole number ≥ 0/],
		[['--max-queue', ''], /--max-queue must be a whole number ≥ 0/],
		[['--request-timeout', '0'], /--request-timeout must be a number of seconds > 0/],
		[['--port', '70000'], /--port must be a whole number 0–65535/],
	])('exits 2 for %j', async (args, message) => {
		const run = await runCliCommand(serveCommand, args, {});
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(message);
	});

	it('--help names the key sources, says --api-key shows in ps, and states the caps', async () => {
		const run = await runCliCommand(serveCommand, ['--help'], {});
		expect(run.exitCode).toBe(0);
		expect(run.stdout).toContain('BENCHTOP_SERVE_API_KEY');
		expect(run.stdout).toContain('--api-key-file');
		expect(run.stdout).toMatch(/--api-key <key> also works but shows in ps/);
		expect(run.stdout).toMatch(/--max-queue.*default 32.*503 with Retry-After/);
		expect(run.stdout).toMatch(/--request-timeout.*default 300.*504/);
		expect(run.stdout).toContain('http://127.0.0.1:*, http://localhost:*, http://[::1]:*');
	});
});

describe('serve (process)', () => {
	it('stops on SIGTERM mid-generation: exit 0, no error printed, the key never printed', async () => {
		const child = spawn(
			process.execPath,
			[
				'--import',
				'tsx',
				'src/cli/main.ts',
				'serve',
				'--model',
				'gpt2-random-tiny',
				'--port',
				'0',
				'--threads',
				'1',
			],
			{ stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BENCHTOP_SERVE_API_KEY: KEY } },
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		try {
			const url = await vi.waitFor(
				() => {
					const match = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(stdout);
					if (!match?.[1]) throw new Error(`no URL yet: ${stdout}${stderr}`);
					return match[1];
				},
				{ timeout: 60_000, interval: 100 },
			);
			const response = await fetch(`${url}/completions`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
				body: JSON.stringify({ prompt: 'Once', max_tokens: 120, temperature: 0, stream: true }),
			});
			expect(response.status).toBe(200);
			const reader = response.body?.getReader();
			expect((await reader?.read())?.done).toBe(false);
			child.kill('SIGTERM');
			let rest = '';
			for (let part = await reader?.read(); part && !part.done; part = await reader?.read())
				rest += new TextDecoder().decode(part.value);
			// Stopped before the end: no final chunk, and the server ended the stream cleanly.
			expect(rest).not.toContain('[DONE]');
			expect(await exited).toBe(0);
			expect(stderr).toMatch(
				/^serve: CORS for loopback origins; API key from BENCHTOP_SERVE_API_KEY; queue 32, timeout 300 s\. Ctrl-C stops it\.\n$/,
			);
			expect(stdout + stderr).not.toContain(KEY);
		} finally {
			child.kill('SIGKILL');
		}
	});
});
