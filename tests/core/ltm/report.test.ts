// Aggregates (L14) and the TestResult files built from a run state.
import { describe, expect, it } from 'vitest';
import { meanAndStd, summarizeScores, formatLogTime } from '../../../src/core/ltm/report';

describe('summarizeScores (L14)', () => {
	it('score = sum of dataset means, accuracy = 100 · score / datasets, ltm = mean gap of perfect tests', () => {
		const summary = summarizeScores([
			{ dataset: 'A', score: 1, tokens: 1000 },
			{ dataset: 'A', score: 1, tokens: 1200 },
			{ dataset: 'B', score: 1, tokens: 900 },
			{ dataset: 'B', score: 0, tokens: 5000 },
		]);
		expect(summary.datasets).toEqual({
			A: { mean: 1, std: 0, tests: 2 },
			B: { mean: 0.5, std: 0.5, tests: 2 },
		});
		expect(summary.score).toBe(1.5);
		expect(summary.score_std).toBe(0.5);
		expect(summary.accuracy).toBe(75);
		expect(summary.ltm).toBeCloseTo((1000 + 1200 + 900) / 3, 10);
	});

	it('a score above 1 (Shopping duplicates) is not "perfect"; no perfect tests gives ltm 0', () => {
		expect(summarizeScores([{ dataset: 'S', score: 5 / 3, tokens: 10 }]).ltm).toBe(0);
		expect(summarizeScores([])).toMatchObject({ score: 0, accuracy: 0, ltm: 0 });
	});
});

describe('meanAndStd', () => {
	const cases: [number[], number, number][] = [
		[[1, 0], 0.5, 0.5],
		[[1, 1, 1], 1, 0],
		[[0, 1, 1, 0.5], 0.625, Math.sqrt(0.171875)],
	];
	it.each(cases)('%j → mean %d, population std %d', (values, mean, std) => {
		const result = meanAndStd(values);
		expect(result.mean).toBeCloseTo(mean, 12);
		expect(result.std).toBeCloseTo(std, 12);
	});
});

describe('formatLogTime', () => {
	it('adds the virtual clock to the start', () => {
		expect(formatLogTime('2024-01-01T00:00:00.000Z', 3661)).toBe('2024-01-01 01:01:01');
	});
});
