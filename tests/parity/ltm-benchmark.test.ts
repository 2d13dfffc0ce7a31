// Parity: upstream's "Benchmark 3 - 1k" definitions (../shared/peer/evals/ltm-benchmark, read at
// test time, never copied) run through our scheduler and evaluators with an agent that answers
// from the expected responses (every scorable test 1) and one that answers wrongly (every test
// 0), static and callback tests alike, tokens counted with cl100k as upstream reports gaps.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
	buildLtmReport,
	loadLtmDefinitions,
	runLtm,
	UNSUPPORTED_DYNAMIC,
	NEEDS_JUDGE_REASON,
} from '../../src/core/ltm';
import type { LtmBenchmark, LtmTestDefinition } from '../../src/core/ltm';
import type {
	ChatMessage,
	GenerateRequest,
	GenerationEvent,
	TextModel,
} from '../../src/core/model/generation';
import { countCl100kTokens } from '../../src/providers/token-count';

const PEER = fileURLToPath(
	new URL('../../../shared/peer/evals/ltm-benchmark/benchmark-3-1k-definitions/', import.meta.url),
);
const present = existsSync(`${PEER}config.yml`);
if (!present) {
	if (process.env.CI === 'true') throw new Error(`parity data missing under CI: ${PEER}`);
	console.warn(
		'parity data absent, skipping: ../shared/peer/evals/ltm-benchmark/benchmark-3-1k-definitions',
	);
}

/** The peer folder as a `{path → text}` map, as a user's dropped folder. */
function readFolder(root: string, prefix = ''): Record<string, string> {
	const files: Record<string, string> = {};
	for (const name of readdirSync(root + prefix)) {
		const path = `${prefix}${name}`;
		if (statSync(root + path).isDirectory()) Object.assign(files, readFolder(root, `${path}/`));
		else files[path] = readFileSync(root + path, 'utf8');
	}
	return files;
}

/** What a perfect agent says to a question of this test. */
function idealAnswer(test: LtmTestDefinition): string {
	const expected = test.expectedResponses;
	switch (test.evaluator) {
		case 'name_list':
			return JSON.stringify(expected);
		case 'shopping':
			return JSON.stringify(
				expected.map((entry) => ({
					item: (entry as [string, number])[0],
					quantity: (entry as [string, number])[1],
				})),
			);
		case 'prospective_memory':
			return 'OK.';
		case 'spy_meeting':
			return `We meet ${(expected as string[][]).map((keywords) => keywords[0]).join(', ')}.`;
		default:
			return String(expected[0]);
	}
}

/** A replay-style agent: reads the chat it is given and answers from the test definitions. */
function replayAgent(tests: readonly LtmTestDefinition[], right: boolean): TextModel {
	/** The test a question belongs to: several tests share a question, so the one with the latest line. */
	const testOf = (
		messages: readonly ChatMessage[],
		last: string,
	): LtmTestDefinition | undefined => {
		const temporal = last.startsWith('Which joke did I tell you');
		const candidates = tests.filter((test) =>
			temporal
				? test.isTemporal
				: test.script.some((line, index) => test.isQuestion[index] && line === last),
		);
		const lastSeen = (test: LtmTestDefinition) =>
			Math.max(
				...test.script
					.filter((_, index) => !test.isQuestion[index])
					.map((line) => messages.findLastIndex((m) => m.role === 'user' && m.content === line)),
			);
		return candidates.sort((a, b) => lastSeen(b) - lastSeen(a))[0];
	};
	const reply = (messages: readonly ChatMessage[]): string => {
		const last = messages.at(-1)!.content;
		if (!right) return "I don't know.";
		const test = testOf(messages, last);
		let answer = test ? idealAnswer(test) : 'OK.';
		// Prospective memory: append the quote to the nth reply counted from the question's.
		for (const pm of tests.filter((t) => t.evaluator === 'prospective_memory')) {
			const question = pm.script[pm.script.length - 1]!;
			const asked = messages.findIndex(
				(message) => message.role === 'user' && message.content === question,
			);
			const [quote, , nth] = pm.expectedResponses[0] as [string, string, number];
			if (asked === -1) continue;
			const repliesSoFar = messages
				.slice(asked)
				.filter((message) => message.role === 'assistant').length;
			if (repliesSoFar + 1 === nth) answer = `${answer} ${quote}`;
		}
		return answer;
	};
	return {
		label: right ? 'replay:ideal' : 'replay:wrong',
		abilities: { score: false, generate: true, chat: true },
		async *generate(request: GenerateRequest): AsyncGenerator<GenerationEvent> {
			if (request.prompt.kind !== 'chat')
				throw new Error('the LTM agent is called with chat prompts');
			yield { type: 'done', completion: reply(request.prompt.messages), finishReason: 'stop' };
		},
		countTokens: countCl100kTokens,
	};
}

function load(): LtmBenchmark {
	const result = loadLtmDefinitions(readFolder(PEER), { countTokens: countCl100kTokens });
	if (!result.ok) throw new Error(JSON.stringify(result.diagnostics, null, 2));
	return result.benchmark;
}

describe.skipIf(!present)('GoodAI LTM benchmark 3 - 1k definitions (peer)', () => {
	it('loads every definition with upstream names, config and waits', () => {
		const benchmark = load();
		expect(benchmark.config).toEqual({
			runName: 'Benchmark 3 - 1k',
			memorySpan: 1000,
			incompatibilities: [
				['names', 'name_list'],
				['locations', 'locations_directions'],
			],
			isolated: false,
		});
		expect(benchmark.tests).toHaveLength(27);
		expect(new Set(benchmark.tests.map((test) => test.datasetName))).toEqual(
			new Set([
				'Colours',
				'Jokes',
				'Locations Directions',
				'NameList',
				'Prospective Memory',
				'Restaurant',
				'Shopping',
				'Spy Meeting',
				'Trigger Response',
			]),
		);
		const colours = benchmark.tests.find((test) => test.uniqueId === 'Colours - 0')!;
		expect(colours.waits).toEqual([
			{ percentage_finished: 30 },
			{ percentage_finished: 60 },
			{ percentage_finished: 90 },
			{},
		]);
	});

	for (const right of [true, false]) {
		it(`runs every static and callback test with the ${right ? 'ideal' : 'wrong'} agent`, async () => {
			const benchmark = load();
			const started = performance.now();
			const state = await runLtm(benchmark, {
				agent: replayAgent(benchmark.tests, right),
				countTokens: countCl100kTokens,
				environment: { countTokens: countCl100kTokens },
			});
			const wallMs = performance.now() - started;
			const report = buildLtmReport(state);
			const byId = new Map(report.tests.map((entry) => [entry.test.uniqueId, entry]));
			for (const test of benchmark.tests) {
				const outcome = state.outcomes[test.uniqueId]!;
				if (test.datasetName === 'Restaurant') {
					expect(outcome.evaluation).toEqual({ status: 'skipped', reasons: [UNSUPPORTED_DYNAMIC] });
				} else if (test.datasetName === 'Locations Directions') {
					expect(outcome.evaluation).toEqual({ status: 'skipped', reasons: [NEEDS_JUDGE_REASON] });
				} else {
					expect([test.uniqueId, byId.get(test.uniqueId)?.result.score]).toEqual([
						test.uniqueId,
						right ? 1 : 0,
					]);
				}
			}
			expect(Object.keys(report.summary.datasets)).toHaveLength(7);
			expect(report.summary.score).toBe(right ? 7 : 0);
			expect(report.summary.accuracy).toBe(right ? 100 : 0);
			const gaps = report.tests.map((entry) => entry.result.tokens);
			// Every test waits 90 % of the 1000-token span before its question.
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);
			console.log(
				`LTM parity (${right ? 'ideal' : 'wrong'} agent): ${state.log.filter((e) => e.role === 'agent').length} exchanges, ` +
					`${state.totalTokens} cl100k tokens in the conversation, gaps ${Math.min(...gaps)}–${Math.max(...gaps)} ` +
					`(ltm ${report.summary.ltm.toFixed(1)}), overruns ${report.summary.overruns.length}, wall ${wallMs.toFixed(0)} ms`,
			);
		});
	}
});
