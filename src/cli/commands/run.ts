/**
 * `run <suite.json> [--model ...] [--convention ...]`: scores a suite's sentences with a model in
 * Node and prints the prediction results TSV (as `evaluate`), accuracies on stderr.
 */
import { writeResultsTsv } from '../../core/formats/results-tsv';
import { scoreSuite } from '../../core/scoring/score-suite';
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

export const RUN_USAGE = `usage: run <suite.json> ${MODEL_OPTIONS_USAGE} [--strict]`;

/**
 * Sentences are built from the regions as syntaxgym-core does, scored with the engine's character
 * offsets, and tokens are assigned to regions by those offsets (the reference's HF path).
 */
export const runCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, RUN_USAGE, {
		...MODEL_OPTIONS,
		strict: { type: 'boolean' },
	});
	const [suitePath] = positionals;
	if (suitePath === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one suite file.\n${RUN_USAGE}`);
	}
	const request = await readModelRequest(values, RUN_USAGE);
	const suite = await readSuiteFile(
		suitePath,
		io,
		values.strict === true ? { mode: 'strict' } : {},
	);
	const sentences = buildSuiteSentences(suite);
	const scored = await scoreTextsInNode(
		request,
		sentences.map((sentence) => sentence.text),
		io,
	);
	const score = scoreSuite(
		suite,
		scored.texts.map((text) => text.tokens),
		{ alignment: 'offsets' },
	);
	io.stdout(writeResultsTsv(suite.meta.name, score.outcomes, suite.meta.metrics));
	io.stderr(formatAccuracySummary(suite, score));
	return EXIT_OK;
};
