import { describe, expect, it } from 'vitest';
import { DiagnosticCollector } from '../../../../src/core/syntaxgym/suite/diagnostic-collector';
import {
	readPredictions,
	relationToFormula,
	type PredictionContext,
} from '../../../../src/core/syntaxgym/suite/parse-predictions';
import { formatFormula } from '../../../../src/core/syntaxgym/formula/format-formula';
import { parseFormula } from '../../../../src/core/syntaxgym/formula/parse-formula';

function read(
	value: unknown,
	overrides: Partial<Omit<PredictionContext, 'diagnostics'>> = {},
): {
	predictions: ReturnType<typeof readPredictions>;
	problems: string[];
} {
	const diagnostics = new DiagnosticCollector();
	const predictions = readPredictions(value, {
		mode: 'compatible',
		chainedComparisons: 'error',
		conditionNames: new Set(['good', 'bad']),
		regionCount: 3,
		diagnostics,
		...overrides,
	});
	const problems = diagnostics
		.listed()
		.map(
			(d) => `${d.severity} ${d.code} ${d.pointer}${d.formulaColumn ? `@${d.formulaColumn}` : ''}`,
		);
	return { predictions, problems };
}

describe('readPredictions', () => {
	it.each([
		// value, mode, expected diagnostics
		[undefined, 'compatible', ['warning missing-field /predictions']],
		[undefined, 'strict', ['error missing-field /predictions']],
		[{}, 'compatible', ['error invalid-type /predictions']],
		[[], 'compatible', ['warning no-predictions /predictions']],
		[[3], 'compatible', ['error invalid-type /predictions/0']],
		[[{ type: 'formula' }], 'compatible', ['error missing-field /predictions/0/formula']],
		[
			[{ type: 'formula', formula: 7 }],
			'compatible',
			['error invalid-type /predictions/0/formula'],
		],
		[
			[{ formula: '(1;%good%) < (1;%bad%)' }],
			'compatible',
			['warning prediction-type /predictions/0/type'],
		],
		[
			[{ formula: '(1;%good%) < (1;%bad%)' }],
			'strict',
			['error prediction-type /predictions/0/type'],
		],
		[
			[{ type: 'relation', formula: '(1;%good%) < (1;%bad%)' }],
			'compatible',
			['error prediction-type /predictions/0/type'],
		],
		[
			[{ type: 'formula', formula: '(1;%good%) <' }],
			'compatible',
			['error formula-syntax /predictions/0/formula@13'],
		],
		[
			[{ type: 'formula', formula: '(1;%good%) < (1;%ugly%)' }],
			'compatible',
			['error formula-unknown-condition /predictions/0/formula@14'],
		],
		[
			[{ type: 'formula', formula: '(4;%good%) < (1;%bad%)' }],
			'compatible',
			['error formula-unknown-region /predictions/0/formula@1'],
		],
		[
			[{ type: 'formula', formula: '[(1;%good%) < (1;%bad%)]' }],
			'compatible',
			['warning formula-brackets /predictions/0/formula@1'],
		],
		[
			[{ type: 'formula', formula: '(1;%good%) < (1;%bad%)', note: 'x' }],
			'compatible',
			['warning unknown-field /predictions/0/note'],
		],
	] as const)('%j (%s)', (value, mode, expected) => {
		expect(read(value, { mode }).problems).toEqual(expected);
	});

	it('a valid formula prediction keeps its index as prediction id and its text', () => {
		const { predictions, problems } = read([
			{ type: 'formula', formula: 'junk' },
			{ type: 'formula', formula: '(*;%good%) < (*;%bad%)' },
		]);
		expect(problems).toEqual(['error formula-syntax /predictions/0/formula@1']);
		expect(predictions.map((p) => [p.predictionId, p.formula, p.source])).toEqual([
			[1, '(*;%good%) < (*;%bad%)', 'formula'],
		]);
	});

	it('unknown conditions and regions are not checked when the items are too broken to know them', () => {
		const { predictions } = read([{ type: 'formula', formula: '(9;%x%) < (9;%y%)' }], {
			conditionNames: undefined,
			regionCount: undefined,
		});
		expect(predictions).toHaveLength(1);
	});

	describe('2019 relation predictions', () => {
		const relation = {
			relation: 'greaterthan',
			region_number: 2,
			l_operand: 'bad',
			r_operand: 'good',
		};

		it('compatible: read as the formula, with a warning that shows it', () => {
			const { predictions, problems } = read([relation]);
			expect(problems).toEqual(['warning relation-prediction /predictions/0']);
			expect(predictions.map((p) => [p.formula, p.source])).toEqual([
				['(2;%bad%) > (2;%good%)', 'relation'],
			]);
		});

		it('strict: an error (current syntaxgym-core rejects the form)', () => {
			expect(read([relation], { mode: 'strict' })).toEqual({
				predictions: [],
				problems: ['error relation-prediction /predictions/0'],
			});
		});

		it.each([
			[{ relation: 'bigger' }, ['error relation-invalid /predictions/0/relation']],
			[{ region_number: 1.5 }, ['error relation-invalid /predictions/0/region_number']],
			[{ l_operand: 3 }, ['error relation-invalid /predictions/0/l_operand']],
			[
				{ r_operand: 'ugly' },
				[
					'warning relation-prediction /predictions/0',
					'error formula-unknown-condition /predictions/0/r_operand',
				],
			],
			[
				{ region_number: 4 },
				[
					'warning relation-prediction /predictions/0',
					'error formula-unknown-region /predictions/0/region_number',
				],
			],
		])('%j', (change, expected) => {
			const { predictions, problems } = read([{ ...relation, ...change }]);
			expect(predictions).toEqual([]);
			expect(problems).toEqual(expected);
		});
	});
});

describe('relationToFormula', () => {
	it.each([
		['<', 1, 'a', 'b', '(1;%a%) < (1;%b%)'],
		['>', 3, 'x', 'z', '(3;%x%) > (3;%z%)'],
		['=', 2, 'a', 'b', '(2;%a%) = (2;%b%)'],
	] as const)('%s %i %s %s', (operator, region, left, right, formula) => {
		const converted = relationToFormula(operator, region, left, right);
		expect(converted.formula).toBe(formula);
		expect(formatFormula(converted.ast)).toBe(formatFormula(parseFormula(formula).ast));
	});

	it('a condition name the formula language cannot spell still works (the tree is built directly)', () => {
		const { formula, ast } = relationToFormula('>', 3, 'x y', 'z');
		expect(formula).toBe('(3;%x y%) > (3;%z%)');
		expect(ast.kind === 'binary' && ast.left.kind === 'region' && ast.left.conditionName).toBe(
			'x y',
		);
	});

	it('columns point into the formula text', () => {
		const { formula, ast } = relationToFormula('>', 12, 'aa', 'b');
		expect(ast.kind).toBe('binary');
		if (ast.kind !== 'binary') return;
		expect(formula.slice(ast.left.column - 1).startsWith('(12;%aa%)')).toBe(true);
		expect(formula[ast.column - 1]).toBe('>');
		expect(formula.slice(ast.right.column - 1)).toBe('(12;%b%)');
	});
});
