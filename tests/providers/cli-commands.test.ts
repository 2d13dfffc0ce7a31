// The CLI commands of the model layer: `serve` as a real process (tsx, port 0, prints its URL,
// stops on SIGTERM) and `generate` over a local model, a replay file and a bad spec.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateCommand } from '../../src/cli/commands/generate';
import { parseOrigins } from '../../src/cli/commands/serve';
import { readModelRequest } from '../../src/cli/commands/surprisals';
import { runCliCommand } from '../cli/run-cli-command';
import { startRecordingServer } from './recording-server';

vi.setConfig({ testTimeout: 120_000 });

describe('serve (process)', () => {
	it('prints the URL it listens on (port 0) and answers /v1/models', async () => {
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
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		try {
			const url = await new Promise<string>((resolve, reject) => {
				let out = '';
				child.stdout.on('data', (chunk: Buffer) => {
					out += chunk.toString('utf8');
					const match = /at (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
					if (match?.[1]) resolve(match[1]);
				});
				child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
			});
			const models = (await (await fetch(`${url}/models`)).json()) as { data: { id: string }[] };
			expect(models.data.map((m) => m.id)).toEqual(['gpt2-random-tiny']);
		} finally {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		}
	});

	it.each([
		['http://a.test, http://b.test', ['http://a.test', 'http://b.test']],
		['["http://127.0.0.1:4173"]', ['http://127.0.0.1:4173']],
		['*', ['*']],
	])('reads --allowed-origins %s', (text, origins) => {
		expect(parseOrigins(text)).toEqual(origins);
	});
});

describe('generate', () => {
	it('prints a greedy completion of a local model and its finish line', async () => {
		const run = await runCliCommand(
			generateCommand,
			['--model', 'gpt2-random-tiny', '--max-tokens', '5', '--temperature', '0', 'Once upon'],
			'disk',
		);
		expect(run.exitCode).toBe(0);
		expect(run.stdout.endsWith('\n')).toBe(true);
		expect(run.stderr).toMatch(
			/gpt2-random-tiny: finish length, \d+ prompt \+ 5 completion tokens/,
		);
	});

	it('answers from a replay file, and from the cache folder the second time', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'benchtop-generate-'));
		try {
			const file = join(dir, 'answers.jsonl');
			await writeFile(file, '{"when": "Once", "completion": " there was a fox."}\n');
			const args = ['--model', `replay:${file}`, '--cache-dir', join(dir, 'cache'), 'Once upon'];
			const first = await runCliCommand(generateCommand, args, 'disk');
			const second = await runCliCommand(generateCommand, args, 'disk');
			expect(first.stdout).toBe(' there was a fox.\n');
			expect(first.stderr).not.toContain('cached');
			expect(second.stdout).toBe(' there was a fox.\n');
			expect(second.stderr).toContain('(cached)');
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	});

	it.each([
		[['--model', 'openai/m', 'hi'], /base URL/],
		[['--max-tokens', '1.5', 'hi'], /--max-tokens must be a whole number ≥ 0/],
		[[], /expected one prompt/],
	])('exits 2 with a message for %j', async (args, message) => {
		vi.stubEnv('OPENAI_BASE_URL', '');
		const run = await runCliCommand(generateCommand, args, 'disk');
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(message);
	});
});

describe('exit codes: the run failed is 1, bad input is 2', () => {
	it.each([
		[401, /401|key/i],
		[503, /503|server/i],
	])('an endpoint answering %i exits 1', async (status, message) => {
		const server = await startRecordingServer((_request, response) => {
			response.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
			response.end(JSON.stringify({ error: { message: `status ${status}` } }));
		});
		try {
			vi.stubEnv('OPENAI_API_KEY', 'sk-test');
			const run = await runCliCommand(
				generateCommand,
				['--model', 'openai/m', '--base-url', server.baseUrl, 'hi'],
				'disk',
			);
			expect(run.exitCode).toBe(1);
			expect(run.stderr).toMatch(message);
			expect(server.requests.length).toBeGreaterThan(0);
		} finally {
			vi.unstubAllEnvs();
			await server.close();
		}
	});
});

describe('--model openai/<m> for run and surprisals', () => {
	it('names the endpoint with its base URL, model ids with slashes included', async () => {
		const request = await readModelRequest(
			{ model: 'openai/Qwen/Qwen2.5-7B', 'base-url': 'http://gpu:8000/v1/' },
			'usage',
		);
		expect(request.endpoint).toEqual({
			source: 'openai',
			model: 'Qwen/Qwen2.5-7B',
			baseUrl: 'http://gpu:8000/v1',
		});
	});

	it('asks for the base URL when there is none', async () => {
		vi.stubEnv('OPENAI_BASE_URL', '');
		await expect(readModelRequest({ model: 'openai/m' }, 'usage')).rejects.toThrow(
			/--base-url|OPENAI_BASE_URL/,
		);
	});
});
