/**
 * The editor's grid to and from the standard suite format: `toSuiteJson` writes SyntaxGym JSON
 * (`{"type":"formula"}` predictions) and validates it with parseSuite (strict); `fromSuite` fills
 * the grid from a parsed suite. Pure.
 */
import { FormulaSyntaxError } from '../../errors';
import { formatFormula } from '../formula/format-formula';
import { parseFormula } from '../formula/parse-formula';
import { parseSuite } from '../suite/parse-suite';
import { METRIC_NAMES, type ParseSuiteResult, type Prediction, type Suite } from '../suite/types';
import type { EditorState } from './editor-state';

/** The suite as JSON text, and what parseSuite (strict mode) says about it. */
export interface SuiteJson {
	readonly text: string;
	readonly result: ParseSuiteResult;
}

/**
 * The suite as a plain JSON value in the standard format. Empty author/reference/comment are
 * left out; one metric is written as a string, several as a list (file order kept).
 */
export function toSuiteValue(state: EditorState): Record<string, unknown> {
	const { meta } = state;
	const metric = meta.metrics.length === 1 ? meta.metrics[0] : [...meta.metrics];
	const metaValue: Record<string, unknown> = { name: meta.name };
	if (meta.author !== '') metaValue['author'] = meta.author;
	metaValue['metric'] = metric;
	if (meta.reference !== '') metaValue['reference'] = meta.reference;
	if (meta.comment !== '') metaValue['comment'] = meta.comment;
	for (const [key, value] of Object.entries(state.extraMeta)) {
		if (!(key in metaValue)) metaValue[key] = value;
	}
	const regionMeta: Record<string, string> = {};
	state.regionNames.forEach((name, index) => {
		regionMeta[String(index + 1)] = name;
	});
	return {
		meta: metaValue,
		region_meta: regionMeta,
		predictions: state.predictions.map((formula) => ({ type: 'formula', formula })),
		items: state.items.map((item) => ({
			item_number: item.itemNumber,
			conditions: state.conditionNames.map((conditionName, conditionIndex) => ({
				condition_name: conditionName,
				regions: state.regionNames.map((_, regionIndex) => ({
					region_number: regionIndex + 1,
					content: item.cells[conditionIndex]?.[regionIndex] ?? '',
				})),
			})),
		})),
	};
}

/**
 * The suite as JSON text (tab-indented, like the bundled suites) and its validation. `compatible`
 * (default) is the app's mode: several metrics with predictions are allowed (each prediction is
 * evaluated under each metric); `strict` is what syntaxgym-core itself accepts.
 */
export function toSuiteJson(
	state: EditorState,
	options: { readonly mode?: 'strict' | 'compatible' } = {},
): SuiteJson {
	const text = `${JSON.stringify(toSuiteValue(state), null, '\t')}\n`;
	return { text, result: parseSuite(text, { mode: options.mode ?? 'compatible' }) };
}

/**
 * The grid of a parsed suite: regions from `regionNames` (unnamed regions get `region_N`),
 * conditions in the suite's order, each item's rows matched by condition name. Legacy relation
 * predictions come in as the formulas they convert to, legacy `[ ]` formulas rewritten with `( )`.
 */
export function fromSuite(suite: Suite): EditorState {
	const regionCount = Math.max(
		suite.regionNames.length,
		...suite.items.flatMap((item) => item.conditions.map((c) => c.regions.length)),
	);
	const regionNames = Array.from(
		{ length: regionCount },
		(_, index) => suite.regionNames[index] ?? `region_${index + 1}`,
	);
	const extraMeta: Record<string, unknown> = { ...suite.meta.extra };
	if (suite.meta.tags !== undefined) extraMeta['tags'] = [...suite.meta.tags];
	return {
		meta: {
			name: suite.meta.name,
			author: suite.meta.author ?? '',
			reference: suite.meta.reference ?? '',
			comment: suite.meta.comment ?? '',
			metrics: suite.meta.metrics.filter((metric) => METRIC_NAMES.includes(metric)),
		},
		regionNames,
		conditionNames: [...suite.conditionNames],
		items: suite.items.map((item) => ({
			itemNumber: item.itemNumber,
			cells: suite.conditionNames.map((name) => {
				const condition = item.conditions.find((c) => c.conditionName === name);
				return regionNames.map((_, index) => condition?.regions[index]?.content ?? '');
			}),
		})),
		predictions: suite.predictions.map(standardFormula),
		extraMeta,
	};
}

/** A prediction's formula as the standard grammar reads it: legacy `[ ]` forms are rewritten. */
function standardFormula(prediction: Prediction): string {
	try {
		parseFormula(prediction.formula);
		return prediction.formula;
	} catch (error) {
		if (error instanceof FormulaSyntaxError) return formatFormula(prediction.ast);
		throw error;
	}
}
