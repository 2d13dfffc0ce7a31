// The bundled model with its output layer at the fed rows only is the same scorer: the browser's
// onnxruntime (onnxruntime-web's WASM build, here in Node) gives, at every row fed, exactly the
// full pass's log-probs, boundary log-probs, expected log-probs and top-k, float32 and q8, on a
// padded batch as the app builds them.
import { readFile } from 'node:fs/promises';
import * as ort from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import {
	appendLogProbTail,
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	BOUNDARY_POSITIONS_INPUT_NAME,
	EXPECTED_LOG_PROB_OUTPUT_NAME,
	LOG_PROBS_OUTPUT_NAME,
	TARGETS_INPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_POSITIONS_INPUT_NAME,
	WORD_START_MASK_INPUT_NAME,
} from '../../src/core/onnx/append-log-prob-tail';
import { fuseTanhGelu } from '../../src/core/onnx/fuse-gelu';
import { gatherOutputRows, OUTPUT_ROWS_INPUT_NAME } from '../../src/core/onnx/gather-output-rows';
import { buildBatchInputs, type BatchInputs } from '../../src/core/scoring/plan-batches';
import {
	gatherRows,
	outputRows,
	scatterIdRows,
	scatterRows,
} from '../../src/core/scoring/output-rows';

const MODELS = new URL('../../public/models/gpt2-en-small/onnx/', import.meta.url);
/** The bundled model's vocabulary (its logits' width). */
const VOCAB = 8192;
const OUTPUTS = [
	LOG_PROBS_OUTPUT_NAME,
	BOUNDARY_LOG_PROBS_OUTPUT_NAME,
	EXPECTED_LOG_PROB_OUTPUT_NAME,
	TOP_LOG_PROBS_OUTPUT_NAME,
	TOP_IDS_OUTPUT_NAME,
];

ort.env.wasm.numThreads = 1;

function scoringGraph(model: Uint8Array): Uint8Array {
	const fused = appendLogProbTail(model, 'log-softmax', {
		keepCacheOutputs: true,
		wordBoundaries: true,
		topLogProbs: true,
	});
	if (!fused.ok) throw new Error(fused.reason);
	return fuseTanhGelu(fused.bytes).bytes;
}

/** Three sequences of 7, 3 and 5 tokens, right-padded to 7 as the plain scorer pads them. */
function paddedBatch(): BatchInputs {
	const sequences = [7, 3, 5].map((length, s) =>
		Array.from({ length }, (_, t) => (s * 1009 + t * 977 + 11) % VOCAB),
	);
	return buildBatchInputs({ sequenceIndices: [0, 1, 2], sequenceLength: 7 }, sequences, 0);
}

async function run(
	model: Uint8Array,
	batch: BatchInputs,
	rows?: BigInt64Array,
): Promise<Record<string, Float32Array | BigInt64Array>> {
	const session = await ort.InferenceSession.create(model, {
		executionProviders: ['wasm'],
		graphOptimizationLevel: 'all',
	});
	const { batchSize: b, sequenceLength: s } = batch;
	const positions = rows ? rows.length : s;
	const all = BigInt64Array.from({ length: positions }, (_, t) => BigInt(t));
	const feeds: Record<string, ort.Tensor> = {
		input_ids: new ort.Tensor('int64', batch.inputIds, [b, s]),
		attention_mask: new ort.Tensor('int64', batch.attentionMask, [b, s]),
		position_ids: new ort.Tensor('int64', batch.positionIds, [b, s]),
		[TARGETS_INPUT_NAME]: rows
			? new ort.Tensor('int64', gatherRows(batch.targets, rows, 1), [1, rows.length, 1])
			: new ort.Tensor('int64', batch.targets, [b, s, 1]),
		[WORD_START_MASK_INPUT_NAME]: new ort.Tensor(
			'float32',
			Float32Array.from({ length: VOCAB }, (_, i) => (i % 3 === 0 ? 1 : 0)),
			[VOCAB, 1],
		),
		[BOUNDARY_POSITIONS_INPUT_NAME]: new ort.Tensor('int64', all, [positions]),
		[TOP_POSITIONS_INPUT_NAME]: new ort.Tensor('int64', all, [positions]),
		...(rows ? { [OUTPUT_ROWS_INPUT_NAME]: new ort.Tensor('int64', rows, [1, rows.length]) } : {}),
	};
	for (const meta of session.inputMetadata) {
		if (!meta.name.startsWith('past_key_values') || !('shape' in meta)) continue;
		const [, heads, , size] = meta.shape;
		feeds[meta.name] = new ort.Tensor('float32', new Float32Array(0), [
			b,
			Number(heads),
			0,
			Number(size),
		]);
	}
	const out = await session.run(feeds, OUTPUTS);
	await session.release();
	return Object.fromEntries(
		OUTPUTS.map((name) => [name, out[name]?.data as Float32Array | BigInt64Array]),
	);
}

describe('the output layer at the fed rows only, on onnxruntime-web', () => {
	it.each(['model.onnx', 'model_quantized.onnx'])(
		'%s gives the full pass’s outputs at every fed row, exactly',
		async (file) => {
			const bytes = new Uint8Array(await readFile(new URL(file, MODELS)));
			const gathered = gatherOutputRows(bytes);
			expect(gathered.ok).toBe(true);
			if (!gathered.ok) return;
			const batch = paddedBatch();
			const total = batch.batchSize * batch.sequenceLength;
			// The scorer's rows: each position with a next token (6 + 2 + 4 of 21).
			const rows = outputRows(
				batch.lengths.map((length) => length - 1),
				batch.sequenceLength,
			);
			expect(rows.length).toBe(12);
			const full = await run(scoringGraph(bytes), batch);
			const fed = await run(scoringGraph(gathered.bytes), batch, rows);
			const k = (fed[TOP_IDS_OUTPUT_NAME]?.length ?? 0) / rows.length;
			expect(k).toBeGreaterThan(0);
			for (const [name, width] of [
				[LOG_PROBS_OUTPUT_NAME, 1],
				[BOUNDARY_LOG_PROBS_OUTPUT_NAME, 1],
				[EXPECTED_LOG_PROB_OUTPUT_NAME, 1],
				[TOP_LOG_PROBS_OUTPUT_NAME, k],
			] as const) {
				const expected = full[name] as Float32Array;
				const put = scatterRows(fed[name] as Float32Array, rows, width, total);
				for (const row of rows) {
					const at = Number(row) * width;
					expect([...put.subarray(at, at + width)], `${name} at row ${row}`).toEqual([
						...expected.subarray(at, at + width),
					]);
				}
			}
			const ids = scatterIdRows(fed[TOP_IDS_OUTPUT_NAME] as BigInt64Array, rows, k, total);
			const fullIds = full[TOP_IDS_OUTPUT_NAME] as BigInt64Array;
			for (const row of rows) {
				const at = Number(row) * k;
				expect([...ids.subarray(at, at + k)]).toEqual([...fullIds.subarray(at, at + k)]);
			}
		},
	);
});
