/**
 * `run <suite.json>... [--model ...] [--convention ...]`: scores suites' sentences with a model in
 * Node and prints the prediction results TSV (as `evaluate`), accuracies on stderr.
 */
import { writeSuitesResultsTsv } from '../../core/formats/results-tsv';
import { scoreSuites } from '../../core/scoring/score-suite';
import { buildSuiteSentences } from '../../core/suite/build-sentences';
import { CliInputError, EXIT_OK, type CliCommand } from '../cli-io';
import { parseCommandArgs } from '../parse-command-args';
import { readSuiteFile } from '../read-scoring-inputs';
import { formatAccuracySummary } from './evaluate';
import {
	MODEL_OPTIONS,
	MODEL_OPTIONS_USAGE,
	readModelRequest,
	scoreTextsInNode,
} from './surprisals';

export const RUN_USAGE = `usage: run <suite.json>... ${MODEL_OPTIONS_USAGE} [--strict]`;

/**
 * Sentences are built from the regions as syntaxgym-core does, scored with the engine's character
 * offsets, and tokens are assigned to regions by those offsets (the reference's HF path).
 * Several suites are all read before the model loads (a bad one stops the run), then scored in
 * one request: a prefix that sentences of different suites share is computed once. One results
 * table, suites in argument order; an accuracy summary per suite.
 */
export const runCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, RUN_USAGE, {
		...MODEL_OPTIONS,
		strict: { type: 'boolean' },
	});
	if (positionals.length === 0) {
		throw new CliInputError(`expected a suite file.\n${RUN_USAGE}`);
	}
	const request = await readModelRequest(values, RUN_USAGE);
	const suites = [];
	for (const path of positionals) {
		suites.push(await readSuiteFile(path, io, values.strict === true ? { mode: 'strict' } : {}));
	}
	const scored = await scoreTextsInNode(
		request,
		suites.flatMap((suite) => buildSuiteSentences(suite).map((sentence) => sentence.text)),
		io,
	);
	const results = scoreSuites(
		suites,
		scored.texts.map((text) => text.tokens),
		{ alignment: 'offsets' },
	);
	io.stdout(
		writeSuitesResultsTsv(
			results.map(({ suite, score }) => ({
				suiteName: suite.meta.name,
				outcomes: score.outcomes,
				metrics: suite.meta.metrics,
			})),
		),
	);
	for (const { suite, score } of results) io.stderr(formatAccuracySummary(suite, score));
	return EXIT_OK;
};
