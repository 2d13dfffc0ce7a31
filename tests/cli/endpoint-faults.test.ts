// Fault injection (issue 18): every fault of tests/support/fault-proxy.ts between `run`, `oaieval`
// and `ltm run` and a real `serve` (gpt2-random-tiny, 127.0.0.1). Injected once, each fault is
// retried to exactly the clean result; a fault that does not go away (or is not retryable) fails
// with a message naming the URL, exit 1, and a later clean run gives exactly the clean result.
// Never exit 0 with a different answer. Issue 28: answers that never end (headers never sent,
// keepalive comments only, deltas past max_tokens, endless 500 and 200 JSON bodies) end within the
// limits set by BENCHTOP_ENDPOINT_* with exit 1, the URL named and nothing cached.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateCommand } from '../../src/cli/commands/generate';
import { ltmCommand } from '../../src/cli/commands/ltm';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import { runCommand } from '../../src/cli/commands/run';
import { surprisalsCommand } from '../../src/cli/commands/surprisals';
import { startServer, type RunningServer } from '../../src/cli/serve/server';
import {
	FAULTS,
	startFaultProxy,
	type EndlessFault,
	type Fault,
	type FaultPlan,
} from '../support/fault-proxy';
import { runCliCommand, type CliRun } from './run-cli-command';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const MODEL = 'gpt2-random-tiny';
const SUITE = 'suites/subject-verb-agreement-pp.json';
const LTM_DEFINITIONS = new URL('../fixtures/ltm/tiny-definitions', import.meta.url).pathname;

interface CommandCase {
	readonly name: string;
	/** Runs the command against `baseUrl`; returns its output with run-specific parts removed. */
	run(baseUrl: string): Promise<{ cli: CliRun; result: string }>;
}

const COMMANDS: readonly CommandCase[] = [
	{
		name: 'run',
		async run(baseUrl) {
			const cli = await runCliCommand(
				runCommand,
				[SUITE, '--model', `openai/${MODEL}`, '--base-url', baseUrl],
				'disk',
			);
			return { cli, result: cli.stdout };
		},
	},
	{
		name: 'oaieval',
		async run(baseUrl) {
			const cli = await runCliCommand(
				oaievalCommand,
				// The tiny model's context (128) is under the app's 256: send none, as upstream.
				[
					`openai/${MODEL}`,
					'capitals',
					'--max_samples',
					'3',
					'--default_max_tokens',
					'none',
					'--base-url',
					baseUrl,
				],
				'disk',
			);
			return { cli, result: cli.stdout };
		},
	},
	{
		name: 'ltm run',
		async run(baseUrl) {
			const out = await mkdtemp(join(tmpdir(), 'benchtop-faults-'));
			vi.stubEnv('OPENAI_BASE_URL', baseUrl);
			try {
				const cli = await runCliCommand(
					ltmCommand,
					[
						'run',
						LTM_DEFINITIONS,
						'--agent',
						`openai/${MODEL}`,
						'--out',
						out,
						// The tiny model attends to 128 tokens: keep the conversation short.
						'--context-tokens',
						'48',
						'--max-message-tokens',
						'24',
						'--max-tokens',
						'8',
						'--temperature',
						'0',
					],
					'disk',
				);
				const summary = cli.exitCode === 0 ? await readFile(join(out, 'summary.json'), 'utf8') : '';
				// The summary's scores and answers, without times.
				const scores =
					summary === '' ? '' : JSON.stringify(stripTimes(JSON.parse(summary)), null, 1);
				return { cli, result: `${scores}` };
			} finally {
				vi.unstubAllEnvs();
				await rm(out, { recursive: true, force: true });
			}
		},
	},
];

/** A JSON value without fields that name times, durations or speeds. */
function stripTimes(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stripTimes);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !/time|duration|date|elapsed|speed|_at$|At$|seconds|ms$/i.test(key))
			.map(([key, v]) => [key, stripTimes(v)]),
	);
}

let server: RunningServer;
const clean = new Map<string, string>();

beforeAll(async () => {
	vi.stubEnv('OPENAI_API_KEY', 'sk-fault-test');
	server = await startServer({ model: MODEL, port: 0, log: () => undefined });
});

afterAll(async () => {
	vi.unstubAllEnvs();
	await server.close();
});

/** Faults the client retries to a clean result when they happen once. */
const RETRIED_ONCE: readonly Fault[] = FAULTS.filter((fault) => fault !== '401');

async function throughProxy(command: CommandCase, plan: FaultPlan) {
	const proxy = await startFaultProxy(server.baseUrl, plan);
	try {
		return { ...(await command.run(proxy.baseUrl)), proxy };
	} finally {
		await proxy.close();
	}
}

describe.each(COMMANDS)('$name through a fault proxy', (command) => {
	beforeAll(async () => {
		const { cli, result } = await command.run(server.baseUrl);
		expect(cli.exitCode, `${command.name} clean: ${cli.stderr}`).toBe(0);
		expect(result).not.toBe('');
		clean.set(command.name, result);
	});

	it.each(RETRIED_ONCE)('a single %s is retried to exactly the clean result', async (fault) => {
		const { cli, result, proxy } = await throughProxy(command, (index) =>
			index === 1 ? fault : undefined,
		);
		expect(proxy.injected).toEqual([fault]);
		expect(cli.exitCode, cli.stderr).toBe(0);
		expect(result).toBe(clean.get(command.name));
	});

	it.each<[Fault, RegExp]>([
		['401', /refused the API key/],
		['503', /retries did not help/],
		['truncated-stream', /incomplete answer|retries did not/],
		['html-200', /HTML page/],
	])(
		'a lasting %s fails with exit 1 and a clear message; a clean re-run is exact',
		async (fault, said) => {
			const isStreamFault = fault === 'truncated-stream';
			const { cli } = await throughProxy(command, () =>
				// `run` scores with JSON answers only: a stream fault would not touch it.
				isStreamFault && command.name === 'run' ? undefined : fault,
			);
			if (isStreamFault && command.name === 'run') {
				expect(cli.exitCode).toBe(0);
			} else {
				expect(cli.exitCode).toBe(1);
				expect(cli.stderr).toMatch(said);
				expect(cli.stderr).toMatch(/127\.0\.0\.1/);
				expect(cli.stderr).not.toMatch(/unexpected error|CORS|origin/);
			}
			const again = await command.run(server.baseUrl);
			expect(again.cli.exitCode).toBe(0);
			expect(again.result).toBe(clean.get(command.name));
		},
	);
});

describe('answers that never end (issue 28): exit 1 within the limits, the URL named, nothing cached', () => {
	beforeEach(() => {
		vi.stubEnv('OPENAI_API_KEY', 'sk-fault-test');
		vi.stubEnv('BENCHTOP_ENDPOINT_IDLE_S', '2');
		vi.stubEnv('BENCHTOP_ENDPOINT_DEADLINE_S', '20');
		vi.stubEnv('BENCHTOP_ENDPOINT_MAX_BODY_MIB', '1');
	});
	afterEach(() => vi.unstubAllEnvs());

	/** `generate` of a few greedy tokens with a response cache in `cacheDir`. */
	const generate = (baseUrl: string, cacheDir: string) =>
		runCliCommand(
			generateCommand,
			[
				...['--model', `openai/${MODEL}`, '--base-url', baseUrl, '--cache-dir', cacheDir],
				...['--max-tokens', '8', '--temperature', '0', 'The cat'],
			],
			'disk',
		);
	const surprisals = (baseUrl: string) =>
		runCliCommand(
			surprisalsCommand,
			['s.txt', '--model', `openai/${MODEL}`, '--base-url', baseUrl],
			{ 's.txt': 'The keys to the cabinet are here.\n' },
		);

	it.each<[EndlessFault, RegExp]>([
		['keepalive-forever', /did not answer in time: no event in the stream for 2 s\./],
		['no-headers', /did not answer in time: no answer headers within 2 s\./],
		['endless-deltas', /sent an answer too large to take: the stream went on past max_tokens 8 /],
	])('generate against %s: exit 1, said so, nothing cached', async (fault, said) => {
		const cacheDir = await mkdtemp(join(tmpdir(), 'benchtop-endless-'));
		try {
			const proxy = await startFaultProxy(server.baseUrl, () => fault);
			let cli: CliRun;
			try {
				cli = await generate(proxy.baseUrl, cacheDir);
			} finally {
				await proxy.close();
			}
			expect(cli.exitCode).toBe(1);
			expect(cli.stderr).toMatch(said);
			expect(cli.stderr).toContain(proxy.baseUrl);
			expect(cli.stderr).toMatch(/Nothing of it was kept, and it was not retried/);
			expect(cli.stderr).not.toMatch(/unexpected error/);
			expect(proxy.requests).toBe(1);
			expect(await readdir(cacheDir, { recursive: true })).toEqual([]);
			const again = await generate(server.baseUrl, cacheDir);
			expect(again.exitCode, again.stderr).toBe(0);
			expect(again.stderr).not.toMatch(/\(cached\)/);
			expect((await readdir(cacheDir, { recursive: true })).length).toBeGreaterThan(0);
		} finally {
			await rm(cacheDir, { recursive: true, force: true });
		}
	});

	it.each<[EndlessFault, RegExp]>([
		['endless-json', /too large to take \(HTTP 200\): a body over the cap of 1048576 bytes\./],
		['endless-500', /failed \(HTTP 500\) and retries did not help.*The server said: overloaded /],
		['no-headers', /did not answer in time: no answer headers within 2 s\./],
	])('surprisals against %s: exit 1, said so', async (fault, said) => {
		const proxy = await startFaultProxy(server.baseUrl, () => fault);
		let cli: CliRun;
		try {
			cli = await surprisals(proxy.baseUrl);
		} finally {
			await proxy.close();
		}
		expect(cli.exitCode).toBe(1);
		expect(cli.stderr).toMatch(said);
		expect(cli.stderr).toContain(proxy.baseUrl);
		expect(cli.stderr).not.toMatch(/unexpected error/);
		expect(cli.stdout).toBe('');
	});
});
