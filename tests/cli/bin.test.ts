// The `benchtop` bin: built by scripts/build-cli.mjs into plain JS (no TypeScript at start), run
// with node and through npx from the checkout; it answers as the in-process commands do.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands/run';
import { runCliCommand } from './run-cli-command';

const BIN = 'build/cli/benchtop.js';
const SUITE = 'tests/fixtures/scoring/mini-suite.json';

function runBin(args: readonly string[]) {
	return spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000 });
}

beforeAll(() => {
	execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'pipe' });
}, 120_000);

describe('benchtop bin', () => {
	it('package.json names the built file as the benchtop bin', () => {
		const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
			bin?: Record<string, string>;
		};
		expect(pkg.bin?.benchtop).toBe(BIN);
		const text = readFileSync(BIN, 'utf8');
		expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
		expect(text).not.toMatch(/from ["']tsx/);
	});

	it('--help lists the commands, exit 0', () => {
		const result = runBin(['--help']);
		expect(result.status).toBe(0);
		expect(result.stdout).toMatch(/^usage: benchtop <command>/);
		expect(result.stdout).toContain('import-pairs');
		// Every command and subcommand, `ltm generate` too, each on a line of its own.
		for (const command of ['validate', 'run', 'generate', 'serve', 'oaieval', 'ltm run']) {
			expect(result.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
		}
		expect(result.stdout).toMatch(/^ {2}ltm generate <prompt\.json> --generator <model> --out /m);
	});

	it('run gives what the in-process command gives (gpt2-random-tiny)', async () => {
		const args = ['run', SUITE, '--model', 'gpt2-random-tiny', '--threads', '2'];
		const result = runBin(args);
		expect(result.stderr).not.toMatch(/Error|at .*\.js:\d+/);
		expect(result.status).toBe(0);
		const inProcess = await runCliCommand(runCommand, args.slice(1), 'disk');
		expect(result.stdout).toBe(inProcess.stdout);
	});

	it('bad input: exit 2 with the file named', () => {
		const result = runBin(['validate', 'no-such-suite.json']);
		expect(result.status).toBe(2);
		expect(result.stderr).toContain('no-such-suite.json: cannot read file');
	});

	it('npx benchtop works from the checkout', () => {
		const result = spawnSync('npx', ['--no-install', 'benchtop', 'validate', SUITE], {
			encoding: 'utf8',
			timeout: 120_000,
		});
		expect(result.status).toBe(0);
		expect(result.stdout).toContain('valid suite');
	});
});
