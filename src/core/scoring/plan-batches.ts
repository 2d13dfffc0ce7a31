/**
 * Batch planning for scoring: sort sequences by token length, group them under a token and a
 * logits-byte budget, pad each batch on the right to a length bucket, and build the int64 model
 * inputs (ids, mask, positions, next-token targets). Pure arrays; running the model is the worker's.
 */
import { BenchtopError, SequenceLengthError } from '../errors';

/** Padded sequence lengths, so a backend sees few distinct shapes (compiled shaders are reused).
 * Beyond the last bucket a batch is padded to its longest sequence. */
export const DEFAULT_SEQUENCE_BUCKETS: readonly number[] = [
	8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096,
];

export interface BatchLimits {
	/** The model's maximum positions (`n_positions`); longer sequences are an error. */
	readonly maxPositions: number;
	/** Upper bound on B × S (padded tokens per forward pass). */
	readonly maxTokens: number;
	/** Upper bound on B × S × logitsWidth × 4 bytes, for backends that return full fp32 logits
	 * (needs `logitsWidth`). Leave out when log-probs come back reduced. */
	readonly maxLogitsBytes?: number;
	readonly logitsWidth?: number;
	/** Upper bound on B. */
	readonly maxBatchSize?: number;
	/**
	 * `false` for dtypes whose numbers depend on the batch (dynamic int8 `q8`: activation scales
	 * are per tensor, padding included): every sequence runs alone, unpadded (B = 1, S = L).
	 * Default true.
	 */
	readonly batchInvariant?: boolean;
	/** Padded lengths to choose from (ascending); default DEFAULT_SEQUENCE_BUCKETS. */
	readonly buckets?: readonly number[];
	/**
	 * The fixed cost of one forward pass, in token positions. When given, batches are cut where
	 * the padded positions plus this cost per batch are fewest (instead of filling each batch
	 * as far as the budgets allow): fewer padded positions for a few more, smaller batches.
	 */
	readonly batchOverheadPositions?: number;
}

/** One forward pass: which sequences (indices into the planned list) and the padded length. */
export interface BatchGroup {
	/** Row order of the batch; longest first. */
	readonly sequenceIndices: readonly number[];
	/** S: every row is right-padded to this length. */
	readonly sequenceLength: number;
}

/**
 * Groups sequences of the given token counts (model input, special tokens included) into
 * batches: sorted by length, longest first (ties by index); each batch takes the next sequences
 * while B × S ≤ maxTokens, the logits cap and maxBatchSize hold, where S is the bucket of its
 * longest sequence (never above maxPositions). A sequence that alone exceeds a budget still runs,
 * alone. Empty sequences (0 tokens) are in no batch: they have nothing to score.
 * Throws SequenceLengthError for the first sequence longer than maxPositions.
 */
export function planBatches(tokenCounts: readonly number[], limits: BatchLimits): BatchGroup[] {
	const { maxPositions, maxTokens } = limits;
	if (!(maxPositions >= 1) || !(maxTokens >= 1)) {
		throw new BenchtopError(
			`Batch limits need maxPositions ≥ 1 and maxTokens ≥ 1 (got ${maxPositions}, ${maxTokens}).`,
		);
	}
	const maxLogitsBytes = limits.maxLogitsBytes;
	if (
		maxLogitsBytes !== undefined &&
		!(limits.logitsWidth !== undefined && limits.logitsWidth > 0)
	) {
		throw new BenchtopError('A logits byte cap needs the logits width (the model vocab size).');
	}
	tokenCounts.forEach((count, index) => {
		if (!Number.isInteger(count) || count < 0) {
			throw new BenchtopError(`Text ${index} has an invalid token count ${count}.`);
		}
		if (count > maxPositions) {
			throw new SequenceLengthError(
				`Text ${index} has ${count} tokens (special tokens included), but the model takes at most ${maxPositions} positions. Shorten the text or use a model with more positions.`,
				index,
				count,
				maxPositions,
			);
		}
	});
	const order = tokenCounts
		.map((count, index) => ({ count, index }))
		.filter(({ count }) => count > 0)
		.sort((a, b) => b.count - a.count || a.index - b.index);

	const batchInvariant = limits.batchInvariant ?? true;
	const maxBatchSize = batchInvariant ? (limits.maxBatchSize ?? Infinity) : 1;
	const bytesPerRowToken = 4 * (limits.logitsWidth ?? 0);
	const fits = (batchSize: number, sequenceLength: number): boolean =>
		batchSize <= maxBatchSize &&
		batchSize * sequenceLength <= maxTokens &&
		(maxLogitsBytes === undefined ||
			batchSize * sequenceLength * bytesPerRowToken <= maxLogitsBytes);

	const overhead = limits.batchOverheadPositions;
	if (overhead !== undefined && batchInvariant) {
		return cheapestCuts(
			order.map(({ count }) => bucketSequenceLength(count, maxPositions, limits.buckets)),
			overhead,
			fits,
		).map(([start, end]) => ({
			sequenceIndices: order.slice(start, end).map(({ index }) => index),
			sequenceLength: bucketSequenceLength(order[start]?.count ?? 0, maxPositions, limits.buckets),
		}));
	}
	const groups: BatchGroup[] = [];
	for (let i = 0; i < order.length;) {
		const longest = order[i]?.count ?? 0;
		const sequenceLength = batchInvariant
			? bucketSequenceLength(longest, maxPositions, limits.buckets)
			: longest;
		let batchSize = 1;
		while (i + batchSize < order.length && fits(batchSize + 1, sequenceLength)) batchSize++;
		groups.push({
			sequenceIndices: order.slice(i, i + batchSize).map(({ index }) => index),
			sequenceLength,
		});
		i += batchSize;
	}
	return groups;
}

/**
 * Cuts `paddedLengths` (descending: a batch is padded to its first) into contiguous batches
 * `[start, end)` with the fewest Σ (B × S + overhead), every batch within `fits` (a single row
 * always runs). Dynamic programming over the end of the last batch.
 */
function cheapestCuts(
	paddedLengths: readonly number[],
	overhead: number,
	fits: (batchSize: number, sequenceLength: number) => boolean,
): [number, number][] {
	const n = paddedLengths.length;
	const cost = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
	const startOf = new Int32Array(n + 1);
	cost[0] = 0;
	for (let start = 0; start < n; start++) {
		const base = cost[start] as number;
		const length = paddedLengths[start] as number;
		for (let end = start + 1; end <= n; end++) {
			const batchSize = end - start;
			if (batchSize > 1 && !fits(batchSize, length)) break;
			const total = base + batchSize * length + overhead;
			if (total < (cost[end] as number)) {
				cost[end] = total;
				startOf[end] = start;
			}
		}
	}
	const cuts: [number, number][] = [];
	for (let end = n; end > 0; end = startOf[end] as number) cuts.push([startOf[end] as number, end]);
	return cuts.reverse();
}

/** The padded length for a sequence of `length` tokens: the smallest bucket ≥ length, at most
 * maxPositions; `length` itself beyond the last bucket. */
export function bucketSequenceLength(
	length: number,
	maxPositions: number,
	buckets: readonly number[] = DEFAULT_SEQUENCE_BUCKETS,
): number {
	const bucket = buckets.find((size) => size >= length) ?? length;
	return Math.max(length, Math.min(bucket, maxPositions));
}

/** The tensors of one forward pass, row-major, with their shapes. */
export interface BatchInputs {
	readonly sequenceIndices: readonly number[];
	readonly batchSize: number;
	readonly sequenceLength: number;
	/** Real tokens per row (L_b). */
	readonly lengths: Int32Array;
	/** Real tokens in the batch (Σ L_b); B × S − tokenCount are padding. */
	readonly tokenCount: number;
	/** `[B, S]` int64: ids, then `padTokenId` on the right. */
	readonly inputIds: BigInt64Array;
	/** `[B, S]` int64: 1 for real tokens, 0 for padding. */
	readonly attentionMask: BigInt64Array;
	/** `[B, S]` int64: 0 … S − 1 in every row (real tokens 0 … L − 1; padding continues, which
	 * real tokens never attend to with right padding). */
	readonly positionIds: BigInt64Array;
	/** `[B, S, 1]` int64: the next token's id (row t holds id t + 1), 0 at the last real position
	 * and on padding. For a fused log-softmax/gather graph. */
	readonly targets: BigInt64Array;
	readonly inputShape: readonly [number, number];
	readonly targetsShape: readonly [number, number, 1];
}

/**
 * Builds the model inputs of one planned batch from the sequences' ids (the same list the plan
 * was made from). Throws BenchtopError if a sequence is longer than the batch's length.
 */
export function buildBatchInputs(
	group: BatchGroup,
	sequences: readonly (readonly number[])[],
	padTokenId = 0,
): BatchInputs {
	const batchSize = group.sequenceIndices.length;
	const sequenceLength = group.sequenceLength;
	const size = batchSize * sequenceLength;
	const inputIds = new BigInt64Array(size).fill(BigInt(padTokenId));
	const attentionMask = new BigInt64Array(size);
	const positionIds = new BigInt64Array(size);
	const targets = new BigInt64Array(size);
	const lengths = new Int32Array(batchSize);
	let tokenCount = 0;
	group.sequenceIndices.forEach((sequenceIndex, row) => {
		const ids = sequences[sequenceIndex];
		if (ids === undefined || ids.length > sequenceLength) {
			throw new BenchtopError(
				`Sequence ${sequenceIndex} (${ids?.length ?? 'missing'} tokens) does not fit a batch of length ${sequenceLength}.`,
			);
		}
		const base = row * sequenceLength;
		lengths[row] = ids.length;
		tokenCount += ids.length;
		for (let t = 0; t < sequenceLength; t++) positionIds[base + t] = BigInt(t);
		for (let t = 0; t < ids.length; t++) {
			inputIds[base + t] = BigInt(ids[t] ?? padTokenId);
			attentionMask[base + t] = 1n;
			const next = t + 1 < ids.length ? (ids[t + 1] ?? 0) : 0;
			targets[base + t] = BigInt(next);
		}
	});
	return {
		sequenceIndices: [...group.sequenceIndices],
		batchSize,
		sequenceLength,
		lengths,
		tokenCount,
		inputIds,
		attentionMask,
		positionIds,
		targets,
		inputShape: [batchSize, sequenceLength],
		targetsShape: [batchSize, sequenceLength, 1],
	};
}

/** Every length 1…maxPositions as buckets: padding to the longest sequence of a batch, no further
 * (CPU and WASM kernels take any shape at no cost). */
export function exactBuckets(maxPositions: number): number[] {
	return Array.from({ length: maxPositions }, (_, i) => i + 1);
}
