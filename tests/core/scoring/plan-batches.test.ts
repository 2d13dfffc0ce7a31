import { describe, expect, it } from 'vitest';
import { BenchtopError, SequenceLengthError } from '../../../src/core/errors';
import {
	bucketSequenceLength,
	buildBatchInputs,
	exactBuckets,
	planBatches,
	type BatchGroup,
	type BatchLimits,
} from '../../../src/core/scoring/plan-batches';

const WIDE: BatchLimits = { maxPositions: 100, maxTokens: 10_000 };
/** Every length its own bucket: batches padded to their longest sequence only. */
const EXACT = Array.from({ length: 100 }, (_, i) => i + 1);

describe('planBatches', () => {
	const cases: [string, readonly number[], BatchLimits, BatchGroup[]][] = [
		[
			'one batch, longest first, padded to the bucket of the longest',
			[3, 5, 2],
			{ ...WIDE, buckets: [8, 16] },
			[{ sequenceIndices: [1, 0, 2], sequenceLength: 8 }],
		],
		[
			'ties keep input order',
			[4, 4, 4],
			{ ...WIDE, buckets: [8] },
			[{ sequenceIndices: [0, 1, 2], sequenceLength: 8 }],
		],
		[
			'B × S ≤ maxTokens',
			[4, 4, 4],
			{ ...WIDE, maxTokens: 16, buckets: [8] },
			[
				{ sequenceIndices: [0, 1], sequenceLength: 8 },
				{ sequenceIndices: [2], sequenceLength: 8 },
			],
		],
		[
			'B ≤ maxBatchSize',
			[2, 2, 2],
			{ ...WIDE, maxBatchSize: 2 },
			[
				{ sequenceIndices: [0, 1], sequenceLength: 8 },
				{ sequenceIndices: [2], sequenceLength: 8 },
			],
		],
		[
			'logits cap: B × S × width × 4 bytes',
			[8, 8],
			{ ...WIDE, buckets: [8], logitsWidth: 10, maxLogitsBytes: 8 * 10 * 4 },
			[
				{ sequenceIndices: [0], sequenceLength: 8 },
				{ sequenceIndices: [1], sequenceLength: 8 },
			],
		],
		[
			'a sequence over the token budget still runs, alone',
			[8],
			{ ...WIDE, maxTokens: 4, buckets: [8] },
			[{ sequenceIndices: [0], sequenceLength: 8 }],
		],
		[
			'batch-dependent dtype: every sequence alone, unpadded',
			[3, 5],
			{ ...WIDE, batchInvariant: false },
			[
				{ sequenceIndices: [1], sequenceLength: 5 },
				{ sequenceIndices: [0], sequenceLength: 3 },
			],
		],
		[
			'empty sequences are in no batch',
			[0, 3, 0],
			{ ...WIDE, buckets: [8] },
			[{ sequenceIndices: [1], sequenceLength: 8 }],
		],
		[
			'the bucket never passes maxPositions',
			[5],
			{ ...WIDE, maxPositions: 6, buckets: [8] },
			[{ sequenceIndices: [0], sequenceLength: 6 }],
		],
		// With a per-pass cost: {10, 9} + {2, 2} costs 2·10 + 4 + 2·2 + 4 = 32 positions, one
		// batch 4·10 + 4 = 44, three batches 14 + 13 + 8 = 35.
		[
			'a per-pass cost of 4 positions: cut where padding plus passes cost least',
			[10, 9, 2, 2],
			{ ...WIDE, buckets: EXACT, batchOverheadPositions: 4 },
			[
				{ sequenceIndices: [0, 1], sequenceLength: 10 },
				{ sequenceIndices: [2, 3], sequenceLength: 2 },
			],
		],
		[
			'a per-pass cost of 100 positions: one batch (140 < 224)',
			[10, 9, 2, 2],
			{ ...WIDE, buckets: EXACT, batchOverheadPositions: 100 },
			[{ sequenceIndices: [0, 1, 2, 3], sequenceLength: 10 }],
		],
		[
			// {4} + {3, 3}: 1004 + 1006 = 2010 < {4, 3} + {3}: 1008 + 1003 = 2011.
			'a per-pass cost still within the budgets',
			[4, 3, 3],
			{ ...WIDE, buckets: EXACT, batchOverheadPositions: 1000, maxBatchSize: 2 },
			[
				{ sequenceIndices: [0], sequenceLength: 4 },
				{ sequenceIndices: [1, 2], sequenceLength: 3 },
			],
		],
	];
	it.each(cases)('%s', (_, counts, limits, expected) => {
		expect(planBatches(counts, limits)).toEqual(expected);
	});

	it('throws SequenceLengthError for a sequence longer than maxPositions', () => {
		expect(() => planBatches([3, 11], { ...WIDE, maxPositions: 10 })).toThrow(SequenceLengthError);
	});

	it.each([
		['a logits cap without the width', { ...WIDE, maxLogitsBytes: 100 }, [1]],
		['maxTokens 0', { ...WIDE, maxTokens: 0 }, [1]],
		['a negative count', WIDE, [-1]],
		['a fractional count', WIDE, [1.5]],
	] as const)('throws BenchtopError for %s', (_, limits, counts) => {
		expect(() => planBatches(counts, limits)).toThrow(BenchtopError);
	});
});

describe('bucketSequenceLength', () => {
	it.each([
		[1, 100, [8, 16], 8],
		[8, 100, [8, 16], 8],
		[9, 100, [8, 16], 16],
		[20, 100, [8, 16], 20],
		[5, 6, [8, 16], 6],
	] as const)('length %i, maxPositions %i, buckets %j → %i', (length, max, buckets, expected) => {
		expect(bucketSequenceLength(length, max, buckets)).toBe(expected);
	});
});

describe('buildBatchInputs', () => {
	it('right-pads rows in group order with ids, mask, positions and next-token targets', () => {
		const inputs = buildBatchInputs(
			{ sequenceIndices: [1, 0], sequenceLength: 4 },
			[
				[5, 6],
				[7, 8, 9],
			],
			99,
		);
		expect(inputs.sequenceIndices).toEqual([1, 0]);
		expect([inputs.batchSize, inputs.sequenceLength, inputs.tokenCount]).toEqual([2, 4, 5]);
		expect([...inputs.lengths]).toEqual([3, 2]);
		expect([...inputs.inputIds]).toEqual([7n, 8n, 9n, 99n, 5n, 6n, 99n, 99n]);
		expect([...inputs.attentionMask]).toEqual([1n, 1n, 1n, 0n, 1n, 1n, 0n, 0n]);
		expect([...inputs.positionIds]).toEqual([0n, 1n, 2n, 3n, 0n, 1n, 2n, 3n]);
		expect([...inputs.targets]).toEqual([8n, 9n, 0n, 0n, 6n, 0n, 0n, 0n]);
		expect(inputs.inputShape).toEqual([2, 4]);
		expect(inputs.targetsShape).toEqual([2, 4, 1]);
	});

	it('throws BenchtopError when a sequence does not fit the batch length', () => {
		expect(() =>
			buildBatchInputs({ sequenceIndices: [0], sequenceLength: 2 }, [[1, 2, 3]]),
		).toThrow(BenchtopError);
	});
});

describe('exactBuckets', () => {
	it.each<[number, number[]]>([
		[0, []],
		[1, [1]],
		[4, [1, 2, 3, 4]],
	])('maxPositions %i: every length its own bucket', (maxPositions, expected) => {
		expect(exactBuckets(maxPositions)).toEqual(expected);
	});
});
