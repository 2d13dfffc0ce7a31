import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseSuite, parseSuiteValue } from '../../../../src/core/syntaxgym/suite/parse-suite';
import type {
	Diagnostic,
	ParseSuiteOptions,
	ParseSuiteResult,
	Suite,
} from '../../../../src/core/syntaxgym/suite/types';

const FIXTURES = new URL('../../../fixtures/suites/', import.meta.url);

function readFixture(name: string): string {
	return readFileSync(new URL(name, FIXTURES), 'utf8');
}

/**
 * Suite JSON as the tests edit it: any member may be read, replaced or broken, so it is typed
 * loosely on purpose (the parser under test takes `unknown`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SuiteDraft = Record<string, any>;

/** A valid two-item suite to mutate; every test starts from a fresh copy. */
function baseSuite(): SuiteDraft {
	const condition = (name: string, subject: string, verb: string) => ({
		condition_name: name,
		regions: [
			{ region_number: 1, content: subject },
			{ region_number: 2, content: verb },
			{ region_number: 3, content: '.' },
		],
	});
	return {
		meta: { name: 'tiny', metric: 'sum' },
		region_meta: { '1': 'subject', '2': 'verb', '3': 'end' },
		predictions: [{ type: 'formula', formula: '(2;%bad%) > (2;%good%)' }],
		items: [
			{
				item_number: 1,
				conditions: [condition('good', 'The dog', 'barks'), condition('bad', 'The dog', 'bark')],
			},
			{
				item_number: 2,
				conditions: [
					condition('good', 'The cats', 'sleep'),
					condition('bad', 'The cats', 'sleeps'),
				],
			},
		],
	};
}

function suiteWith(change: (suite: SuiteDraft) => void): SuiteDraft {
	const suite = baseSuite();
	change(suite);
	return suite;
}

/** `severity code pointer` of each diagnostic, in order. */
function summarize(result: ParseSuiteResult): string[] {
	return result.diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer}`);
}

function parseObject(value: unknown, options?: ParseSuiteOptions): ParseSuiteResult {
	return parseSuite(JSON.stringify(value, null, 2), options);
}

function suiteOf(result: ParseSuiteResult): Suite {
	if (!result.ok) throw new Error(`expected a suite, got ${summarize(result).join('; ')}`);
	return result.suite;
}

describe('parseSuite: the typed model', () => {
	it('reads a standard suite into camelCase domain types, without diagnostics', () => {
		const result = parseSuite(readFixture('good-standard.json'), { mode: 'strict' });
		const suite = suiteOf(result);
		expect(result.diagnostics).toEqual([]);
		expect(suite.meta).toMatchObject({
			name: 'tiny_agreement',
			metrics: ['sum'],
			metricAsWritten: 'sum',
			author: 'Benchtop tests',
			tags: ['agreement'],
		});
		expect({ ...suite.meta.extra }).toEqual({});
		expect(suite.regionNames).toEqual(['subject', 'verb', 'end']);
		expect(suite.conditionNames).toEqual(['match', 'mismatch']);
		expect(suite.items.map((item) => item.itemNumber)).toEqual([1, 2]);
		// conditions keep each item's file order
		expect(suite.items[1]?.conditions.map((c) => c.conditionName)).toEqual(['mismatch', 'match']);
		expect(suite.items[0]?.conditions[0]?.regions).toEqual([
			{ regionNumber: 1, content: 'The dog' },
			{ regionNumber: 2, content: 'barks' },
			{ regionNumber: 3, content: '.' },
		]);
		expect(suite.predictions.map((p) => [p.predictionId, p.source, p.formula])).toEqual([
			[0, 'formula', '(2;%mismatch%) > (2;%match%)'],
			[1, 'formula', '(*;%mismatch%) - (*;%match%) > 0'],
		]);
		expect(suite.predictions[0]?.ast).toMatchObject({ kind: 'binary', operator: '>' });
	});

	it('reads the legacy 2020 forms in compatible mode, with a warning for each', () => {
		const result = parseSuite(readFixture('legacy-2020.json'));
		const suite = suiteOf(result);
		expect(suite.meta.metrics).toEqual(['sum', 'mean', 'median', 'range', 'max', 'min']);
		expect(suite.meta.metricAsWritten).toBe('all');
		expect(suite.predictions.map((p) => [p.source, p.formula])).toEqual([
			['relation', '(2;%that%) > (2;%what%)'],
			['relation', '(3;%that%) < (3;%what%)'],
			['relation', '(1;%that%) = (1;%what%)'],
			['formula', '[(2;%that%) > (2;%what%)] & [(3;%that%) < (3;%what%)]'],
		]);
		expect(suite.items[0]?.conditions[0]?.regions.map((r) => r.content)).toEqual([
			'I know that',
			'our aunt grabbed',
			'the food .',
		]);
		expect(summarize(result)).toEqual([
			'warning relation-prediction /predictions/0',
			'warning relation-prediction /predictions/1',
			'warning relation-prediction /predictions/2',
			'warning formula-brackets /predictions/3/formula',
			'warning region-content-whitespace /items/0/conditions/0/regions/0/content',
			'warning region-content-whitespace /items/0/conditions/0/regions/1/content',
		]);
	});

	it('rejects the legacy forms in strict mode, naming each', () => {
		const result = parseSuite(readFixture('legacy-2020.json'), { mode: 'strict' });
		expect(result.ok).toBe(false);
		// sorted by position: meta.metric comes first in the file
		expect(summarize(result)).toEqual([
			'error multi-metric-predictions /meta/metric',
			'error relation-prediction /predictions/0',
			'error relation-prediction /predictions/1',
			'error relation-prediction /predictions/2',
			'error formula-syntax /predictions/3/formula',
			'error region-content-whitespace /items/0/conditions/0/regions/0/content',
			'error region-content-whitespace /items/0/conditions/0/regions/1/content',
		]);
	});

	it('converts relation predictions to the same tree the formula parser gives', () => {
		const suite = suiteOf(parseSuite(readFixture('legacy-2020.json')));
		const fromRelation = suite.predictions[0];
		const fromFormula = suiteOf(
			parseObject(
				suiteWith((s) => {
					s.predictions = [{ type: 'formula', formula: '(2;%that%) > (2;%what%)' }];
					s.items = JSON.parse(readFixture('legacy-2020.json')).items;
				}),
			),
		).predictions[0];
		expect(fromRelation?.ast).toEqual(fromFormula?.ast);
	});
});

describe('parseSuite: every check, as a table', () => {
	type Case = [
		string,
		(suite: SuiteDraft) => void,
		ParseSuiteOptions,
		string[],
		((suite: Suite) => void)?,
	];
	const compatible: ParseSuiteOptions = {};
	const strict: ParseSuiteOptions = { mode: 'strict' };
	const region = (item: number, condition: number, index: number) =>
		`/items/${item}/conditions/${condition}/regions/${index}`;

	it.each<Case>([
		['the base suite', () => {}, strict, []],
		// meta
		['meta missing', (s) => delete s.meta, compatible, ['error missing-field /meta']],
		['meta a list', (s) => (s.meta = []), compatible, ['error invalid-type /meta']],
		[
			'meta.name missing',
			(s) => delete s.meta.name,
			compatible,
			['error missing-field /meta/name'],
		],
		['meta.name empty', (s) => (s.meta.name = ' '), compatible, ['error invalid-type /meta/name']],
		[
			'metric "Sum"',
			(s) => (s.meta.metric = 'Sum'),
			compatible,
			['error unknown-metric /meta/metric'],
		],
		['metric 3', (s) => (s.meta.metric = 3), compatible, ['error invalid-type /meta/metric']],
		['metric []', (s) => (s.meta.metric = []), compatible, ['error unknown-metric /meta/metric']],
		[
			'metric list with an unknown name',
			(s) => (s.meta.metric = ['sum', 'bogus']),
			compatible,
			['error unknown-metric /meta/metric/1'],
		],
		[
			'metric list with a repeat',
			(s) => (s.meta.metric = ['mean', 'sum', 'mean']),
			compatible,
			['warning duplicate-metric /meta/metric/2'],
			(suite) => expect(suite.meta.metrics).toEqual(['mean', 'sum']),
		],
		[
			'metric "all"',
			(s) => (s.meta.metric = 'all'),
			compatible,
			[],
			(suite) => expect(suite.meta.metrics).toHaveLength(6),
		],
		[
			'metric "all" with predictions, strict',
			(s) => (s.meta.metric = 'all'),
			strict,
			['error multi-metric-predictions /meta/metric'],
		],
		[
			'metric list with predictions, strict',
			(s) => (s.meta.metric = ['sum']),
			strict,
			['error multi-metric-predictions /meta/metric'],
		],
		[
			'metric missing',
			(s) => delete s.meta.metric,
			compatible,
			['warning missing-field /meta/metric'],
			(suite) => expect(suite.meta.metrics).toEqual(['sum']),
		],
		[
			'metric missing, strict',
			(s) => delete s.meta.metric,
			strict,
			['error missing-field /meta/metric'],
		],
		[
			'meta extras kept as plain data',
			(s) => Object.assign(s.meta, { comment: 3, version: '1.2' }),
			compatible,
			['warning invalid-type /meta/comment'],
			(suite) => expect({ ...suite.meta.extra }).toEqual({ comment: 3, version: '1.2' }),
		],
		// region_meta
		[
			'region_meta missing',
			(s) => delete s.region_meta,
			compatible,
			['error missing-field /region_meta'],
		],
		[
			'region_meta empty',
			(s) => (s.region_meta = {}),
			compatible,
			['error region-meta-gap /region_meta'],
		],
		[
			'region_meta with a gap',
			(s) => (s.region_meta = { '1': 'a', '2': 'b', '4': 'd' }),
			compatible,
			['error region-meta-gap /region_meta'],
		],
		[
			'region_meta key not a number',
			(s) => (s.region_meta.x = 'extra'),
			compatible,
			['error region-meta-key /region_meta/x'],
		],
		[
			'region_meta key with a leading zero',
			(s) => (s.region_meta['04'] = 'extra'),
			compatible,
			['error region-meta-key /region_meta/04'],
		],
		[
			'region_meta name not a string',
			(s) => (s.region_meta['2'] = null),
			compatible,
			['error invalid-type /region_meta/2'],
		],
		[
			'region_meta longer than the conditions',
			(s) => (s.region_meta['4'] = 'extra'),
			compatible,
			[0, 1].flatMap((i) =>
				[0, 1].map((c) => `error region-count-mismatch /items/${i}/conditions/${c}/regions`),
			),
		],
		// items
		['items missing', (s) => delete s.items, compatible, ['error missing-field /items']],
		['items empty', (s) => (s.items = []), compatible, ['error empty-items /items']],
		[
			'item not an object',
			(s) => (s.items[1] = 'item'),
			compatible,
			['error invalid-type /items/1'],
		],
		[
			'item_number missing',
			(s) => delete s.items[1].item_number,
			compatible,
			['error missing-field /items/1/item_number'],
		],
		[
			'item_number a string',
			(s) => (s.items[1].item_number = '2'),
			compatible,
			['error invalid-type /items/1/item_number'],
		],
		[
			'duplicate item_number',
			(s) => (s.items[1].item_number = 1),
			compatible,
			['error duplicate-item-number /items/1/item_number'],
		],
		[
			'item without conditions',
			(s) => (s.items[1].conditions = []),
			compatible,
			['error empty-conditions /items/1/conditions'],
		],
		[
			'item with a missing and an extra condition',
			(s) => (s.items[1].conditions[0].condition_name = 'other'),
			compatible,
			['error condition-set-mismatch /items/1/conditions'],
		],
		[
			'item with an extra condition',
			(s) =>
				s.items[1].conditions.push({
					...structuredClone(s.items[1].conditions[0]),
					condition_name: 'third',
				}),
			compatible,
			['error condition-set-mismatch /items/1/conditions'],
		],
		[
			'conditions in a different order per item',
			(s) => s.items[1].conditions.reverse(),
			strict,
			[],
			(suite) => {
				expect(suite.conditionNames).toEqual(['good', 'bad']);
				expect(suite.items[1]?.conditions.map((c) => c.conditionName)).toEqual(['bad', 'good']);
			},
		],
		[
			'duplicate condition name',
			(s) => (s.items[0].conditions[1].condition_name = 'good'),
			compatible,
			['error duplicate-condition-name /items/0/conditions/1/condition_name'],
		],
		[
			'condition name missing',
			(s) => delete s.items[0].conditions[1].condition_name,
			compatible,
			['error missing-field /items/0/conditions/1/condition_name'],
		],
		[
			'condition name no formula can reference (warned once)',
			(s) => {
				for (const item of s.items) {
					item.conditions.push({ ...structuredClone(item.conditions[0]), condition_name: 'x.y z' });
				}
			},
			compatible,
			['warning condition-name-not-referenceable /items/0/conditions/2/condition_name'],
		],
		// regions
		[
			'regions not a list',
			(s) => (s.items[0].conditions[0].regions = {}),
			compatible,
			['error invalid-type /items/0/conditions/0/regions'],
		],
		[
			'region numbered out of order',
			(s) => (s.items[0].conditions[1].regions[1].region_number = 3),
			compatible,
			[`error region-number-mismatch ${region(0, 1, 1)}/region_number`],
		],
		[
			'region number as a string',
			(s) => (s.items[0].conditions[1].regions[1].region_number = '2'),
			compatible,
			[`error invalid-type ${region(0, 1, 1)}/region_number`],
		],
		[
			'a condition with a region too few',
			(s) => s.items[1].conditions[1].regions.pop(),
			compatible,
			['error region-count-mismatch /items/1/conditions/1/regions'],
		],
		[
			'content not a string',
			(s) => (s.items[0].conditions[0].regions[0].content = 7),
			compatible,
			[`error invalid-type ${region(0, 0, 0)}/content`],
		],
		[
			'content missing',
			(s) => delete s.items[0].conditions[0].regions[0].content,
			compatible,
			[`error missing-field ${region(0, 0, 0)}/content`],
		],
		[
			'empty region',
			(s) => (s.items[0].conditions[0].regions[2].content = ''),
			strict,
			[`warning empty-region ${region(0, 0, 2)}/content`],
		],
		[
			'padded content is stripped in compatible mode',
			(s) => (s.items[0].conditions[0].regions[0].content = '  The\t\tdog '),
			compatible,
			[`warning region-content-whitespace ${region(0, 0, 0)}/content`],
			(suite) => expect(suite.items[0]?.conditions[0]?.regions[0]?.content).toBe('The dog'),
		],
		[
			'padded content is an error in strict mode',
			(s) => (s.items[0].conditions[0].regions[0].content = 'The  dog'),
			strict,
			[`error region-content-whitespace ${region(0, 0, 0)}/content`],
		],
		[
			'whitespace-only content becomes an empty region',
			(s) => (s.items[0].conditions[0].regions[2].content = ' '),
			compatible,
			[
				`warning region-content-whitespace ${region(0, 0, 2)}/content`,
				`warning empty-region ${region(0, 0, 2)}/content`,
			],
		],
		[
			'an all-empty condition',
			(s) => {
				for (const r of s.items[0].conditions[0].regions) r.content = '';
			},
			compatible,
			[
				`warning empty-region ${region(0, 0, 0)}/content`,
				`warning empty-region ${region(0, 0, 1)}/content`,
				`warning empty-region ${region(0, 0, 2)}/content`,
				'warning empty-sentence /items/0/conditions/0/regions',
			],
		],
		// unknown fields
		[
			'unknown fields at every level',
			(s) => {
				s.version = 2;
				s.items[0].note = 'x';
				s.items[0].conditions[0].label = 'x';
				s.items[0].conditions[0].regions[0].metric_value = { sum: 1 };
				s.predictions[0].comment = 'x';
			},
			compatible,
			[
				'warning unknown-field /version',
				'warning unknown-field /items/0/note',
				'warning unknown-field /items/0/conditions/0/label',
				`warning unknown-field ${region(0, 0, 0)}/metric_value`,
				'warning unknown-field /predictions/0/comment',
			],
		],
		// predictions
		[
			'predictions missing',
			(s) => delete s.predictions,
			compatible,
			['warning missing-field /predictions'],
		],
		[
			'predictions missing, strict',
			(s) => delete s.predictions,
			strict,
			['error missing-field /predictions'],
		],
		[
			'predictions empty',
			(s) => (s.predictions = []),
			strict,
			['warning no-predictions /predictions'],
		],
		[
			'predictions an object',
			(s) => (s.predictions = {}),
			compatible,
			['error invalid-type /predictions'],
		],
		[
			'prediction a string',
			(s) => (s.predictions = ['(1;%a%) > 0']),
			compatible,
			['error invalid-type /predictions/0'],
		],
		[
			'prediction without type',
			(s) => delete s.predictions[0].type,
			compatible,
			['warning prediction-type /predictions/0/type'],
		],
		[
			'prediction without type, strict',
			(s) => delete s.predictions[0].type,
			strict,
			['error prediction-type /predictions/0/type'],
		],
		[
			'prediction of another type',
			(s) => (s.predictions[0].type = 'regex'),
			compatible,
			['error prediction-type /predictions/0/type'],
		],
		[
			'prediction without formula',
			(s) => delete s.predictions[0].formula,
			compatible,
			['error missing-field /predictions/0/formula'],
		],
		[
			'formula referring to an unknown condition',
			(s) => (s.predictions[0].formula = '(2;%bad%) > (2;%gud%)'),
			compatible,
			['error formula-unknown-condition /predictions/0/formula'],
		],
		[
			'formula referring to an unknown region',
			(s) => (s.predictions[0].formula = '(4;%bad%) > (0;%good%) & (*;%bad%) > 0'),
			compatible,
			[
				'error formula-unknown-region /predictions/0/formula',
				'error formula-unknown-region /predictions/0/formula',
			],
		],
		[
			'formula that does not parse',
			(s) => (s.predictions[0].formula = '(2;%bad%) >= (2;%good%)'),
			compatible,
			['error formula-syntax /predictions/0/formula'],
		],
		[
			'formula over 2 000 characters (a 50 000-term sum)',
			(s) => (s.predictions[0].formula = `${'(2;%bad%) + '.repeat(50_000)}0 > 0`),
			compatible,
			['error formula-too-long /predictions/0/formula'],
		],
		[
			'formula of 2 000 characters, 994 operators deep',
			(s) => (s.predictions[0].formula = `(2;%bad%)${'+1'.repeat(993)} >  0`),
			compatible,
			[],
			(suite) => expect(suite.predictions[0]?.formula).toHaveLength(2000),
		],
		[
			'brackets, compatible',
			(s) => (s.predictions[0].formula = '[(2;%bad%) > (2;%good%)]'),
			compatible,
			['warning formula-brackets /predictions/0/formula'],
		],
		[
			'brackets, strict',
			(s) => (s.predictions[0].formula = '[(2;%bad%) > (2;%good%)]'),
			strict,
			['error formula-syntax /predictions/0/formula'],
		],
		[
			'chained comparison',
			(s) => (s.predictions[0].formula = '(2;%bad%) > (2;%good%) > 0'),
			compatible,
			['error formula-syntax /predictions/0/formula'],
		],
		[
			'chained comparison, first-only',
			(s) => (s.predictions[0].formula = '(2;%bad%) > (2;%good%) > 0'),
			{ chainedComparisons: 'first-only' },
			['warning formula-chained-comparison /predictions/0/formula'],
			(suite) => expect(suite.predictions[0]?.ast).toMatchObject({ operator: '>', column: 11 }),
		],
		[
			'relation prediction',
			(s) =>
				(s.predictions[0] = {
					relation: 'lessthan',
					region_number: 2,
					l_operand: 'good',
					r_operand: 'bad',
				}),
			compatible,
			['warning relation-prediction /predictions/0'],
			(suite) => expect(suite.predictions[0]?.formula).toBe('(2;%good%) < (2;%bad%)'),
		],
		[
			'relation prediction with an unknown relation',
			(s) =>
				(s.predictions[0] = {
					relation: 'bigger',
					region_number: 2,
					l_operand: 'good',
					r_operand: 'bad',
				}),
			compatible,
			['error relation-invalid /predictions/0/relation'],
		],
		[
			'relation prediction without operands',
			(s) => (s.predictions[0] = { relation: 'equals', region_number: 2.5 }),
			compatible,
			[
				'error relation-invalid /predictions/0/region_number',
				'error relation-invalid /predictions/0/l_operand',
				'error relation-invalid /predictions/0/r_operand',
			],
		],
		[
			'relation prediction with an unknown condition and region',
			(s) =>
				(s.predictions[0] = {
					relation: 'equals',
					region_number: 5,
					l_operand: 'good',
					r_operand: 'gud',
				}),
			compatible,
			[
				'warning relation-prediction /predictions/0',
				'error formula-unknown-condition /predictions/0/r_operand',
				'error formula-unknown-region /predictions/0/region_number',
			],
		],
	])('%s', (_name, change, options, expected, check) => {
		const value = suiteWith(change);
		const fromText = parseObject(value, options);
		expect(summarize(fromText).sort()).toEqual([...expected].sort());
		expect(fromText.ok).toBe(!expected.some((line) => line.startsWith('error')));
		// the value entry point finds the same problems
		expect(summarize(parseSuiteValue(value, options)).sort()).toEqual([...expected].sort());
		if (check) check(suiteOf(fromText));
	});

	it('names what is wrong and how to fix it in every diagnostic', () => {
		const result = parseSuite(readFixture('broken-structure.json'));
		for (const diagnostic of result.diagnostics) {
			expect(diagnostic.message.length).toBeGreaterThan(10);
			expect(diagnostic.hint.length).toBeGreaterThan(10);
		}
	});

	it('collects every problem of a broken suite, not just the first', () => {
		const result = parseSuite(readFixture('broken-structure.json'));
		expect(result.ok).toBe(false);
		expect(
			result.diagnostics.map((d) => [d.code, d.pointer, d.line, d.column, d.formulaColumn]),
		).toEqual([
			['missing-field', '/meta/name', 2, 10, undefined],
			['unknown-metric', '/meta/metric', 2, 22, undefined],
			['region-meta-gap', '/region_meta', 3, 17, undefined],
			['formula-unknown-condition', '/predictions/0/formula', 5, 35, 18],
			['formula-unknown-region', '/predictions/1/formula', 6, 35, 1],
			['formula-syntax', '/predictions/2/formula', 7, 35, 13],
			[
				'region-number-mismatch',
				'/items/0/conditions/1/regions/1/region_number',
				25,
				26,
				undefined,
			],
			['duplicate-item-number', '/items/1/item_number', 32, 19, undefined],
			['condition-set-mismatch', '/items/1/conditions', 33, 18, undefined],
			['invalid-type', '/items/1/conditions/1/regions/2/content', 47, 40, undefined],
		]);
	});
});

describe('parseSuite: positions in the text', () => {
	/** 1-based line and column of the first occurrence of `needle` in `text`, found by plain search. */
	function positionOf(text: string, needle: string): { line: number; column: number } {
		const offset = text.indexOf(needle);
		expect(offset).toBeGreaterThanOrEqual(0);
		const before = text.slice(0, offset);
		const line = before.split('\n').length;
		return { line, column: offset - before.lastIndexOf('\n') };
	}

	it('locates a value by its JSON pointer', () => {
		const text = JSON.stringify(
			suiteWith((s) => (s.meta.metric = 'bogus')),
			null,
			2,
		);
		const [diagnostic] = parseSuite(text).diagnostics;
		expect(diagnostic).toMatchObject(positionOf(text, '"bogus"'));
	});

	it('locates a missing member at its parent object', () => {
		const text = JSON.stringify(
			suiteWith((s) => delete s.items[1].item_number),
			null,
			2,
		);
		const [diagnostic] = parseSuite(text).diagnostics;
		const secondItem = text.indexOf('{', text.indexOf('"item_number": 1') + 1);
		const itemStart = text.lastIndexOf('{', text.indexOf('"conditions"', secondItem));
		const before = text.slice(0, itemStart);
		expect(diagnostic).toMatchObject({
			pointer: '/items/1/item_number',
			line: before.split('\n').length,
			column: itemStart - before.lastIndexOf('\n'),
		});
	});

	it('points at each located value with the text of that value', () => {
		const text = readFixture('broken-structure.json');
		const value = JSON.parse(text);
		const lines = text.split('\n');
		for (const diagnostic of parseSuite(text).diagnostics) {
			let target: unknown = value;
			for (const segment of diagnostic.pointer.split('/').slice(1)) {
				target = (target as Record<string, unknown> | undefined)?.[segment];
			}
			if (target === undefined || typeof target === 'object') continue;
			const line = lines[(diagnostic.line ?? 0) - 1] ?? '';
			expect(line.slice((diagnostic.column ?? 0) - 1)).toMatch(
				new RegExp(`^${JSON.stringify(target).replace(/[[\]()*+?.\\^$|{}]/g, '\\$&')}`),
			);
		}
	});

	it.each([
		['{"meta": {"name": "x",}}', 1, 22, /trailing comma before '}'/],
		['[1,\n  2,\n]', 2, 4, /trailing comma before ']'/],
		['{"meta": 1,\n// comment\n"items": []}', 2, 1, /comments are not allowed/],
		['', 1, 1, /expected a value/],
		['{"meta": "x', 1, 10, /unterminated string/],
		['{"meta": {} "items": []}', 1, 13, /expected ','/],
		['{"a": 1} {"b": 2}', 1, 10, /end of file/],
		['{"a": 01}', 1, 7, /must not start with a zero \(found '01'\)/],
		['{"a": [1, -007]}', 1, 11, /must not start with a zero \(found '-007'\)/],
		['{"a": NaN}', 1, 7, /invalid symbol/],
	])('syntax error in %j at %i:%i', (text, line, column, message) => {
		const result = parseSuite(text);
		expect(result.ok).toBe(false);
		expect(result.diagnostics[0]).toMatchObject({
			severity: 'error',
			code: 'json-syntax',
			line,
			column,
		});
		expect(result.diagnostics[0]?.message).toMatch(message);
	});

	it('reports a leading zero once and goes on to the next real problem', () => {
		const result = parseSuite('{"a": 01, "b": [1,]}');
		expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
			['json-syntax', 1, 7],
			['json-syntax', 1, 18],
		]);
		expect(result.diagnostics[1]?.message).toMatch(/trailing comma/);
	});

	it('lists several syntax errors of one file', () => {
		const result = parseSuite(readFixture('broken-syntax.json'));
		expect(result.diagnostics.map((d) => [d.code, d.line, d.column])).toEqual([
			['json-syntax', 2, 40],
			['json-syntax', 3, 2],
		]);
	});

	it.each([
		['[]', 'a list'],
		['3', 'the number 3'],
		['null', 'null'],
		['"suite"', 'the string "suite"'],
	])('non-object JSON %s is one located error', (text, found) => {
		const result = parseSuite(text);
		expect(result).toEqual({
			ok: false,
			diagnostics: [
				expect.objectContaining({
					severity: 'error',
					code: 'suite-not-object',
					pointer: '',
					line: 1,
					column: 1,
				}),
			],
		});
		expect(result.diagnostics[0]?.message).toContain(found);
	});

	it('accepts a byte-order mark with a warning (an error in strict mode)', () => {
		const text = `\uFEFF${JSON.stringify(baseSuite())}`;
		expect(summarize(parseSuite(text))).toEqual(['warning byte-order-mark ']);
		expect(parseSuite(text).ok).toBe(true);
		expect(parseSuite(text, { mode: 'strict' }).ok).toBe(false);
	});

	it('sorts diagnostics by position', () => {
		const text = readFixture('broken-structure.json');
		const positions = parseSuite(text).diagnostics.map((d) => [d.line ?? 0, d.column ?? 0]);
		const sorted = [...positions].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
		expect(positions).toEqual(sorted);
	});
});

describe('parseSuite: prototype keys are plain data', () => {
	it('reads __proto__, constructor, toString and prototype as ordinary names', () => {
		const result = parseSuite(readFixture('proto-keys.json'), { mode: 'strict' });
		const suite = suiteOf(result);
		expect(suite.conditionNames).toEqual(['__proto__', 'constructor', 'toString', 'prototype']);
		expect(Object.keys(suite.meta.extra)).toEqual(['__proto__', 'constructor']);
		expect(Object.getOwnPropertyDescriptor(suite.meta.extra, '__proto__')?.value).toEqual({
			polluted: 'meta',
		});
		expect(suite.predictions.map((p) => p.formula)).toEqual([
			'(1;%__proto__%) > (1;%constructor%)',
			'(1;%toString%) = (1;%prototype%)',
		]);
		expect(summarize(result)).toEqual(['warning unknown-field /items/0/__proto__']);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(Object.prototype).not.toHaveProperty('polluted');
	});

	it.each([
		['{"__proto__": {"meta": {"name": "x"}}}', 'error missing-field /meta'],
		[
			'{"constructor": {}, "meta": {"constructor": "x", "metric": "sum"}}',
			'error missing-field /meta/name',
		],
	])('does not read inherited members in %s', (text, expected) => {
		const result = parseSuite(text);
		expect(summarize(result)).toContain(expected);
		expect(({} as Record<string, unknown>).meta).toBeUndefined();
	});

	it('reports a condition named __proto__ missing from an item', () => {
		const value = JSON.parse(readFixture('proto-keys.json'));
		value.items.push({
			item_number: 2,
			conditions: [
				{ condition_name: 'constructor', regions: [{ region_number: 1, content: 'x' }] },
			],
		});
		const result = parseSuiteValue(value);
		const mismatch = result.diagnostics.find((d) => d.code === 'condition-set-mismatch');
		expect(mismatch?.message).toContain("'__proto__'");
	});

	it('does not change the value it reads', () => {
		const value = JSON.parse(readFixture('legacy-2020.json'));
		const before = structuredClone(value);
		parseSuiteValue(value);
		expect(value).toEqual(before);
	});
});

describe('parseSuite: caps and size', () => {
	it('lists at most 20 diagnostics per code and summarises the rest', () => {
		const suite = baseSuite();
		const template = suite.items[0];
		suite.items = Array.from({ length: 50 }, () => ({
			...structuredClone(template),
			item_number: 1,
		}));
		suite.items[0].item_number = 0;
		const result = parseObject(suite);
		const duplicates = result.diagnostics.filter((d) => d.code === 'duplicate-item-number');
		expect(duplicates).toHaveLength(20);
		const summary = result.diagnostics.at(-1) as Diagnostic;
		expect(summary).toMatchObject({ severity: 'error', code: 'more-diagnostics' });
		expect(summary.message).toMatch(/^28 more 'duplicate-item-number' errors/);
	});

	it('reads a suite of 20 000 items with errors near the end', () => {
		const suite = baseSuite();
		const template = suite.items[0];
		suite.items = Array.from({ length: 20_000 }, (_, index) => ({
			...structuredClone(template),
			item_number: index + 1,
		}));
		suite.items[19_999].conditions[1].regions[2].content = 7;
		const text = JSON.stringify(suite);
		const result = parseSuite(text);
		expect(summarize(result)).toEqual([
			'error invalid-type /items/19999/conditions/1/regions/2/content',
		]);
		expect(result.diagnostics[0]?.column).toBe(text.lastIndexOf('7') + 1);
	});
});

describe('parseSuite: the schema path', () => {
	/** 1-based line and column where `needle` starts in `text` (it must occur once). */
	function locate(text: string, needle: string): { line: number; column: number } {
		const offset = text.indexOf(needle);
		expect(offset).toBeGreaterThanOrEqual(0);
		expect(text.indexOf(needle, offset + 1)).toBe(-1);
		const before = text.slice(0, offset);
		return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
	}

	it('reports a region whose content is a number at its line, column and pointer', () => {
		const text = JSON.stringify(
			suiteWith((s) => (s.items[1].conditions[0].regions[2].content = 42)),
			null,
			2,
		);
		const result = parseSuite(text);
		expect(result.ok).toBe(false);
		expect(result.diagnostics).toEqual([
			{
				severity: 'error',
				code: 'invalid-type',
				message:
					"content of region 3 of condition 'good' of item 2 must be a string, found the number 42",
				hint: 'write "content": "the words of the region" ("" for an empty region)',
				pointer: '/items/1/conditions/0/regions/2/content',
				...locate(text, '42'),
			},
		]);
	});

	it('reports a __proto__ key in an item as an unknown field, never as item fields', () => {
		const text = `{
  "meta": {"name": "x", "metric": "sum"},
  "region_meta": {"1": "only"},
  "predictions": [],
  "items": [
    {"__proto__": {"item_number": 7, "conditions": []},
     "conditions": [{"condition_name": "a", "regions": [{"region_number": 1, "content": "x"}]}]}
  ]
}`;
		const result = parseSuite(text);
		expect(summarize(result)).toEqual([
			'warning no-predictions /predictions',
			'error missing-field /items/0/item_number',
			'warning unknown-field /items/0/__proto__',
		]);
		expect(result.diagnostics[2]).toMatchObject(locate(text, '{"item_number": 7'));
		expect(({} as Record<string, unknown>).item_number).toBeUndefined();
	});

	it('reports a __proto__ key in region_meta, which a valibot record would skip', () => {
		const text =
			'{"meta": {"name": "x"}, "region_meta": {"__proto__": "a", "1": "b"}, "items": []}';
		// a missing member is located at its parent: /predictions at the start of the file
		expect(summarize(parseSuite(text))).toEqual([
			'warning missing-field /predictions',
			'warning missing-field /meta/metric',
			'error region-meta-key /region_meta/__proto__',
			'error empty-items /items',
		]);
	});

	it('lists the problems of one region in the order it reads them (parseSuiteValue)', () => {
		const value = suiteWith((s) => {
			s.items[0].conditions[1].regions[1] = { oovs: [], region_number: '2', note: 1 };
		});
		const place = '/items/0/conditions/1/regions/1';
		expect(summarize(parseSuiteValue(value))).toEqual([
			`warning unknown-field ${place}/oovs`,
			`warning unknown-field ${place}/note`,
			`error invalid-type ${place}/region_number`,
			`error missing-field ${place}/content`,
		]);
		expect(parseSuiteValue(value).diagnostics[0]?.message).toBe(
			'field "oovs" of region 2 of condition \'bad\' of item 1 is an output of syntaxgym-core and is ignored',
		);
	});

	it('does not read inherited members of an already-parsed value', () => {
		const value = Object.create(baseSuite()) as unknown;
		expect(summarize(parseSuiteValue(value))).toEqual([
			'error missing-field /meta',
			'error missing-field /region_meta',
			'error missing-field /items',
			'warning missing-field /predictions',
		]);
	});
});
