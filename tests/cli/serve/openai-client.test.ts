// `serve` through the official `openai` npm client, as a user of vLLM would call it: models list
// and retrieve, completions with echo and logprobs, chat with max_tokens / max_completion_tokens,
// both streams with and without stream_options.include_usage, and vLLM's errors. The client only
// reaches serve on 127.0.0.1 (dummy key, no retries). Model: gpt2-random-tiny (real engine).
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/cli/serve/server';
import { createNodeEngine } from '../../../src/worker/node-engine';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const MODEL = 'gpt2-random-tiny';
/** The same model as a folder: its id has slashes, which the client URL-encodes on retrieve. */
const FOLDER_MODEL = 'public/models/gpt2-random-tiny';
const KEY = 'sk-dummy-serve-test';
const PROMPT = 'The cat sat on the mat';

const engine = createNodeEngine({ threads: 2 });
let server: RunningServer;
let client: OpenAI;

function clientOf(baseURL: string, apiKey = KEY): OpenAI {
	return new OpenAI({ baseURL, apiKey, maxRetries: 0, timeout: 30_000 });
}

beforeAll(async () => {
	server = await startServer({ model: MODEL, port: 0, engine, apiKey: KEY });
	expect(new URL(server.baseUrl).hostname).toBe('127.0.0.1');
	client = clientOf(server.baseUrl);
});
afterAll(async () => {
	await server.close();
});

/** The error a call rejects with (an OpenAI.APIError for every HTTP error answer). */
async function failureOf(call: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
	const error = await call.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(OpenAI.APIError);
	return error as InstanceType<typeof OpenAI.APIError>;
}

describe('models', () => {
	it('lists the served model and retrieves it by id; another id is 404', async () => {
		const page = await client.models.list();
		expect(page.data.map((m) => m.id)).toEqual([MODEL]);
		const listed = page.data[0];
		expect(listed).toMatchObject({ object: 'model', owned_by: 'benchtop' });
		expect((listed as unknown as { max_model_len: number }).max_model_len).toBe(
			server.info.maxPositions,
		);
		expect(await client.models.retrieve(MODEL)).toEqual(listed);
		const missing = await failureOf(client.models.retrieve('gpt-4'));
		expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
		expect(missing.code).toBe('model_not_found');
	});

	it('retrieves a model whose id has slashes (sent URL-encoded)', async () => {
		const folder = await startServer({ model: FOLDER_MODEL, port: 0, engine });
		try {
			const model = await clientOf(folder.baseUrl).models.retrieve(FOLDER_MODEL);
			expect(model.id).toBe(FOLDER_MODEL);
		} finally {
			await folder.close();
		}
	});

	it('refuses a wrong key with 401 (AuthenticationError)', async () => {
		const wrong = await failureOf(clientOf(server.baseUrl, 'sk-wrong').models.list());
		expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
	});
});

describe('completions', () => {
	it('echoes the prompt with its logprobs (max_tokens 0): the engine’s own surprisals', async () => {
		const answer = await client.completions.create({
			model: MODEL,
			prompt: PROMPT,
			echo: true,
			logprobs: 1,
			max_tokens: 0,
			temperature: 0,
		});
		const choice = answer.choices[0];
		expect(choice?.text).toBe(PROMPT);
		const logprobs = choice?.logprobs;
		expect(logprobs?.tokens?.join('')).toBe(PROMPT);
		const scored = await engine.scoreTexts({
			modelKey: server.info.modelKey,
			texts: [PROMPT],
			convention: 'reference',
		});
		const tokens = scored.texts[0]?.tokens ?? [];
		expect(logprobs?.token_logprobs).toHaveLength(tokens.length);
		expect(logprobs?.token_logprobs?.[0]).toBeNull();
		tokens.slice(1).forEach((token, i) => {
			expect(logprobs?.token_logprobs?.[i + 1]).toBeCloseTo(-token.surprisalBits * Math.LN2, 5);
		});
		const offsets = logprobs?.text_offset ?? [];
		expect(offsets.map((o, i) => PROMPT.slice(o, offsets[i + 1]))).toEqual(logprobs?.tokens);
		expect(answer.usage).toEqual({
			prompt_tokens: tokens.length,
			completion_tokens: 0,
			total_tokens: tokens.length,
		});
	});

	it('top_logprobs hold the k most likely tokens, sorted, with the chosen one (logprobs: 3)', async () => {
		const answer = await client.completions.create({
			model: MODEL,
			prompt: PROMPT,
			echo: true,
			logprobs: 3,
			max_tokens: 0,
			temperature: 0,
		});
		const logprobs = answer.choices[0]?.logprobs;
		const tops = logprobs?.top_logprobs ?? [];
		expect(tops).toHaveLength(logprobs?.tokens?.length ?? -1);
		expect(tops[0]).toBeNull();
		tops.slice(1).forEach((top, i) => {
			const chosen = logprobs?.tokens?.[i + 1] ?? '';
			const entries = Object.entries(top ?? {});
			// The chosen token, then the top 3 (3 or 4 entries: the chosen may be among them).
			expect(entries.length === 3 || entries.length === 4).toBe(true);
			expect(top?.[chosen]).toBeCloseTo(logprobs?.token_logprobs?.[i + 1] ?? NaN, 6);
			const rest = entries.filter(([token]) => token !== chosen).map(([, value]) => value);
			expect(rest).toEqual([...rest].sort((a, b) => b - a));
			expect(Math.max(...entries.map(([, value]) => value))).toBeLessThanOrEqual(0);
		});
	});

	it('generates max_tokens tokens; logprobs without echo cover the completion only', async () => {
		const answer = await client.completions.create({
			model: MODEL,
			prompt: PROMPT,
			logprobs: 1,
			max_tokens: 3,
			temperature: 0,
		});
		const choice = answer.choices[0];
		expect(answer.usage?.completion_tokens).toBe(3);
		expect(choice?.finish_reason).toBe('length');
		expect(choice?.logprobs?.tokens?.join('')).toBe(choice?.text);
		expect(choice?.logprobs?.text_offset?.[0]).toBe(0);
		const echoed = await client.completions.create({
			model: MODEL,
			prompt: PROMPT,
			echo: true,
			max_tokens: 3,
			temperature: 0,
		});
		expect(echoed.choices[0]?.text).toBe(PROMPT + (choice?.text ?? ''));
	});

	it('streams: no usage unless stream_options.include_usage, then one final chunk without choices', async () => {
		const request = { model: MODEL, prompt: PROMPT, max_tokens: 3, temperature: 0 } as const;
		const whole = await client.completions.create(request);
		const plain = [];
		for await (const chunk of await client.completions.create({ ...request, stream: true }))
			plain.push(chunk);
		expect(plain.map((c) => c.choices[0]?.text ?? '').join('')).toBe(whole.choices[0]?.text);
		expect(plain.at(-1)?.choices[0]?.finish_reason).toBe('length');
		expect(plain.every((c) => !('usage' in c))).toBe(true);
		const counted = [];
		const stream = await client.completions.create({
			...request,
			stream: true,
			stream_options: { include_usage: true },
		});
		for await (const chunk of stream) counted.push(chunk);
		const last = counted.at(-1);
		expect(last?.choices).toEqual([]);
		expect(last?.usage).toEqual(whole.usage);
		expect(counted.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1)).toBe(
			true,
		);
	});
});

describe('chat', () => {
	const messages = [{ role: 'user' as const, content: 'Say something.' }];

	it.each([
		['max_completion_tokens', { max_completion_tokens: 3 }, 3],
		['max_tokens', { max_tokens: 2 }, 2],
		['max_completion_tokens over max_tokens', { max_tokens: 5, max_completion_tokens: 1 }, 1],
	])('generates as many tokens as %s asks', async (_what, limit, expected) => {
		const answer = await client.chat.completions.create({
			model: MODEL,
			messages,
			temperature: 0,
			...limit,
		});
		expect(answer.object).toBe('chat.completion');
		expect(answer.usage?.completion_tokens).toBe(expected);
		expect(answer.choices[0]?.finish_reason).toBe('length');
		expect(answer.choices[0]?.message.role).toBe('assistant');
	});

	it('streams: no usage unless stream_options.include_usage, then one final chunk without choices', async () => {
		const request = { model: MODEL, messages, max_completion_tokens: 3, temperature: 0 };
		const whole = await client.chat.completions.create(request);
		const plain = [];
		for await (const chunk of await client.chat.completions.create({ ...request, stream: true }))
			plain.push(chunk);
		expect(plain[0]?.choices[0]?.delta.role).toBe('assistant');
		const text = plain.map((c) => c.choices[0]?.delta.content ?? '').join('');
		expect(text).toBe(whole.choices[0]?.message.content);
		expect(plain.at(-1)?.choices[0]?.finish_reason).toBe('length');
		expect(plain.every((c) => !('usage' in c))).toBe(true);
		const counted = [];
		const stream = await client.chat.completions.create({
			...request,
			stream: true,
			stream_options: { include_usage: true },
		});
		for await (const chunk of stream) counted.push(chunk);
		const last = counted.at(-1);
		expect(last?.object).toBe('chat.completion.chunk');
		expect(last?.choices).toEqual([]);
		expect(last?.usage).toEqual(whole.usage);
		expect(counted.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1)).toBe(
			true,
		);
	});
});

describe('errors in vLLM’s words', () => {
	it('400 when max_tokens alone exceeds the context, naming the field', async () => {
		const limit = server.info.maxPositions;
		const completion = await failureOf(
			client.completions.create({ model: MODEL, prompt: PROMPT, max_tokens: 1_000_000 }),
		);
		expect(completion).toBeInstanceOf(OpenAI.BadRequestError);
		expect(completion.error).toMatchObject({
			message: `max_tokens=1000000 cannot be greater than max_model_len=${limit}. Please request fewer output tokens.`,
			param: 'max_tokens',
		});
		const chat = await failureOf(
			client.chat.completions.create({
				model: MODEL,
				messages: [{ role: 'user', content: 'hi' }],
				max_completion_tokens: 1_000_000,
			}),
		);
		expect(chat.status).toBe(400);
		expect(chat.param).toBe('max_completion_tokens');
	});

	it('400 when prompt + max_tokens exceed the context, with the prompt’s token count', async () => {
		const limit = server.info.maxPositions;
		const prompt = 'hello '.repeat(40);
		const fits = await client.completions.create({ model: MODEL, prompt, max_tokens: 1 });
		const promptTokens = fits.usage?.prompt_tokens ?? 0;
		const requested = limit - promptTokens + 1;
		for (const stream of [false, true]) {
			const refused = await failureOf(
				client.completions.create({ model: MODEL, prompt, max_tokens: requested, stream }),
			);
			expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
			expect(refused.error).toMatchObject({
				message:
					`You passed ${promptTokens} input tokens and requested ${requested} output tokens. ` +
					`However, the model's context length is only ${limit} tokens, resulting in a ` +
					`maximum input length of ${limit - requested} tokens. Please reduce the length of the input prompt.`,
				param: 'input_tokens',
			});
		}
		const chat = await failureOf(
			client.chat.completions.create({
				model: MODEL,
				messages: [{ role: 'user', content: prompt }],
				max_tokens: limit - 10,
				stream: true,
			}),
		);
		expect(chat).toBeInstanceOf(OpenAI.BadRequestError);
		expect(chat.message).toMatch(
			/^400 You passed \d+ input tokens and requested \d+ output tokens/,
		);
	});

	it('400 for stream_options without stream; 404 for another model', async () => {
		const options = await failureOf(
			client.chat.completions.create({
				model: MODEL,
				messages: [{ role: 'user', content: 'hi' }],
				stream_options: { include_usage: true },
			}),
		);
		expect(options.status).toBe(400);
		expect(options.error).toMatchObject({
			message: 'Stream options can only be defined when `stream=True`.',
			param: 'stream_options',
		});
		const missing = await failureOf(
			client.completions.create({ model: 'gpt-4', prompt: PROMPT, max_tokens: 1 }),
		);
		expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
	});
});
