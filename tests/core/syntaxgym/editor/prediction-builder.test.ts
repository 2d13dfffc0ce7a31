import { describe, expect, it } from 'vitest';
import {
	buildRelationFormula,
	checkFormula,
	type RelationPrediction,
} from '../../../../src/core/syntaxgym/editor/prediction-builder';
import { parseFormula } from '../../../../src/core/syntaxgym/formula/parse-formula';

describe('buildRelationFormula', () => {
	it.each<[RelationPrediction, string]>([
		[
			{ region: 3, leftCondition: 'mismatch', relation: '>', rightCondition: 'match' },
			'(3;%mismatch%) > (3;%match%)',
		],
		[{ region: 1, leftCondition: 'a', relation: '<', rightCondition: 'b' }, '(1;%a%) < (1;%b%)'],
		[{ region: '*', leftCondition: 'x', relation: '=', rightCondition: 'y' }, '(*;%x%) = (*;%y%)'],
	])('%j → %s', (prediction, formula) => {
		expect(buildRelationFormula(prediction)).toBe(formula);
		expect(() => parseFormula(formula)).not.toThrow();
	});
});

describe('checkFormula', () => {
	const suite = { regionCount: 3, conditionNames: ['match', 'mismatch'] };
	it.each<[string, { ok: boolean; column?: number }]>([
		['(3;%mismatch%) > (3;%match%)', { ok: true }],
		['(*;%mismatch%) > (*;%match%)', { ok: true }],
		['', { ok: false, column: 1 }],
		['(3;%mismatch%) > ', { ok: false, column: 18 }],
		['(3;%mismatch%) >> (3;%match%)', { ok: false, column: 17 }],
		['(4;%mismatch%) > (3;%match%)', { ok: false, column: 1 }],
		['(3;%mismatch%) > (3;%other%)', { ok: false, column: 18 }],
	])('%j', (formula, expected) => {
		const check = checkFormula(formula, suite);
		expect(check.ok).toBe(expected.ok);
		if (!check.ok) {
			expect(check.column).toBe(expected.column);
			expect(check.message.length).toBeGreaterThan(0);
		}
	});

	it('checks syntax only when no suite is given', () => {
		expect(checkFormula('(9;%any%) > 1')).toEqual({ ok: true });
	});
});
