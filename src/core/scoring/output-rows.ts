/**
 * The rows of a batch whose outputs a scorer reads, for a graph that computes its output layer
 * only there (core/onnx/gather-output-rows.ts): which rows to feed, the targets of those rows,
 * and the outputs put back where a full pass would have them. Pure arrays.
 */
import { BenchtopError } from '../errors';

/**
 * The rows b·S + t with t < `outputLengths[b]` (and t < S), in order: the positions whose
 * outputs are read. A batch that reads none gets row 0, so every output has a row to index.
 */
export function outputRows(outputLengths: Int32Array, sequenceLength: number): BigInt64Array {
	const rows: bigint[] = [];
	outputLengths.forEach((length, b) => {
		for (let t = 0; t < Math.min(length, sequenceLength); t++)
			rows.push(BigInt(b * sequenceLength + t));
	});
	return rows.length > 0 ? BigInt64Array.from(rows) : BigInt64Array.of(0n);
}

/** The `width` values of each row in `rows`, from `values` laid out `[rows of a full pass, width]`. */
export function gatherRows(
	values: BigInt64Array,
	rows: BigInt64Array,
	width: number,
): BigInt64Array {
	const gathered = new BigInt64Array(rows.length * width);
	rows.forEach((row, i) => {
		const from = Number(row) * width;
		gathered.set(values.subarray(from, from + width), i * width);
	});
	return gathered;
}

/** Throws unless `values` holds `width` values for each of `rows`, each row below `totalRows`. */
function checkGathered(
	length: number,
	rows: BigInt64Array,
	width: number,
	totalRows: number,
): void {
	if (length !== rows.length * width)
		throw new BenchtopError(
			`An output has ${length} values for ${rows.length} rows of ${width}: expected ${rows.length * width}.`,
		);
	for (const row of rows)
		if (row < 0n || row >= BigInt(totalRows))
			throw new BenchtopError(`Output row ${row} is outside a batch of ${totalRows} rows.`);
}

/**
 * `[totalRows, width]` float32 with the gathered rows' values (`[rows.length, width]`) where a
 * full pass puts them and NaN elsewhere: a value read from a row that was not computed shows
 * as NaN, never as a number.
 */
export function scatterRows(
	values: Float32Array,
	rows: BigInt64Array,
	width: number,
	totalRows: number,
): Float32Array {
	checkGathered(values.length, rows, width, totalRows);
	const out = new Float32Array(totalRows * width).fill(Number.NaN);
	rows.forEach((row, i) =>
		out.set(values.subarray(i * width, (i + 1) * width), Number(row) * width),
	);
	return out;
}

/** As {@link scatterRows}, for int64 values (token ids): −1 where no row was computed. */
export function scatterIdRows(
	values: BigInt64Array,
	rows: BigInt64Array,
	width: number,
	totalRows: number,
): BigInt64Array {
	checkGathered(values.length, rows, width, totalRows);
	const out = new BigInt64Array(totalRows * width).fill(-1n);
	rows.forEach((row, i) =>
		out.set(values.subarray(i * width, (i + 1) * width), Number(row) * width),
	);
	return out;
}
