/**
 * `import-pairs <pairs.jsonl|.csv|.tsv> [--name <suite name>]`: minimal pairs (BLiMP-style JSONL
 * or a two-column table) as a SyntaxGym suite on stdout. Reads, never writes files.
 */
import { convertMinimalPairs } from '../../core/syntaxgym/suite/minimal-pairs';
import { parseSuite } from '../../core/syntaxgym/suite/parse-suite';
import { CliInputError, EXIT_OK, type CliCommand } from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';

export const IMPORT_PAIRS_USAGE =
	'usage: import-pairs <pairs.jsonl | pairs.csv | pairs.tsv> [--name <suite name>]';

/**
 * One item per pair (conditions good, bad; one region, the sentence), predicting that the bad
 * sentence is more surprising; the suite JSON goes to stdout, a one-line summary to stderr.
 * Exit 2 with `file:line:column` for a line that is not a pair.
 */
export const importPairsCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, IMPORT_PAIRS_USAGE, {
		name: { type: 'string' },
	});
	const [path] = positionals;
	if (path === undefined || positionals.length > 1) {
		throw new CliInputError(`expected one file of pairs.\n${IMPORT_PAIRS_USAGE}`);
	}
	const name = typeof values.name === 'string' ? values.name.trim() : undefined;
	if (name === '') throw new CliInputError(`--name must not be empty.\n${IMPORT_PAIRS_USAGE}`);
	const { suiteText, pairCount } = convertMinimalPairs(
		await io.readText(path),
		path,
		name === undefined ? {} : { name },
	);
	// The converter builds a valid suite; checking it here keeps that promise honest.
	const parsed = parseSuite(suiteText, { mode: 'strict' });
	const firstError = parsed.diagnostics.find((diagnostic) => diagnostic.severity === 'error');
	if (!parsed.ok || firstError) {
		throw new CliInputError(
			`${path}: the converted suite does not validate (${firstError?.message ?? 'unknown error'}).`,
		);
	}
	io.stdout(suiteText);
	io.stderr(
		`converted ${pairCount} pair${pairCount === 1 ? '' : 's'} from ${path} into suite ` +
			`'${parsed.suite.meta.name}' (${pairCount} items, conditions good and bad)\n`,
	);
	return EXIT_OK;
};
