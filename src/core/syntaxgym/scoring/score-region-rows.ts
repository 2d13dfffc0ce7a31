/**
 * Ready region values (a regions table: ours, syntaxgym-core's, brain-score's totals) → prediction
 * outcomes and accuracies, for `evaluate --regions`. Pure; rows are checked against the suite.
 */
import { FormulaEvaluationError } from '../../errors';
import { createInputFormatError } from '../../formats/tsv-table';
import type { Suite } from '../suite/types';
import { evaluateItemPredictions } from './evaluate-predictions';
import { assembleSuiteScore, type ItemScore, type SuiteScore } from './score-suite';
import type { RegionValue, RegionValueRow } from './types';

export interface RegionRowsScore extends SuiteScore {
	/** Items of the suite with no row at all: not evaluated (a table may cover only some items). */
	readonly itemsWithoutValues: readonly number[];
}

/**
 * Evaluates the suite's predictions on the items that have rows. Every row must name an item,
 * condition and region of the suite, and a `content` column (when present) must match the
 * region's content (ignoring surrounding whitespace), so a table made for another suite or
 * version is caught.
 * @throws InputFormatError (`source:line`) for a row that does not fit the suite, or naming the
 * item, condition and region when a prediction needs a value the table lacks.
 */
export function scoreRegionRows(
	suite: Suite,
	rows: readonly RegionValueRow[],
	source?: string,
): RegionRowsScore {
	const rowsByKey = new Map<string, RegionValueRow>();
	for (const row of rows) {
		const fail = (problem: string) => createInputFormatError(source, row.line, 1, problem);
		const item = suite.items.find((candidate) => candidate.itemNumber === row.itemNumber);
		if (!item)
			throw fail(`item ${row.itemNumber} is not in suite ${JSON.stringify(suite.meta.name)}.`);
		const condition = item.conditions.find((c) => c.conditionName === row.conditionName);
		if (!condition) {
			throw fail(
				`item ${row.itemNumber} has no condition ${JSON.stringify(row.conditionName)} ` +
					`(it has: ${item.conditions.map((c) => c.conditionName).join(', ')}).`,
			);
		}
		const region = condition.regions.find((r) => r.regionNumber === row.regionNumber);
		if (!region) {
			throw fail(
				`item ${row.itemNumber}, condition ${JSON.stringify(row.conditionName)} has no region ${row.regionNumber}.`,
			);
		}
		if (row.content !== undefined && row.content.trim() !== region.content.trim()) {
			throw fail(
				`the content ${JSON.stringify(row.content)} of item ${row.itemNumber}, condition ` +
					`${JSON.stringify(row.conditionName)}, region ${row.regionNumber} differs from the ` +
					`suite's ${JSON.stringify(region.content)}; was the table made for this suite?`,
			);
		}
		rowsByKey.set(`${row.itemNumber}\u0000${row.conditionName}\u0000${row.regionNumber}`, row);
	}

	const items: ItemScore[] = [];
	const itemsWithoutValues: number[] = [];
	for (const item of suite.items) {
		const regionValues: RegionValue[] = [];
		for (const condition of item.conditions) {
			for (const region of condition.regions) {
				const row = rowsByKey.get(
					`${item.itemNumber}\u0000${condition.conditionName}\u0000${region.regionNumber}`,
				);
				if (!row) continue;
				regionValues.push({
					itemNumber: item.itemNumber,
					conditionName: condition.conditionName,
					regionNumber: region.regionNumber,
					content: region.content,
					tokens: [],
					surprisalsBits: [],
					oovs: [],
					values: row.values,
				});
			}
		}
		if (regionValues.length === 0) {
			itemsWithoutValues.push(item.itemNumber);
			continue;
		}
		try {
			items.push({
				itemNumber: item.itemNumber,
				regionValues,
				outcomes: evaluateItemPredictions(suite, item, regionValues),
			});
		} catch (error) {
			if (!(error instanceof FormulaEvaluationError)) throw error;
			throw createInputFormatError(source, undefined, undefined, `missing value: ${error.message}`);
		}
	}
	return { ...assembleSuiteScore(suite, items), itemsWithoutValues };
}
