// `ltm run --resume` checks what the run was started with (issue 18, resume checks identity):
// run-models.json records the agent and judge (resolved: base URL, replay file hash) and the
// agent parameters; a resume given others exits 2 naming each field, before any model is opened.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLtmCommand, ltmCommand, type OpenModel } from '../../src/cli/commands/ltm';
import { sha256Hex } from '../../src/core/hash/sha256';
import { openTextModel } from '../../src/providers/open-model';
import { runCliCommand } from './run-cli-command';

const dir = mkdtempSync(join(tmpdir(), 'benchtop-ltm-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SUITE = 'suites/memory/classroom-basics.ltm-suite.json';
const replayText = (reply: string) => JSON.stringify({ when: '', completion: reply });
const agentFile = join(dir, 'agent.jsonl');
const otherFile = join(dir, 'other.jsonl');
writeFileSync(agentFile, replayText('Noted.'));
writeFileSync(otherFile, replayText('Something else.'));

/** An opener that must not be reached (the check comes first). */
const unreachable: OpenModel = () => Promise.reject(new Error('a model was opened'));

describe('ltm run --resume with replay agents', () => {
	const out = join(dir, 'replay-run');
	const args = ['run', SUITE, '--agent', `replay:${agentFile}`, '--out', out];

	it('records the models and parameters at the start, then resumes with the same ones', async () => {
		const first = await runCliCommand(ltmCommand, [...args, '--temperature', '0'], 'disk');
		expect(first.exitCode, first.stderr).toBe(0);
		const record = JSON.parse(readFileSync(join(out, 'run-models.json'), 'utf8')) as unknown;
		expect(record).toEqual({
			format: 'ltm-run-models/1',
			agent: {
				given: `replay:${agentFile}`,
				spec: { source: 'replay', file: 'agent.jsonl', sha256: sha256Hex(replayText('Noted.')) },
			},
			judge: null,
			params: { maxTokens: null, temperature: 0, contextTokens: null, maxMessageTokens: null },
		});
		const resumed = await runCliCommand(
			ltmCommand,
			[...args, '--temperature', '0', '--resume'],
			'disk',
		);
		expect(resumed.exitCode, resumed.stderr).toBe(0);
		expect(resumed.stderr).not.toMatch(/cannot be checked/);
	});

	it('refuses another replay file, naming its hash and both files', async () => {
		const refused = await runCliCommand(
			createLtmCommand(unreachable),
			[
				'run',
				SUITE,
				'--agent',
				`replay:${otherFile}`,
				'--out',
				out,
				'--temperature',
				'0',
				'--resume',
			],
			'disk',
		);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toContain(
			`agent sha256: stored ${sha256Hex(replayText('Noted.'))} (replay:${agentFile}), given ${sha256Hex(replayText('Something else.'))} (replay:${otherFile})`,
		);
		expect(refused.stderr).toMatch(/start a new run with another --out folder/);
	});

	it('refuses another temperature and a missing one, naming the option', async () => {
		const other = await runCliCommand(
			createLtmCommand(unreachable),
			[...args, '--temperature', '0.7', '--resume'],
			'disk',
		);
		expect(other.exitCode).toBe(2);
		expect(other.stderr).toContain('--temperature: stored 0, given 0.7');
		expect(other.stderr).toContain(`--agent replay:${agentFile} --temperature 0`);
		const missing = await runCliCommand(
			createLtmCommand(unreachable),
			[...args, '--resume'],
			'disk',
		);
		expect(missing.exitCode).toBe(2);
		expect(missing.stderr).toContain('--temperature: stored 0, given (default)');
	});

	it('refuses a judge the run did not have', async () => {
		const refused = await runCliCommand(
			createLtmCommand(unreachable),
			[...args, '--temperature', '0', '--judge', `replay:${agentFile}`, '--resume'],
			'disk',
		);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toContain(`judge: stored (none), given replay:${agentFile}`);
	});

	it('resumes a folder from before the record, with a note that nothing was checked', async () => {
		const old = join(dir, 'old-run');
		const oldArgs = ['run', SUITE, '--agent', `replay:${agentFile}`, '--out', old];
		expect((await runCliCommand(ltmCommand, oldArgs, 'disk')).exitCode).toBe(0);
		rmSync(join(old, 'run-models.json'));
		const resumed = await runCliCommand(
			ltmCommand,
			['run', SUITE, '--agent', `replay:${otherFile}`, '--out', old, '--resume'],
			'disk',
		);
		expect(resumed.exitCode, resumed.stderr).toBe(0);
		expect(resumed.stderr).toMatch(/no run-models\.json .*cannot be checked/);
		expect(existsSync(join(old, 'run-models.json'))).toBe(true);
	});

	it('refuses a record that is not one, naming the field', async () => {
		const broken = join(dir, 'broken-run');
		const brokenArgs = ['run', SUITE, '--agent', `replay:${agentFile}`, '--out', broken];
		expect((await runCliCommand(ltmCommand, brokenArgs, 'disk')).exitCode).toBe(0);
		const path = join(broken, 'run-models.json');
		const record = JSON.parse(readFileSync(path, 'utf8')) as { params: { temperature: unknown } };
		record.params.temperature = 'hot';
		writeFileSync(path, JSON.stringify(record));
		const refused = await runCliCommand(
			createLtmCommand(unreachable),
			[...brokenArgs, '--resume'],
			'disk',
		);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toMatch(/run-models\.json: the run's models, at params\.temperature/);
	});
});

describe('ltm run --resume with an endpoint agent', () => {
	it('refuses another base URL before any request (no server needed)', async () => {
		const out = join(dir, 'endpoint-run');
		// The first run's endpoint answers from a replay file, so no server is needed either.
		const asReplay: OpenModel = (_spec, options) => openTextModel(`replay:${agentFile}`, options);
		const args = (baseUrl: string) => [
			'run',
			SUITE,
			'--agent',
			'openai/m',
			'--base-url',
			baseUrl,
			'--out',
			out,
		];
		const first = await runCliCommand(
			createLtmCommand(asReplay),
			args('http://127.0.0.1:9/v1/'),
			'disk',
		);
		expect(first.exitCode, first.stderr).toBe(0);
		const same = await runCliCommand(
			createLtmCommand(asReplay),
			[...args('http://127.0.0.1:9/v1'), '--resume'],
			'disk',
		);
		expect(same.exitCode, same.stderr).toBe(0);
		const refused = await runCliCommand(
			createLtmCommand(unreachable),
			[...args('http://127.0.0.1:10/v1'), '--resume'],
			'disk',
		);
		expect(refused.exitCode).toBe(2);
		expect(refused.stderr).toContain(
			'agent base URL: stored http://127.0.0.1:9/v1 (openai/m), given http://127.0.0.1:10/v1 (openai/m)',
		);
		expect(refused.stderr).toContain('--agent openai/m --base-url http://127.0.0.1:9/v1');
	});
});
