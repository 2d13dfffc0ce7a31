/**
 * Key/value caches for shared-prefix reuse as plain typed arrays: what a parent keeps of a forward
 * pass's cache outputs, and the padded past tensors its children's batch is fed. Pure copies; the
 * worker holds the caches and runs the model.
 */

/** A cache tensor's values: float32, or float16 as raw bits. */
export type CacheData = Float32Array | Uint16Array;

/** One cache output of a forward pass, `[B, heads, positions, headDim]`. */
export interface CacheOutput {
	readonly data: CacheData;
	readonly dims: readonly number[];
}

/** A past input's shape per position: its heads and head width. */
export interface CacheShape {
	readonly heads: number;
	readonly headDim: number;
}

/** A sequence's first `positions` cache positions, one `[heads, positions, headDim]` per past
 * input. */
export interface PrefixCache {
	readonly positions: number;
	readonly tensors: readonly CacheData[];
}

/**
 * Row `row`'s first `keep` positions of every cache output of a batch whose past was padded to
 * `batchPast` positions and whose rows are `sequenceLength` long: the row's own past (its first
 * `past` positions), then its own tokens, which sit after the batch's padded past. A missing dim
 * is read from `shapes` (the past inputs, same order) and the batch's width.
 */
export function keepCachePositions(
	outputs: readonly CacheOutput[],
	shapes: readonly CacheShape[],
	batch: { readonly pastLength: number; readonly sequenceLength: number },
	row: number,
	past: number,
	keep: number,
): PrefixCache {
	const tensors = outputs.map(({ data, dims }, j) => {
		const heads = dims[1] ?? shapes[j]?.heads ?? 1;
		const positions = dims[2] ?? batch.pastLength + batch.sequenceLength;
		const dim = dims[3] ?? shapes[j]?.headDim ?? 1;
		const kept =
			data instanceof Uint16Array
				? new Uint16Array(heads * keep * dim)
				: new Float32Array(heads * keep * dim);
		for (let h = 0; h < heads; h++) {
			const base = (row * heads + h) * positions * dim;
			const to = h * keep * dim;
			const own = batch.pastLength;
			const fromPast = Math.min(past, keep);
			kept.set(data.subarray(base, base + fromPast * dim) as Float32Array & Uint16Array, to);
			if (keep > fromPast) {
				kept.set(
					data.subarray(base + own * dim, base + (own + keep - fromPast) * dim) as Float32Array &
						Uint16Array,
					to + fromPast * dim,
				);
			}
		}
		return kept;
	});
	return { positions: keep, tensors };
}

/** A batch row's past: its first `length` positions come from `cache` (of `cachePositions`). */
export interface PastRow {
	readonly length: number;
	readonly cache: CacheData;
	readonly cachePositions: number;
}

/**
 * One past input's tensor data `[B, heads, pastLength, headDim]` for a batch: each row's past
 * copied from its parent's cache, zeros after it (and for a row without a past: `undefined`).
 */
export function gatherPastCache(
	shape: CacheShape & { readonly type: 'float32' | 'float16' },
	rows: readonly (PastRow | undefined)[],
	pastLength: number,
): CacheData {
	const { heads, headDim } = shape;
	const size = rows.length * heads * pastLength * headDim;
	const data = shape.type === 'float16' ? new Uint16Array(size) : new Float32Array(size);
	rows.forEach((row, r) => {
		if (!row) return;
		for (let h = 0; h < heads; h++) {
			const from = h * row.cachePositions * headDim;
			data.set(
				row.cache.subarray(from, from + row.length * headDim) as Float32Array & Uint16Array,
				(r * heads + h) * pastLength * headDim,
			);
		}
	});
	return data;
}
