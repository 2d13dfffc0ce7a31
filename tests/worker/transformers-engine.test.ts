// TransformersEngine in Node (onnxruntime-node) on the bundled models: conventions, offsets,
// batch invariance, cancellation, local folders and named load errors. Golden parity is in
// tests/parity/engine-golden.test.ts.
import { mkdtemp, readFile, copyFile, mkdir, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SequenceLengthError } from '../../src/core/errors';
import type { ModelSpec } from '../../src/core/model/model-spec';
import {
	CancelledError,
	ModelFileMissingError,
	ModelNotLoadedError,
	UnsupportedModelError,
} from '../../src/worker/engine-errors';
import { createNodeEngine, NODE_BUNDLED_MODELS_PATH } from '../../src/worker/node-engine';
import { createNodeOrtRuntime } from '../../src/worker/ort-node';
import type { OrtRuntime } from '../../src/worker/ort-runtime';
import type { BackendFallback, LocalModelFile, ScoredText } from '../../src/worker/protocol';
import { TransformersEngine } from '../../src/worker/transformers-engine';

// Real models on a shared 2-core machine: seconds per test, not milliseconds.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const TINY: ModelSpec = {
	source: 'bundled',
	id: 'gpt2-random-tiny',
	dtype: 'fp32',
	backend: 'node-cpu',
};
const SMALL: ModelSpec = { ...TINY, id: 'gpt2-en-small' };

interface GoldenSentence {
	readonly text: string;
}
const golden = JSON.parse(
	await readFile(
		new URL('../fixtures/golden/surprisals-gpt2-en-small.json', import.meta.url),
		'utf8',
	),
) as { sentences: GoldenSentence[] };
const TEXTS = golden.sentences.map((s) => s.text);

const engine = createNodeEngine({ threads: 2 });
let tinyKey = '';
let smallKey = '';
beforeAll(async () => {
	tinyKey = (await engine.loadModel({ spec: TINY })).modelKey;
	smallKey = (await engine.loadModel({ spec: SMALL })).modelKey;
});

function maxDifferenceBits(a: readonly ScoredText[], b: readonly ScoredText[]): number {
	let max = 0;
	a.forEach((text, i) => {
		const other = b[i]?.tokens ?? [];
		expect(other.map((t) => t.token)).toEqual(text.tokens.map((t) => t.token));
		text.tokens.forEach((t, k) => {
			max = Math.max(max, Math.abs(t.surprisalBits - (other[k]?.surprisalBits ?? NaN)));
		});
	});
	return max;
}

describe('TransformersEngine (Node) loading', () => {
	it('describes a bundled model', async () => {
		const info = await engine.loadModel({ spec: TINY });
		expect(info).toMatchObject({
			modelKey: tinyKey,
			spec: TINY,
			modelType: 'gpt2',
			vocabSize: 8192,
			maxPositions: 128,
			bosTokenId: 0,
			eosTokenId: 0,
			tokenizerKind: 'byte-level-bpe',
			batchInvariant: true,
		});
		expect(info.fallbackReason).toBeUndefined();
	});

	it('marks q8 as batch-dependent', async () => {
		const info = await engine.loadModel({ spec: { ...TINY, dtype: 'q8' } });
		expect(info.batchInvariant).toBe(false);
		await engine.disposeModel(info.modelKey);
	});

	it('runs a browser backend request on the CPU and says why', async () => {
		const info = await engine.loadModel({ spec: { ...TINY, backend: 'webgpu' } });
		expect(info.spec.backend).toBe('node-cpu');
		expect(info.fallbackReason).toMatch(/browser backend/);
		await engine.disposeModel(info.modelKey);
	});

	it('rejects an unknown bundled model with ModelFileMissingError', async () => {
		await expect(
			engine.loadModel({ spec: { ...TINY, id: 'no-such-model' } }),
		).rejects.toBeInstanceOf(ModelFileMissingError);
	});

	it("keeps a model two callers loaded until both dispose it (one page never frees another run's model)", async () => {
		const spec = { ...TINY, dtype: 'q8' as const };
		const first = await engine.loadModel({ spec });
		const second = await engine.loadModel({ spec });
		expect(second.modelKey).toBe(first.modelKey);
		await engine.disposeModel(first.modelKey);
		const scored = await engine.scoreTexts({
			modelKey: first.modelKey,
			texts: ['The keys are here.'],
			convention: 'bos',
		});
		expect(scored.texts[0]?.tokens.length).toBeGreaterThan(1);
		await engine.disposeModel(second.modelKey);
		await expect(
			engine.scoreTexts({ modelKey: first.modelKey, texts: ['a'], convention: 'bos' }),
		).rejects.toBeInstanceOf(ModelNotLoadedError);
	});

	it('rejects requests for a model that is not loaded', async () => {
		await expect(
			engine.scoreTexts({ modelKey: 'nope', texts: ['a'], convention: 'bos' }),
		).rejects.toBeInstanceOf(ModelNotLoadedError);
	});
});

describe('TransformersEngine (Node) conventions and offsets', () => {
	it('reference: no BOS, the first token gets 0 bits, offsets tile the text', async () => {
		const text = 'The keys to the cabinet are here.';
		const { texts } = await engine.scoreTexts({
			modelKey: tinyKey,
			texts: [text],
			convention: 'reference',
		});
		const tokens = texts[0]?.tokens ?? [];
		expect(tokens[0]).toMatchObject({ token: 'The', surprisalBits: 0, start: 0, end: 3 });
		expect(tokens.slice(1).every((t) => t.surprisalBits > 0)).toBe(true);
		expect(tokens.map((t) => text.slice(t.start, t.end)).join('')).toBe(text);
		expect(tokens.some((t) => t.special)).toBe(false);
	});

	it('bos and bos+eos: a special zero-width BOS at 0, an EOS at the end that is scored', async () => {
		const text = 'A dog barks.';
		const bos =
			(await engine.scoreTexts({ modelKey: tinyKey, texts: [text], convention: 'bos' })).texts[0]
				?.tokens ?? [];
		const both =
			(await engine.scoreTexts({ modelKey: tinyKey, texts: [text], convention: 'bos+eos' }))
				.texts[0]?.tokens ?? [];
		expect(bos[0]).toEqual({
			token: '<|endoftext|>',
			surprisalBits: 0,
			start: 0,
			end: 0,
			special: true,
		});
		expect(both.slice(0, -1)).toEqual(bos);
		expect(both.at(-1)).toMatchObject({
			token: '<|endoftext|>',
			start: text.length,
			end: text.length,
			special: true,
		});
		expect(both.at(-1)?.surprisalBits).toBeGreaterThan(0);
	});

	it('tokenize gives the same tokens and offsets, surprisal NaN', async () => {
		const text = 'Zoë paid €5 — naïvely.';
		const scored =
			(await engine.scoreTexts({ modelKey: tinyKey, texts: [text], convention: 'bos' })).texts[0]
				?.tokens ?? [];
		const { tokens } = await engine.tokenize({ modelKey: tinyKey, text, convention: 'bos' });
		expect(tokens.map(({ token, start, end }) => [token, start, end])).toEqual(
			scored.map(({ token, start, end }) => [token, start, end]),
		);
		expect(tokens.every((t) => Number.isNaN(t.surprisalBits))).toBe(true);
	});

	it('returns texts in input order, empty texts with no tokens under reference', async () => {
		const texts = ['Longer sentence with several words in it.', '', 'Short.', 'Mid length one.'];
		const result = await engine.scoreTexts({
			modelKey: tinyKey,
			texts,
			convention: 'reference',
			maxBatchSize: 2,
		});
		expect(result.texts.map((t) => t.index)).toEqual([0, 1, 2, 3]);
		expect(result.texts[1]?.tokens).toEqual([]);
		result.texts.forEach((t, i) => {
			const text = texts[i] ?? '';
			expect(t.tokens.map((k) => text.slice(k.start, k.end)).join('')).toBe(text);
		});
	});

	it('throws SequenceLengthError for a text longer than the model positions', async () => {
		await expect(
			engine.scoreTexts({ modelKey: tinyKey, texts: ['word '.repeat(200)], convention: 'bos' }),
		).rejects.toBeInstanceOf(SequenceLengthError);
	});
});

describe('TransformersEngine (Node) batch invariance (≤ 1e-4 bits)', () => {
	it.each(['fp32', 'q8'] as const)(
		'gpt2-en-small %s: alone vs in padded batches',
		async (dtype) => {
			const { modelKey } = await engine.loadModel({ spec: { ...SMALL, dtype } });
			const alone = await engine.scoreTexts({
				modelKey,
				texts: TEXTS,
				convention: 'bos',
				maxBatchSize: 1,
			});
			const batched = await engine.scoreTexts({
				modelKey,
				texts: TEXTS,
				convention: 'bos',
				maxBatchSize: 64,
			});
			const shuffled = [...TEXTS].reverse();
			const reversed = await engine.scoreTexts({
				modelKey,
				texts: shuffled,
				convention: 'bos',
				maxBatchSize: 7,
			});
			expect(maxDifferenceBits(alone.texts, batched.texts)).toBeLessThanOrEqual(1e-4);
			expect(maxDifferenceBits(alone.texts, [...reversed.texts].reverse())).toBeLessThanOrEqual(
				1e-4,
			);
			if (dtype !== 'fp32') await engine.disposeModel(modelKey);
		},
	);
});

describe('TransformersEngine (Node) batch invariance with shared prefixes reused (≤ 1e-4 bits)', () => {
	it('gpt2-en-small fp32: sentences and their siblings, alone vs batched vs reversed', async () => {
		// Each text after a sibling sharing its first half, so most texts borrow a cache.
		const texts = TEXTS.flatMap((text) => {
			const words = text.split(' ');
			return [`${words.slice(0, Math.ceil(words.length / 2)).join(' ')} and more`, text];
		});
		const score = (list: readonly string[], maxBatchSize: number) =>
			engine.scoreTexts({ modelKey: smallKey, texts: list, convention: 'bos', maxBatchSize });
		const alone = await score(texts, 1);
		const batched = await score(texts, 64);
		const reversed = await score([...texts].reverse(), 7);
		const plain = await engine.scoreTexts({
			modelKey: smallKey,
			texts,
			convention: 'bos',
			prefixReuse: false,
		});
		for (const result of [alone, batched, reversed]) {
			expect(result.prefixReuse).toEqual({ used: true });
			expect(result.positionsComputed).toBeLessThan(plain.positionsComputed ?? 0);
		}
		expect(maxDifferenceBits(alone.texts, batched.texts)).toBeLessThanOrEqual(1e-4);
		expect(maxDifferenceBits(alone.texts, [...reversed.texts].reverse())).toBeLessThanOrEqual(1e-4);
		expect(maxDifferenceBits(plain.texts, batched.texts)).toBeLessThanOrEqual(1e-4);
	});
});

describe('TransformersEngine (Node) progress and cancellation', () => {
	it('reports progress per batch and stops within one batch when aborted', async () => {
		const controller = new AbortController();
		let events = 0;
		const run = engine.scoreTexts(
			{ modelKey: smallKey, texts: TEXTS, convention: 'bos', maxBatchSize: 4 },
			{
				signal: controller.signal,
				onProgress: (p) => {
					events++;
					expect(p.total).toBe(TEXTS.length);
					if (events === 2) controller.abort();
				},
			},
		);
		await expect(run).rejects.toBeInstanceOf(CancelledError);
		expect(events).toBe(2);
	});
});

/** onnxruntime-node dressed up as a runtime with a WebGPU adapter (it still runs on the CPU),
 * whose device can be lost on demand. */
function runtimeWithLosableWebGpu(): { runtime: OrtRuntime; loseDevice: (reason: string) => void } {
	const base = createNodeOrtRuntime(2);
	let lost: ((reason: string) => void) | undefined;
	return {
		runtime: {
			...base,
			unavailableReason: async (backend) =>
				backend === 'webgpu' ? undefined : base.unavailableReason(backend),
			onDeviceLost: (listener) => {
				lost = listener;
			},
		},
		loseDevice: (reason) => lost?.(reason),
	};
}

describe('TransformersEngine device loss', () => {
	it('reloads on the fallback backend at the next batch, says so in every result, and scores the same', async () => {
		const { runtime, loseDevice } = runtimeWithLosableWebGpu();
		const gpuEngine = new TransformersEngine({
			runtime,
			bundledModelsPath: NODE_BUNDLED_MODELS_PATH,
		});
		const spec: ModelSpec = { ...TINY, backend: 'webgpu' };
		const info = await gpuEngine.loadModel({ spec });
		expect(info.spec.backend).toBe('webgpu');
		const request = {
			modelKey: info.modelKey,
			texts: TEXTS,
			convention: 'bos',
			maxBatchSize: 8,
		} as const;
		const before = await gpuEngine.scoreTexts(request);
		expect(before.fallback).toBeUndefined();

		const reason = 'WebGPU device lost (destroyed): test';
		loseDevice(reason);
		const events: (BackendFallback | undefined)[] = [];
		const after = await gpuEngine.scoreTexts(request, {
			onProgress: (progress) => events.push(progress.fallback),
		});
		const expected = { backend: 'node-cpu', reason: expect.stringContaining(reason) };
		expect(after.fallback).toEqual(expected);
		expect(events.length).toBeGreaterThan(1);
		for (const event of events) expect(event).toEqual(expected);
		// Same CPU underneath; the WebGPU graph's decomposed log-softmax tail differs in rounding.
		expect(maxDifferenceBits(before.texts, after.texts)).toBeLessThanOrEqual(1e-4);
		// A later load of the same spec gets the model as it now runs.
		expect(await gpuEngine.loadModel({ spec })).toMatchObject({
			spec: { backend: 'node-cpu' },
			fallbackReason: expect.stringContaining(reason),
		});
		await gpuEngine.disposeModel(info.modelKey);
	});
});

describe('TransformersEngine device loss, local folder', () => {
	it('reloads a picked local folder (Blobs) from its files on the fallback backend', async () => {
		const { runtime, loseDevice } = runtimeWithLosableWebGpu();
		const gpuEngine = new TransformersEngine({
			runtime,
			bundledModelsPath: NODE_BUNDLED_MODELS_PATH,
		});
		const folder = join(NODE_BUNDLED_MODELS_PATH, 'gpt2-random-tiny');
		const info = await gpuEngine.loadModel({
			spec: { source: 'local', id: 'picked tiny', dtype: 'fp32', backend: 'webgpu' },
			localFiles: await folderFiles(folder),
		});
		expect(info.spec.backend).toBe('webgpu');
		const texts = TEXTS.slice(0, 6);
		const before = await gpuEngine.scoreTexts({
			modelKey: info.modelKey,
			texts,
			convention: 'bos',
		});
		loseDevice('WebGPU device lost (destroyed): test');
		// The reload needs the picked files again: 'picked tiny' is no folder on disk.
		const after = await gpuEngine.scoreTexts({ modelKey: info.modelKey, texts, convention: 'bos' });
		expect(after.fallback?.backend).toBe('node-cpu');
		expect(maxDifferenceBits(before.texts, after.texts)).toBeLessThanOrEqual(1e-4);
		await gpuEngine.disposeModel(info.modelKey);
	});
});

async function folderFiles(folder: string, sub = ''): Promise<LocalModelFile[]> {
	const files: LocalModelFile[] = [];
	for (const entry of await readdir(join(folder, sub), { withFileTypes: true })) {
		const path = sub ? `${sub}/${entry.name}` : entry.name;
		if (entry.isDirectory()) files.push(...(await folderFiles(folder, path)));
		else files.push({ path, file: new Blob([await readFile(join(folder, path))]) });
	}
	return files;
}

describe('TransformersEngine (Node) local folders', () => {
	let dir = '';
	const tinyFolder = join(NODE_BUNDLED_MODELS_PATH, 'gpt2-random-tiny');
	beforeAll(async () => {
		dir = await mkdtemp(join(tmpdir(), 'benchtop-engine-'));
	});
	afterAll(async () => {
		const { rm } = await import('node:fs/promises');
		await rm(dir, { recursive: true, force: true });
	});

	it('a folder path and picked files (Blobs) score exactly like the bundled model', async () => {
		const texts = TEXTS.slice(0, 12);
		const bundled = await engine.scoreTexts({ modelKey: tinyKey, texts, convention: 'bos' });
		const byPath = await engine.loadModel({
			spec: { source: 'local', id: tinyFolder, dtype: 'fp32', backend: 'node-cpu' },
		});
		const byFiles = await engine.loadModel({
			spec: { source: 'local', id: 'my tiny', dtype: 'fp32', backend: 'node-cpu' },
			localFiles: await folderFiles(tinyFolder),
		});
		for (const { modelKey } of [byPath, byFiles]) {
			const local = await engine.scoreTexts({ modelKey, texts, convention: 'bos' });
			expect(maxDifferenceBits(bundled.texts, local.texts)).toBe(0);
			await engine.disposeModel(modelKey);
		}
	});

	it('a folder without onnx/model.onnx fails with ModelFileMissingError', async () => {
		const folder = join(dir, 'no-weights');
		await mkdir(folder);
		for (const f of [
			'config.json',
			'tokenizer.json',
			'tokenizer_config.json',
			'generation_config.json',
		]) {
			await copyFile(join(tinyFolder, f), join(folder, f));
		}
		const error = await engine
			.loadModel({ spec: { source: 'local', id: folder, dtype: 'fp32', backend: 'node-cpu' } })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(ModelFileMissingError);
		expect((error as Error).message).toMatch(/model\.onnx/);
	});

	it('a model that is not a causal LM fails with UnsupportedModelError', async () => {
		const folder = join(dir, 'encoder');
		await mkdir(join(folder, 'onnx'), { recursive: true });
		for (const f of ['tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) {
			await copyFile(join(tinyFolder, f), join(folder, f));
		}
		const config = JSON.parse(await readFile(join(tinyFolder, 'config.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		await writeFile(
			join(folder, 'config.json'),
			JSON.stringify({ ...config, model_type: 'bert', architectures: ['BertModel'] }),
		);
		await expect(
			engine.loadModel({
				spec: { source: 'local', id: folder, dtype: 'fp32', backend: 'node-cpu' },
			}),
		).rejects.toBeInstanceOf(UnsupportedModelError);
	});
});
