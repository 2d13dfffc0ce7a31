// Small suites and outcomes for the battery tests: a suite JSON with `items` items, two conditions
// and `predictions` formulas, parsed by the core parser. Test helper only.
import type { PredictionOutcome } from '../../../../src/core/syntaxgym/scoring/types';
import { parseSuite } from '../../../../src/core/syntaxgym/suite/parse-suite';
import type { Suite } from '../../../../src/core/syntaxgym/suite/types';

export interface FixtureSuiteOptions {
	readonly items?: number;
	readonly predictions?: number;
	readonly tags?: readonly string[];
	readonly metric?: string | readonly string[];
}

/** A parsed suite named `name`. */
export function fixtureSuite(name: string, options: FixtureSuiteOptions = {}): Suite {
	const count = options.items ?? 4;
	const json = {
		meta: {
			name,
			metric: options.metric ?? 'sum',
			...(options.tags ? { tags: options.tags } : {}),
		},
		region_meta: { '1': 'start', '2': 'end' },
		predictions: Array.from({ length: options.predictions ?? 1 }, (_, i) => ({
			type: 'formula',
			formula: i % 2 === 0 ? '(2;%a%) > (2;%b%)' : '(2;%a%) < (2;%b%)',
		})),
		items: Array.from({ length: count }, (_, i) => ({
			item_number: i + 1,
			conditions: ['a', 'b'].map((condition) => ({
				condition_name: condition,
				regions: [
					{ region_number: 1, content: 'The dog' },
					{ region_number: 2, content: condition === 'a' ? 'runs' : 'run' },
				],
			})),
		})),
	};
	const parsed = parseSuite(JSON.stringify(json));
	if (!parsed.ok) throw new Error(`fixture ${name} does not parse`);
	return parsed.suite;
}

/** Outcomes: `results[p][i]` is prediction p's result on item i + 1 (null: no outcome). */
export function fixtureOutcomes(
	results: readonly (readonly (boolean | null)[])[],
	metric: PredictionOutcome['metric'] = 'sum',
): PredictionOutcome[] {
	return results.flatMap((ofPrediction, predictionId) =>
		ofPrediction.flatMap((result, i) =>
			result === null ? [] : [{ itemNumber: i + 1, predictionId, metric, value: result, result }],
		),
	);
}
