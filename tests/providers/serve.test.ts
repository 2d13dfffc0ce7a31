// `serve` as a model provider (the server function on 127.0.0.1 port 0, a real socket; no mocked
// fetch): generation and streaming through EndpointModel, echoed prompt logprobs equal to the local
// engine's surprisals, a bundled suite run through the endpoint equal to the local run, and
// "cannot score" for a server without echo. The HTTP rules are in tests/cli/serve/.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCommand } from '../../src/cli/commands/run';
import { startServer, type RunningServer } from '../../src/cli/serve/server';
import { generateCompletion, type GenerationEvent } from '../../src/core/model/generation';
import type { SurprisalConvention } from '../../src/core/model/model-spec';
import { EndpointModel } from '../../src/providers/endpoint-model';
import { scoreTextsViaEndpoint } from '../../src/providers/endpoint-scoring';
import { openTextModel } from '../../src/providers/open-model';
import { EndpointCannotScoreError, OpenAIClient } from '../../src/providers/openai-client';
import { createNodeEngine } from '../../src/worker/node-engine';
import { runCliCommand } from '../cli/run-cli-command';
import { sendJson, startRecordingServer } from './recording-server';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const CALL = { runId: 'r', sampleId: 's', role: 'policy' } as const;
const TEXTS = [
	'The keys to the cabinet are on the table.',
	'The author that the guards like laughs.',
	'Café owners in Zürich — naïvely — said "hello" twice.',
	'',
	'A single<|endoftext|>special token inside.',
];

const engine = createNodeEngine({ threads: 2 });
let tiny: RunningServer;
let small: RunningServer;
beforeAll(async () => {
	tiny = await startServer({ model: 'gpt2-random-tiny', port: 0, engine });
	small = await startServer({ model: 'gpt2-en-small', port: 0, engine });
});
afterAll(async () => {
	await tiny.close();
	await small.close();
});

function maxDifferenceBits(
	local: readonly { tokens: readonly { surprisalBits: number; start?: number; end?: number }[] }[],
	remote: readonly { tokens: readonly { surprisalBits: number; start?: number; end?: number }[] }[],
): number {
	let max = 0;
	local.forEach((text, i) => {
		const other = remote[i]?.tokens ?? [];
		expect(other.map((t) => [t.start, t.end])).toEqual(text.tokens.map((t) => [t.start, t.end]));
		text.tokens.forEach((t, k) => {
			max = Math.max(max, Math.abs(t.surprisalBits - (other[k]?.surprisalBits ?? Number.NaN)));
		});
	});
	return max;
}

describe('serve: models and generation', () => {
	it('lists its model', async () => {
		const client = new OpenAIClient({ baseUrl: tiny.baseUrl });
		expect(await client.listModels()).toEqual(['gpt2-random-tiny']);
	});

	it('generates the local engine’s greedy completion, streamed and not', async () => {
		const request = {
			prompt: { kind: 'chat' as const, messages: [{ role: 'user', content: 'Tell me a story.' }] },
			params: { temperature: 0, max_tokens: 12 },
		};
		const local = await engine.generate({ modelKey: small.info.modelKey, ...request });
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'gpt2-en-small', baseUrl: small.baseUrl },
		});
		const events: GenerationEvent[] = [];
		for await (const event of model.generate(request, CALL)) events.push(event);
		const tokens = events.filter((e) => e.type === 'token').map((e) => e.text);
		const done = events.at(-1);
		expect(tokens.length).toBeGreaterThan(1);
		expect(tokens.join('')).toBe(local.completion);
		expect(done).toEqual({
			type: 'done',
			completion: local.completion,
			finishReason: local.finishReason,
			usage: local.usage,
			// The model name the server answered with (oaieval's sampling events record it).
			model: 'gpt2-en-small',
		});
		const plain = await model.client.chatCompletion({
			model: 'gpt2-en-small',
			messages: [{ role: 'user', content: 'Tell me a story.' }],
			temperature: 0,
			max_tokens: 12,
		});
		expect(plain.choices[0]?.message?.content).toBe(local.completion);
		expect(plain.usage).toEqual({
			prompt_tokens: local.usage.promptTokens,
			completion_tokens: local.usage.completionTokens,
			total_tokens: local.usage.promptTokens + local.usage.completionTokens,
		});
	});

	it('stops a streamed generation when the client cancels, and keeps serving', async () => {
		const model = new EndpointModel({
			spec: { source: 'openai', model: 'gpt2-random-tiny', baseUrl: tiny.baseUrl },
		});
		const controller = new AbortController();
		const events: GenerationEvent[] = [];
		for await (const event of model.generate(
			{ prompt: { kind: 'text', text: 'Once' }, params: { temperature: 0, max_tokens: 100 } },
			CALL,
			controller.signal,
		)) {
			events.push(event);
			if (event.type === 'token') controller.abort();
		}
		expect(events.filter((e) => e.type === 'token').length).toBeLessThan(5);
		expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'cancelled' });
		const next = await generateCompletion(
			model,
			{ prompt: { kind: 'text', text: 'Twice' }, params: { temperature: 0, max_tokens: 2 } },
			CALL,
		);
		expect(next.usage?.completionTokens).toBe(2);
	});

	it('openTextModel opens openai/<m> from OPENAI_BASE_URL / OPENAI_API_KEY, key never in the spec', async () => {
		const opened = await openTextModel('openai/gpt2-random-tiny', {
			env: { OPENAI_BASE_URL: `${tiny.baseUrl}/`, OPENAI_API_KEY: 'sk-secret' },
		});
		expect(opened.spec).toEqual({
			source: 'openai',
			model: 'gpt2-random-tiny',
			baseUrl: tiny.baseUrl,
		});
		expect(JSON.stringify(opened.spec)).not.toContain('sk-secret');
		const local = await engine.generate({
			modelKey: tiny.info.modelKey,
			prompt: { kind: 'text', text: 'Once' },
			params: { temperature: 0, max_tokens: 4 },
		});
		const done = await generateCompletion(
			opened.model,
			{ prompt: { kind: 'text', text: 'Once' }, params: { temperature: 0, max_tokens: 4 } },
			CALL,
		);
		expect(done.completion).toBe(local.completion);
		expect(opened.client?.usage.completionTokens).toBe(4);
	});

	it('answers /v1/completions for a list of prompts, with stop sequences and seeds', async () => {
		const client = new OpenAIClient({ baseUrl: tiny.baseUrl });
		const greedy = await client.completion({
			model: 'gpt2-random-tiny',
			prompt: ['One', 'Two'],
			max_tokens: 8,
			temperature: 0,
		});
		expect(greedy.choices.map((c) => c.index)).toEqual([0, 1]);
		const first = greedy.choices[0]?.text ?? '';
		const stop = first.slice(4, 6);
		const stopped = await client.completion({
			model: 'gpt2-random-tiny',
			prompt: 'One',
			max_tokens: 8,
			temperature: 0,
			stop,
		});
		expect(stopped.choices[0]?.text).toBe(first.slice(0, first.indexOf(stop)));
		expect(stopped.choices[0]?.finish_reason).toBe('stop');
		const sampled = (seed: number) =>
			client.completion({ prompt: 'One', max_tokens: 8, temperature: 1, seed });
		expect((await sampled(3)).choices[0]?.text).toBe((await sampled(3)).choices[0]?.text);
		expect(greedy.usage?.completion_tokens).toBe(16);
	});
});

describe('serve: prompt logprobs', () => {
	it('echoes vLLM-shaped logprobs: first null, natural logs, text_offset', async () => {
		const client = new OpenAIClient({ baseUrl: tiny.baseUrl });
		const json = await client.completion({
			model: 'gpt2-random-tiny',
			prompt: 'The cat sat.',
			echo: true,
			logprobs: 1,
			max_tokens: 0,
		});
		const choice = json.choices[0];
		expect(choice?.text).toBe('The cat sat.');
		const lp = choice?.logprobs;
		expect(lp?.token_logprobs?.[0]).toBeNull();
		expect(lp?.tokens?.join('')).toBe('The cat sat.');
		expect(lp?.text_offset).toEqual(
			lp?.tokens?.map((_, i) => (lp.tokens ?? []).slice(0, i).join('').length),
		);
		expect(lp?.token_logprobs?.slice(1).every((x) => x !== null && x < 0)).toBe(true);
		expect(json.usage?.prompt_tokens).toBe(lp?.tokens?.length);
		expect(json.usage?.completion_tokens).toBe(0);
	});

	it('reads <|endoftext|> in a prompt as the special token, as vLLM does', async () => {
		const client = new OpenAIClient({ baseUrl: small.baseUrl });
		const json = await client.completion({
			prompt: '<|endoftext|>The cat',
			echo: true,
			logprobs: 1,
			max_tokens: 0,
		});
		const lp = json.choices[0]?.logprobs;
		expect(lp?.tokens?.[0]).toBe('<|endoftext|>');
		expect(lp?.text_offset?.[1]).toBe('<|endoftext|>'.length);
		const local = await engine.scoreTexts({
			modelKey: small.info.modelKey,
			texts: ['The cat'],
			convention: 'bos',
		});
		const bits = (lp?.token_logprobs ?? []).slice(1).map((x) => -(x ?? NaN) / Math.LN2);
		const expected = local.texts[0]?.tokens.slice(1).map((t) => t.surprisalBits) ?? [];
		expect(bits).toHaveLength(expected.length);
		bits.forEach((b, i) => expect(Math.abs(b - (expected[i] ?? NaN))).toBeLessThanOrEqual(1e-4));
	});

	it.each<[string, SurprisalConvention, () => RunningServer]>([
		['gpt2-random-tiny', 'reference', () => tiny],
		['gpt2-random-tiny', 'bos', () => tiny],
		['gpt2-en-small', 'reference', () => small],
		['gpt2-en-small', 'bos', () => small],
		['gpt2-en-small', 'bos+eos', () => small],
	])(
		'%s, %s: endpoint surprisals equal the local engine’s (≤ 1e-4 bits)',
		async (model, convention, server) => {
			const local = await engine.scoreTexts({
				modelKey: server().info.modelKey,
				texts: TEXTS,
				convention,
			});
			const remote = await scoreTextsViaEndpoint(
				new OpenAIClient({ baseUrl: server().baseUrl }),
				TEXTS,
				{ model, convention, batchSize: 2 },
			);
			const difference = maxDifferenceBits(local.texts, remote);
			expect(difference).toBeLessThanOrEqual(1e-4);
		},
	);

	it('runs a bundled suite through the endpoint with the local results', async () => {
		const args = ['suites/subject-verb-agreement-pp.json', '--convention', 'reference'];
		const local = await runCliCommand(runCommand, [...args, '--model', 'gpt2-en-small'], 'disk');
		const remote = await runCliCommand(
			runCommand,
			[...args, '--model', 'openai/gpt2-en-small', '--base-url', small.baseUrl],
			'disk',
		);
		expect(local.exitCode).toBe(0);
		expect(remote.exitCode).toBe(0);
		expect(remote.stdout).toBe(local.stdout);
		expect(remote.stderr).toContain('prompt logprobs');
	});

	it('sends no empty prompt (servers refuse it): an empty text has no tokens', async () => {
		const echo = await startRecordingServer((req, res) => {
			const prompts = (req.body as { prompt: string[] }).prompt;
			sendJson(res, 200, {
				choices: prompts.map((p, index) => ({
					index,
					text: p,
					logprobs: { tokens: [p], token_logprobs: [null], text_offset: [0] },
				})),
			});
		});
		try {
			const scored = await scoreTextsViaEndpoint(
				new OpenAIClient({ baseUrl: echo.baseUrl }),
				['', 'Hi', ''],
				{ model: 'm', convention: 'reference' },
			);
			expect(scored.map((t) => t.tokens.length)).toEqual([0, 1, 0]);
			expect(echo.requests.map((r) => (r.body as { prompt: string[] }).prompt)).toEqual([['Hi']]);
		} finally {
			await echo.close();
		}
	});

	it('says "cannot score text" for a server that refuses echo (llama.cpp)', async () => {
		const llama = await startRecordingServer((_req, res) =>
			sendJson(res, 400, { error: { message: 'Only no echo is supported' } }),
		);
		try {
			const failure = scoreTextsViaEndpoint(new OpenAIClient({ baseUrl: llama.baseUrl }), ['Hi.'], {
				model: 'm',
				convention: 'reference',
			});
			await expect(failure).rejects.toBeInstanceOf(EndpointCannotScoreError);
			await expect(failure).rejects.toThrow('cannot score text');
		} finally {
			await llama.close();
		}
	});
});
