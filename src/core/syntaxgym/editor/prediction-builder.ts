/**
 * The predictions builder: the relation form (region, left condition, relation, right
 * condition) written as a formula, and a live check of any formula text with the column of the
 * first problem. Pure; it parses with parseFormula and never evaluates.
 */
import { FormulaSyntaxError } from '../../errors';
import { referencedRegions } from '../formula/format-formula';
import { parseFormula } from '../formula/parse-formula';

export type Relation = '<' | '>' | '=';

/** The relation form of a prediction: `(region;%left%) relation (region;%right%)`. */
export interface RelationPrediction {
	/** 1-based region number, or `*` for the whole sentence (sum of all regions). */
	readonly region: number | '*';
	readonly leftCondition: string;
	readonly relation: Relation;
	readonly rightCondition: string;
}

/** The formula of a relation prediction, e.g. `(3;%mismatch%) > (3;%match%)`. */
export function buildRelationFormula(prediction: RelationPrediction): string {
	const { region, leftCondition, relation, rightCondition } = prediction;
	return `(${region};%${leftCondition}%) ${relation} (${region};%${rightCondition}%)`;
}

export type FormulaCheck =
	| { readonly ok: true }
	| {
			readonly ok: false;
			readonly message: string;
			/** 1-based column in the formula text of the problem. */
			readonly column: number;
	  };

/**
 * Checks formula text as typed: syntax (column-accurate, from parseFormula) and, when the suite's
 * regions and conditions are given, that every reference names an existing region and condition.
 */
export function checkFormula(
	formula: string,
	suite?: { readonly regionCount: number; readonly conditionNames: readonly string[] },
): FormulaCheck {
	if (formula.trim() === '') {
		return { ok: false, message: 'The formula is empty.', column: 1 };
	}
	let ast;
	try {
		ast = parseFormula(formula).ast;
	} catch (error) {
		if (error instanceof FormulaSyntaxError) {
			return { ok: false, message: error.message, column: error.column };
		}
		throw error;
	}
	if (suite === undefined) return { ok: true };
	for (const reference of referencedRegions(ast)) {
		const at = reference.column;
		if (!suite.conditionNames.includes(reference.conditionName)) {
			return {
				ok: false,
				message: `No condition is named ${JSON.stringify(reference.conditionName)}.`,
				column: at,
			};
		}
		if (
			reference.regionNumber !== '*' &&
			(reference.regionNumber < 1 || reference.regionNumber > suite.regionCount)
		) {
			return {
				ok: false,
				message: `Region ${reference.regionNumber} does not exist (the suite has ${suite.regionCount}).`,
				column: at,
			};
		}
	}
	return { ok: true };
}
