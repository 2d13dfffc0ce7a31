import { describe, expect, it } from 'vitest';
import { BenchtopError } from '../../../src/core/errors';
import {
	buildContinuationInputs,
	continuationLength,
	continuationRowsOf,
	extraTargetSlots,
	joinBoundarySurprisals,
	joinSurprisals,
	planPrefixReuse,
	sequencesPerRound,
	splitOverlongBatches,
	type ContinuationRow,
	type PrefixPlan,
	type PrefixReuseOptions,
} from '../../../src/core/scoring/prefix-plan';

const A = [1, 2, 3, 4, 5];

describe('planPrefixReuse', () => {
	const cases: [string, number[][], PrefixReuseOptions, PrefixPlan][] = [
		[
			// B shares 3 tokens with A: it reuses A's first 3 positions, and A scores B's 4th
			// token (9) at its position 2 beside its own (4); C shares only 1 token and runs whole.
			'a sibling borrows its whole shared prefix, the parent scores its first own token',
			[A, [1, 2, 3, 9, 9], [1, 7]],
			{},
			{
				links: [null, { parent: 0, reusedPositions: 3, scoredByParent: true }, null],
				keepPositions: [3, 0, 0],
				extraTargets: [[{ position: 2, tokenId: 9, child: 1 }], [], []],
				rounds: [[[0, 2], [1]]],
				tokens: 12,
				positionsToRun: 4 + 1 + 1,
			},
		],
		[
			'minReusedPositions 4: the sibling runs whole',
			[A, [1, 2, 3, 9, 9]],
			{ minReusedPositions: 4 },
			{
				links: [null, null],
				keepPositions: [0, 0],
				extraTargets: [[], []],
				rounds: [[[0, 1]]],
				tokens: 10,
				positionsToRun: 8,
			},
		],
		[
			// Its tokens are all A's: nothing for A to score for it.
			'a prefix of an earlier sequence runs nothing',
			[A, [1, 2, 3]],
			{},
			{
				links: [null, { parent: 0, reusedPositions: 2, scoredByParent: false }],
				keepPositions: [2, 0],
				extraTargets: [[], []],
				rounds: [[[0], [1]]],
				tokens: 8,
				positionsToRun: 4,
			},
		],
		[
			// The second differs from the first in its last token only: the first scores it and
			// it runs nothing, so it holds no cache; the third, which continues it, borrows from
			// the first (whose position 4 also scores the third's 7).
			'a sequence that runs nothing lends no cache',
			[
				[1, 2, 3, 4, 5, 6],
				[1, 2, 3, 4, 5, 7],
				[1, 2, 3, 4, 5, 7, 8],
			],
			{},
			{
				links: [
					null,
					{ parent: 0, reusedPositions: 5, scoredByParent: true },
					{ parent: 0, reusedPositions: 5, scoredByParent: true },
				],
				keepPositions: [5, 0, 0],
				extraTargets: [
					[
						{ position: 4, tokenId: 7, child: 1 },
						{ position: 4, tokenId: 7, child: 2 },
					],
					[],
					[],
				],
				rounds: [[[0], [1, 2]]],
				tokens: 19,
				positionsToRun: 5 + 0 + 1,
			},
		],
		[
			// The third continues the second past the first's end: a wave per link.
			'a chain: the longest share wins',
			[
				[1, 2, 3, 4],
				[1, 2, 3, 4, 5, 6],
				[1, 2, 3, 4, 5, 6, 7, 8],
			],
			{},
			{
				links: [
					null,
					{ parent: 0, reusedPositions: 3, scoredByParent: false },
					{ parent: 1, reusedPositions: 5, scoredByParent: false },
				],
				keepPositions: [3, 5, 0],
				extraTargets: [[], [], []],
				rounds: [[[0], [1], [2]]],
				tokens: 18,
				positionsToRun: 3 + 2 + 2,
			},
		],
		[
			'rounds: no link crosses a round',
			[A, A, A],
			{ maxSequencesPerRound: 2 },
			{
				links: [null, { parent: 0, reusedPositions: 4, scoredByParent: false }, null],
				keepPositions: [4, 0, 0],
				extraTargets: [[], [], []],
				rounds: [[[0], [1]], [[2]]],
				tokens: 15,
				positionsToRun: 4 + 0 + 4,
			},
		],
		[
			'empty sequences are in no wave',
			[[], A],
			{},
			{
				links: [null, null],
				keepPositions: [0, 0],
				extraTargets: [[], []],
				rounds: [[[1]]],
				tokens: 5,
				positionsToRun: 4,
			},
		],
	];
	it.each(cases)('%s', (_, sequences, options, expected) => {
		expect(planPrefixReuse(sequences, options)).toEqual(expected);
	});

	it.each([
		['minReusedPositions 0', { minReusedPositions: 0 }],
		['maxSequencesPerRound 0', { maxSequencesPerRound: 0 }],
	] as const)('throws BenchtopError for %s', (_, options) => {
		expect(() => planPrefixReuse([A], options)).toThrow(BenchtopError);
	});
});

describe('continuationLength', () => {
	it.each([
		[[1, 2, 3], 2],
		[[1], 0],
		[[], 0],
	] as const)('%j feeds %i positions', (ids, expected) => {
		expect(continuationLength({ sequenceIndex: 0, pastLength: 0, ids })).toBe(expected);
	});

	it.each([
		['a whole sequence feeds every id', 0, [1, 2, 3], 3],
		['a single-token sequence feeds its one id', 0, [1], 1],
		['a continuation feeds its last id too', 2, [5, 6], 2],
		['a row its parent covers feeds nothing', 2, [5], 0],
		['an empty row feeds nothing', 0, [], 0],
	] as const)('feedsLast: %s', (_, pastLength, ids, expected) => {
		expect(continuationLength({ sequenceIndex: 0, pastLength, ids, feedsLast: true })).toBe(
			expected,
		);
	});

	it('feedsLast: a last id its parent only scored (not ran) is fed', () => {
		const row = { sequenceIndex: 0, pastLength: 2, ids: [5], scoredByParent: true };
		expect(continuationLength({ ...row, feedsLast: true })).toBe(1);
		expect(continuationLength(row)).toBe(0);
	});
});

describe('buildContinuationInputs', () => {
	const rows = [
		{ sequenceIndex: 0, pastLength: 0, ids: [1, 2, 3] },
		{ sequenceIndex: 1, pastLength: 2, ids: [5, 6] },
	];

	it('pads pasts and continuations, masks the padded past, gives explicit positions', () => {
		const inputs = buildContinuationInputs(rows, 0);
		expect([inputs.batchSize, inputs.sequenceLength, inputs.pastLength]).toEqual([2, 2, 2]);
		expect([...inputs.lengths]).toEqual([2, 1]);
		expect(inputs.tokenCount).toBe(3);
		expect([...inputs.inputIds]).toEqual([1n, 2n, 5n, 0n]);
		// Mask width P_max + S = 4: [past 0, past 1, token 0, token 1].
		expect([...inputs.attentionMask]).toEqual([0n, 0n, 1n, 1n, 1n, 1n, 1n, 0n]);
		expect([...inputs.positionIds]).toEqual([0n, 1n, 2n, 3n]);
		expect([...inputs.targets]).toEqual([2n, 3n, 6n, 0n]);
	});

	it('pads to the bucket sizes given, padding positions below maxPositions', () => {
		const inputs = buildContinuationInputs(rows, 9, 3, 4, 4);
		expect([inputs.sequenceLength, inputs.pastLength]).toEqual([3, 4]);
		expect([...inputs.inputIds]).toEqual([1n, 2n, 9n, 5n, 9n, 9n]);
		expect([...inputs.attentionMask]).toEqual([
			...[0n, 0n, 0n, 0n, 1n, 1n, 0n],
			...[1n, 1n, 0n, 0n, 1n, 0n, 0n],
		]);
		expect([...inputs.positionIds]).toEqual([0n, 1n, 2n, 2n, 3n, 3n]);
	});

	it('feedsLast: the last id is fed too, its target 0; the inputs of the other positions do not change', () => {
		const plain = buildContinuationInputs(rows, 0);
		const inputs = buildContinuationInputs(
			rows.map((row) => ({ ...row, feedsLast: true })),
			0,
		);
		expect([inputs.batchSize, inputs.sequenceLength, inputs.pastLength]).toEqual([2, 3, 2]);
		expect([...inputs.lengths]).toEqual([3, 2]);
		expect(inputs.tokenCount).toBe(5);
		expect([...inputs.inputIds]).toEqual([1n, 2n, 3n, 5n, 6n, 0n]);
		expect([...inputs.attentionMask]).toEqual([...[0n, 0n, 1n, 1n, 1n], ...[1n, 1n, 1n, 1n, 0n]]);
		expect([...inputs.positionIds]).toEqual([0n, 1n, 2n, 2n, 3n, 4n]);
		expect([...inputs.targets]).toEqual([2n, 3n, 0n, 6n, 0n, 0n]);
		expect([...plain.targets]).toEqual([2n, 3n, 6n, 0n]);
	});

	it('extra targets take slots 1… at their positions; K is 1 + the most at one position', () => {
		const withExtras = {
			sequenceIndex: 0,
			pastLength: 0,
			ids: [1, 2, 3],
			extraTargets: [
				{ at: 1, tokenId: 7, child: 4 },
				{ at: 1, tokenId: 8, child: 5 },
				{ at: 0, tokenId: 9, child: 6 },
			],
		};
		const inputs = buildContinuationInputs(
			[withExtras, { sequenceIndex: 1, pastLength: 2, ids: [5, 6] }],
			0,
		);
		expect(inputs.targetsPerPosition).toBe(3);
		// [B=2, S=2, K=3]: row 0 position 0 (2, 9, –), position 1 (3, 7, 8); row 1 (6, –, –), pad.
		expect([...inputs.targets]).toEqual([2n, 9n, 0n, 3n, 7n, 8n, 6n, 0n, 0n, 0n, 0n, 0n]);
		expect(extraTargetSlots(withExtras).map((e) => [e.child, e.at, e.slot])).toEqual([
			[4, 1, 1],
			[5, 1, 2],
			[6, 0, 1],
		]);
	});

	it('an extra target outside the fed positions is a BenchtopError', () => {
		expect(() =>
			buildContinuationInputs(
				[
					{
						sequenceIndex: 0,
						pastLength: 0,
						ids: [1, 2, 3],
						extraTargets: [{ at: 2, tokenId: 7, child: 1 }],
					},
				],
				0,
			),
		).toThrow(BenchtopError);
	});

	it('throws BenchtopError for a row with nothing to feed', () => {
		expect(() =>
			buildContinuationInputs([{ sequenceIndex: 3, pastLength: 2, ids: [4] }], 0),
		).toThrow(BenchtopError);
	});
});

describe('joinSurprisals', () => {
	const LN2 = Math.LN2;
	it.each([
		[
			'P + 1 positions from the parent, the rest from the continuation',
			4,
			2,
			[0, 1, 2, 7],
			[-5 * LN2],
			0,
			[0, 1, 2, 5],
		],
		['no parent: position 0 is 0', 3, 0, undefined, [9, -LN2, -2 * LN2], 1, [0, 1, 2]],
		['covered entirely by the parent', 2, 1, [0, 4, 6], [], 0, [0, 4]],
	] as const)('%s', (_, length, reused, parent, logProbs, offset, expected) => {
		const bits = joinSurprisals(
			length,
			reused,
			parent ? Float64Array.from(parent) : undefined,
			Float64Array.from(logProbs),
			offset,
		);
		expect(bits).toHaveLength(expected.length);
		expected.forEach((value, p) => expect(bits[p]).toBeCloseTo(value, 12));
	});

	it('firstBits (scored by the parent) stands at position P; slot 0 of each stride is read', () => {
		// P = 2: positions 0, 1 from the parent, 2 from firstBits, 3 and 4 from the log-probs of
		// positions 1 and 2 of the row (offset 1, stride K = 2).
		const logProbs = Float64Array.from([9, 9, -3 * LN2, 9, -4 * LN2, 9]);
		const bits = joinSurprisals(5, 2, Float64Array.from([0, 1, 8]), logProbs, 1, 2, 6);
		expect([...bits].map((b) => Math.round(b * 1e9) / 1e9)).toEqual([0, 1, 6, 3, 4]);
		// A covered row whose last token the parent scored: only P positions of the parent needed.
		expect([
			...joinSurprisals(3, 2, Float64Array.from([0, 1]), new Float64Array(0), 0, 1, 5),
		]).toEqual([0, 1, 5]);
	});

	it('throws BenchtopError when the parent does not cover the reused positions', () => {
		expect(() => joinSurprisals(4, 2, Float64Array.from([0, 1]), new Float64Array(1), 0)).toThrow(
			BenchtopError,
		);
	});
});

describe('joinBoundarySurprisals', () => {
	const LN2 = Math.LN2;
	it.each([
		[
			'P positions from the parent, the rest (the last included) from the continuation',
			4,
			2,
			[0.5, 1.5, 9, 9],
			[-2 * LN2, -3 * LN2],
			0,
			[0.5, 1.5, 2, 3],
		],
		[
			'a plain row: every position from the log-probs',
			3,
			0,
			undefined,
			[9, -LN2, 0, -4 * LN2],
			1,
			[1, 0, 4],
		],
		['covered by the parent: every position from it', 2, 2, [0.25, 0.75, 8], [], 0, [0.25, 0.75]],
	] as const)('%s', (_, length, fromParent, parent, logProbs, offset, expected) => {
		const bits = joinBoundarySurprisals(
			length,
			fromParent,
			parent ? Float64Array.from(parent) : undefined,
			Float64Array.from(logProbs),
			offset,
		);
		expect(bits).toHaveLength(expected.length);
		expected.forEach((value, p) => expect(bits[p]).toBeCloseTo(value, 12));
	});

	it('throws BenchtopError when the parent does not cover the positions taken from it', () => {
		expect(() =>
			joinBoundarySurprisals(4, 3, Float64Array.from([0, 1]), new Float64Array(1), 0),
		).toThrow(BenchtopError);
	});
});

describe('sequencesPerRound', () => {
	it.each<[string, number, number]>([
		// 256 MiB / (0 → 1 byte × 48 positions) is far above the cap.
		['no cache bytes: the cap', 0, 256],
		// gpt2 small: 12 layers × (key + value) × 12 heads × 64 × 4 bytes = 73,728 bytes;
		// 268,435,456 / (73,728 × 48) = 75.85.
		['gpt2-small float32 caches', 73_728, 75],
		['huge caches: the floor', 1e9, 8],
	])('%s', (_name, bytesPerPosition, expected) => {
		expect(sequencesPerRound(bytesPerPosition)).toBe(expected);
	});
});

describe('continuationRowsOf', () => {
	// A = [1, 2, 3, 4, 5]; B = [1, 2, 3, 9, 9] borrows A's first 3 positions and A scores B's 9 at
	// its position 2; C = [1, 7] runs whole.
	const sequences = [A, [1, 2, 3, 9, 9], [1, 7]];
	const plan: PrefixPlan = {
		links: [null, { parent: 0, reusedPositions: 3, scoredByParent: true }, null],
		keepPositions: [3, 0, 0],
		extraTargets: [[{ position: 2, tokenId: 9, child: 1 }], [], []],
		rounds: [[[0, 2], [1]]],
		tokens: 12,
		positionsToRun: 6,
	};

	it.each<[string, number[], boolean, ContinuationRow[]]>([
		[
			'roots run whole; a parent carries its children’s tokens',
			[0, 2],
			false,
			[
				{
					sequenceIndex: 0,
					pastLength: 0,
					ids: [1, 2, 3, 4, 5],
					extraTargets: [{ at: 2, tokenId: 9, child: 1 }],
				},
				{ sequenceIndex: 2, pastLength: 0, ids: [1, 7] },
			],
		],
		[
			'a child starts after its borrowed positions, feeding its last token for boundaries',
			[1],
			true,
			[{ sequenceIndex: 1, pastLength: 3, ids: [9, 9], feedsLast: true, scoredByParent: true }],
		],
	])('%s', (_name, wave, feedsLast, expected) => {
		expect(continuationRowsOf(plan, sequences, wave, feedsLast)).toStrictEqual(expected);
	});

	it('gives extra targets relative to the row’s past', () => {
		const nested: PrefixPlan = {
			...plan,
			links: [null, { parent: 0, reusedPositions: 2, scoredByParent: false }, null],
			extraTargets: [[], [{ position: 3, tokenId: 8, child: 2 }], []],
		};
		expect(continuationRowsOf(nested, sequences, [1], false)).toStrictEqual([
			{
				sequenceIndex: 1,
				pastLength: 2,
				ids: [3, 9, 9],
				extraTargets: [{ at: 1, tokenId: 8, child: 2 }],
			},
		]);
	});
});

describe('splitOverlongBatches', () => {
	// Row 0 feeds 2 positions after a past of 4; row 1 feeds 3 with no past.
	const rows: ContinuationRow[] = [
		{ sequenceIndex: 0, pastLength: 4, ids: [5, 6, 7] },
		{ sequenceIndex: 1, pastLength: 0, ids: [1, 2, 3, 4] },
	];
	const groups = [{ sequenceIndices: [1, 0], sequenceLength: 3 }];

	it.each<[string, number, unknown]>([
		['a batch whose past + length fits stays whole', 7, groups],
		[
			'a batch past the positions runs its rows alone, each at its own length',
			6,
			[
				{ sequenceIndices: [1], sequenceLength: 3 },
				{ sequenceIndices: [0], sequenceLength: 2 },
			],
		],
	])('%s', (_name, maxPositions, expected) => {
		expect(splitOverlongBatches(groups, rows, maxPositions)).toEqual(expected);
	});
});
