/**
 * Reads the files the scoring commands take (suite JSON, lm-zoo surprisal TSV, lm-zoo spec) into
 * core values, turning every problem into one CliInputError that names the file and location.
 */
import type { TokenizationSpec } from '../../core/syntaxgym/alignment/tokenization-spec';
import { AlignmentError } from '../../core/errors';
import { parseLmZooSpec } from '../../core/syntaxgym/formats/lm-zoo-spec';
import {
	checkSentenceCount,
	readLmZooSurprisals,
	type LmZooSentence,
} from '../../core/syntaxgym/formats/lm-zoo-surprisals';
import {
	scoreSuite,
	type ScoreOptions,
	type SuiteScore,
} from '../../core/syntaxgym/scoring/score-suite';
import type { ScoredToken } from '../../core/scoring/scored-token';
import { parseSuite } from '../../core/syntaxgym/suite/parse-suite';
import type { Diagnostic, ParseSuiteOptions, Suite } from '../../core/syntaxgym/suite/types';
import { CliInputError, type CliIo } from './cli-io';

function formatDiagnostic(path: string, diagnostic: Diagnostic): string {
	const where = [
		path,
		diagnostic.line,
		diagnostic.line === undefined ? undefined : diagnostic.column,
	]
		.filter((part) => part !== undefined)
		.join(':');
	const pointer = diagnostic.pointer === '' ? '' : ` (at ${diagnostic.pointer})`;
	return `${where}: ${diagnostic.severity}: ${diagnostic.message}${pointer}; ${diagnostic.hint}`;
}

/**
 * Reads and parses a suite. Warnings go to stderr, the first of each kind (code) on one line;
 * errors throw one CliInputError that shows the first error as `path:line:column` and counts
 * the others.
 */
export async function readSuiteFile(
	path: string,
	io: CliIo,
	options: ParseSuiteOptions = {},
): Promise<Suite> {
	const result = parseSuite(await io.readText(path), options);
	const errors = result.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
	const first = errors[0];
	if (!result.ok || first !== undefined) {
		const more =
			errors.length > 1
				? ` (and ${errors.length - 1} more error${errors.length > 2 ? 's' : ''}; ` +
					'`validate` lists them all)'
				: '';
		throw new CliInputError(
			first === undefined
				? `${path}: not a usable suite.`
				: `${formatDiagnostic(path, first)}${more}`,
		);
	}
	const warningsByCode = new Map<string, Diagnostic[]>();
	for (const warning of result.diagnostics) {
		// The parser's "N more … not listed" summaries are covered by the note below.
		if (warning.code === 'more-diagnostics') continue;
		warningsByCode.set(warning.code, [...(warningsByCode.get(warning.code) ?? []), warning]);
	}
	for (const [code, warnings] of warningsByCode) {
		const shown = warnings.find((warning) => warning.line !== undefined) ?? warnings[0];
		if (shown === undefined) continue;
		const more =
			warnings.length > 1 ? ` (more '${code}' warnings: \`validate\` lists them all)` : '';
		io.stderr(`${formatDiagnostic(path, shown)}${more}\n`);
	}
	return result.suite;
}

/** Reads an lm-zoo spec (`--spec`) into the string alignment's tokenization spec. */
export async function readSpecFile(path: string, io: CliIo): Promise<TokenizationSpec> {
	return parseLmZooSpec(await io.readText(path), path);
}

/** Reads an lm-zoo surprisal file and checks it has one sentence per sentence of `suite`. */
export async function readSurprisalFile(
	path: string,
	suite: Suite,
	io: CliIo,
): Promise<LmZooSentence[]> {
	const sentences = readLmZooSurprisals(await io.readText(path), path);
	const expected = suite.items.reduce((count, item) => count + item.conditions.length, 0);
	checkSentenceCount(sentences, expected, path);
	return sentences;
}

/**
 * Scores `suite` on the sentences of an lm-zoo file (token strings, aligned by the heuristic).
 * An alignment failure is reported at the file line of the offending token (or its sentence).
 */
export function scoreSurprisalFile(
	suite: Suite,
	sentences: readonly LmZooSentence[],
	path: string,
	options: ScoreOptions = {},
): SuiteScore {
	const tokens = sentences.map((sentence) =>
		sentence.tokens.map(({ token, surprisalBits }): ScoredToken => ({ token, surprisalBits })),
	);
	try {
		return scoreSuite(suite, tokens, options);
	} catch (error) {
		if (!(error instanceof AlignmentError)) throw error;
		const { sentenceIndex, tokenIndex } = error.location;
		const sentence = sentenceIndex === undefined ? undefined : sentences[sentenceIndex];
		const line = sentence?.tokens[tokenIndex ?? 0]?.line;
		throw new CliInputError(`${path}${line === undefined ? '' : `:${line}`}: ${error.message}`);
	}
}
