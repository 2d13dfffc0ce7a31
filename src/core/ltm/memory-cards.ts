/**
 * A bundled example suite as the Memory page shows it: a card with its name, tests, datasets,
 * memory span, and why the bundled models cannot run it when they cannot. Pure.
 */
import { localAgentLimits } from './local-agent-limits';
import { BUNDLED_MAX_POSITIONS, bundledModelMisfit } from './prompt-fit';
import type { LtmBenchmark } from './shared/types';

/** A bundled example suite, shown as a card. */
export interface MemoryCard {
	readonly path: string;
	readonly name: string;
	readonly testCount: number;
	readonly datasets: readonly string[];
	readonly memorySpan: number;
	/** Present when its prompts cannot fit the bundled models: why (see bundledModelMisfit). */
	readonly largerModel?: string;
}

/** A bundled example's mark when the bundled models cannot run it (issue 21 item 10). */
async function misfitNote(
	benchmark: LtmBenchmark,
	countTokens: (text: string) => number,
): Promise<{ largerModel?: string }> {
	const limits = localAgentLimits(BUNDLED_MAX_POSITIONS, null);
	const note = await bundledModelMisfit(benchmark, countTokens, limits);
	return note === null ? {} : { largerModel: note };
}

/** The card of the example loaded from `path` (its file name); datasets in order of first test. */
export async function memoryCardOf(
	path: string,
	benchmark: LtmBenchmark,
	countTokens: (text: string) => number,
): Promise<MemoryCard> {
	return {
		path,
		name: benchmark.config.runName,
		testCount: benchmark.tests.length,
		datasets: [...new Set(benchmark.tests.map((test) => test.datasetName))],
		memorySpan: benchmark.config.memorySpan,
		...(await misfitNote(benchmark, countTokens)),
	};
}
