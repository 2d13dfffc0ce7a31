// ltm-suite.json: validation with located errors, static/callback/dynamic examples, and a
// declarative dynamic test run through the scheduler.
import { describe, expect, it } from 'vitest';
import { loadLtmSuite } from '../../../src/core/ltm/ltm-suite';
import {
	applyResult,
	createLtmRun,
	nextAction,
	type LtmRunState,
} from '../../../src/core/ltm/scheduler';

const suite = (datasets: unknown[], config: unknown = { memory_span: 200 }) =>
	JSON.stringify({ format: 'ltm-suite/1', config, datasets });

describe('loadLtmSuite', () => {
	it('loads a static dataset with a generic rule and a callback dataset with watch', () => {
		const result = loadLtmSuite(
			'suite.json',
			suite([
				{
					name: 'Pets',
					evaluator: { rule: 'contains', case: 'insensitive' },
					examples: [
						{
							id: 'a',
							script: ['My cat is Tom.', 'What is my cat called?'],
							is_question: [false, true],
							expected_responses: ['Tom'],
						},
					],
				},
				{
					name: 'Echo',
					evaluator: 'watch',
					examples: [
						{
							script: ['Say PING in your 2nd reply from now.'],
							is_question: [true],
							expected_responses: [],
							watch: { after_step: 0, nth_response: 2, must_contain: 'PING' },
						},
					],
				},
			]),
		);
		expect(result.ok).toBe(true);
		if (!result.ok) return;
		expect(result.benchmark.config.memorySpan).toBe(200);
		const [echo, pets] = result.benchmark.tests;
		expect(pets!.uniqueId).toBe('Pets - a');
		expect(pets!.waits).toEqual([{ percentage_finished: 90 }, {}]);
		expect(echo!.watch).toEqual({
			afterLine: 0,
			nthResponse: 2,
			mustContain: 'PING',
			normalise: 'standardise',
			exclusive: true,
		});
		expect(echo!.usesCallback).toBe(true);
	});

	const errors: [string, string, string, RegExp][] = [
		['wrong format', JSON.stringify({ format: 'x', datasets: [] }), '/format', /ltm-suite\/1/],
		[
			'unknown evaluator',
			suite([
				{
					name: 'A',
					evaluator: 'telepathy',
					examples: [{ script: ['q'], is_question: [true], expected_responses: [] }],
				},
			]),
			'/datasets/0/evaluator',
			/^expected one of: colours, names, .*, watch, or a rule object \{"rule": …\} with a rule among contains, regex, json_equals, json_list_overlap, digits_set_equals, llm_checklist \(found "telepathy"\)$/,
		],
		[
			'unknown generic rule',
			suite([
				{
					name: 'A',
					evaluator: { rule: 'nonsense' },
					examples: [{ script: ['q'], is_question: [true], expected_responses: ['x'] }],
				},
			]),
			'/datasets/0/evaluator/rule',
			/^expected one of: contains, regex, json_equals, json_list_overlap, digits_set_equals, llm_checklist \(found "nonsense"\)$/,
		],
		[
			'unknown field of a rule',
			suite([
				{
					name: 'A',
					evaluator: { rule: 'contains', cases: 'insensitive' },
					examples: [{ script: ['q'], is_question: [true], expected_responses: ['x'] }],
				},
			]),
			'/datasets/0/evaluator/cases',
			/^unknown field "cases": remove it or check its spelling$/,
		],
		[
			'junk JSON',
			'{"format": "ltm-suite/1",\n  "datasets": [ }',
			'',
			/^not JSON at line 2, column 17: expected a value \(found '\}'\) \(.+\)$/,
		],
		[
			'no question',
			suite([
				{
					name: 'A',
					evaluator: 'kv',
					examples: [
						{ script: ['a', 'b'], is_question: [false, false], expected_responses: ['x'] },
					],
				},
			]),
			'/datasets/0/examples/0/is_question',
			/no question/,
		],
		[
			'bad step',
			suite([
				{
					name: 'D',
					evaluator: 'dynamic',
					examples: [{ type: 'dynamic', max_score: 1, steps: [{ say: 'hi' }, { shout: 'x' }] }],
				},
			]),
			'/datasets/0/examples/0/steps/1',
			/.+/,
		],
		[
			'too long',
			suite([
				{
					name: 'A',
					evaluator: 'kv',
					examples: [
						{
							script: ['x'.repeat(2000), 'q'],
							is_question: [false, true],
							expected_responses: ['x'],
						},
					],
				},
			]),
			'/datasets/0/examples/0/script',
			/memory span of 200/,
		],
		[
			'bad regex',
			suite([
				{
					name: 'A',
					evaluator: { rule: 'regex', pattern: '(' },
					examples: [{ script: ['q'], is_question: [true], expected_responses: ['x'] }],
				},
			]),
			'/datasets/0/evaluator/pattern',
			/regular expression/,
		],
		[
			'regex with a lookahead',
			suite([
				{
					name: 'A',
					evaluator: { rule: 'regex', pattern: 'x(?=y)' },
					examples: [{ script: ['q'], is_question: [true], expected_responses: ['x'] }],
				},
			]),
			'/datasets/0/evaluator/pattern',
			/dataset 'A': a lookahead '\(\?=' at character 2 needs backtracking; patterns run on a linear-time engine \(RE2\)/,
		],
		[
			'dynamic check with a backreference',
			suite([
				{
					name: 'A',
					evaluator: 'dynamic',
					examples: [
						{
							type: 'dynamic',
							max_score: 1,
							steps: [
								{ say: 'q', question: true },
								{ check: { regex: '(\\w)\\1' }, on_pass: { score: 1 } },
							],
						},
					],
				},
			]),
			'/datasets/0/examples/0/steps/1/check/regex',
			/backreference '\\1' at character 5 needs backtracking/,
		],
		[
			'duplicate ids',
			suite([
				{
					name: 'A',
					evaluator: 'kv',
					examples: [
						{ id: '1', script: ['q'], is_question: [true], expected_responses: ['x'] },
						{ id: '1', script: ['q'], is_question: [true], expected_responses: ['x'] },
					],
				},
			]),
			'/datasets/0/examples/1',
			/share the id/,
		],
	];
	it.each(errors)('%s is a located error', (_name, text, pointer, message) => {
		const result = loadLtmSuite('suite.json', text);
		expect(result.ok).toBe(false);
		expect(result.diagnostics[0]).toMatchObject({ severity: 'error', path: 'suite.json', pointer });
		expect(result.diagnostics[0]!.message).toMatch(message);
	});
});

describe('declarative dynamic tests', () => {
	const text = suite([
		{
			name: 'Cafe',
			evaluator: 'dynamic',
			examples: [
				{
					type: 'dynamic',
					max_score: 2,
					vars: { place: 'the Blue Kettle' },
					steps: [
						{ pick: { into: 'drink', from: ['tea', 'cocoa'] } },
						{
							say: 'Welcome to {{vars.place}} & co. We serve {{vars.drink}}. What will you have?',
							id: 'order',
						},
						{ extract: { regex: 'I will have (\\w+)', into: 'ordered' } },
						{ wait: { percentage_finished: 50 } },
						{ say: 'What did you order at {{vars.place}}?', question: true },
						{
							check: { contains: '{{vars.ordered}}', case: 'insensitive' },
							on_pass: { score: 1, reason: 'remembered {{vars.ordered}}' },
							on_fail: { reason: 'forgot', stop: true },
						},
						{
							branch: {
								if: { contains: 'please' },
								then: [
									{ say: 'Polite! Anything else?' },
									{ check: { regex: 'no' }, on_pass: { score: 1 } },
								],
								else: [{ say: 'Anything else?' }],
							},
						},
					],
				},
			],
		},
	]);

	function run(reply: (text: string) => string): LtmRunState {
		const loaded = loadLtmSuite('suite.json', text);
		if (!loaded.ok) throw new Error(JSON.stringify(loaded.diagnostics));
		let state = createLtmRun({
			...loaded.benchmark,
			config: { ...loaded.benchmark.config, isolated: true },
		});
		for (let guard = 0; guard < 100; guard++) {
			const action = nextAction(state);
			if (action.kind === 'done') return state;
			if (action.kind === 'send') {
				const answer = action.cannedReply ?? reply(action.text);
				state = applyResult(state, {
					kind: 'sent',
					reply: answer,
					messageTokens: 5,
					replyTokens: 2,
					durationMs: 0,
				});
			} else if (action.kind === 'reset-agent') state = applyResult(state, { kind: 'agent-reset' });
			else throw new Error('dynamic tests are scored by the scheduler');
		}
		throw new Error('did not finish');
	}

	it('renders Mustache without HTML escaping, extracts, checks and branches', () => {
		const said: string[] = [];
		const state = run((text) => {
			said.push(text);
			if (text.startsWith('Welcome')) return 'I will have cocoa';
			if (text.startsWith('What did you order')) return 'Cocoa, please';
			return 'no thanks';
		});
		expect(said[0]).toMatch(/^Welcome to the Blue Kettle & co\. We serve (tea|cocoa)\./);
		expect(said[2]).toBe('Polite! Anything else?');
		expect(state.outcomes['Cafe - 0']!.evaluation).toEqual({
			status: 'scored',
			score: 1,
			reasons: ['remembered cocoa'],
			flags: [],
		});
	});

	it('a failed check with stop ends the test with the score so far', () => {
		const said: string[] = [];
		const state = run((text) => {
			said.push(text);
			return text.startsWith('Welcome') ? 'I will have tea' : 'I forget';
		});
		expect(said).toHaveLength(2);
		expect(state.outcomes['Cafe - 0']!.evaluation).toMatchObject({ score: 0, reasons: ['forgot'] });
	});
});

describe('config.tokenizer, config.seed and pick seed', () => {
	const picking = (seed: unknown) => [
		{
			name: 'Drinks',
			evaluator: 'dynamic',
			examples: [
				{
					type: 'dynamic',
					max_score: 1,
					steps: [
						{ pick: { into: 'drink', from: ['tea', 'cocoa', 'milk'], seed } },
						{ say: 'Bring me {{vars.drink}}.' },
					],
				},
			],
		},
	];

	it('records the tokenizer and the seed; picks accept seed "example" and give the same draw as without it', () => {
		const withSeed = loadLtmSuite(
			's.json',
			suite(picking('example'), { memory_span: 200, tokenizer: 'agent', seed: 7 }),
		);
		expect(withSeed.ok && withSeed.benchmark.config).toMatchObject({ tokenizer: 'agent', seed: 7 });
		const without = loadLtmSuite('s.json', suite(picking(undefined)));
		expect(without.ok && without.benchmark.config.tokenizer).toBeUndefined();
		const first = (loaded: typeof withSeed) => {
			if (!loaded.ok) throw new Error('not loaded');
			const state = createLtmRun(loaded.benchmark);
			const intro = nextAction(state);
			const next = applyResult(state, {
				kind: 'sent',
				reply: 'OK',
				messageTokens: 1,
				replyTokens: 1,
				durationMs: 0,
			});
			return [intro.kind, nextAction(next)];
		};
		const a = first(withSeed)[1] as { text: string };
		expect(a.text).toMatch(/^Bring me (tea|cocoa|milk)\.$/);
		expect(first(without)[1]).toEqual(a);
	});

	it('rejects another pick seed and an unknown tokenizer, located', () => {
		const loaded = loadLtmSuite(
			's.json',
			suite(picking('run'), { memory_span: 200, tokenizer: 'gpt2' }),
		);
		expect(loaded.diagnostics.map((d) => d.pointer)).toEqual(['/config/tokenizer']);
		const badSeed = loadLtmSuite('s.json', suite(picking('run')));
		expect(badSeed.diagnostics.map((d) => d.pointer)).toEqual([
			'/datasets/0/examples/0/steps/0/pick/seed',
		]);
	});
});
