/**
 * `evaluate <suite.json> (--surprisals <lm-zoo.tsv> [--spec spec.json] | --regions <regions.tsv>)`:
 * prediction results as syntaxgym-core's TSV on stdout, accuracies on stderr.
 */
import { readRegionsTsv } from '../../core/syntaxgym/formats/regions-tsv';
import { writeResultsTsv } from '../../core/syntaxgym/formats/results-tsv';
import { scoreRegionRows } from '../../core/syntaxgym/scoring/score-region-rows';
import type { SuiteScore } from '../../core/syntaxgym/scoring/score-suite';
import { ITEM_RULES, type Accuracy } from '../../core/syntaxgym/scoring/summarize-outcomes';
import type { Suite } from '../../core/syntaxgym/suite/types';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';
import {
	readSpecFile,
	readSuiteFile,
	readSurprisalFile,
	scoreSurprisalFile,
} from '../shared/read-scoring-inputs';

export const EVALUATE_USAGE =
	'usage: evaluate <suite.json> (--surprisals <lm-zoo.tsv> [--spec <lm-zoo spec.json>] | ' +
	'--regions <regions.tsv>) [--strict]';

function formatAccuracy({ correct, total, accuracy }: Accuracy): string {
	return `${correct}/${total} = ${Number.isNaN(accuracy) ? 'n/a' : accuracy.toFixed(6)}`;
}

/**
 * The accuracy summary printed on stderr: per metric, each prediction's accuracy over the items
 * evaluated, then items under both rules ("all predictions hold", "first prediction only").
 */
export function formatAccuracySummary(
	suite: Suite,
	score: SuiteScore,
	itemsWithoutValues: readonly number[] = [],
): string {
	const { summary } = score;
	const lines = [
		`suite ${suite.meta.name}: ${summary.itemNumbers.length} of ${suite.items.length} items evaluated`,
	];
	if (itemsWithoutValues.length > 0) {
		lines.push(`items without values (not evaluated): ${itemsWithoutValues.join(', ')}`);
	}
	for (const metric of summary.metrics) {
		const prefix = summary.metrics.length > 1 || metric !== 'sum' ? `[${metric}] ` : '';
		for (const prediction of summary.predictions.filter((p) => p.metric === metric)) {
			const formula = suite.predictions[prediction.predictionId]?.formula ?? '';
			lines.push(
				`${prefix}prediction ${prediction.predictionId} (${formula.trim()}): ${formatAccuracy(prediction)}`,
			);
		}
		for (const { rule, label } of ITEM_RULES) {
			const items = summary.items.find((i) => i.metric === metric && i.rule === rule);
			if (items) lines.push(`${prefix}items, ${label}: ${formatAccuracy(items)}`);
		}
	}
	return `${lines.join('\n')}\n`;
}

/**
 * With `--surprisals`, tokens are aligned by their strings (lm-zoo heuristic, `--spec` vocabulary
 * or the default) and region values computed as `regions` does; with `--regions`, the table's
 * values are used as they are (columns `m`, `m_surprisal_bits` or `metric_value` per suite
 * metric; an optional `suite` column is filtered by the suite's `meta.name`).
 */
export const evaluateCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, EVALUATE_USAGE, {
		surprisals: { type: 'string' },
		regions: { type: 'string' },
		spec: { type: 'string' },
		strict: { type: 'boolean' },
	});
	const [suitePath] = positionals;
	if (suitePath === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one suite file.\n${EVALUATE_USAGE}`);
	}
	const surprisalsPath = typeof values.surprisals === 'string' ? values.surprisals : undefined;
	const regionsPath = typeof values.regions === 'string' ? values.regions : undefined;
	if ((surprisalsPath === undefined) === (regionsPath === undefined)) {
		throw new CliInputError(
			`give exactly one of --surprisals <lm-zoo.tsv> and --regions <regions.tsv>.\n${EVALUATE_USAGE}`,
		);
	}
	if (regionsPath !== undefined && typeof values.spec === 'string') {
		throw new CliInputError(`--spec only applies to --surprisals.\n${EVALUATE_USAGE}`);
	}
	const suite = await readSuiteFile(
		suitePath,
		io,
		values.strict === true ? { mode: 'strict' } : {},
	);

	let score: SuiteScore;
	let itemsWithoutValues: readonly number[] = [];
	if (surprisalsPath !== undefined) {
		const spec = typeof values.spec === 'string' ? await readSpecFile(values.spec, io) : undefined;
		const sentences = await readSurprisalFile(surprisalsPath, suite, io);
		score = scoreSurprisalFile(suite, sentences, surprisalsPath, {
			alignment: 'strings',
			...(spec === undefined ? {} : { tokenizationSpec: spec }),
		});
	} else {
		const path = regionsPath as string;
		const rows = readRegionsTsv(await io.readText(path), {
			source: path,
			metrics: suite.meta.metrics,
			suiteName: suite.meta.name,
		});
		const rowsScore = scoreRegionRows(suite, rows, path);
		score = rowsScore;
		itemsWithoutValues = rowsScore.itemsWithoutValues;
	}
	io.stdout(writeResultsTsv(suite.meta.name, score.outcomes, suite.meta.metrics));
	io.stderr(formatAccuracySummary(suite, score, itemsWithoutValues));
	return EXIT_OK;
};
