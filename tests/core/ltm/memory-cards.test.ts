// The bundled examples as cards: name, tests, datasets in order, memory span, and the mark of an
// example the bundled models cannot run (with the page's limits for 512 positions).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadLtmSuite, type LtmBenchmark } from '../../../src/core/ltm';
import { memoryCardOf } from '../../../src/core/ltm/memory-cards';
import { countCl100kTokens } from '../../../src/providers/token-count';

const SUITES = new URL('../../../suites/memory/', import.meta.url).pathname;

function suite(name: string): LtmBenchmark {
	const loaded = loadLtmSuite(name, readFileSync(`${SUITES}${name}`, 'utf8'), {
		countTokens: countCl100kTokens,
	});
	if (!loaded.ok) throw new Error(`${name} does not load`);
	return loaded.benchmark;
}

describe('memoryCardOf', () => {
	it('shows an example the bundled models can run, without a mark', async () => {
		const benchmark = suite('classroom-basics.ltm-suite.json');
		const card = await memoryCardOf(
			'classroom-basics.ltm-suite.json',
			benchmark,
			countCl100kTokens,
		);
		expect(card).toEqual({
			path: 'classroom-basics.ltm-suite.json',
			name: benchmark.config.runName,
			testCount: benchmark.tests.length,
			datasets: [...new Set(benchmark.tests.map((test) => test.datasetName))],
			memorySpan: benchmark.config.memorySpan,
		});
		expect('largerModel' in card).toBe(false);
	});

	it('marks an example whose prompts need a larger model, saying why', async () => {
		const card = await memoryCardOf(
			'restaurant.ltm-suite.json',
			suite('restaurant.ltm-suite.json'),
			countCl100kTokens,
		);
		expect(card.largerModel).toMatch(
			/^Needs a larger judge than the bundled models: .+ attend to 512\.$/u,
		);
	});

	it('lists each dataset once, in the order of its first test', async () => {
		const base = suite('classroom-basics.ltm-suite.json');
		const [first, second] = base.tests;
		const tests = [
			{ ...first!, uniqueId: 'B - 0', datasetName: 'B' },
			{ ...second!, uniqueId: 'A - 0', datasetName: 'A' },
			{ ...first!, uniqueId: 'B - 1', datasetName: 'B' },
		];
		const card = await memoryCardOf('x', { ...base, tests }, countCl100kTokens);
		expect(card.datasets).toEqual(['B', 'A']);
		expect(card.testCount).toBe(3);
	});
});
