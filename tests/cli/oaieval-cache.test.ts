// oaieval through a real `serve` with --cache-dir: the second run answers every call from the
// cache folder, and its record log and Inspect log equal the live run's (the usage and the model
// name the server reported come back from the cache), apart from run ids and times.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import { startServer, type RunningServer } from '../../src/cli/serve/server';
import { runCliCommand } from './run-cli-command';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'benchtop-oaieval-cache-'));
let server: RunningServer | undefined;
let baseUrl = '';

beforeAll(async () => {
	server = await startServer({ model: 'gpt2-random-tiny', port: 0, log: () => undefined });
	baseUrl = server.baseUrl;
});

afterAll(async () => {
	await server?.close();
	rmSync(dir, { recursive: true, force: true });
});

/** A record log without what differs from run to run: its run id and event times. */
function withoutRunIdentity(log: string): string {
	return log.replace(/"(run_id|created_at)": "[^"]*"/gu, '"$1": ""');
}

/** An Inspect log without its run's ids and times. */
function withoutInspectIdentity(text: string): unknown {
	const log = JSON.parse(text) as {
		eval: Record<string, unknown>;
		stats: Record<string, unknown>;
	};
	for (const key of ['task_id', 'eval_id', 'run_id', 'created']) delete log.eval[key];
	for (const key of ['started_at', 'completed_at']) delete log.stats[key];
	return log;
}

/** Runs capitals (3 samples) through the server with the shared cache; gives both logs. */
async function runCapitals(): Promise<{ record: string; inspect: string }> {
	// The same paths each time (the command line is in the logs).
	const record = join(dir, 'log.jsonl');
	const inspect = join(dir, 'inspect.json');
	const run = await runCliCommand(
		oaievalCommand,
		[
			'openai/gpt2-random-tiny',
			'capitals',
			'--max_samples',
			'3',
			// The tiny model's context (128) is under the app's 256: send none, as upstream.
			'--default_max_tokens',
			'none',
			'--base-url',
			baseUrl,
			'--record_path',
			record,
			'--inspect_log',
			inspect,
			'--cache-dir',
			join(dir, 'cache'),
		],
		'disk',
	);
	expect(run.exitCode, run.stderr).toBe(0);
	return { record: readFileSync(record, 'utf8'), inspect: readFileSync(inspect, 'utf8') };
}

it('writes the same logs from the cache as live', async () => {
	const live = await runCapitals();
	expect(readdirSync(join(dir, 'cache')).length).toBeGreaterThan(0);
	// The server is gone: every answer of the second run comes from the cache.
	await server?.close();
	server = undefined;
	const cached = await runCapitals();
	expect(withoutRunIdentity(cached.record)).toBe(withoutRunIdentity(live.record));
	// The record log names the model the server reported, as a live run does.
	expect(live.record).toContain('"model": "gpt2-random-tiny"');
	expect(withoutInspectIdentity(cached.inspect)).toEqual(withoutInspectIdentity(live.inspect));
});
