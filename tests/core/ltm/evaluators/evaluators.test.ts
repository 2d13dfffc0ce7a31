// Table-driven checks of every LTM evaluator against the parity rules L5–L13 of
// ../shared/docs/reference-evals-ltm.md §4.4, plus edge cases.
import { describe, expect, it } from 'vitest';
import { evaluateTest, NEEDS_JUDGE_REASON } from '../../../../src/core/ltm/evaluate-test';
import type { Judge } from '../../../../src/core/ltm/evaluators/evaluator';
import { scoreChecklistReply } from '../../../../src/core/ltm/evaluators/gpt-checklist';
import { evaluateWatch } from '../../../../src/core/ltm/evaluators/prospective-memory';
import { SHOPPING_DUPLICATE_FLAG } from '../../../../src/core/ltm/evaluators/shopping';
import type {
	EvaluatorSpec,
	JsonValue,
	LtmTestDefinition,
} from '../../../../src/core/ltm/shared/types';

function makeTest(
	evaluator: EvaluatorSpec,
	expected: JsonValue[],
	overrides: Partial<LtmTestDefinition> = {},
): LtmTestDefinition {
	return {
		uniqueId: `X - 0`,
		datasetName: 'X',
		exampleId: '0',
		configName: 'x',
		evaluator,
		description: '',
		resetMessage: '',
		script: ['fact', 'question?'],
		isQuestion: [false, true],
		waits: [{ percentage_finished: 90 }, {}],
		expectedResponses: expected,
		isTemporal: false,
		usesCallback: false,
		canBeInterleaved: true,
		source: 'test',
		...overrides,
	};
}

async function score(
	evaluator: EvaluatorSpec,
	expected: JsonValue[],
	responses: string[],
	judge?: Judge,
	extra?: Partial<LtmTestDefinition>,
	allTests?: LtmTestDefinition[],
) {
	const test = makeTest(evaluator, expected, extra);
	const evaluation = await evaluateTest(
		test,
		responses.map(() => 'q?'),
		responses,
		judge,
		allTests ?? [test],
	);
	if (evaluation.status !== 'scored') throw new Error(`skipped: ${evaluation.reasons.join(' ')}`);
	return evaluation;
}

describe('deterministic evaluators (L5–L11)', () => {
	const cases: [string, EvaluatorSpec, JsonValue[], string[], number][] = [
		[
			'L5 colours: Redwood counts for red',
			'colours',
			['Blue', 'Red'],
			['I think it is Redwood'],
			1,
		],
		['colours: a different colour', 'colours', ['Red'], ['Blue'], 0],
		[
			'names: case-insensitive substring of the last name',
			'names',
			['Anna', 'Bob'],
			['your name is BOB.'],
			1,
		],
		['names: an earlier name only', 'names', ['Anna', 'Bob'], ['Anna'], 0],
		[
			'L6 shopping: a wrong quantity and an unknown item',
			'shopping',
			[
				['milk', 3],
				['bread', 1],
			],
			['[{"item":"milk","quantity":2},{"item":"eggs","quantity":1}]'],
			1 / 6,
		],
		[
			'shopping: plurals pass and everything right',
			'shopping',
			[
				['milk', 3],
				['potato', 2],
			],
			['[{"item":"Milk","quantity":3},{"item":"potatoes","quantity":2}]'],
			1,
		],
		[
			'shopping: 3.0 is a format error',
			'shopping',
			[['milk', 3]],
			['[{"item":"milk","quantity":3.0}]'],
			0,
		],
		['shopping: not JSON', 'shopping', [['milk', 3]], ['milk, three of them'], 0],
		[
			'shopping: fenced JSON is read',
			'shopping',
			[['milk', 3]],
			['Here:\n```json\n[{"item": "milk", "quantity": 3}]\n```'],
			1,
		],
		['L9 chapterbreak: Option 3', 'chapterbreak', [3], ['Option 3'], 1],
		['L9 chapterbreak: 3 (not 4)', 'chapterbreak', [3], ['3 (not 4)'], 0],
		['L9 chapterbreak: The third one', 'chapterbreak', [3], ['The third one'], 0],
		[
			'L10 name_list: 3 of 4 given',
			'name_list',
			['Anna', 'Bob', 'Carl'],
			['["anna","bob","zed","carl"]'],
			0.75,
		],
		['L10 name_list: not JSON', 'name_list', ['Anna', 'Bob', 'Carl'], ['Anna, Bob and Carl'], 0],
		[
			'name_list: a repeated name counts once',
			'name_list',
			['Anna', 'Bob'],
			['["Anna","anna"]'],
			0.5,
		],
		['L11 sallyanne: lowercased equality', 'sallyanne', ['basket'], ['{"answer":"Basket"}'], 1],
		[
			'sallyanne: a sentence is not the word',
			'sallyanne',
			['basket'],
			['{"answer":"in the basket"}'],
			0,
		],
		['kv: value is a substring', 'kv', ['9f1c-22'], ['The value is 9f1c-22.'], 1],
		['kv: value missing', 'kv', ['9f1c-22'], ['I do not know'], 0],
		['jokes: exact quote', 'jokes', ['Why did the owl?'], ['You told me: Why did the owl?'], 1],
		[
			'trigger_response: 2 of 3 triggers (L1)',
			'trigger_response',
			['Bless you', 'Bless you', 'Bless you'],
			['Bless you!', 'bless YOU', 'Gesundheit'],
			2 / 3,
		],
		[
			'trigger_response: ROUGE-L above 0.75',
			'trigger_response',
			['resist temptation and stick to your diet'],
			['Resist the temptation and stick to your diets'],
			1,
		],
	];
	it.each(cases)('%s', async (_name, evaluator, expected, responses, want) => {
		const evaluation = await score(evaluator, expected, responses);
		expect(evaluation.score).toBeCloseTo(want, 10);
	});

	it('L7 shopping: duplicates push the score above 1, flagged as an upstream quirk', async () => {
		const evaluation = await score(
			'shopping',
			[['milk', 3]],
			['[{"item":"milk","quantity":3},{"item":"milk","quantity":3}]'],
		);
		expect(evaluation.score).toBeCloseTo(5 / 3, 10);
		expect(evaluation.flags).toContain(SHOPPING_DUPLICATE_FLAG);
	});

	it('trigger_response without a judge scores the fallback 0 and says so', async () => {
		const evaluation = await score('trigger_response', ['Bless you'], ['Gesundheit']);
		expect(evaluation.score).toBe(0);
		expect(evaluation.flags.join(' ')).toMatch(/no judge/);
	});
});

describe('spy meeting (L8)', () => {
	const expected: JsonValue[] = [
		['boat', 'raft'],
		['beach', 'shore'],
		['dawn', 'sunrise'],
	];
	const other = makeTest('spy_meeting', [['noon', 'midday'], ['orchard'], ['key']], {
		uniqueId: 'X - 1',
	});
	const cases: [string, string, number][] = [
		['case-sensitive: capitalised keywords fail', 'Meet at Dawn on the Beach, bring a Boat.', 0],
		['lowercase keywords pass', 'Meet at dawn on the beach, bring a boat.', 1],
		[
			'a confusion keyword costs one point',
			'Meet at dawn or noon on the beach, bring a boat.',
			2 / 3,
		],
		['whole words only', 'Meet at dawning on the beaches, bring a boatload.', 0],
	];
	it.each(cases)('%s', async (_name, reply, want) => {
		const test = makeTest('spy_meeting', expected);
		const evaluation = await evaluateTest(test, ['q'], [reply], undefined, [test, other]);
		expect(evaluation.status === 'scored' && evaluation.score).toBeCloseTo(want, 10);
	});
});

describe('prospective memory callback (L12)', () => {
	const spec = {
		afterLine: 1,
		nthResponse: 5,
		mustContain: "Don't panic.",
		normalise: 'standardise' as const,
		exclusive: true,
	};
	const cases: [string, string[], { score: number; finished: boolean; reasons?: string[] }][] = [
		[
			'the quote in reply 5 only',
			['ok', 'a', 'b', 'c', 'Sure. dont panic'],
			{ score: 1, finished: true },
		],
		[
			'also in reply 2',
			['ok', "Don't panic.", 'b', 'c', "Don't panic."],
			{ score: 0, finished: true },
		],
		[
			'only 3 replies so far',
			['ok', 'a', 'b'],
			{ score: 1, finished: false, reasons: ['Not yet seen'] },
		],
		['missing from reply 5', ['ok', 'a', 'b', 'c', 'd'], { score: 0, finished: true }],
	];
	it.each(cases)('%s', (_name, replies, want) => {
		const verdict = evaluateWatch(spec, replies);
		expect(verdict.score).toBe(want.score);
		expect(verdict.finished).toBe(want.finished);
		if (want.reasons) expect(verdict.reasons).toEqual(want.reasons);
	});
});

describe('checklist grading (L13)', () => {
	const cases: [string, number][] = [
		['[{"question_nr":0,"checklist":["yes","yes","no"]}]', 0],
		['[{"question_nr":0,"checklist":["yes","no","no"]}]', 1],
		['[{"question_nr":0,"checklist":["no","no","no"]}]', 0],
		['[{"question_nr":0,"checklist":["YES","yes","Yes"]}]', 1],
	];
	it.each(cases)('%s → %d', (reply, want) => {
		expect(scoreChecklistReply(reply, 1).score).toBe(want);
	});

	it('a short checklist is a JSON parse error that keeps the score so far', () => {
		const verdict = scoreChecklistReply(
			'[{"checklist":["yes","no","no"]},{"checklist":["yes"]}]',
			2,
		);
		expect(verdict.score).toBe(1);
		expect(verdict.reasons).toContain('JSON parse error');
	});

	it('gpt_checklist with no judge is skipped, not scored 0', async () => {
		const test = makeTest('gpt_checklist', ['Paris']);
		const evaluation = await evaluateTest(test, ['Capital?'], ['Paris'], undefined);
		expect(evaluation).toEqual({ status: 'skipped', reasons: [NEEDS_JUDGE_REASON] });
	});

	it('gpt_checklist sends our prompt with 0-based items and normalises', async () => {
		const seen: string[] = [];
		const judge: Judge = async (messages, params) => {
			seen.push(messages[1]!.content);
			expect(params.temperature).toBe(0.01);
			return '```json\n[{"question_nr":0,"checklist":["yes","no","no"]},{"question_nr":1,"checklist":["no","no","no"]}]\n```';
		};
		const test = makeTest('gpt_checklist', ['Paris', 'Rome'], {
			script: ['a', 'q1', 'q2'],
			isQuestion: [false, true, true],
		});
		const evaluation = await evaluateTest(test, ['q1', 'q2'], ['Paris', 'Milan'], judge);
		expect(evaluation.status === 'scored' && evaluation.score).toBe(0.5);
		expect(JSON.parse(seen[0]!)).toEqual([
			{ question_nr: 0, question: 'q1', expected_answer: 'Paris', answer_given: 'Paris' },
			{ question_nr: 1, question: 'q2', expected_answer: 'Rome', answer_given: 'Milan' },
		]);
	});

	it('jokes falls back to the judge when the joke is not quoted', async () => {
		const judge: Judge = async () => '[{"question_nr":0,"checklist":["yes","no","no"]}]';
		const evaluation = await score('jokes', ['A joke.'], ['the one about the owl'], judge);
		expect(evaluation.score).toBe(1);
	});
});

describe('generic rules', () => {
	const cases: [string, EvaluatorSpec, JsonValue[], string[], number][] = [
		[
			'contains, insensitive',
			{ rule: 'contains', case: 'insensitive' },
			['paris'],
			['PARIS it is'],
			1,
		],
		['contains, sensitive', { rule: 'contains' }, ['paris'], ['PARIS it is'], 0],
		['regex', { rule: 'regex', pattern: '^\\d+$' }, ['x'], ['42'], 1],
		[
			'regex, case-insensitive',
			{ rule: 'regex', pattern: 'PARIS', flags: 'i' },
			['x'],
			['paris'],
			1,
		],
		// Backtracking takes ~90 s for 60 "a"s then "b"; the linear-time engine answers at once.
		[
			'regex (a|aa)+, 60 "a"s then "b"',
			{ rule: 'regex', pattern: '^(a|aa)+$' },
			['x'],
			[`${'a'.repeat(60)}b`],
			0,
		],
		[
			'regex (a|aa)+, 10,000 "a"s then "b"',
			{ rule: 'regex', pattern: '^(a|aa)+$' },
			['x', 'y'],
			[`${'a'.repeat(10_000)}b`, 'a'.repeat(10_000)],
			0.5,
		],
		[
			'json_equals ignores key order',
			{ rule: 'json_equals' },
			[{ a: 'x', b: [1, 2] }],
			[' {"b":[1.0,2],"a":"x"} '],
			1,
		],
		['json_equals: null never matches', { rule: 'json_equals' }, [{ a: null }], ['{"a": null}'], 0],
		['json_equals: true equals 1', { rule: 'json_equals' }, [{ a: 1 }], ['{"a": true}'], 1],
		['json_list_overlap', { rule: 'json_list_overlap' }, ['a', 'b'], ['["A","b","c","d"]'], 0.5],
		['digits_set_equals', { rule: 'digits_set_equals' }, [2], ['Option 2'], 1],
	];
	it.each(cases)('%s', async (_name, evaluator, expected, responses, want) => {
		expect((await score(evaluator, expected, responses)).score).toBeCloseTo(want, 10);
	});
});

describe('locations_directions', () => {
	it('walks the judged route and the script route to the same place', async () => {
		const script = [
			'There is a Hospital in the center.',
			'Library is 4 KM, East from Hospital.',
			'Park is 3 KM, South from Library.',
			'How do I get from Hospital to Park?',
		];
		const judge: Judge = async () =>
			'[{"direction":"east","distance_km":4},{"direction":"south","distance_km":3}]';
		const test = makeTest('locations_directions', ['example'], {
			script,
			isQuestion: [false, false, false, true],
		});
		const evaluation = await evaluateTest(test, ['q'], ['Go east 4 km then south 3 km'], judge);
		expect(evaluation.status === 'scored' && evaluation.score).toBe(1);
		const wrong: Judge = async () => '[{"direction":"north","distance_km":4}]';
		const missed = await evaluateTest(test, ['q'], ['north'], wrong);
		expect(missed.status === 'scored' && missed.score).toBe(0);
	});
});
