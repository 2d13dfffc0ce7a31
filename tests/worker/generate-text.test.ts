// Local generation in Node (TransformersEngine on onnxruntime-node, bundled GPT-2s): greedy equals
// transformers.js's own greedy decoding, seeded sampling repeats, stop sequences, chat rendering,
// streaming and cancel.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AutoModelForCausalLM, AutoTokenizer, env } from '@huggingface/transformers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { ModelSpec } from '../../src/core/model/model-spec';
import { renderChatAsText } from '../../src/core/model/render-chat-as-text';
import type { GenerateTextOptions } from '../../src/worker/engine';
import { CancelledError } from '../../src/worker/engine-errors';
import { FAKE_GREEDY_TOKENS, FakeEngine } from '../../src/worker/fake-engine';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../src/worker/node-engine';
import type { GenerateTextParams } from '../../src/worker/protocol';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const TINY: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'node-cpu',
};
const SMALL: ModelSpec = { ...TINY, id: 'gpt2-en-small' };
const PROMPT = 'The children walked to the river and';

const engine = createNodeEngine({ threads: 2 });
let tinyKey = '';
let smallKey = '';
beforeAll(async () => {
	tinyKey = (await engine.loadModel({ spec: TINY })).modelKey;
	smallKey = (await engine.loadModel({ spec: SMALL })).modelKey;
});

async function generate(
	modelKey: string,
	params: GenerateTextParams['params'],
	prompt: GenerateTextParams['prompt'] = { kind: 'text', text: PROMPT },
	options: GenerateTextOptions = {},
) {
	const pieces: string[] = [];
	const result = await engine.generate(
		{ modelKey, prompt, params },
		{ ...options, onToken: (text) => pieces.push(text) },
	);
	return { ...result, streamed: pieces.join(''), pieces };
}

describe('greedy generation', () => {
	it('equals transformers.js greedy decoding of the same model (gpt2-en-small)', async () => {
		const ours = await generate(smallKey, { temperature: 0, max_tokens: 12 });
		env.localModelPath = NODE_BUNDLED_MODELS_PATH;
		env.allowLocalModels = true;
		env.allowRemoteModels = false;
		const tokenizer = await AutoTokenizer.from_pretrained('gpt2-en-small');
		const model = await AutoModelForCausalLM.from_pretrained('gpt2-en-small', {
			dtype: 'fp32',
			device: 'cpu',
		});
		const inputs = tokenizer(PROMPT);
		const output = (await model.generate({
			...inputs,
			max_new_tokens: 12,
			do_sample: false,
		})) as { tolist(): bigint[][] };
		const ids = (output.tolist()[0] ?? []).map(Number).slice(inputs.input_ids.dims[1]);
		const eos = ids.indexOf(0);
		const expected = tokenizer.decode(eos >= 0 ? ids.slice(0, eos) : ids, {
			skip_special_tokens: true,
		});
		await model.dispose();
		expect(ours.completion).toBe(expected);
		expect(ours.streamed).toBe(ours.completion);
		expect(ours.usage.promptTokens).toBe(inputs.input_ids.dims[1]);
		if (eos < 0) {
			expect(ours.finishReason).toBe('length');
			expect(ours.usage.completionTokens).toBe(12);
		}
	});

	it('is deterministic and streams token by token', async () => {
		const a = await generate(tinyKey, { temperature: 0, max_tokens: 10 });
		const b = await generate(tinyKey, { temperature: 0, max_tokens: 10 });
		expect(b.completion).toBe(a.completion);
		expect(a.finishReason).toBe('length');
		expect(a.usage.completionTokens).toBe(10);
		expect(a.pieces.length).toBeGreaterThan(1);
		expect(a.streamed).toBe(a.completion);
	});

	it('renders a chat without a chat template as the Evals text prompt', async () => {
		const messages = [
			{ role: 'system', content: 'Answer briefly.' },
			{ role: 'user', content: 'Where did the children walk?' },
		];
		const chat = await generate(
			smallKey,
			{ temperature: 0, max_tokens: 6 },
			{ kind: 'chat', messages },
		);
		const text = await generate(
			smallKey,
			{ temperature: 0, max_tokens: 6 },
			{ kind: 'text', text: renderChatAsText(messages, { forCompletion: true }) },
		);
		expect(chat.completion).toBe(text.completion);
		expect(chat.usage.promptTokens).toBe(text.usage.promptTokens);
	});
});

describe('chat template', () => {
	it('renders a chat with the tokenizer’s template when it has one', async () => {
		// gpt2-random-tiny in a folder, its tokenizer given a small chat template of our own.
		const folder = await mkdtemp(join(tmpdir(), 'benchtop-chat-'));
		await cp(join(NODE_BUNDLED_MODELS_PATH, 'gpt2-random-tiny'), folder, { recursive: true });
		const configPath = join(folder, 'tokenizer_config.json');
		const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
		config['chat_template'] =
			'{% for m in messages %}[{{ m.role }}] {{ m.content }}\n{% endfor %}' +
			'{% if add_generation_prompt %}[assistant]{% endif %}';
		await writeFile(configPath, JSON.stringify(config));
		try {
			const info = await engine.loadModel({
				spec: { source: 'local', id: folder, dtype: 'fp32', backend: 'node-cpu' },
			});
			expect(info.hasChatTemplate).toBe(true);
			const messages = [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'system', content: 'Hello there', name: 'example_user' },
				{ role: 'user', content: 'Hi?' },
			];
			const params = { temperature: 0, max_tokens: 6 };
			const chat = await generate(info.modelKey, params, { kind: 'chat', messages });
			const text = await generate(info.modelKey, params, {
				kind: 'text',
				text: '[system] Be brief.\n[user] Hello there\n[user] Hi?\n[assistant]',
			});
			expect(chat.completion).toBe(text.completion);
			expect(chat.usage.promptTokens).toBe(text.usage.promptTokens);
			await engine.disposeModel(info.modelKey);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

	it('generates from a picked local folder (files handed over, as in the browser)', async () => {
		const folder = join(NODE_BUNDLED_MODELS_PATH, 'gpt2-random-tiny');
		const localFiles = [];
		for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
			if (!entry.isFile()) continue;
			const full = join(entry.parentPath, entry.name);
			localFiles.push({
				path: full.slice(folder.length + 1).replaceAll('\\', '/'),
				file: new Blob([await readFile(full)]),
			});
		}
		const info = await engine.loadModel({
			spec: { source: 'local', id: 'picked tiny', dtype: 'fp32', backend: 'node-cpu' },
			localFiles,
		});
		const params = { temperature: 0, max_tokens: 8 };
		const picked = await generate(info.modelKey, params);
		const bundled = await generate(tinyKey, params);
		expect(picked.completion).toBe(bundled.completion);
		await engine.disposeModel(info.modelKey);
	});

	it('says a bundled GPT-2 has no chat template', async () => {
		expect((await engine.loadModel({ spec: TINY })).hasChatTemplate).toBe(false);
	});
});

describe('sampling', () => {
	it('repeats with the same seed and differs across seeds', async () => {
		const params = { temperature: 1, top_p: 0.95, max_tokens: 16 };
		const a = await generate(tinyKey, { ...params, seed: 7 });
		const b = await generate(tinyKey, { ...params, seed: 7 });
		const others = await Promise.all(
			[8, 9, 10].map(async (seed) => (await generate(tinyKey, { ...params, seed })).completion),
		);
		expect(b.completion).toBe(a.completion);
		expect(others.some((c) => c !== a.completion)).toBe(true);
	});
});

describe('penalties', () => {
	it('a large presence penalty keeps greedy decoding from repeating a token', async () => {
		const params = { temperature: 0, max_tokens: 24 };
		const tokensOf = async (text: string) =>
			(await engine.tokenize({ modelKey: tinyKey, text, convention: 'reference' })).tokens.map(
				(t) => t.token,
			);
		const plain = await tokensOf((await generate(tinyKey, params)).completion);
		const penalised = await tokensOf(
			(await generate(tinyKey, { ...params, presence_penalty: 100 })).completion,
		);
		// The random tiny model repeats itself when greedy; the penalty forbids it.
		expect(new Set(plain).size).toBeLessThan(plain.length);
		expect(new Set(penalised).size).toBe(penalised.length);
	});
});

describe('requests it cannot answer', () => {
	it.each([
		['n > 1', { n: 2 }, /n = 2/],
		['a prompt longer than the context', {}, /attends to 128 at most/],
	])('%s is a RangeError that says why', async (what, params, message) => {
		const text = what.startsWith('a prompt') ? 'word '.repeat(300) : PROMPT;
		await expect(
			engine.generate({ modelKey: tinyKey, prompt: { kind: 'text', text }, params }),
		).rejects.toThrow(message);
	});
});

describe('stop sequences', () => {
	it('cut the completion before the stop and never stream it', async () => {
		const full = await generate(tinyKey, { temperature: 0, max_tokens: 16 });
		const stop = full.completion.slice(6, 9);
		const cut = full.completion.indexOf(stop);
		const stopped = await generate(tinyKey, {
			temperature: 0,
			max_tokens: 16,
			stop: ['zzzq', stop],
		});
		expect(stopped.completion).toBe(full.completion.slice(0, cut));
		expect(stopped.finishReason).toBe('stop');
		expect(stopped.streamed).toBe(stopped.completion);
	});
});

describe('cancel', () => {
	it('stops within one token step with CancelledError', async () => {
		const controller = new AbortController();
		const pieces: string[] = [];
		const run = engine.generate(
			{
				modelKey: tinyKey,
				prompt: { kind: 'text', text: PROMPT },
				params: { temperature: 0, max_tokens: 200 },
			},
			{
				signal: controller.signal,
				onToken: (text) => {
					pieces.push(text);
					if (pieces.length === 2) controller.abort();
				},
			},
		);
		await expect(run).rejects.toBeInstanceOf(CancelledError);
		expect(pieces.length).toBeLessThanOrEqual(3);
	});
});

describe('FakeEngine generation', () => {
	const fake = new FakeEngine({ batchDelayMs: 5 });
	const load = async () => (await fake.loadModel({ spec: { ...TINY, id: 'fake-model' } })).modelKey;
	const prompt = { kind: 'text' as const, text: 'Hello there' };

	it('is deterministic when greedy: FAKE_GREEDY_TOKENS words, then stop', async () => {
		const modelKey = await load();
		const pieces: string[] = [];
		const a = await fake.generate(
			{ modelKey, prompt, params: { temperature: 0 } },
			{ onToken: (t) => pieces.push(t) },
		);
		const b = await fake.generate({ modelKey, prompt, params: { temperature: 0 } });
		expect(a.completion).toBe(b.completion);
		expect(a.finishReason).toBe('stop');
		expect(a.usage.completionTokens).toBe(FAKE_GREEDY_TOKENS);
		expect(pieces).toHaveLength(FAKE_GREEDY_TOKENS);
		expect(pieces.join('')).toBe(a.completion);
	});

	it('honours max_tokens, stop sequences and seeds', async () => {
		const modelKey = await load();
		const full = await fake.generate({ modelKey, prompt, params: { temperature: 0 } });
		const short = await fake.generate({
			modelKey,
			prompt,
			params: { temperature: 0, max_tokens: 2 },
		});
		expect(short.finishReason).toBe('length');
		expect(full.completion.startsWith(short.completion)).toBe(true);
		const word = full.completion.split(' ')[3] ?? '';
		const stopped = await fake.generate({
			modelKey,
			prompt,
			params: { temperature: 0, stop: [` ${word}`] },
		});
		expect(stopped.completion).toBe(full.completion.slice(0, full.completion.indexOf(` ${word}`)));
		const seeded = (seed: number) =>
			fake.generate({ modelKey, prompt, params: { temperature: 1, seed } });
		expect((await seeded(1)).completion).toBe((await seeded(1)).completion);
	});

	it('cancels with CancelledError', async () => {
		const modelKey = await load();
		const controller = new AbortController();
		const run = fake.generate(
			{ modelKey, prompt, params: { temperature: 0 } },
			{ signal: controller.signal, onToken: () => controller.abort() },
		);
		await expect(run).rejects.toBeInstanceOf(CancelledError);
	});
});
