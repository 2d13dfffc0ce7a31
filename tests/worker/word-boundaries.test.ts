// Word-boundary surprisals and next-token entropies (TransformersEngine, Node, gpt2-en-small
// fp32): each token's nextEntropyBits = −Σ p log₂ p of the distribution after it, and its
// boundarySurprisalBits = −log₂ Σ_{v starts with Ġ} p(v | text through the token), checked against
// full logits from the plain ONNX model (onnxruntime-node, no fused tail) summed in float64; with
// shared-prefix reuse on and off, alone and in batches; surprisals unchanged by the flag. Also the
// WebGPU graph's decomposed tail (run on the CPU by a runtime that claims WebGPU).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { SurprisalConvention } from '../../src/core/model/model-spec';
import type { ScoredToken } from '../../src/core/scoring/scored-token';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../src/worker/node-engine';
import { createNodeOrtRuntime } from '../../src/worker/ort-node';
import type { ScoreTextsResult } from '../../src/worker/protocol';
import { TransformersEngine } from '../../src/worker/transformers-engine';

vi.setConfig({ testTimeout: 300_000, hookTimeout: 120_000 });

interface OrtTensorLike {
	readonly data: Float32Array;
	readonly dims: readonly number[];
}
interface OrtSessionLike {
	readonly inputNames: readonly string[];
	run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensorLike>>;
}
interface OrtModule {
	readonly InferenceSession: { create(bytes: Uint8Array): Promise<OrtSessionLike> };
	readonly Tensor: new (type: string, data: unknown, dims: readonly number[]) => unknown;
}
const ort = createRequire(import.meta.url)('onnxruntime-node') as OrtModule;

const MODEL_DIR = `${NODE_BUNDLED_MODELS_PATH}gpt2-en-small/`;
const TOLERANCE_BITS = 1e-4;

// Siblings that share prefixes, a duplicate, a prefix of another text, a one-token text, and a
// text with a line break (the `Ċ` token starts no word).
const TEXTS = [
	'The keys to the cabinet are on the table.',
	'The keys to the cabinet is on the table.',
	'The keys to the cabinet are on the table.',
	'The keys to the cabinet',
	'The author that the guards like laughs.',
	'The author that the guards like laugh.',
	'Dogs',
	'She said:\nyes, of course',
];

const engine = createNodeEngine({ threads: 2 });
const spec = {
	source: 'bundled',
	id: 'gpt2-en-small',
	dtype: 'fp32',
	backend: 'node-cpu',
} as const;
let modelKey = '';
let session: OrtSessionLike;
let vocab: Map<string, number>;
let wordStart: Uint8Array;

beforeAll(async () => {
	({ modelKey } = await engine.loadModel({ spec }));
	session = await ort.InferenceSession.create(
		new Uint8Array(await readFile(`${MODEL_DIR}onnx/model.onnx`)),
	);
	const tokenizer = JSON.parse(await readFile(`${MODEL_DIR}tokenizer.json`, 'utf8')) as {
		model: { vocab: Record<string, number> };
		added_tokens: { id: number; content: string }[];
	};
	vocab = new Map(Object.entries(tokenizer.model.vocab));
	for (const added of tokenizer.added_tokens) vocab.set(added.content, added.id);
	wordStart = new Uint8Array(vocab.size);
	for (const [token, id] of vocab) if (token.startsWith('Ġ')) wordStart[id] = 1;
});

/** After every position: −log₂ P(next token starts a word) and the next-token distribution's
 * entropy in bits, from the plain model's logits in float64 (log-sum-exp over the Ġ tokens minus
 * over all; −Σ p log₂ p). */
async function referenceBits(
	tokens: readonly ScoredToken[],
): Promise<{ boundary: number[]; entropy: number[] }> {
	const ids = tokens.map((t) => {
		const id = vocab.get(t.token);
		if (id === undefined) throw new Error(`no id for ${t.token}`);
		return BigInt(id);
	});
	const n = ids.length;
	const feeds: Record<string, unknown> = {
		input_ids: new ort.Tensor('int64', BigInt64Array.from(ids), [1, n]),
		attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
		position_ids: new ort.Tensor(
			'int64',
			BigInt64Array.from({ length: n }, (_, i) => BigInt(i)),
			[1, n],
		),
	};
	for (const name of session.inputNames.filter((x) => x.startsWith('past_key_values'))) {
		feeds[name] = new ort.Tensor('float32', new Float32Array(0), [1, 4, 0, 64]);
	}
	const logits = (await session.run(feeds))['logits'];
	if (!logits) throw new Error('no logits');
	const v = logits.dims[2] ?? 0;
	const logSumExp = (row: Float32Array, only?: Uint8Array): number => {
		let max = -Infinity;
		for (let k = 0; k < v; k++) if (!only || only[k]) max = Math.max(max, row[k] as number);
		let sum = 0;
		for (let k = 0; k < v; k++) if (!only || only[k]) sum += Math.exp((row[k] as number) - max);
		return max + Math.log(sum);
	};
	const rows = Array.from({ length: n }, (_, p) => logits.data.subarray(p * v, (p + 1) * v));
	const entropyBits = (row: Float32Array): number => {
		const all = logSumExp(row);
		let sum = 0;
		for (let k = 0; k < v; k++) {
			const logP = (row[k] as number) - all;
			sum -= Math.exp(logP) * logP;
		}
		return sum / Math.LN2;
	};
	return {
		boundary: rows.map((row) => -(logSumExp(row, wordStart) - logSumExp(row)) / Math.LN2),
		entropy: rows.map(entropyBits),
	};
}

function maxDifference(
	a: ScoreTextsResult,
	b: ScoreTextsResult,
	field: 'surprisalBits' | 'boundarySurprisalBits' | 'nextEntropyBits',
): number {
	let max = 0;
	a.texts.forEach((text, i) => {
		const other = b.texts[i]?.tokens ?? [];
		expect(other.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((t, k) => {
			max = Math.max(max, Math.abs((t[field] ?? NaN) - (other[k]?.[field] ?? NaN)));
		});
	});
	return max;
}

describe.each<SurprisalConvention>(['bos', 'reference', 'bos+eos'])(
	'word boundaries, gpt2-en-small, %s convention',
	(convention) => {
		it('match −log₂ Σ p(Ġ-tokens) from the plain model’s logits, with reuse on and off, alone and batched', async () => {
			const score = (wordBoundaries: boolean, prefixReuse: boolean, maxBatchSize?: number) =>
				engine.scoreTexts({
					modelKey,
					texts: TEXTS,
					convention,
					prefixReuse,
					...(wordBoundaries ? { wordBoundaries } : {}),
					...(maxBatchSize !== undefined ? { maxBatchSize } : {}),
				});
			const without = await score(false, true);
			const plain = await score(true, false);
			const reused = await score(true, true);
			const alone = await score(true, true, 1);
			expect([plain.prefixReuse?.used, reused.prefixReuse?.used]).toEqual([false, true]);
			for (const token of without.texts.flatMap((t) => t.tokens)) {
				expect(token).not.toHaveProperty('boundarySurprisalBits');
				expect(token).not.toHaveProperty('nextEntropyBits');
			}
			let worst = 0;
			let worstEntropy = 0;
			for (const result of [plain, reused, alone]) {
				for (const text of result.texts) {
					const expected = await referenceBits(text.tokens);
					text.tokens.forEach((token, k) => {
						expect(token.boundarySurprisalBits).toBeTypeOf('number');
						worst = Math.max(
							worst,
							Math.abs((token.boundarySurprisalBits ?? NaN) - (expected.boundary[k] ?? NaN)),
						);
						worstEntropy = Math.max(
							worstEntropy,
							Math.abs((token.nextEntropyBits ?? NaN) - (expected.entropy[k] ?? NaN)),
						);
					});
				}
				expect(maxDifference(without, result, 'surprisalBits')).toBeLessThanOrEqual(1e-5);
			}
			expect(worst).toBeLessThanOrEqual(TOLERANCE_BITS);
			expect(worstEntropy).toBeLessThanOrEqual(TOLERANCE_BITS);
			expect(maxDifference(plain, reused, 'boundarySurprisalBits')).toBeLessThanOrEqual(1e-5);
			expect(maxDifference(plain, reused, 'nextEntropyBits')).toBeLessThanOrEqual(TOLERANCE_BITS);
			expect(maxDifference(reused, alone, 'nextEntropyBits')).toBeLessThanOrEqual(TOLERANCE_BITS);
			expect(maxDifference(reused, alone, 'boundarySurprisalBits')).toBeLessThanOrEqual(1e-5);
			// The last token of each text is run too: one more position per text that runs.
			expect(reused.positionsComputed ?? 0).toBeGreaterThan(without.positionsComputed ?? 0);
			console.log(
				`${convention}: max |Δ boundary| vs float64 reference ${worst.toExponential(2)} bits; ` +
					`max |Δ entropy| ${worstEntropy.toExponential(2)} bits; ` +
					`plain vs reused ${maxDifference(plain, reused, 'boundarySurprisalBits').toExponential(2)}; ` +
					`surprisal Δ with the flag ${maxDifference(without, reused, 'surprisalBits').toExponential(2)}`,
			);
		});
	},
);

describe('word boundaries, the decomposed (WebGPU) tail run on the CPU', () => {
	it('match the float64 reference too, in padded shape buckets', async () => {
		const base = createNodeOrtRuntime(2);
		const gpuEngine = new TransformersEngine({
			runtime: {
				...base,
				unavailableReason: async (backend) =>
					backend === 'webgpu' ? undefined : base.unavailableReason(backend),
			},
			bundledModelsPath: NODE_BUNDLED_MODELS_PATH,
		});
		const info = await gpuEngine.loadModel({ spec: { ...spec, backend: 'webgpu' } });
		expect(info.spec.backend).toBe('webgpu');
		const result = await gpuEngine.scoreTexts({
			modelKey: info.modelKey,
			texts: TEXTS,
			convention: 'bos',
			wordBoundaries: true,
		});
		let worst = 0;
		let worstEntropy = 0;
		for (const text of result.texts) {
			const expected = await referenceBits(text.tokens);
			text.tokens.forEach((token, k) => {
				worst = Math.max(
					worst,
					Math.abs((token.boundarySurprisalBits ?? NaN) - (expected.boundary[k] ?? NaN)),
				);
				worstEntropy = Math.max(
					worstEntropy,
					Math.abs((token.nextEntropyBits ?? NaN) - (expected.entropy[k] ?? NaN)),
				);
			});
		}
		expect(worst).toBeLessThanOrEqual(TOLERANCE_BITS);
		expect(worstEntropy).toBeLessThanOrEqual(TOLERANCE_BITS);
		console.log(
			`decomposed: max |Δ boundary| vs float64 reference ${worst.toExponential(2)} bits; ` +
				`max |Δ entropy| ${worstEntropy.toExponential(2)} bits`,
		);
		await gpuEngine.disposeModel(info.modelKey);
	});
});
