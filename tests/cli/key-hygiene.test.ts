// Keys stay secret (issue 19): every command that calls an endpoint (run, surprisals, generate,
// oaieval, ltm run, ltm generate) runs against a real `serve` with a sentinel API key, writing
// every output it can (logs, Inspect log, cache, LTM results);
// no file, stdout, stderr or server log line holds the key. A base URL with user:password in it is
// refused with the reason, without repeating the secret.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateCommand } from '../../src/cli/commands/generate';
import { ltmCommand } from '../../src/cli/commands/ltm';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import { runCommand } from '../../src/cli/commands/run';
import { surprisalsCommand } from '../../src/cli/commands/surprisals';
import { startServer, type RunningServer } from '../../src/cli/serve/server';
import { runCliCommand, type CliRun } from './run-cli-command';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const SENTINEL = 'sk-sentinel-7f3a9c1e5b';
const MODEL = 'openai/gpt2-random-tiny';
const dir = mkdtempSync(join(tmpdir(), 'benchtop-keys-'));
const serverLog: string[] = [];
let server: RunningServer;

beforeAll(async () => {
	server = await startServer({
		model: 'gpt2-random-tiny',
		port: 0,
		apiKey: SENTINEL,
		log: (line) => serverLog.push(line),
	});
	vi.stubEnv('OPENAI_API_KEY', SENTINEL);
	vi.stubEnv('OPENAI_BASE_URL', server.baseUrl);
});

afterAll(async () => {
	vi.unstubAllEnvs();
	await server.close();
	rmSync(dir, { recursive: true, force: true });
});

/** Every file under `root`, recursively. */
function filesUnder(root: string): string[] {
	return readdirSync(root).flatMap((name) => {
		const path = join(root, name);
		return statSync(path).isDirectory() ? filesUnder(path) : [path];
	});
}

describe('a sentinel API key never leaves memory', () => {
	it('appears in no output of run, surprisals, generate, oaieval or ltm run', async () => {
		const sentences = join(dir, 'sentences.txt');
		const { writeFileSync } = await import('node:fs');
		writeFileSync(sentences, 'The cat sat.\n');
		const runs: CliRun[] = [
			await runCliCommand(
				runCommand,
				['suites/subject-verb-agreement-pp.json', '--model', MODEL],
				'disk',
			),
			await runCliCommand(surprisalsCommand, [sentences, '--model', MODEL], 'disk'),
			await runCliCommand(
				generateCommand,
				['--model', MODEL, '--max-tokens', '4', '--cache-dir', join(dir, 'cache'), 'Hello'],
				'disk',
			),
			await runCliCommand(
				oaievalCommand,
				[
					MODEL,
					'capitals',
					'--max_samples',
					'2',
					// The tiny model's context (128) is under the app's 256: send none, as upstream.
					'--default_max_tokens',
					'none',
					'--record_path',
					join(dir, 'log.jsonl'),
					'--inspect_log',
					join(dir, 'inspect.json'),
					'--cache-dir',
					join(dir, 'cache'),
				],
				'disk',
			),
			await runCliCommand(
				ltmCommand,
				[
					'run',
					new URL('../fixtures/ltm/tiny-definitions', import.meta.url).pathname,
					'--agent',
					MODEL,
					'--out',
					join(dir, 'ltm'),
					'--cache-dir',
					join(dir, 'cache'),
					'--context-tokens',
					'48',
					'--max-message-tokens',
					'24',
					'--max-tokens',
					'8',
				],
				'disk',
			),
		];
		for (const run of runs) {
			expect(run.exitCode, run.stderr).toBe(0);
			expect(run.stdout + run.stderr).not.toContain(SENTINEL);
		}
		// ltm generate: the tiny model writes no usable JSON, so it may fail; either way, no key.
		const prompt = join(dir, '1-1_delayed_recall.json');
		writeFileSync(
			prompt,
			JSON.stringify({ content: 'Invent facts.', question: 'Ask.', answer: 'Answer.' }),
		);
		const generated = await runCliCommand(
			ltmCommand,
			[
				'generate',
				prompt,
				'--generator',
				MODEL,
				'--out',
				join(dir, 'generated'),
				'--examples',
				'1',
			],
			'disk',
		);
		expect([0, 1, 2]).toContain(generated.exitCode);
		expect(generated.stdout + generated.stderr).not.toContain(SENTINEL);
		const written = filesUnder(dir);
		expect(written.length).toBeGreaterThan(5);
		for (const path of written) expect(readFileSync(path, 'latin1'), path).not.toContain(SENTINEL);
		expect(serverLog.join('\n')).not.toContain(SENTINEL);
	});

	it('refuses a base URL with user:password, saying why and not repeating it', async () => {
		const run = await runCliCommand(
			generateCommand,
			['--model', 'openai/m', '--base-url', `http://me:${SENTINEL}@127.0.0.1:9/v1`, 'hi'],
			'disk',
		);
		expect(run.exitCode).toBe(2);
		expect(run.stderr).toMatch(/user name or password/);
		expect(run.stdout + run.stderr).not.toContain(SENTINEL);
	});
});
