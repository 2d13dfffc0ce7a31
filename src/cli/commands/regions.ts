/**
 * `regions <suite.json> --surprisals <lm-zoo.tsv> [--spec spec.json] [--strict]`: the region
 * table (tokens and all six metrics per item × condition × region) as TSV on stdout.
 */
import { writeRegionsTsv } from '../../core/syntaxgym/formats/regions-tsv';
import { METRIC_NAMES } from '../../core/syntaxgym/suite/types';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';
import {
	readSpecFile,
	readSuiteFile,
	readSurprisalFile,
	scoreSurprisalFile,
} from '../shared/read-scoring-inputs';

export const REGIONS_USAGE =
	'usage: regions <suite.json> --surprisals <lm-zoo.tsv> [--spec <lm-zoo spec.json>] [--strict]';

/**
 * Prints `item_number condition_name region_number content tokens sum mean median range max min`
 * (see writeRegionsTsv: numbers as Python repr, NaN as `nan`, undefined as an empty field).
 * Tokens are aligned by their strings (lm-zoo heuristic) with the spec's vocabulary, or the
 * default one (`<unk>`, `<eos>`, `</s>`, `<s>`, `<|endoftext|>`, …).
 */
export const regionsCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, REGIONS_USAGE, {
		surprisals: { type: 'string' },
		spec: { type: 'string' },
		strict: { type: 'boolean' },
	});
	const [suitePath] = positionals;
	if (suitePath === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one suite file.\n${REGIONS_USAGE}`);
	}
	const surprisalsPath = values.surprisals;
	if (typeof surprisalsPath !== 'string') {
		throw new CliInputError(`--surprisals <lm-zoo.tsv> is required.\n${REGIONS_USAGE}`);
	}
	const suite = await readSuiteFile(
		suitePath,
		io,
		values.strict === true ? { mode: 'strict' } : {},
	);
	const spec = typeof values.spec === 'string' ? await readSpecFile(values.spec, io) : undefined;
	const sentences = await readSurprisalFile(surprisalsPath, suite, io);
	const score = scoreSurprisalFile(suite, sentences, surprisalsPath, {
		alignment: 'strings',
		regionMetrics: METRIC_NAMES,
		...(spec === undefined ? {} : { tokenizationSpec: spec }),
	});
	io.stdout(writeRegionsTsv(score.regionValues, METRIC_NAMES));
	return EXIT_OK;
};
