// The rows a pass computes its output layer at, and its outputs put back where a full pass puts
// them: NaN (or id −1) where no row was computed, and a visible error for outputs that do not fit.
import { describe, expect, it } from 'vitest';
import { BenchtopError } from '../../../src/core/errors';
import {
	gatherRows,
	outputRows,
	scatterIdRows,
	scatterRows,
} from '../../../src/core/scoring/output-rows';

describe('outputRows', () => {
	it('takes each row’s first positions, in batch order', () => {
		// A batch of 3 rows of S = 4: the first reads 3 positions, the second none, the third 2.
		expect([...outputRows(Int32Array.of(3, 0, 2), 4)]).toEqual([0n, 1n, 2n, 8n, 9n]);
	});

	it('never reads past the row (a length above S counts as S)', () => {
		expect([...outputRows(Int32Array.of(9, -1), 2)]).toEqual([0n, 1n]);
	});

	it('gives row 0 to a batch that reads nothing, so every output has a row to index', () => {
		expect([...outputRows(Int32Array.of(0, 0), 5)]).toEqual([0n]);
	});
});

describe('gatherRows and scatterRows', () => {
	const rows = BigInt64Array.of(1n, 3n);

	it('gather the rows’ values, K per row', () => {
		const targets = BigInt64Array.from({ length: 4 * 2 }, (_, i) => BigInt(10 + i));
		expect([...gatherRows(targets, rows, 2)]).toEqual([12n, 13n, 16n, 17n]);
	});

	it('put each row’s values back at its row, NaN at the rows not computed', () => {
		const out = scatterRows(Float32Array.of(-1, -2, -3, -4), rows, 2, 4);
		expect([...out]).toEqual([NaN, NaN, -1, -2, NaN, NaN, -3, -4]);
	});

	it('put ids back likewise, −1 at the rows not computed', () => {
		expect([...scatterIdRows(BigInt64Array.of(7n, 8n), rows, 1, 4)]).toEqual([-1n, 7n, -1n, 8n]);
	});

	it('refuse an output with more or fewer values than its rows', () => {
		expect(() => scatterRows(new Float32Array(3), rows, 2, 4)).toThrow(BenchtopError);
		expect(() => scatterIdRows(new BigInt64Array(5), rows, 2, 4)).toThrow(/expected 4/);
	});

	it('refuse a row outside the batch', () => {
		expect(() => scatterRows(new Float32Array(2), BigInt64Array.of(0n, 4n), 1, 4)).toThrow(
			/row 4 is outside a batch of 4 rows/,
		);
		expect(() => scatterRows(new Float32Array(1), BigInt64Array.of(-1n), 1, 4)).toThrow(
			BenchtopError,
		);
	});
});
