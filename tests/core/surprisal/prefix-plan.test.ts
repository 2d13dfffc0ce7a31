import { describe, expect, it } from 'vitest';
import { BenchtopError } from '../../../src/core/errors';
import {
	buildContinuationInputs,
	continuationLength,
	joinBoundarySurprisals,
	joinSurprisals,
	planPrefixReuse,
	type PrefixPlan,
	type PrefixReuseOptions,
} from '../../../src/core/surprisal/prefix-plan';

const A = [1, 2, 3, 4, 5];

describe('planPrefixReuse', () => {
	const cases: [string, number[][], PrefixReuseOptions, PrefixPlan][] = [
		[
			// B shares 3 tokens with A: it reuses A's first 2 positions (the third is fed again
			// so its logits score B's 4th token); C shares only 1 token and runs whole.
			'a sibling borrows its shared prefix but one; a short share runs whole',
			[A, [1, 2, 3, 9, 9], [1, 7]],
			{},
			{
				links: [null, { parent: 0, reusedPositions: 2 }, null],
				keepPositions: [2, 0, 0],
				rounds: [[[0, 2], [1]]],
				tokens: 12,
				positionsToRun: 4 + 2 + 1,
			},
		],
		[
			'minReusedPositions 3: the sibling runs whole',
			[A, [1, 2, 3, 9, 9]],
			{ minReusedPositions: 3 },
			{
				links: [null, null],
				keepPositions: [0, 0],
				rounds: [[[0, 1]]],
				tokens: 10,
				positionsToRun: 8,
			},
		],
		[
			'a prefix of an earlier sequence runs nothing',
			[A, [1, 2, 3]],
			{},
			{
				links: [null, { parent: 0, reusedPositions: 2 }],
				keepPositions: [2, 0],
				rounds: [[[0], [1]]],
				tokens: 8,
				positionsToRun: 4,
			},
		],
		[
			'a chain: the longest share wins, a wave per link',
			[
				[1, 2, 3, 4, 5, 6],
				[1, 2, 3, 4, 5, 7],
				[1, 2, 3, 4, 5, 7, 8],
			],
			{},
			{
				links: [null, { parent: 0, reusedPositions: 4 }, { parent: 1, reusedPositions: 5 }],
				keepPositions: [4, 5, 0],
				rounds: [[[0], [1], [2]]],
				tokens: 19,
				positionsToRun: 5 + 1 + 1,
			},
		],
		[
			'rounds: no link crosses a round',
			[A, A, A],
			{ maxSequencesPerRound: 2 },
			{
				links: [null, { parent: 0, reusedPositions: 4 }, null],
				keepPositions: [4, 0, 0],
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
