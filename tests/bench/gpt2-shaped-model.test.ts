// The bench's GPT-2-shaped model generator on a tiny config: the protobuf writer round-trips
// through protobufjs, the fp32 graph onnxruntime-node runs agrees with a plain-JS forward pass,
// its distributions sum to one, running a continuation on the past's key/value cache equals
// running the whole sequence, q8 stays close, and the engine loads the folder and scores the
// same with and without shared-prefix reuse. Everything is written under a temp dir.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
	buildModel,
	ensureModelFolder,
	float16Bits,
	generateWeights,
	GPT2_124M,
	parameterCount,
	type Gpt2ShapedConfig,
	type Gpt2Weights,
} from '../../bench/gpt2-shaped-model';
import { decodeModel, encodeModel } from '../../bench/onnx-proto';
import { createNodeEngine } from '../../src/worker/node-engine';
import type { ScoreTextsResult } from '../../src/worker/protocol';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** Tiny, with an output layer wider than the 8,192-token tokenizer, as the 124M one is. */
const TINY: Gpt2ShapedConfig = { nLayer: 2, nEmbd: 32, nHead: 2, vocabSize: 8200, nPositions: 64 };
const SEED = 7;
const TOKENIZER_DIR = new URL('../../../shared/models/gpt2-en-small/', import.meta.url).pathname;

let root: string;
let dir: string;
const weights = generateWeights(TINY, SEED);

beforeAll(async () => {
	root = await mkdtemp(join(tmpdir(), 'benchtop-gpt2-shaped-'));
	dir = (
		await ensureModelFolder('tiny', { config: TINY, seed: SEED, tokenizerDir: TOKENIZER_DIR }, root)
	).dir;
});

afterAll(async () => {
	await rm(root, { recursive: true, force: true });
});

/** A float16's value from its bits. */
function halfToNumber(bits: number): number {
	const sign = bits & 0x8000 ? -1 : 1;
	const exponent = (bits >> 10) & 0x1f;
	const fraction = bits & 0x3ff;
	if (exponent === 0x1f) return fraction ? Number.NaN : sign * Infinity;
	if (exponent === 0) return sign * fraction * 2 ** -24;
	return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** One row of `ids` through an fp16 graph with an empty float16 cache. */
async function runHalf(session: ort.InferenceSession, ids: readonly number[]) {
	const feeds: Record<string, ort.Tensor> = {
		input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
		attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [
			1,
			ids.length,
		]),
		position_ids: new ort.Tensor(
			'int64',
			BigInt64Array.from(ids, (_, i) => BigInt(i)),
			[1, ids.length],
		),
	};
	const headDim = TINY.nEmbd / TINY.nHead;
	for (let l = 0; l < TINY.nLayer; l++) {
		for (const part of ['key', 'value']) {
			feeds[`past_key_values.${l}.${part}`] = new ort.Tensor('float16', new Uint16Array(0), [
				1,
				TINY.nHead,
				0,
				headDim,
			]);
		}
	}
	return session.run(feeds);
}

/** Largest |Δ| in bits between two scorings of the same texts (every token finite). */
function maxDifferenceBits(a: ScoreTextsResult, b: ScoreTextsResult): number {
	let maxDiff = 0;
	a.texts.forEach((text, i) => {
		expect(b.texts[i]?.tokens.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((token, k) => {
			const other = b.texts[i]?.tokens[k]?.surprisalBits ?? Number.NaN;
			expect(Number.isFinite(token.surprisalBits) && Number.isFinite(other)).toBe(true);
			maxDiff = Math.max(maxDiff, Math.abs(token.surprisalBits - other));
		});
	});
	return maxDiff;
}

describe('float16Bits', () => {
	it('rounds to the nearest float16, ties to even, with subnormals, ∞ and NaN', () => {
		expect(float16Bits(1)).toBe(0x3c00);
		expect(float16Bits(-2)).toBe(0xc000);
		expect(float16Bits(0.1)).toBe(0x2e66);
		expect(float16Bits(1 / 3)).toBe(0x3555);
		expect(float16Bits(65504)).toBe(0x7bff);
		expect(float16Bits(65519)).toBe(0x7bff);
		expect(float16Bits(65520)).toBe(0x7c00);
		expect(float16Bits(-1e6)).toBe(0xfc00);
		expect(float16Bits(2 ** -24)).toBe(0x0001);
		expect(float16Bits(2 ** -25)).toBe(0x0000);
		expect(float16Bits(3 * 2 ** -25)).toBe(0x0002);
		expect(float16Bits(2 ** -14)).toBe(0x0400);
		expect(float16Bits(-0)).toBe(0x8000);
		expect(float16Bits(1 + 2 ** -11)).toBe(0x3c00);
		expect(float16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
		expect(float16Bits(Number.NaN) & 0x7c00).toBe(0x7c00);
		expect(float16Bits(Number.NaN) & 0x3ff).not.toBe(0);
		for (const value of [0.5, 0.25, 1.5, 3.140625, -7.75, 1000, 2 ** -20]) {
			expect(halfToNumber(float16Bits(value))).toBe(value);
		}
	});
});

describe('onnx-proto', () => {
	it('round-trips a model through protobufjs', () => {
		const model = buildModel(generateWeights({ ...TINY, nLayer: 1, vocabSize: 40 }, 1), 'q8');
		const decoded = decodeModel(encodeModel(model));
		expect(decoded.irVersion).toBe(8);
		expect(decoded.opsetImport).toEqual([{ domain: '', version: 17 }]);
		expect(decoded.graph.node.map((n) => [n.opType, n.input, n.output])).toEqual(
			model.graph.node.map((n) => [n.opType, n.input, n.output]),
		);
		expect(
			decoded.graph.node.flatMap((n) => n.attribute ?? []).map((a) => [a.name, a.type]),
		).toEqual(model.graph.node.flatMap((n) => n.attribute ?? []).map((a) => [a.name, a.type]));
		decoded.graph.initializer.forEach((t, i) => {
			const original = model.graph.initializer[i]!;
			expect([t.name, t.dims ?? [], t.dataType]).toEqual([
				original.name,
				original.dims,
				original.dataType,
			]);
			expect(Buffer.from(t.rawData ?? []).equals(Buffer.from(original.rawData ?? []))).toBe(true);
		});
		expect(decoded.graph.input.map((v) => v.name)).toEqual(model.graph.input.map((v) => v.name));
		expect(decoded.graph.output[0]?.type.tensorType.shape.dim).toEqual([
			{ dimParam: 'batch_size' },
			{ dimParam: 'sequence_length' },
			{ dimValue: 40 },
		]);
	});
});

describe('gpt2-shaped model', () => {
	it('counts GPT-2 small at 124,439,808 parameters', () => {
		expect(parameterCount(GPT2_124M)).toBe(124_439_808);
	});

	it('is the same model from the same seed, another from another', () => {
		expect(generateWeights(TINY, SEED).wte.slice(0, 8)).toEqual(weights.wte.slice(0, 8));
		expect(generateWeights(TINY, SEED + 1).wte.slice(0, 8)).not.toEqual(weights.wte.slice(0, 8));
		const sample = weights.layers[0]!.fcWeight;
		const mean = sample.reduce((s, v) => s + v, 0) / sample.length;
		const std = Math.sqrt(sample.reduce((s, v) => s + (v - mean) ** 2, 0) / sample.length);
		expect(Math.abs(mean)).toBeLessThan(0.002);
		expect(std).toBeGreaterThan(0.019);
		expect(std).toBeLessThan(0.021);
	});

	it('writes the folder once and then reuses it', async () => {
		const again = await ensureModelFolder(
			'tiny',
			{ config: TINY, seed: SEED, tokenizerDir: TOKENIZER_DIR },
			root,
		);
		expect(again).toMatchObject({ dir, built: false });
		const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(config).toMatchObject({ model_type: 'gpt2', vocab_size: 8200, n_layer: 2, n_embd: 32 });
	});

	it('runs in onnxruntime-node as a plain-JS GPT-2 forward pass computes it', async () => {
		const session = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'));
		const ids = [5, 300, 8100, 17, 42];
		const { logits } = await run(session, [ids], 0);
		expect(logits.dims).toEqual([1, 5, TINY.vocabSize]);
		const expected = referenceLogits(weights, ids);
		let maxDiff = 0;
		(logits.data as Float32Array).forEach((v, i) => {
			maxDiff = Math.max(maxDiff, Math.abs(v - expected[i]!));
		});
		expect(maxDiff).toBeLessThan(1e-4);
		for (let t = 0; t < ids.length; t++) {
			const row = (logits.data as Float32Array).subarray(
				t * TINY.vocabSize,
				(t + 1) * TINY.vocabSize,
			);
			const max = Math.max(...row);
			const sum = row.reduce((s, v) => s + Math.exp(v - max), 0);
			const probs = Array.from(row, (v) => Math.exp(v - max) / sum);
			expect(probs.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 6);
		}
		await session.release();
	});

	it('gives a continuation on the past key/values the logits of the whole sequence', async () => {
		for (const file of ['model.onnx', 'model_quantized.onnx']) {
			const session = await ort.InferenceSession.create(join(dir, 'onnx', file));
			const ids = [11, 22, 33, 44, 55, 66];
			const whole = await run(session, [ids], 0);
			const prefix = await run(session, [ids.slice(0, 4)], 0);
			const rest = await run(session, [ids.slice(4)], 4, prefix.present);
			const wholeData = whole.logits.data as Float32Array;
			const restData = rest.logits.data as Float32Array;
			let maxDiff = 0;
			restData.forEach((v, i) => {
				maxDiff = Math.max(maxDiff, Math.abs(v - wholeData[4 * TINY.vocabSize + i]!));
			});
			// q8 quantizes activations per tensor, so its numbers depend on what else is in the run.
			expect(maxDiff, file).toBeLessThan(file === 'model.onnx' ? 1e-4 : 0.1);
			await session.release();
		}
	});

	it('keeps fp16 close to fp32, float16 in and out', async () => {
		const fp32 = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'));
		const fp16 = await ort.InferenceSession.create(join(dir, 'onnx', 'model_fp16.onnx'));
		const ids = [5, 300, 8100, 17, 42, 9, 9];
		const a = (await run(fp32, [ids], 0)).logits.data as Float32Array;
		const { logits } = await runHalf(fp16, ids);
		if (!logits) throw new Error('the fp16 graph gave no logits');
		expect(logits.type).toBe('float16');
		const b = Array.from(logits.data as Uint16Array, halfToNumber);
		let maxDiff = 0;
		a.forEach((v, i) => {
			expect(Number.isFinite(b[i])).toBe(true);
			maxDiff = Math.max(maxDiff, Math.abs(v - b[i]!));
		});
		expect(maxDiff).toBeGreaterThan(0);
		expect(maxDiff).toBeLessThan(0.02);
		await fp32.release();
		await fp16.release();
	});

	it('keeps q8 close to fp32', async () => {
		const fp32 = await ort.InferenceSession.create(join(dir, 'onnx', 'model.onnx'));
		const q8 = await ort.InferenceSession.create(join(dir, 'onnx', 'model_quantized.onnx'));
		const ids = [[1, 2, 3, 4, 5, 6, 7, 8]];
		const a = (await run(fp32, ids, 0)).logits.data as Float32Array;
		const b = (await run(q8, ids, 0)).logits.data as Float32Array;
		let maxDiff = 0;
		a.forEach((v, i) => {
			expect(Number.isFinite(b[i])).toBe(true);
			maxDiff = Math.max(maxDiff, Math.abs(v - b[i]!));
		});
		expect(maxDiff).toBeGreaterThan(0);
		expect(maxDiff).toBeLessThan(0.1);
		await fp32.release();
		await q8.release();
	});

	it('loads in the engine and scores the same with and without prefix reuse; fp16 near fp32', async () => {
		const engine = createNodeEngine({ threads: 1, bundledModelsPath: `${join(dir, '..')}/` });
		const id = dir.split('/').at(-1)!;
		const texts = [
			'The keys to the cabinet are on the table.',
			'The keys to the cabinet is on the table.',
			'The author that the senators hurt laughs.',
		];
		const runs: Record<string, ScoreTextsResult> = {};
		for (const dtype of ['fp32', 'fp16'] as const) {
			const { modelKey } = await engine.loadModel({
				spec: { source: 'bundled', id, dtype, backend: 'node-cpu' },
			});
			const plain = await engine.scoreTexts({
				modelKey,
				texts,
				convention: 'bos',
				prefixReuse: false,
			});
			const reused = await engine.scoreTexts({
				modelKey,
				texts,
				convention: 'bos',
				prefixReuse: true,
			});
			if (dtype === 'fp32') {
				expect(reused.positionsComputed).toBeLessThan(plain.tokenCount);
				expect(maxDifferenceBits(plain, reused)).toBeLessThan(1e-4);
			} else {
				// fp16 is not taken as batch-invariant (src/worker/loaded-model.ts): one sentence per pass.
				expect(reused.prefixReuse).toMatchObject({ used: false });
				expect(reused.positionsComputed).toBe(plain.tokenCount);
				expect(maxDifferenceBits(plain, reused)).toBe(0);
			}
			runs[dtype] = plain;
			await engine.disposeModel(modelKey);
		}
		// float16 weights and cache move the numbers a little, not much.
		const fp16Diff = maxDifferenceBits(runs.fp32!, runs.fp16!);
		expect(fp16Diff).toBeGreaterThan(0);
		expect(fp16Diff).toBeLessThan(0.05);
	});
});

interface RunResult {
	readonly logits: ort.Tensor;
	readonly present: Record<string, ort.Tensor>;
}

/** One run of rows of equal length, positions from `past` on, with the past's cache if given. */
async function run(
	session: ort.InferenceSession,
	rows: readonly (readonly number[])[],
	past: number,
	cache?: Record<string, ort.Tensor>,
): Promise<RunResult> {
	const b = rows.length;
	const s = rows[0]!.length;
	const d = TINY.nEmbd / TINY.nHead;
	const feeds: Record<string, ort.Tensor> = {
		input_ids: new ort.Tensor('int64', BigInt64Array.from(rows.flat(), BigInt), [b, s]),
		attention_mask: new ort.Tensor('int64', new BigInt64Array(b * (past + s)).fill(1n), [
			b,
			past + s,
		]),
		position_ids: new ort.Tensor(
			'int64',
			BigInt64Array.from(rows.flatMap((row) => row.map((_, i) => BigInt(past + i)))),
			[b, s],
		),
	};
	for (let l = 0; l < TINY.nLayer; l++) {
		for (const kv of ['key', 'value']) {
			feeds[`past_key_values.${l}.${kv}`] =
				cache?.[`present.${l}.${kv}`] ??
				new ort.Tensor('float32', new Float32Array(0), [b, TINY.nHead, 0, d]);
		}
	}
	const out = await session.run(feeds);
	const present = Object.fromEntries(
		Object.entries(out).filter(([name]) => name.startsWith('present.')),
	);
	return { logits: out.logits!, present };
}

/** GPT-2's forward pass for one sequence in plain JS (float64): logits [S, V]. */
function referenceLogits(w: Gpt2Weights, ids: readonly number[]): Float64Array {
	const { nEmbd: e, nHead: h, vocabSize: v } = w.config;
	const d = e / h;
	const s = ids.length;
	let x = ids.map((id, t) =>
		Array.from({ length: e }, (_, j) => w.wte[id * e + j]! + w.wpe[t * e + j]!),
	);
	const layerNorm = (row: number[], g: Float32Array, b: Float32Array) => {
		const mean = row.reduce((a, c) => a + c, 0) / e;
		const variance = row.reduce((a, c) => a + (c - mean) ** 2, 0) / e;
		return row.map((c, j) => ((c - mean) / Math.sqrt(variance + 1e-5)) * g[j]! + b[j]!);
	};
	const linear = (row: number[], m: Float32Array, bias: Float32Array, n: number) =>
		Array.from({ length: n }, (_, c) => row.reduce((a, r, k) => a + r * m[k * n + c]!, bias[c]!));
	const gelu = (z: number) =>
		0.5 * z * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (z + 0.044715 * z ** 3)));
	for (const layer of w.layers) {
		const qkv = x.map((row) =>
			linear(
				layerNorm(row, layer.ln1Weight, layer.ln1Bias),
				layer.attnWeight,
				layer.attnBias,
				3 * e,
			),
		);
		const context = qkv.map((q, t) => {
			const out = new Array<number>(e).fill(0);
			for (let head = 0; head < h; head++) {
				const scores = qkv.slice(0, t + 1).map((k) => {
					let dot = 0;
					for (let j = 0; j < d; j++) dot += q[head * d + j]! * k[e + head * d + j]!;
					return dot / Math.sqrt(d);
				});
				const max = Math.max(...scores);
				const weightsOf = scores.map((c) => Math.exp(c - max));
				const total = weightsOf.reduce((a, c) => a + c, 0);
				weightsOf.forEach((p, u) => {
					for (let j = 0; j < d; j++)
						out[head * d + j]! += (p / total) * qkv[u]![2 * e + head * d + j]!;
				});
			}
			return out;
		});
		x = x.map((row, t) => {
			const attn = linear(context[t]!, layer.projWeight, layer.projBias, e);
			return row.map((c, j) => c + attn[j]!);
		});
		x = x.map((row) => {
			const hidden = linear(
				layerNorm(row, layer.ln2Weight, layer.ln2Bias),
				layer.fcWeight,
				layer.fcBias,
				4 * e,
			).map(gelu);
			const mlp = linear(hidden, layer.mlpProjWeight, layer.mlpProjBias, e);
			return row.map((c, j) => c + mlp[j]!);
		});
	}
	const logits = new Float64Array(s * v);
	x.forEach((row, t) => {
		const final = layerNorm(row, w.lnfWeight, w.lnfBias);
		for (let c = 0; c < v; c++) {
			let dot = 0;
			for (let j = 0; j < e; j++) dot += final[j]! * w.wte[c * e + j]!;
			logits[t * v + c] = dot;
		}
	});
	return logits;
}
