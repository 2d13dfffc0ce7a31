// Upstream definitions: config.yml, folder names, default waits (L2), located errors.
import { describe, expect, it } from 'vitest';
import { defaultWaits, loadLtmDefinitions } from '../../../src/core/ltm/definitions';

const CONFIG =
	'config:\n  run_name: Tiny\n  incompatibilities:\n  - - names\n    - name_list\ndatasets:\n  args:\n    memory_span: 500\n';

function def(
	script: string[],
	isQuestion: boolean[],
	expected: unknown[],
	extra: Record<string, unknown> = {},
): string {
	return JSON.stringify({
		script,
		is_question: isQuestion,
		waits: [],
		expected_responses: expected,
		...extra,
	});
}

describe('defaultWaits (L2)', () => {
	const cases: [number, unknown[]][] = [
		[
			4,
			[{ percentage_finished: 30 }, { percentage_finished: 60 }, { percentage_finished: 90 }, {}],
		],
		[2, [{ percentage_finished: 90 }, {}]],
		[1, [{}]],
	];
	it.each(cases)('%d lines', (lines, want) => {
		expect(defaultWaits(lines)).toEqual(want);
	});
});

describe('loadLtmDefinitions', () => {
	it('reads config.yml, maps folder names with _ and sorts by unique id', () => {
		const result = loadLtmDefinitions({
			'run/config.yml': CONFIG,
			'run/Spy_Meeting/0.def.json': def(
				['a', 'b', 'c', 'q?'],
				[false, false, false, true],
				[['x'], ['y'], ['z']],
			),
			'run/Colours/1.def.json': def(['My colour is red.', 'Colour?'], [false, true], ['red']),
			'run/Colours/0.def.json': def(
				['My colour is red.', 'x', 'y', 'Colour?'],
				[false, false, false, true],
				['red'],
			),
		});
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.benchmark.config).toEqual({
			runName: 'Tiny',
			memorySpan: 500,
			incompatibilities: [['names', 'name_list']],
			isolated: false,
		});
		expect(result.benchmark.tests.map((test) => test.uniqueId)).toEqual([
			'Colours - 0',
			'Colours - 1',
			'Spy Meeting - 0',
		]);
		expect(result.benchmark.tests[0]!.waits).toEqual(defaultWaits(4));
		expect(result.benchmark.tests[2]!.configName).toBe('spy_meeting');
	});

	it('keeps waits that are given and an option overrides the span', () => {
		const result = loadLtmDefinitions(
			{
				'Colours/0.def.json': def(['a', 'q'], [false, true], ['red'], {
					waits: [{ tokens: 7, time: 60 }, {}],
				}),
			},
			{ memorySpan: 2000 },
		);
		expect(result.ok && result.benchmark.tests[0]!.waits).toEqual([{ tokens: 7, time: 60 }, {}]);
		expect(result.ok && result.benchmark.config.memorySpan).toBe(2000);
	});

	const errors: [string, Record<string, string>, string, RegExp][] = [
		[
			'no question',
			{ 'Colours/0.def.json': def(['a', 'b'], [false, false], ['red']) },
			'/is_question',
			/no question/,
		],
		[
			'script longer than the span',
			{ 'Colours/0.def.json': def(['word '.repeat(1000), 'q'], [false, true], ['red']) },
			'/script',
			/does not fit the memory span of 1000/,
		],
		[
			'unknown dataset',
			{ 'Weather/0.def.json': def(['a', 'q'], [false, true], ['x']) },
			'',
			/unknown dataset 'Weather'/,
		],
		[
			'bad JSON',
			{ 'Colours/0.def.json': '{"script": [' },
			'',
			/^not JSON at line 1, column 13: expected ']' \(found end of file\) \(close every array with \]\)$/,
		],
		[
			'wrong wait count',
			{ 'Colours/0.def.json': def(['a', 'q'], [false, true], ['x'], { waits: [{}] }) },
			'/waits',
			/1 entries for 2 lines/,
		],
		[
			'is_question length',
			{ 'Colours/0.def.json': def(['a', 'q'], [true], ['x']) },
			'/is_question',
			/1 entries for 2 script lines/,
		],
		[
			'a string where a list is due',
			{ 'Colours/0.def.json': JSON.stringify({ script: 'a', is_question: [true] }) },
			'/script',
			/list of strings/,
		],
		[
			'expected_responses missing (upstream would score 1.0)',
			{
				'Colours/0.def.json': JSON.stringify({
					script: ['My favourite colour is red.', 'What is my favourite colour?'],
					is_question: [false, true],
				}),
			},
			'/expected_responses',
			/is missing: give the answers the Colours evaluator checks/,
		],
		[
			'expected_responses empty',
			{ 'Colours/0.def.json': def(['a', 'q'], [false, true], []) },
			'/expected_responses',
			/is empty/,
		],
		[
			'a bad wait key',
			{
				'Colours/0.def.json': def(['a', 'q'], [false, true], ['x'], {
					waits: [{ minutes: 3 }, {}],
				}),
			},
			'/waits/0/minutes',
			/unknown wait/,
		],
	];
	it('names is_question, not waits, when is_question is the list that disagrees with script', () => {
		const files = {
			'Colours/0.def.json': def(['a', 'b', 'q'], [false, true], ['x'], {
				waits: [{}, {}, {}],
			}),
		};
		const result = loadLtmDefinitions(files);
		expect(result.ok).toBe(false);
		const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
		expect(errors.map((e) => e.pointer)).toEqual(['/is_question']);
		expect(errors[0]?.message).toMatch(/2 entries for 3 script lines/);
	});

	it.each(errors)('%s is a located error', (_name, files, pointer, message) => {
		const result = loadLtmDefinitions(files);
		expect(result.ok).toBe(false);
		const error = result.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
		expect(error?.path).toBe(Object.keys(files)[0]);
		expect(error?.pointer).toBe(pointer);
		expect(error?.message).toMatch(message);
	});

	it('counts script tokens with the injected counter plus 4 per line', () => {
		const files = { 'Colours/0.def.json': def(['a', 'q'], [false, true], ['x']) };
		// (1 + 4) tokens per line, 2 lines: 10 tokens, which must stay below the span.
		expect(loadLtmDefinitions(files, { memorySpan: 11, countTokens: () => 1 }).ok).toBe(true);
		expect(loadLtmDefinitions(files, { memorySpan: 10, countTokens: () => 1 }).ok).toBe(false);
	});
});
