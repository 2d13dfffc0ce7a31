// `serve`'s vLLM `/tokenize` (ids and vocabulary strings from the model's tokenizer.json), and
// `surprisals` through an endpoint naming tokens as a local run does (`Ġcat`, not ` cat`), from
// that route; an endpoint without it keeps the text form and says so. gpt2-random-tiny, real engine.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CliInputError, type CliIo } from '../../../src/cli/shared/cli-io';
import { surprisalsCommand } from '../../../src/cli/commands/surprisals';
import { startServer, type RunningServer } from '../../../src/cli/serve/server';
import { readLmZooSurprisals } from '../../../src/core/syntaxgym/formats/lm-zoo-surprisals';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../../src/worker/node-engine';
import { sendJson, startRecordingServer } from '../../providers/recording-server';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MODEL = 'gpt2-random-tiny';
const SENTENCES = ['The keys to the cabinet are on the table.', 'Naïve cafés don’t close.', ''];

let server: RunningServer;
beforeAll(async () => {
	server = await startServer({ model: MODEL, port: 0, engine: createNodeEngine({ threads: 2 }) });
});
afterAll(async () => {
	await server.close();
});

function rootOf(baseUrl: string): string {
	return baseUrl.replace(/\/v1$/, '');
}

async function tokenize(body: unknown): Promise<Response> {
	return fetch(`${rootOf(server.baseUrl)}/tokenize`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
}

/** `surprisals` over SENTENCES with `args`; stdout parsed, stderr as is. */
async function runSurprisals(args: readonly string[]) {
	const out = { stdout: '', stderr: '' };
	const io: CliIo = {
		stdout: (text) => (out.stdout += text),
		stderr: (text) => (out.stderr += text),
		readText: async (path) => {
			if (path !== 's.txt') throw new CliInputError(`${path}: no such file`);
			return SENTENCES.join('\n') + '\n';
		},
	};
	expect(await surprisalsCommand(['s.txt', '--threads', '2', ...args], io)).toBe(0);
	return { sentences: readLmZooSurprisals(out.stdout), stderr: out.stderr };
}

describe('POST /tokenize', () => {
	it('gives the ids of tokenizer.json and, when asked, their vocabulary strings', async () => {
		const file = join(NODE_BUNDLED_MODELS_PATH, MODEL, 'tokenizer.json');
		const vocab = (JSON.parse(await readFile(file, 'utf8')) as { model: { vocab: object } }).model
			.vocab as Record<string, number>;
		const answer = await tokenize({ model: MODEL, prompt: ' the cat', return_token_strs: true });
		expect(answer.status).toBe(200);
		const json = (await answer.json()) as {
			count: number;
			max_model_len: number;
			tokens: number[];
			token_strs: string[];
		};
		// Byte-level BPE: the vocabulary strings spell the text's bytes, a space as `Ġ`.
		expect(json.token_strs.join('')).toBe('ĠtheĠcat');
		expect(json.tokens).toEqual(json.token_strs.map((s) => vocab[s]));
		expect(json.count).toBe(json.tokens.length);
		expect(json.max_model_len).toBe(server.info.maxPositions);
		const plain = (await (await tokenize({ prompt: ' the cat' })).json()) as {
			token_strs: unknown;
		};
		expect(plain.token_strs).toBeNull();
	});

	it('404 for another model, 400 without a prompt', async () => {
		expect((await tokenize({ model: 'gpt-4', prompt: 'x' })).status).toBe(404);
		expect((await tokenize({ model: MODEL })).status).toBe(400);
	});
});

describe('surprisals through an endpoint', () => {
	it.each(['reference', 'bos'])(
		'names tokens as the local run does, with the same surprisals (%s)',
		async (convention) => {
			const local = await runSurprisals(['--model', MODEL, '--convention', convention]);
			const remote = await runSurprisals([
				'--model',
				`openai/${MODEL}`,
				'--base-url',
				server.baseUrl,
				'--convention',
				convention,
			]);
			expect(remote.stderr).not.toMatch(/text form/);
			expect(remote.sentences.map((s) => s.tokens.map((t) => t.token))).toEqual(
				local.sentences.map((s) => s.tokens.map((t) => t.token)),
			);
			expect(local.sentences[0]?.tokens.some((t) => t.token.startsWith('Ġ'))).toBe(true);
			remote.sentences.forEach((sentence, i) => {
				sentence.tokens.forEach((token, k) => {
					const bits = local.sentences[i]?.tokens[k]?.surprisalBits ?? NaN;
					expect(token.surprisalBits).toBeCloseTo(bits, 4);
				});
			});
		},
	);

	it('keeps the text form, and says so, when the endpoint has no /tokenize', async () => {
		// A proxy to serve that answers 404 on /tokenize, as OpenAI's API does.
		const proxy = await startRecordingServer((request, response) => {
			if (request.url === '/tokenize') {
				sendJson(response, 404, { error: { message: 'Not found' } });
				return;
			}
			void fetch(`${rootOf(server.baseUrl)}${request.url}`, {
				method: request.method,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(request.body),
			}).then(async (answer) => sendJson(response, answer.status, await answer.json()));
		});
		try {
			const remote = await runSurprisals([
				'--model',
				`openai/${MODEL}`,
				'--base-url',
				proxy.baseUrl,
			]);
			expect(remote.stderr).toMatch(/note: tokens are in text form \(.*\/tokenize answered 404/);
			const tokens = remote.sentences[0]?.tokens.map((t) => t.token) ?? [];
			expect(tokens.join('')).toBe(SENTENCES[0]);
			expect(tokens.some((t) => t.startsWith(' '))).toBe(true);
		} finally {
			await proxy.close();
		}
	});
});
