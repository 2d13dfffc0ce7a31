// Issue 30 item 9: `oaieval` against an endpoint sent no max_tokens for a template that passes
// none (Match, Includes), so a server's own default applied (vLLM's chat route: up to the context
// length). It now sends the app default, 256 (the page's and the local engine's), and says so on
// stderr; a template's own value (FuzzyMatch 100) goes as it is; `--default_max_tokens none` sends
// none, as upstream. The request bodies are read by a real server of this test on 127.0.0.1.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oaievalCommand } from '../../src/cli/commands/oaieval';
import {
	sendJson,
	startRecordingServer,
	type RecordingServer,
} from '../providers/recording-server';
import { runCliCommand } from './run-cli-command';

const registry = mkdtempSync(join(tmpdir(), 'benchtop-oaieval-max-tokens-'));
let server: RecordingServer | undefined;

const SAMPLE = {
	input: [
		{ role: 'system', content: 'Reply with one word.' },
		{ role: 'user', content: 'What is the capital of France?' },
	],
	ideal: 'Paris',
};

beforeAll(async () => {
	mkdirSync(join(registry, 'evals'));
	mkdirSync(join(registry, 'data', 'one-word'), { recursive: true });
	writeFileSync(
		join(registry, 'data', 'one-word', 'samples.jsonl'),
		`${JSON.stringify(SAMPLE)}\n${JSON.stringify(SAMPLE)}\n`,
	);
	writeFileSync(
		join(registry, 'evals', 'one-word.yaml'),
		[
			'one-word-match:',
			'  id: one-word-match.test.v1',
			'one-word-match.test.v1:',
			'  class: evals.elsuite.basic.match:Match',
			'  args:',
			'    samples_jsonl: one-word/samples.jsonl',
			'one-word-fuzzy:',
			'  id: one-word-fuzzy.test.v1',
			'one-word-fuzzy.test.v1:',
			'  class: evals.elsuite.basic.fuzzy_match:FuzzyMatch',
			'  args:',
			'    samples_jsonl: one-word/samples.jsonl',
			'',
		].join('\n'),
	);
	server = await startRecordingServer((request, response) => {
		if (request.method === 'GET') {
			sendJson(response, 200, { object: 'list', data: [{ id: 'm', object: 'model' }] });
			return;
		}
		response.writeHead(200, { 'content-type': 'text/event-stream' });
		const done = { index: 0, delta: {}, finish_reason: 'stop' };
		response.end(
			`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Paris' } }] })}\n\n` +
				`data: ${JSON.stringify({ choices: [done] })}\n\n` +
				`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 1 } })}\n\n` +
				'data: [DONE]\n\n',
		);
	});
});

afterAll(async () => {
	await server?.close();
	rmSync(registry, { recursive: true, force: true });
});

/** Runs `evalName` on the test's server; gives the max_tokens of each completion request. */
async function sentMaxTokens(
	evalName: string,
	extra: readonly string[] = [],
): Promise<{ maxTokens: unknown[]; stderr: string }> {
	const before = server?.requests.length ?? 0;
	const run = await runCliCommand(
		oaievalCommand,
		[
			'openai/m',
			evalName,
			'--registry_path',
			registry,
			'--base-url',
			server?.baseUrl ?? '',
			...extra,
		],
		'disk',
	);
	expect(run.stderr).not.toMatch(/rejected|cannot/u);
	expect(run.exitCode).toBe(0);
	expect(run.stdout).toContain('accuracy: 1.0');
	const posts = (server?.requests ?? [])
		.slice(before)
		.filter((request) => request.method === 'POST');
	expect(posts).toHaveLength(2);
	return {
		maxTokens: posts.map((request) => (request.body as Record<string, unknown>)['max_tokens']),
		stderr: run.stderr,
	};
}

describe('oaieval: the max_tokens sent to an endpoint', () => {
	it('Match (upstream passes none): the app default 256, said on stderr', async () => {
		const { maxTokens, stderr } = await sentMaxTokens('one-word-match');
		expect(maxTokens).toEqual([256, 256]);
		expect(stderr).toContain(
			'Note: max_tokens 256 (app default: the template sends none); parity: provider default replaced',
		);
	});

	it("FuzzyMatch: the template's own 100, no note", async () => {
		const { maxTokens, stderr } = await sentMaxTokens('one-word-fuzzy');
		expect(maxTokens).toEqual([100, 100]);
		expect(stderr).not.toContain('parity: provider default replaced');
	});

	it('--default_max_tokens none sends none (upstream); N sends N and says so', async () => {
		const none = await sentMaxTokens('one-word-match', ['--default_max_tokens', 'none']);
		expect(none.maxTokens).toEqual([undefined, undefined]);
		expect(none.stderr).not.toContain('max_tokens');
		const set = await sentMaxTokens('one-word-match', ['--default_max_tokens', '16']);
		expect(set.maxTokens).toEqual([16, 16]);
		expect(set.stderr).toContain('Note: max_tokens 16 (your setting; the template sends none)');
	});

	it('refuses a --default_max_tokens that is not a count or none', async () => {
		for (const bad of ['0', 'lots']) {
			const run = await runCliCommand(
				oaievalCommand,
				['openai/m', 'one-word-match', '--registry_path', registry, '--default_max_tokens', bad],
				'disk',
			);
			expect(run.exitCode).toBe(2);
			expect(run.stderr).toContain('--default_max_tokens');
		}
	});
});
