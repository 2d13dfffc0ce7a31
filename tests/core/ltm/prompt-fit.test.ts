// The fit check before an LTM run (issue 21 item 10): which model, which prompt, what would fit;
// the bundled Restaurant example needs a larger judge than the bundled 512-position model.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadLtmSuite, type LtmBenchmark } from '../../../src/core/ltm';
import {
	BUNDLED_MAX_POSITIONS,
	bundledModelMisfit,
	checkPromptFit,
	describePromptFitProblem,
	promptSamples,
	type FitModel,
} from '../../../src/core/ltm/prompt-fit';
import { menuText } from '../../../src/core/ltm/restaurant-menu';
import { countCl100kTokens } from '../../../src/providers/token-count';

const SUITES = new URL('../../../suites/memory/', import.meta.url).pathname;
/** The app's limits for a local 512-position agent (core/ltm/local-agent-limits `localAgentLimits(512)`). */
const APP_LIMITS = { maxContextTokens: 380, maxMessageTokens: 150, maxNewTokens: 32 };

function suite(name: string): LtmBenchmark {
	const loaded = loadLtmSuite(name, readFileSync(`${SUITES}${name}`, 'utf8'), {
		countTokens: countCl100kTokens,
	});
	if (!loaded.ok) throw new Error(`${name} does not load`);
	return loaded.benchmark;
}

const model = (maxPositions: number, label = 'small'): FitModel => ({
	label,
	maxPositions,
	countTokens: countCl100kTokens,
});

describe('checkPromptFit', () => {
	it('names the bundled model limit the config of gpt2-en-small declares', () => {
		const config = JSON.parse(
			readFileSync(
				new URL('../../../public/models/gpt2-en-small/config.json', import.meta.url),
				'utf8',
			),
		) as { n_positions: number };
		expect(BUNDLED_MAX_POSITIONS).toBe(config.n_positions);
	});

	it('restaurant on 512 positions: the whole history, the filler and the judge prompt do not fit', async () => {
		const benchmark = suite('restaurant.ltm-suite.json');
		const problems = await checkPromptFit({
			benchmark,
			agent: model(512, 'agent-512'),
			judge: model(512, 'judge-512'),
			countTokens: countCl100kTokens,
		});
		expect(problems.map((problem) => [problem.role, problem.what.split(' (')[0]])).toEqual([
			['agent', 'the whole conversation'],
			['agent', 'a filler message'],
			['judge', 'the first judge prompt of Restaurant - 0'],
		]);
		const [history, filler, judge] = problems;
		expect(history!.advice).toMatch(/--context-tokens \d+ --max-message-tokens \d+/);
		expect(filler!.tokens).toBeGreaterThan(512);
		expect(filler!.advice).toMatch(/--max-message-tokens \d+/);
		expect(judge!.tokens).toBeGreaterThan(512);
		expect(describePromptFitProblem(judge!)).toMatch(
			/^The judge judge-512 attends to 512 positions, but the first judge prompt of Restaurant - 0 \(with the agent's reply of up to 256 tokens\) takes about \d+ tokens; use a judge that attends to more than \d+ positions/,
		);
	});

	it('with a short history and small filler only the judge is left (its prompt holds the menu twice)', async () => {
		const benchmark = suite('restaurant.ltm-suite.json');
		const problems = await checkPromptFit({
			benchmark,
			agent: model(512),
			judge: model(512),
			maxContextTokens: 300,
			maxMessageTokens: 64,
			countTokens: countCl100kTokens,
		});
		expect(problems.map((problem) => problem.role)).toEqual(['judge']);
		const samples = await promptSamples({ benchmark, countTokens: countCl100kTokens });
		const judgePrompt = samples.judge[0]!.messages.map((message) => message.content).join('\n');
		expect(judgePrompt.split(menuText()).length - 1).toBe(2);
	});

	it('a large judge and a short-history agent fit; an unlimited model (no positions) is not checked', async () => {
		const benchmark = suite('restaurant.ltm-suite.json');
		expect(
			await checkPromptFit({
				benchmark,
				agent: model(512),
				judge: model(4096),
				maxContextTokens: 300,
				maxMessageTokens: 64,
				countTokens: countCl100kTokens,
			}),
		).toEqual([]);
		expect(await checkPromptFit({ benchmark, countTokens: countCl100kTokens })).toEqual([]);
	});

	it('a script line longer than the agent attends to is named by test and line', async () => {
		const benchmark = suite('classroom-basics.ltm-suite.json');
		const problems = await checkPromptFit({
			benchmark,
			agent: model(8),
			maxContextTokens: 4,
			maxMessageTokens: 4,
			countTokens: countCl100kTokens,
		});
		expect(problems.map((problem) => problem.what)).toContain('a filler message');
		const message = problems.find((problem) => problem.advice.includes('cannot be shortened'));
		expect(message?.what).toMatch(/^(the intro message|line \d+ of .+ - .+)$/);
		expect(message?.advice).toMatch(/cannot be shortened/);
	});
});

describe('bundledModelMisfit (the Memory page mark)', () => {
	it('marks restaurant (its judge) and not classroom-basics', async () => {
		const restaurant = await bundledModelMisfit(
			suite('restaurant.ltm-suite.json'),
			countCl100kTokens,
			APP_LIMITS,
		);
		expect(restaurant).toMatch(
			/^Needs a larger judge than the bundled models: .+ attend to 512\.$/,
		);
		expect(
			await bundledModelMisfit(
				suite('classroom-basics.ltm-suite.json'),
				countCl100kTokens,
				APP_LIMITS,
			),
		).toBeNull();
	});
});
