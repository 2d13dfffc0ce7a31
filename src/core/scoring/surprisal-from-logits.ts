/**
 * Log-probabilities of target tokens as the model returns them (reduced `[B, S, 1]` by the fused
 * log-softmax/gather tail) and their conversion to surprisal in bits, in float64.
 */
import { BenchtopError } from '../errors';

/** The shape of a batch of log-probs `[batchSize, sequenceLength, 1]`. */
export interface LogProbsShape {
	readonly batchSize: number;
	readonly sequenceLength: number;
}

/**
 * Log-probs that come back already reduced (`[B, S, 1]` from a fused log-softmax/gather graph):
 * copies the scored rows (t < lengths[b] − 1) into `out` as float64, NaN elsewhere.
 */
export function readReducedLogProbs(
	logProbs: Float32Array | Float64Array,
	shape: LogProbsShape,
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

/**
 * The surprisals in bits of one sequence of `length` tokens (batch row `row`) from the row
 * log-probs written by `readReducedLogProbs`: position 0 has no left
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
