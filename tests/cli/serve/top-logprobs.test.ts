// serve's echo `top_logprobs` (gpt2-random-tiny, `echo: true, logprobs: 5, max_tokens: 0`): each
// token's top 5 come from the graph's TopK, checked against a log-softmax of the plain model's full
// logits (onnxruntime-node, no fused tail) in float64; vLLM's dict shape (the token itself first)
// and its 400 for logprobs above 20. Also the WebGPU graph's decomposed tail, run here on the CPU.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../../../src/cli/serve/server';
import {
	appendLogProbTail,
	MAX_TOP_LOG_PROBS,
	TARGETS_INPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
} from '../../../src/core/onnx/append-log-prob-tail';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../../src/worker/node-engine';
import type { TokenTopLogprobs } from '../../../src/worker/protocol';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

interface OrtTensorLike {
	readonly data: Float32Array | BigInt64Array;
	readonly dims: readonly number[];
}
interface OrtSessionLike {
	readonly inputNames: readonly string[];
	run(
		feeds: Record<string, unknown>,
		fetches?: readonly string[],
	): Promise<Record<string, OrtTensorLike>>;
}
interface OrtModule {
	readonly InferenceSession: { create(bytes: Uint8Array): Promise<OrtSessionLike> };
	readonly Tensor: new (type: string, data: unknown, dims: readonly number[]) => unknown;
}
const ort = createRequire(import.meta.url)('onnxruntime-node') as OrtModule;

const MODEL = 'gpt2-random-tiny';
const MODEL_DIR = `${NODE_BUNDLED_MODELS_PATH}${MODEL}/`;
const PROMPT = 'The cat sat on the mat, and the dog ate 42 bones.';
const K = 5;
/** float32 logits through two log-softmaxes (graph vs float64 here). */
const TOLERANCE_NATS = 1e-4;

interface EchoLogprobs {
	readonly tokens: string[];
	readonly token_logprobs: (number | null)[];
	readonly top_logprobs: (Record<string, number> | null)[];
}

const engine = createNodeEngine({ threads: 2 });
let server: RunningServer;

beforeAll(async () => {
	server = await startServer({ model: MODEL, port: 0, engine });
});
afterAll(async () => {
	await server.close();
});

function complete(body: Record<string, unknown>): Promise<Response> {
	return fetch(`${server.baseUrl}/completions`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model: MODEL, prompt: PROMPT, echo: true, max_tokens: 0, ...body }),
	});
}

/** The feeds of a plain forward pass over `ids` (empty past). */
async function plainFeeds(
	session: OrtSessionLike,
	ids: readonly number[],
): Promise<Record<string, unknown>> {
	const config = JSON.parse(await readFile(`${MODEL_DIR}config.json`, 'utf8')) as {
		n_head: number;
		n_embd: number;
	};
	const n = ids.length;
	const feeds: Record<string, unknown> = {
		input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
		attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
	};
	if (session.inputNames.includes('position_ids')) {
		feeds['position_ids'] = new ort.Tensor(
			'int64',
			BigInt64Array.from({ length: n }, (_, i) => BigInt(i)),
			[1, n],
		);
	}
	const headDim = config.n_embd / config.n_head;
	for (const name of session.inputNames.filter((x) => x.startsWith('past_key_values'))) {
		feeds[name] = new ort.Tensor('float32', new Float32Array(0), [1, config.n_head, 0, headDim]);
	}
	return feeds;
}

/** Every position's log-softmax over the full vocabulary, float64, from the plain model. */
async function referenceLogSoftmax(ids: readonly number[]): Promise<Float64Array[]> {
	const session = await ort.InferenceSession.create(
		new Uint8Array(await readFile(`${MODEL_DIR}onnx/model.onnx`)),
	);
	const n = ids.length;
	const logits = (await session.run(await plainFeeds(session, ids)))['logits'];
	if (!(logits?.data instanceof Float32Array)) throw new Error('no logits');
	const v = logits.dims[2] ?? 0;
	return Array.from({ length: n }, (_, p) => {
		const row = Float64Array.from((logits.data as Float32Array).subarray(p * v, (p + 1) * v));
		const max = row.reduce((m, x) => Math.max(m, x), -Infinity);
		const logSum = max + Math.log(row.reduce((s, x) => s + Math.exp(x - max), 0));
		return row.map((x) => x - logSum);
	});
}

function argmax(row: Float64Array): number {
	let best = 0;
	row.forEach((x, i) => {
		if (x > (row[best] as number)) best = i;
	});
	return best;
}

describe('serve echo top_logprobs', () => {
	it('holds each token’s top 5 from the graph: sorted, the argmax first, the token itself as echoed', async () => {
		const answer = (await (await complete({ logprobs: K })).json()) as {
			choices: { logprobs: EchoLogprobs }[];
		};
		const echo = answer.choices[0]?.logprobs;
		if (!echo) throw new Error('no logprobs');
		const scored = await engine.scoreTexts({
			modelKey: server.info.modelKey,
			texts: [PROMPT],
			convention: 'reference',
			topLogprobs: K,
		});
		const tops = scored.texts[0]?.topLogprobs ?? [];
		expect(tops).toHaveLength(echo.tokens.length);
		expect(tops[0]).toBeNull();
		expect(echo.top_logprobs[0]).toBeNull();
		// The first token's id from the vocabulary; the others are the chosen ids.
		const vocab = JSON.parse(await readFile(`${MODEL_DIR}tokenizer.json`, 'utf8')) as {
			model: { vocab: Record<string, number> };
		};
		const first = scored.texts[0]?.tokens[0]?.token ?? '';
		const ids = [vocab.model.vocab[first] ?? -1, ...tops.slice(1).map((t) => t?.chosen.id ?? -1)];
		expect(ids.every((id) => id >= 0)).toBe(true);
		const reference = await referenceLogSoftmax(ids);

		tops.slice(1).forEach((top, j) => {
			const i = j + 1;
			const row = reference[i - 1] as Float64Array;
			const t = top as TokenTopLogprobs;
			expect(t.top).toHaveLength(K);
			const values = t.top.map((e) => e.logprob);
			expect(values).toEqual([...values].sort((a, b) => b - a));
			expect(t.top[0]?.id).toBe(argmax(row));
			for (const e of t.top)
				expect(Math.abs(e.logprob - (row[e.id] as number))).toBeLessThan(TOLERANCE_NATS);
			// No token outside the 5 is more likely than the 5th.
			const fifth = values[K - 1] as number;
			const above = row.filter((x) => x > fifth + TOLERANCE_NATS).length;
			expect(above).toBeLessThanOrEqual(K - 1);
			// The chosen token's log-prob is the echo's, and vLLM's dict puts it first.
			expect(t.chosen.logprob).toBeCloseTo(echo.token_logprobs[i] as number, 6);
			const expected: Record<string, number> = { [t.chosen.text]: t.chosen.logprob };
			for (const e of t.top) expected[e.text] ??= e.logprob;
			const entry = echo.top_logprobs[i] ?? {};
			expect(Object.keys(entry)).toEqual(Object.keys(expected));
			for (const [text, logprob] of Object.entries(expected))
				expect(entry[text]).toBeCloseTo(logprob, 6);
		});
	});

	it('logprobs: 0 keeps the token alone; 21 is refused with vLLM’s 400', async () => {
		const zero = (await (await complete({ logprobs: 0 })).json()) as {
			choices: { logprobs: EchoLogprobs }[];
		};
		const echo = zero.choices[0]?.logprobs;
		echo?.top_logprobs.slice(1).forEach((entry, j) => {
			expect(entry).toEqual({ [echo.tokens[j + 1] as string]: echo.token_logprobs[j + 1] });
		});
		const refused = await complete({ logprobs: 21 });
		expect(refused.status).toBe(400);
		const body = (await refused.json()) as { error: { message: string; param: string } };
		expect(body.error.message).toBe(
			'Requested sample logprobs of 21, which is greater than max allowed: 20',
		);
		expect(body.error.param).toBe('logprobs');
	});
});

describe('the decomposed tail (WebGPU’s) on the CPU', () => {
	it('gives every position’s top 20, the full log-softmax’s largest first', async () => {
		const bytes = new Uint8Array(await readFile(`${MODEL_DIR}onnx/model.onnx`));
		const fused = appendLogProbTail(bytes, 'decomposed', { topLogProbs: true });
		if (!fused.ok) throw new Error(fused.reason);
		const session = await ort.InferenceSession.create(fused.bytes);
		const ids = [464, 3797, 3332, 319, 262, 2603, 13].map((id) => id % 8192);
		const n = ids.length;
		const feeds = await plainFeeds(session, ids);
		feeds[TARGETS_INPUT_NAME] = new ort.Tensor('int64', new BigInt64Array(n), [1, n, 1]);
		const positions = BigInt64Array.from({ length: n }, (_, i) => BigInt(i));
		feeds[TOP_POSITIONS_INPUT_NAME] = new ort.Tensor('int64', positions, [n]);
		const out = await session.run(feeds, [TOP_LOG_PROBS_OUTPUT_NAME, TOP_IDS_OUTPUT_NAME]);
		const values = out[TOP_LOG_PROBS_OUTPUT_NAME]?.data as Float32Array;
		const topIds = out[TOP_IDS_OUTPUT_NAME]?.data as BigInt64Array;
		const k = MAX_TOP_LOG_PROBS;
		expect(values).toHaveLength(n * k);
		const reference = await referenceLogSoftmax(ids);
		reference.forEach((row, p) => {
			const sorted = [...row].sort((a, b) => b - a).slice(0, k);
			for (let j = 0; j < k; j++) {
				const id = Number(topIds[p * k + j]);
				expect(Math.abs((values[p * k + j] as number) - (row[id] as number))).toBeLessThan(
					TOLERANCE_NATS,
				);
				expect(Math.abs((values[p * k + j] as number) - (sorted[j] as number))).toBeLessThan(
					TOLERANCE_NATS,
				);
			}
			expect(Number(topIds[p * k])).toBe(argmax(row));
		});
	});
});
