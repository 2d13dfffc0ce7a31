/**
 * `run <suite.json>... [--model ...] [--convention ...] [--battery-csv <file>]`: scores suites'
 * sentences with a model in Node and prints the prediction results TSV (as `evaluate`),
 * accuracies on stderr; several suites also get the battery's circuit means and SG score.
 */
import { access, constants } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { writeBatteryCsv } from '../../core/syntaxgym/battery/battery-csv';
import { scoreBattery } from '../../core/syntaxgym/battery/sg-score';
import { writeSuitesResultsTsv } from '../../core/syntaxgym/formats/results-tsv';
import { scoreSuites } from '../../core/syntaxgym/scoring/score-suite';
import { buildSuiteSentences } from '../../core/syntaxgym/suite/build-sentences';
import { formatBatterySummary } from '../shared/battery-summary';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';
import { readSuiteFile } from '../shared/read-scoring-inputs';
import { refuseLink, writeFileNoFollow } from '../shared/safe-write';
import { formatAccuracySummary } from './evaluate';
import {
	CONVENTION_HELP,
	MODEL_OPTIONS,
	MODEL_OPTIONS_USAGE,
	readModelRequest,
	scoreTextsInNode,
} from './surprisals';

export const RUN_USAGE = `usage: run <suite.json>... ${MODEL_OPTIONS_USAGE} [--strict] [--battery-csv <file>]
  several suites are one battery: all their sentences go to the model in one pooled request`;

/**
 * The results table is syntaxgym-core's (`suite prediction_id item_number result`) under
 * `reference`; under another convention (by default a bundled model's `bos`) it gains a last
 * column `convention`. Sentences are built from the regions as syntaxgym-core does, scored with the engine's character
 * offsets, and tokens are assigned to regions by those offsets (the reference's HF path).
 * Several suites are all read before the model loads (a bad one stops the run), then scored in
 * one request: a prefix that sentences of different suites share is computed once. One results
 * table, suites in argument order; an accuracy summary per suite, then (several suites) the
 * battery's circuit means and SG score (core/battery). `--battery-csv` writes the long-form CSV.
 */
export const runCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(
		args,
		RUN_USAGE,
		{ ...MODEL_OPTIONS, strict: { type: 'boolean' }, 'battery-csv': { type: 'string' } },
		CONVENTION_HELP,
	);
	if (positionals.length === 0) {
		throw new CliInputError(`expected a suite file.\n${RUN_USAGE}`);
	}
	const request = await readModelRequest(values, RUN_USAGE);
	const csvPath = values['battery-csv'];
	if (typeof csvPath === 'string') await checkWritableFolder(csvPath);
	const suites = [];
	for (const path of positionals) {
		suites.push(await readSuiteFile(path, io, values.strict === true ? { mode: 'strict' } : {}));
	}
	const texts = suites.flatMap((suite) =>
		buildSuiteSentences(suite).map((sentence) => sentence.text),
	);
	if (suites.length > 1) {
		io.stderr(
			`Battery: ${suites.length} suites, one pooled scoring request (${texts.length} sentences)\n`,
		);
	}
	const scored = await scoreTextsInNode(request, texts, io);
	const results = scoreSuites(
		suites,
		scored.texts.map((text) => text.tokens),
		{ alignment: 'offsets' },
	);
	const convention = scored.convention.convention;
	io.stdout(
		writeSuitesResultsTsv(
			results.map(({ suite, score }) => ({
				suiteName: suite.meta.name,
				outcomes: score.outcomes,
				metrics: suite.meta.metrics,
			})),
			{ convention },
		),
	);
	const model = request.endpoint ? `openai/${request.endpoint.model}` : request.spec.id;
	const from = scored.convention.from === 'option' ? '--convention' : "the model's default";
	io.stderr(`results of ${model} under convention ${convention} (${from}):\n`);
	for (const { suite, score } of results) io.stderr(formatAccuracySummary(suite, score));
	const battery = scoreBattery(
		results.map(({ suite, score }) => ({ suite, outcomes: score.outcomes })),
	);
	if (results.length > 1) io.stderr(formatBatterySummary(battery));
	if (typeof csvPath === 'string') {
		try {
			await writeFileNoFollow(
				csvPath,
				writeBatteryCsv([{ model, convention, cells: battery.cells }]),
			);
		} catch (error) {
			if (error instanceof CliInputError) throw error;
			throw new CliInputError(
				`${csvPath}: cannot write the battery CSV (${(error as Error).message})`,
			);
		}
		io.stderr(`wrote the battery CSV (${battery.cells.length} suites) to ${csvPath}\n`);
	}
	return EXIT_OK;
};

/**
 * Refuses `--battery-csv` before the model loads when its folder cannot be written to or the
 * path is a symbolic link.
 */
async function checkWritableFolder(path: string): Promise<void> {
	await refuseLink(path);
	try {
		await access(dirname(resolve(path)), constants.W_OK);
	} catch {
		throw new CliInputError(
			`--battery-csv ${path}: its folder does not exist or cannot be written to.\n${RUN_USAGE}`,
		);
	}
}
