import { describe, expect, it } from 'vitest';
import {
	applyPenalties,
	argmax,
	sampleToken,
	seededRandom,
} from '../../../src/core/model/sample-token';

describe('argmax', () => {
	it.each([
		[[1, 3, 2], 1],
		[[5, 5, 1], 0],
		[[-Infinity, -2, -3], 1],
		[[], -1],
	])('argmax(%j) = %i', (values, expected) => {
		expect(argmax(values)).toBe(expected);
	});
});

describe('seededRandom', () => {
	it('repeats a sequence for a seed and stays in [0, 1)', () => {
		const a = seededRandom(42);
		const b = seededRandom(42);
		const c = seededRandom(43);
		const seqA = Array.from({ length: 100 }, a);
		expect(Array.from({ length: 100 }, b)).toEqual(seqA);
		expect(Array.from({ length: 100 }, c)).not.toEqual(seqA);
		expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
	});
});

describe('sampleToken', () => {
	const fixed = (u: number) => () => u;
	it.each([
		// logits, temperature, topP, uniform draw, expected id
		{ logits: [0, 0, 0, 0], temperature: 1, topP: 1, u: 0.3, id: 1 },
		{ logits: [0, 0, 0, 0], temperature: 1, topP: 1, u: 0.99, id: 3 },
		// Top-p 0.5 over [0.5, 0.25, 0.25] keeps id 0 only.
		{ logits: [Math.log(2), 0, 0], temperature: 1, topP: 0.5, u: 0.99, id: 0 },
		// Top-p 0.6 keeps ids 0 and 1 (mass 0.75): u = 0.9 of it lands on id 1.
		{ logits: [Math.log(2), 0, 0], temperature: 1, topP: 0.6, u: 0.9, id: 1 },
		// Temperature 0 is greedy whatever the draw.
		{ logits: [1, 4, 2], temperature: 0, topP: 1, u: 0.0, id: 1 },
	])('$logits T=$temperature p=$topP u=$u → $id', ({ logits, temperature, topP, u, id }) => {
		expect(sampleToken(logits, { temperature, topP, random: fixed(u) })).toBe(id);
	});

	it('follows the softmax distribution at temperature 1 (frequencies)', () => {
		const random = seededRandom(1);
		const counts = [0, 0];
		for (let i = 0; i < 20000; i++)
			counts[sampleToken([Math.log(3), 0], { temperature: 1, topP: 1, random })]! += 1;
		expect((counts[0] ?? 0) / 20000).toBeCloseTo(0.75, 1);
	});
});

describe('applyPenalties', () => {
	it.each([
		{ counts: [[1, 2]], frequency: 0.5, presence: 0, logits: [0, 1, 1] },
		{ counts: [[1, 2]], frequency: 0, presence: 1.5, logits: [0, 0.5, 1] },
		{
			counts: [
				[0, 1],
				[2, 3],
			],
			frequency: 1,
			presence: 1,
			logits: [-2, 2, -3],
		},
		{ counts: [[7, 1]], frequency: 1, presence: 1, logits: [0, 2, 1] },
	])(
		'counts $counts, frequency $frequency, presence $presence',
		({ counts, frequency, presence, logits }) => {
			const row = new Float32Array([0, 2, 1]);
			applyPenalties(row, new Map(counts as [number, number][]), frequency, presence);
			expect(Array.from(row)).toEqual(logits);
		},
	);
});
