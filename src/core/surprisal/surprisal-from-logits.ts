/**
 * Log-probabilities of target tokens from logits (log-softmax + gather, float64, max-subtracted)
 * and their conversion to surprisal in bits. Hot loops: no allocation per call; the caller owns
 * the output buffers. Never rounds through float32 after the logits.
 */
import { BenchtopError } from '../errors';

/** The shape of a logits block `[batchSize, sequenceLength, logitsWidth]`. */
export interface LogitsShape {
	readonly batchSize: number;
	readonly sequenceLength: number;
	/** The model's output width (`config.vocab_size`, e.g. 50304 for Pythia), which may differ
	 * from the tokenizer's vocabulary size. The softmax runs over the whole width, as PyTorch's
	 * `log_softmax(logits)` does. */
	readonly logitsWidth: number;
}

/**
 * For every row (b, t) with t < lengths[b] − 1, writes log p(targetIds[b·S + t]) in nats to
 * `out[b·S + t]`: (x_target − max) − ln Σ exp(x − max), accumulated in float64. The other rows
 * (last real position, right padding) get NaN. `targetIds` is the batch's next-token ids
 * (`BatchInputs.targetIds`). Throws BenchtopError on mismatched sizes or a target id outside
 * [0, logitsWidth).
 */
export function gatherTargetLogProbs(
	logits: Float32Array,
	shape: LogitsShape,
	targetIds: Int32Array,
	lengths: Int32Array,
	out: Float64Array,
): void {
	const { batchSize, sequenceLength, logitsWidth } = shape;
	const rows = batchSize * sequenceLength;
	if (logits.length !== rows * logitsWidth) {
		throw new BenchtopError(
			`Logits have ${logits.length} values, expected ${batchSize}×${sequenceLength}×${logitsWidth} = ${rows * logitsWidth}.`,
		);
	}
	checkRowBuffers(batchSize, sequenceLength, targetIds, lengths, out);
	for (let b = 0; b < batchSize; b++) {
		const scoredRows = (lengths[b] ?? 0) - 1;
		for (let t = 0; t < sequenceLength; t++) {
			const row = b * sequenceLength + t;
			if (t >= scoredRows) {
				out[row] = Number.NaN;
				continue;
			}
			const target = targetIds[row] ?? -1;
			if (target < 0 || target >= logitsWidth) {
				throw new BenchtopError(
					`Target token id ${target} (row ${b}, position ${t + 1}) is outside the model's ${logitsWidth} logits.`,
				);
			}
			const base = row * logitsWidth;
			const end = base + logitsWidth;
			let max = Number.NEGATIVE_INFINITY;
			for (let v = base; v < end; v++) {
				const x = logits[v] as number;
				if (x > max) max = x;
			}
			let sum = 0;
			for (let v = base; v < end; v++) sum += Math.exp((logits[v] as number) - max);
			out[row] = (logits[base + target] as number) - max - Math.log(sum);
		}
	}
}

/**
 * Log-probs that come back already reduced (`[B, S, 1]` from a fused log-softmax/gather graph):
 * copies the scored rows (t < lengths[b] − 1) into `out` as float64, NaN elsewhere.
 */
export function readReducedLogProbs(
	logProbs: Float32Array | Float64Array,
	shape: Pick<LogitsShape, 'batchSize' | 'sequenceLength'>,
	lengths: Int32Array,
	out: Float64Array,
): void {
	const { batchSize, sequenceLength } = shape;
	const rows = batchSize * sequenceLength;
	if (logProbs.length !== rows) {
		throw new BenchtopError(
			`Reduced log-probs have ${logProbs.length} values, expected ${batchSize}×${sequenceLength}×1 = ${rows}.`,
		);
	}
	if (lengths.length < batchSize || out.length < rows) {
		throw new BenchtopError(`Buffers too small for a ${batchSize}×${sequenceLength} batch.`);
	}
	for (let b = 0; b < batchSize; b++) {
		const scoredRows = (lengths[b] ?? 0) - 1;
		for (let t = 0; t < sequenceLength; t++) {
			const row = b * sequenceLength + t;
			out[row] = t < scoredRows ? (logProbs[row] as number) : Number.NaN;
		}
	}
}

/** Surprisal in bits of a log-probability in nats: −logp / ln 2 (float64). */
export function surprisalBitsFromLogProb(logProbNats: number): number {
	return -logProbNats / Math.LN2;
}

/**
 * The surprisals in bits of one sequence of `length` tokens (batch row `row`) from the row
 * log-probs written by `gatherTargetLogProbs`/`readReducedLogProbs`: position 0 has no left
 * context and gets 0; position p gets −logp(row, p − 1) / ln 2.
 */
export function surprisalsBitsForRow(
	rowLogProbsNats: Float64Array,
	row: number,
	sequenceLength: number,
	length: number,
): Float64Array {
	if (length > sequenceLength || (row + 1) * sequenceLength > rowLogProbsNats.length) {
		throw new BenchtopError(
			`Row ${row} of length ${length} does not fit ${rowLogProbsNats.length} log-probs of sequence length ${sequenceLength}.`,
		);
	}
	const bits = new Float64Array(length);
	const base = row * sequenceLength;
	for (let p = 1; p < length; p++) bits[p] = -(rowLogProbsNats[base + p - 1] as number) / Math.LN2;
	return bits;
}

/**
 * IEEE 754 half-precision bits (ORT's `float16` data as `Uint16Array` where the engine has no
 * Float16Array) → float32, exactly. Lets fp16 logits go through `gatherTargetLogProbs`.
 */
export function decodeFloat16Bits(bits: Uint16Array, out: Float32Array): void {
	if (out.length < bits.length) {
		throw new BenchtopError(`Output holds ${out.length} values, need ${bits.length}.`);
	}
	for (let i = 0; i < bits.length; i++) {
		const h = bits[i] as number;
		const sign = h & 0x8000 ? -1 : 1;
		const exponent = (h >> 10) & 0x1f;
		const fraction = h & 0x3ff;
		if (exponent === 0) out[i] = sign * fraction * 2 ** -24;
		else if (exponent === 0x1f) out[i] = fraction === 0 ? sign * Infinity : Number.NaN;
		else out[i] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
	}
}

function checkRowBuffers(
	batchSize: number,
	sequenceLength: number,
	targetIds: Int32Array,
	lengths: Int32Array,
	out: Float64Array,
): void {
	const rows = batchSize * sequenceLength;
	if (targetIds.length < rows || lengths.length < batchSize || out.length < rows) {
		throw new BenchtopError(
			`Buffers too small for ${rows} rows: targetIds ${targetIds.length}, lengths ${lengths.length}, out ${out.length}.`,
		);
	}
	for (let b = 0; b < batchSize; b++) {
		const length = lengths[b] ?? 0;
		if (length < 0 || length > sequenceLength) {
			throw new BenchtopError(`Row ${b} has length ${length}, outside 0…${sequenceLength}.`);
		}
	}
}
