// Aggregates (L14), the TestResult files built from a run state and their safe paths.
import { describe, expect, it } from 'vitest';
import { defaultWaits } from '../../../src/core/ltm/definitions';
import {
	buildLtmReport,
	buildLtmSummary,
	formatLogTime,
	meanAndStd,
	resultFilePath,
	summarizeScores,
} from '../../../src/core/ltm/report';
import { runLtm } from '../../../src/core/ltm/run-ltm';
import type { LtmTestDefinition } from '../../../src/core/ltm/shared/types';
import type { GenerationEvent, TextModel } from '../../../src/core/model/generation';

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

describe('result file paths and the summary alone', () => {
	const test = (datasetName: string, exampleId: string, uniqueId: string): LtmTestDefinition => ({
		uniqueId,
		datasetName,
		exampleId,
		configName: 'colours',
		evaluator: 'colours',
		description: '',
		resetMessage: '',
		script: ['My favourite colour is teal.', 'What is my favourite colour?'],
		isQuestion: [false, true],
		waits: defaultWaits(2),
		expectedResponses: ['teal'],
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
	});

	it.each([
		['Colours', '0', 'Colours/0_0.json'],
		['Prospective Memory', '2', 'Prospective Memory/2_0.json'],
		['../../escaped', '0', '..%2F..%2Fescaped/0_0.json'],
		['Colours', '../../x', 'Colours/..%2F..%2Fx_0.json'],
		['C:\\evil', '/etc/passwd', 'C%3A%5Cevil/%2Fetc%2Fpasswd_0.json'],
		['x'.repeat(300), '0', 'unnamed/4_0.json'],
	])('dataset %j, example %j → %s', (dataset, example, path) => {
		expect(resultFilePath(test(dataset, example, 't'), 4)).toBe(path);
	});

	it('buildLtmSummary is the summary of the full report, and the report paths are safe', async () => {
		const benchmark = {
			config: { runName: 'r', memorySpan: 40, incompatibilities: [], isolated: false },
			tests: [test('../../escaped', '0', 'a - 0'), test('Colours', '1', 'b - 1')],
		};
		const agent: TextModel = {
			label: 'teal',
			abilities: { score: false, generate: true, chat: true },
			async *generate(): AsyncGenerator<GenerationEvent> {
				yield { type: 'done', completion: 'teal', finishReason: 'stop' };
			},
			countTokens: (text) => text.length,
		};
		const state = await runLtm(benchmark, { agent, now: () => 0 });
		const report = buildLtmReport(state);
		expect(report.tests.map((entry) => entry.path)).toEqual([
			'..%2F..%2Fescaped/0_0.json',
			'Colours/1_0.json',
		]);
		expect(buildLtmSummary(state)).toEqual(report.summary);
		expect(report.summary.score).toBe(2);
	});
});
