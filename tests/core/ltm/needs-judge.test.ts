// Which LTM tests need a judge model: static evaluators that always ask it, dynamic tests with a
// judge `check` / `extract` step (branches included), and the Restaurant built-in.
import { describe, expect, it } from 'vitest';
import {
	loadLtmSuite,
	testNeedsJudge,
	testsNeedingJudge,
	type DynamicStep,
	type EvaluatorSpec,
	type LtmTestDefinition,
} from '../../../src/core/ltm';

function test(
	uniqueId: string,
	evaluator: EvaluatorSpec,
	dynamic?: LtmTestDefinition['dynamic'],
): LtmTestDefinition {
	return {
		uniqueId,
		datasetName: uniqueId.split(' - ')[0]!,
		exampleId: '0',
		configName: '',
		evaluator,
		description: '',
		resetMessage: '',
		script: ['Remember this.'],
		isQuestion: [false],
		waits: [{}],
		expectedResponses: [],
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		...(dynamic ? { dynamic } : {}),
		source: 'table',
	};
}

const judge = { user: 'Is {{last_reply}} right?', json_key: 'ok' };
const dynamic = (steps: DynamicStep[]) => ({ maxScore: 1, vars: {}, steps });

describe('testNeedsJudge', () => {
	it.each<[string, LtmTestDefinition, boolean]>([
		['colours (exact match)', test('Colours - 0', 'colours'), false],
		['gpt_checklist', test('Chapters - 0', 'gpt_checklist'), true],
		['locations_directions', test('Locations - 0', 'locations_directions'), true],
		['jokes (judge only as a fallback)', test('Jokes - 0', 'jokes'), false],
		['llm_checklist rule', test('Mine - 0', { rule: 'llm_checklist' }), true],
		[
			'dynamic: say and rule check only',
			test(
				'Dyn - 0',
				'dynamic',
				dynamic([{ say: 'Hi', question: true }, { check: { contains: 'hello' } }]),
			),
			false,
		],
		[
			'dynamic: judge check',
			test('Dyn - 1', 'dynamic', dynamic([{ say: 'Hi', question: true }, { check: { judge } }])),
			true,
		],
		[
			'dynamic: judge extract',
			test('Dyn - 2', 'dynamic', dynamic([{ extract: { judge, into: 'order' } }])),
			true,
		],
		[
			'dynamic: regex extract',
			test('Dyn - 3', 'dynamic', dynamic([{ extract: { regex: '(\\d+)', into: 'n' } }])),
			false,
		],
		[
			'dynamic: judge check inside a branch’s else',
			test(
				'Dyn - 4',
				'dynamic',
				dynamic([
					{
						branch: { if: { contains: 'x' }, then: [{ say: 'ok' }], else: [{ check: { judge } }] },
					},
				]),
			),
			true,
		],
		[
			'Restaurant built-in',
			test('Restaurant - 0', 'dynamic', {
				builtIn: 'restaurant',
				maxScore: 5,
				vars: {},
				steps: [],
			}),
			true,
		],
	])('%s → %s', (_name, definition, expected) => {
		expect(testNeedsJudge(definition)).toBe(expected);
	});

	it('names the Restaurant example of a loaded ltm-suite.json, not its static neighbour', () => {
		const loaded = loadLtmSuite(
			'mixed.ltm-suite.json',
			JSON.stringify({
				format: 'ltm-suite/1',
				config: { run_name: 'mixed', memory_span: 300 },
				datasets: [
					{ name: 'Restaurant', evaluator: 'dynamic', examples: [{ type: 'restaurant' }] },
					{
						name: 'Colours',
						evaluator: 'colours',
						examples: [
							{
								script: ['My favourite colour is red.', 'What is my favourite colour?'],
								is_question: [false, true],
								expected_responses: ['red'],
							},
						],
					},
				],
			}),
		);
		if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
		expect(testsNeedingJudge(loaded.benchmark.tests)).toEqual(
			loaded.benchmark.tests
				.filter((entry) => entry.datasetName === 'Restaurant')
				.map((entry) => entry.uniqueId),
		);
		expect(testsNeedingJudge(loaded.benchmark.tests)).toHaveLength(1);
	});
});
