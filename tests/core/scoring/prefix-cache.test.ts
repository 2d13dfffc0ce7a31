import { describe, expect, it } from 'vitest';
import {
	gatherPastCache,
	keepCachePositions,
	type CacheOutput,
	type PastRow,
} from '../../../src/core/scoring/prefix-cache';

const range = (n: number): Float32Array => Float32Array.from({ length: n }, (_, i) => i);

describe('keepCachePositions', () => {
	it.each<
		[
			string,
			CacheOutput,
			{ pastLength: number; sequenceLength: number },
			number,
			number,
			number,
			number[],
		]
	>([
		[
			// [B=2, heads=1, P=2 + S=3, dim=1]: row 1 is 5…9; its own past is 1 position (5), the
			// padded past position (6) is skipped, then its own tokens (7, 8).
			'a row’s own past, then its tokens after the padded past',
			{ data: range(10), dims: [2, 1, 5, 1] },
			{ pastLength: 2, sequenceLength: 3 },
			1,
			1,
			3,
			[5, 7, 8],
		],
		[
			'no more than `keep` positions of the past',
			{ data: range(10), dims: [2, 1, 5, 1] },
			{ pastLength: 2, sequenceLength: 3 },
			1,
			2,
			1,
			[5],
		],
		[
			// [B=1, heads=2, 3 positions, dim=2]: head 0 is 0…5, head 1 is 6…11.
			'every head, each position `dim` wide',
			{ data: range(12), dims: [1, 2, 3, 2] },
			{ pastLength: 1, sequenceLength: 2 },
			0,
			1,
			2,
			[0, 1, 2, 3, 6, 7, 8, 9],
		],
		[
			// No dims: heads and dim from the shapes, positions = past + length (0 + 3).
			'missing dims from the past input’s shape and the batch',
			{ data: Float32Array.of(1, 2, 3, 4, 5, 6), dims: [] },
			{ pastLength: 0, sequenceLength: 3 },
			1,
			0,
			2,
			[4, 5],
		],
	])('%s', (_name, output, batch, row, past, keep, expected) => {
		const kept = keepCachePositions([output], [{ heads: 1, headDim: 1 }], batch, row, past, keep);
		expect(kept.positions).toBe(keep);
		expect([...(kept.tensors[0] ?? [])]).toEqual(expected);
	});

	it('keeps float16 caches as raw bits', () => {
		const output = { data: Uint16Array.of(10, 11, 12), dims: [1, 1, 3, 1] };
		const kept = keepCachePositions([output], [], { pastLength: 0, sequenceLength: 3 }, 0, 0, 2);
		expect(kept.tensors[0]).toEqual(Uint16Array.of(10, 11));
	});
});

describe('gatherPastCache', () => {
	it.each<[string, { heads: number; headDim: number }, (PastRow | undefined)[], number, number[]]>([
		[
			// Row 0 has no past; row 1's first position (1, 2) of its 2-position cache, then zeros.
			'each row’s past from its cache, zeros after it and for rows without one',
			{ heads: 1, headDim: 2 },
			[undefined, { length: 1, cache: Float32Array.of(1, 2, 3, 4), cachePositions: 2 }],
			2,
			[0, 0, 0, 0, 1, 2, 0, 0],
		],
		[
			// Cache heads: head 0 = (1, 2), head 1 = (3, 4); one position each into a past of 3.
			'every head at its own offset',
			{ heads: 2, headDim: 1 },
			[{ length: 1, cache: Float32Array.of(1, 2, 3, 4), cachePositions: 2 }],
			3,
			[1, 0, 0, 3, 0, 0],
		],
	])('%s', (_name, shape, rows, pastLength, expected) => {
		const data = gatherPastCache({ ...shape, type: 'float32' }, rows, pastLength);
		expect(data).toBeInstanceOf(Float32Array);
		expect([...data]).toEqual(expected);
	});

	it('builds float16 pasts as raw bits', () => {
		const rows = [{ length: 2, cache: Uint16Array.of(7, 8, 9), cachePositions: 3 }];
		const data = gatherPastCache({ heads: 1, headDim: 1, type: 'float16' }, rows, 2);
		expect(data).toEqual(Uint16Array.of(7, 8));
	});
});
