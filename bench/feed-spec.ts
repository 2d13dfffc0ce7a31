/**
 * A forward pass's feeds as plain data (JSON-able: it crosses to a child process and a browser
 * worker), and the tensors a runtime builds from them. Shared by bench/op-profile.ts and
 * bench/ort-web-node-run.ts; imports no runtime.
 */

export interface FeedSpec {
	readonly name: string;
	readonly type: 'int64' | 'float32';
	readonly dims: readonly number[];
	/** int64 values as numbers (small ids and positions). */
	readonly data: readonly number[];
}

/** A runtime's Tensor class, as far as feeds need it. */
type TensorClass<T> = new (
	type: FeedSpec['type'],
	data: BigInt64Array | Float32Array,
	dims: number[],
) => T;

/** The feeds as `Tensor`s, by input name. */
export function feedTensors<T>(
	Tensor: TensorClass<T>,
	feeds: readonly FeedSpec[],
): Record<string, T> {
	return Object.fromEntries(
		feeds.map((feed) => [
			feed.name,
			new Tensor(
				feed.type,
				feed.type === 'int64'
					? BigInt64Array.from(feed.data, (value) => BigInt(value))
					: Float32Array.from(feed.data),
				[...feed.dims],
			),
		]),
	);
}
