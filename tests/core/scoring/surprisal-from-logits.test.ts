import { describe, expect, it } from 'vitest';
import { BenchtopError } from '../../../src/core/errors';
import {
	readReducedLogProbs,
	surprisalsBitsForRow,
} from '../../../src/core/scoring/surprisal-from-logits';

const LN2 = Math.LN2;

describe('readReducedLogProbs', () => {
	it.each([
		[
			'rows t < length − 1 are copied, the last real position and padding are NaN',
			[-1, -2, -3, -4, -5, -6],
			{ batchSize: 2, sequenceLength: 3 },
			[3, 2],
			[-1, -2, NaN, -4, NaN, NaN],
		],
		[
			'a one-token row scores nothing',
			[-1, -2],
			{ batchSize: 1, sequenceLength: 2 },
			[1],
			[NaN, NaN],
		],
	] as const)('%s', (_, logProbs, shape, lengths, expected) => {
		const out = new Float64Array(logProbs.length);
		readReducedLogProbs(Float32Array.from(logProbs), shape, Int32Array.from(lengths), out);
		expect([...out]).toEqual(expected);
	});

	it.each([
		['log-probs of another shape', 5, 6],
		['an output buffer too small', 6, 5],
	] as const)('throws BenchtopError for %s', (_, values, outLength) => {
		expect(() =>
			readReducedLogProbs(
				new Float32Array(values),
				{ batchSize: 2, sequenceLength: 3 },
				Int32Array.from([3, 3]),
				new Float64Array(outLength),
			),
		).toThrow(BenchtopError);
	});
});

describe('surprisalsBitsForRow', () => {
	// Row 0: log p = −1, −2 bits (in nats); row 1: −3 bits.
	const logProbs = Float64Array.from([-LN2, -2 * LN2, NaN, -3 * LN2, NaN, NaN]);
	it.each([
		['row 0, 3 tokens', 0, 3, [0, 1, 2]],
		['row 1, 2 tokens', 1, 2, [0, 3]],
		['one token: 0 bits (no left context)', 1, 1, [0]],
		['no tokens', 0, 0, []],
	] as const)('%s', (_, row, length, expected) => {
		const bits = surprisalsBitsForRow(logProbs, row, 3, length);
		expect(bits).toHaveLength(expected.length);
		expected.forEach((value, p) => expect(bits[p]).toBeCloseTo(value, 12));
	});

	it.each([
		['a length over the sequence length', 0, 4],
		['a row past the buffer', 2, 2],
	] as const)('throws BenchtopError for %s', (_, row, length) => {
		expect(() => surprisalsBitsForRow(logProbs, row, 3, length)).toThrow(BenchtopError);
	});
});
