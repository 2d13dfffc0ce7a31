/**
 * Reads a suite's `predictions`: `{"type":"formula"}` entries and legacy relation entries, into
 * typed predictions with parsed formulas, checking that they reference existing conditions and
 * regions. Reports through a DiagnosticCollector; never throws for bad input.
 */
import { FormulaSyntaxError } from '../../errors';
import type { ComparisonOperator, FormulaNode, RegionReferenceNode } from '../formula/ast';
import { referencedRegions } from '../formula/format-formula';
import { MAX_FORMULA_LENGTH, parseFormula } from '../formula/parse-formula';
import type { DiagnosticCollector } from './diagnostic-collector';
import { jsonPointer } from './json-source';
import { describeJsonType, isJsonObject, ownValue } from './json-value';
import type { Prediction } from './types';

/** Legacy relation names → formula operators: `(R;%l_operand%) OP (R;%r_operand%)`. */
export const RELATION_OPERATORS: Readonly<Record<string, ComparisonOperator>> = {
	lessthan: '<',
	greaterthan: '>',
	equals: '=',
};

const FORMULA_FIELDS = new Set(['type', 'formula']);
const RELATION_FIELDS = new Set(['relation', 'region_number', 'l_operand', 'r_operand']);

export interface PredictionContext {
	readonly mode: 'strict' | 'compatible';
	readonly chainedComparisons: 'error' | 'first-only';
	/** The suite's conditions, or undefined when the items are too broken to know them. */
	readonly conditionNames: ReadonlySet<string> | undefined;
	/** Regions per condition, or undefined when unknown. */
	readonly regionCount: number | undefined;
	readonly diagnostics: DiagnosticCollector;
}

/**
 * The formula a relation prediction stands for, and its tree (built directly, so condition
 * names the formula language cannot spell still work): greaterthan → `>`, lessthan → `<`,
 * equals → `=` (approximate, as every `=`).
 */
export function relationToFormula(
	operator: ComparisonOperator,
	regionNumber: number,
	leftCondition: string,
	rightCondition: string,
): { formula: string; ast: FormulaNode } {
	const leftText = `(${regionNumber};%${leftCondition}%)`;
	const rightText = `(${regionNumber};%${rightCondition}%)`;
	const left: RegionReferenceNode = {
		kind: 'region',
		regionNumber,
		conditionName: leftCondition,
		column: 1,
	};
	const right: RegionReferenceNode = {
		kind: 'region',
		regionNumber,
		conditionName: rightCondition,
		column: leftText.length + 4,
	};
	return {
		formula: `${leftText} ${operator} ${rightText}`,
		ast: { kind: 'binary', operator, left, right, column: leftText.length + 2 },
	};
}

/** Reads `predictions` (absent when `value` is undefined). Returns the predictions that are valid. */
export function readPredictions(value: unknown, context: PredictionContext): Prediction[] {
	const { diagnostics, mode } = context;
	if (value === undefined) {
		const fields = {
			code: 'missing-field',
			message: "the suite has no 'predictions' list",
			hint: 'add "predictions": [{"type": "formula", "formula": "..."}]',
			pointer: '/predictions',
		};
		if (mode === 'strict') diagnostics.error(fields);
		else diagnostics.warning(fields);
		return [];
	}
	if (!Array.isArray(value)) {
		diagnostics.error({
			code: 'invalid-type',
			message: `'predictions' must be a list, found ${describeJsonType(value)}`,
			hint: 'write "predictions": [{"type": "formula", "formula": "..."}]',
			pointer: '/predictions',
		});
		return [];
	}
	if (value.length === 0) {
		diagnostics.warning({
			code: 'no-predictions',
			message: 'the suite has no predictions: region values can be computed but nothing is tested',
			hint: 'add at least one {"type": "formula", "formula": "..."} prediction',
			pointer: '/predictions',
		});
	}
	const predictions: Prediction[] = [];
	value.forEach((entry: unknown, index) => {
		const pointer = jsonPointer('predictions', index);
		if (!isJsonObject(entry)) {
			diagnostics.error({
				code: 'invalid-type',
				message: `prediction ${index} must be an object, found ${describeJsonType(entry)}`,
				hint: 'write {"type": "formula", "formula": "(1;%a%) > (1;%b%)"}',
				pointer,
			});
			return;
		}
		const isRelation = Object.hasOwn(entry, 'relation') && !Object.hasOwn(entry, 'formula');
		const prediction = isRelation
			? readRelationPrediction(entry, index, context)
			: readFormulaPrediction(entry, index, context);
		if (prediction !== undefined) predictions.push(prediction);
	});
	return predictions;
}

/** Longest formula read (defined by the formula parser, which enforces it too). */
export { MAX_FORMULA_LENGTH };

function readFormulaPrediction(
	entry: Readonly<Record<string, unknown>>,
	index: number,
	context: PredictionContext,
): Prediction | undefined {
	const { diagnostics } = context;
	const pointer = jsonPointer('predictions', index);
	reportUnknownFields(entry, FORMULA_FIELDS, pointer, diagnostics);
	const valid = checkFormulaType(ownValue(entry, 'type'), index, pointer, context);
	const formula = ownValue(entry, 'formula');
	if (typeof formula !== 'string') {
		diagnostics.error({
			code: formula === undefined ? 'missing-field' : 'invalid-type',
			message:
				formula === undefined
					? `prediction ${index} has no "formula"`
					: `the formula of prediction ${index} must be a string, found ${describeJsonType(formula)}`,
			hint: 'write "formula": "(1;%a%) > (1;%b%)"',
			pointer: `${pointer}/formula`,
		});
		return undefined;
	}
	const formulaPointer = `${pointer}/formula`;
	const ast = parseFormulaText(formula, index, formulaPointer, context);
	if (ast === undefined) return undefined;
	const referencesOk = checkReferences(ast, index, formulaPointer, context);
	if (!valid || !referencesOk) return undefined;
	return { predictionId: index, formula, source: 'formula', ast };
}

/**
 * Checks a formula prediction's `type`: missing is an error in strict mode (a warning else), any
 * value but "formula" an error. Returns false when the prediction is not valid.
 */
function checkFormulaType(
	type: unknown,
	index: number,
	pointer: string,
	context: PredictionContext,
): boolean {
	const { diagnostics, mode } = context;
	if (type === undefined) {
		const fields = {
			code: 'prediction-type',
			message: `prediction ${index} has no "type"`,
			hint: 'add "type": "formula" (syntaxgym-core requires it)',
			pointer: `${pointer}/type`,
		};
		if (mode === 'strict') {
			diagnostics.error(fields);
			return false;
		}
		diagnostics.warning(fields);
	} else if (type !== 'formula') {
		diagnostics.error({
			code: 'prediction-type',
			message: `prediction ${index} has type ${JSON.stringify(type)}; only "formula" is known`,
			hint: 'write "type": "formula" with a "formula" string',
			pointer: `${pointer}/type`,
		});
		return false;
	}
	return true;
}

/**
 * Parses a formula's text, reporting a formula that is too long or does not parse (undefined)
 * and the parser's warnings.
 */
function parseFormulaText(
	formula: string,
	index: number,
	formulaPointer: string,
	context: PredictionContext,
): FormulaNode | undefined {
	const { diagnostics, mode } = context;
	if (formula.length > MAX_FORMULA_LENGTH) {
		diagnostics.error({
			code: 'formula-too-long',
			message: `the formula of prediction ${index} has ${formula.length} characters, more than the ${MAX_FORMULA_LENGTH} this reader accepts`,
			hint: 'split it into several predictions',
			pointer: formulaPointer,
		});
		return undefined;
	}
	let parsed: ReturnType<typeof parseFormula>;
	try {
		parsed = parseFormula(formula, {
			brackets: mode === 'strict' ? 'error' : 'accept',
			chainedComparisons: context.chainedComparisons,
		});
	} catch (error) {
		if (!(error instanceof FormulaSyntaxError)) throw error;
		diagnostics.error({
			code: 'formula-syntax',
			message: `the formula of prediction ${index} does not parse: ${error.message}`,
			hint: formulaSyntaxHint(error.message),
			pointer: formulaPointer,
			formulaColumn: error.column,
		});
		return undefined;
	}
	for (const warning of parsed.warnings) {
		diagnostics.warning({
			code: warning.code,
			message: `prediction ${index}: ${warning.message}`,
			hint:
				warning.code === 'formula-brackets'
					? 'replace [ and ] with ( and ) so current tools accept the formula'
					: "split the chain into comparisons joined by '&', or remove the extra comparison",
			pointer: formulaPointer,
			formulaColumn: warning.column,
		});
	}
	return parsed.ast;
}

function formulaSyntaxHint(message: string): string {
	if (/square brackets/.test(message)) {
		return 'replace [ and ] with ( and ), or validate in compatible mode to accept the 2020 syntax';
	}
	if (/chained/.test(message)) {
		return "join comparisons with '&', or use the first-only chained-comparison option (syntaxgym-core behaviour)";
	}
	return 'a formula combines (N;%condition%) references and numbers with + - < > = & | and parentheses';
}

/** A relation prediction's fields, each of the right type. */
interface RelationFields {
	readonly operator: ComparisonOperator;
	readonly regionNumber: number;
	readonly left: string;
	readonly right: string;
}

function readRelationPrediction(
	entry: Readonly<Record<string, unknown>>,
	index: number,
	context: PredictionContext,
): Prediction | undefined {
	const { diagnostics, mode } = context;
	const pointer = jsonPointer('predictions', index);
	reportUnknownFields(entry, RELATION_FIELDS, pointer, diagnostics);
	const relation = readRelationFields(entry, index, pointer, diagnostics);
	if (relation === undefined) return undefined;
	const { formula, ast } = relationToFormula(
		relation.operator,
		relation.regionNumber,
		relation.left,
		relation.right,
	);
	const relationFields = {
		code: 'relation-prediction',
		hint: `write {"type": "formula", "formula": ${JSON.stringify(formula)}} instead`,
		pointer,
	};
	if (mode === 'strict') {
		diagnostics.error({
			...relationFields,
			message: `prediction ${index} uses the 2019 relation form, which current syntaxgym-core rejects`,
		});
		return undefined;
	}
	diagnostics.warning({
		...relationFields,
		message: `prediction ${index} uses the 2019 relation form; read as the formula ${formula}`,
	});
	if (!checkRelationReferences(relation, index, pointer, context)) return undefined;
	return { predictionId: index, formula, source: 'relation', ast };
}

/**
 * Reads a relation prediction's `relation`, `region_number`, `l_operand` and `r_operand`,
 * reporting each that is missing or of the wrong type (then undefined).
 */
function readRelationFields(
	entry: Readonly<Record<string, unknown>>,
	index: number,
	pointer: string,
	diagnostics: DiagnosticCollector,
): RelationFields | undefined {
	const relation = ownValue(entry, 'relation');
	const regionNumber = ownValue(entry, 'region_number');
	const left = ownValue(entry, 'l_operand');
	const right = ownValue(entry, 'r_operand');
	let valid = true;
	const operator =
		typeof relation === 'string' && Object.hasOwn(RELATION_OPERATORS, relation)
			? RELATION_OPERATORS[relation]
			: undefined;
	if (operator === undefined) {
		diagnostics.error({
			code: 'relation-invalid',
			message: `prediction ${index} has relation ${JSON.stringify(relation)}; known relations are lessthan, greaterthan and equals`,
			hint: 'use "relation": "greaterthan", "lessthan" or "equals", or write a formula prediction',
			pointer: `${pointer}/relation`,
		});
		valid = false;
	}
	if (typeof regionNumber !== 'number' || !Number.isInteger(regionNumber)) {
		diagnostics.error({
			code: 'relation-invalid',
			message: `prediction ${index} needs an integer "region_number", found ${describeJsonType(regionNumber)}`,
			hint: 'write "region_number": 3',
			pointer: `${pointer}/region_number`,
		});
		valid = false;
	}
	for (const [field, operand] of [
		['l_operand', left],
		['r_operand', right],
	] as const) {
		if (typeof operand !== 'string') {
			diagnostics.error({
				code: 'relation-invalid',
				message: `prediction ${index} needs a condition name in "${field}", found ${describeJsonType(operand)}`,
				hint: `write "${field}": "<condition name>"`,
				pointer: `${pointer}/${field}`,
			});
			valid = false;
		}
	}
	if (
		!valid ||
		operator === undefined ||
		typeof regionNumber !== 'number' ||
		typeof left !== 'string' ||
		typeof right !== 'string'
	) {
		return undefined;
	}
	return { operator, regionNumber, left, right };
}

/** The relation's conditions must exist and its region be within 1..regionCount. */
function checkRelationReferences(
	relation: RelationFields,
	index: number,
	pointer: string,
	context: PredictionContext,
): boolean {
	const { diagnostics } = context;
	const { regionNumber } = relation;
	let valid = true;
	for (const [field, operand] of [
		['l_operand', relation.left],
		['r_operand', relation.right],
	] as const) {
		if (context.conditionNames !== undefined && !context.conditionNames.has(operand)) {
			diagnostics.error({
				code: 'formula-unknown-condition',
				message: `prediction ${index} refers to condition '${operand}', which no item has`,
				hint: `use one of the suite's conditions: ${listNames(context.conditionNames)}`,
				pointer: `${pointer}/${field}`,
			});
			valid = false;
		}
	}
	if (
		context.regionCount !== undefined &&
		(regionNumber < 1 || regionNumber > context.regionCount)
	) {
		diagnostics.error({
			code: 'formula-unknown-region',
			message: `prediction ${index} refers to region ${regionNumber}, but conditions have regions 1 to ${context.regionCount}`,
			hint: `use a region number from 1 to ${context.regionCount}`,
			pointer: `${pointer}/region_number`,
		});
		valid = false;
	}
	return valid;
}

/** Every referenced condition must exist and every region number be within 1..regionCount. */
function checkReferences(
	ast: FormulaNode,
	index: number,
	pointer: string,
	context: PredictionContext,
): boolean {
	const { conditionNames, regionCount, diagnostics } = context;
	let ok = true;
	for (const reference of referencedRegions(ast)) {
		if (conditionNames !== undefined && !conditionNames.has(reference.conditionName)) {
			diagnostics.error({
				code: 'formula-unknown-condition',
				message: `the formula of prediction ${index} refers to condition '${reference.conditionName}' (formula column ${reference.column}), which no item has`,
				hint: `use one of the suite's conditions: ${listNames(conditionNames)}`,
				pointer,
				formulaColumn: reference.column,
			});
			ok = false;
		}
		const { regionNumber } = reference;
		if (
			regionNumber !== '*' &&
			regionCount !== undefined &&
			(regionNumber < 1 || regionNumber > regionCount)
		) {
			diagnostics.error({
				code: 'formula-unknown-region',
				message: `the formula of prediction ${index} refers to region ${regionNumber} (formula column ${reference.column}), but conditions have regions 1 to ${regionCount}`,
				hint: `use a region number from 1 to ${regionCount}, or * for the whole sentence`,
				pointer,
				formulaColumn: reference.column,
			});
			ok = false;
		}
	}
	return ok;
}

function listNames(names: ReadonlySet<string>): string {
	const shown = [...names].slice(0, 12).map((name) => `'${name}'`);
	return shown.join(', ') + (names.size > shown.length ? ', ...' : '');
}

/** Warns once per unknown field of a prediction object. */
function reportUnknownFields(
	entry: Readonly<Record<string, unknown>>,
	known: ReadonlySet<string>,
	pointer: string,
	diagnostics: DiagnosticCollector,
): void {
	for (const key of Object.keys(entry)) {
		if (known.has(key)) continue;
		diagnostics.warning({
			code: 'unknown-field',
			message: `unknown field ${JSON.stringify(key)} in a prediction is ignored`,
			hint: `a prediction has only ${[...known].map((name) => `"${name}"`).join(', ')}`,
			pointer: `${pointer}${jsonPointer(key)}`,
		});
	}
}
