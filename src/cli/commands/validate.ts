/**
 * `validate <suite.json>... [--strict] [--chained-comparisons error|first-only]`: checks suites
 * and lists every diagnostic as `path:line:col: severity: message (hint)`. Reads, never writes.
 */
import { splitJsonPointer } from '../../core/syntaxgym/suite/json-source';
import { parseSuite } from '../../core/syntaxgym/suite/parse-suite';
import type { Diagnostic, ParseSuiteOptions, Suite } from '../../core/syntaxgym/suite/types';
import { printable } from '../../core/text/printable';
import {
	CliInputError,
	EXIT_BAD_INPUT,
	EXIT_OK,
	type CliCommand,
	type CliIo,
} from '../shared/cli-io';
import { parseCommandArgs } from '../shared/parse-command-args';

export const VALIDATE_USAGE =
	'usage: validate <suite.json>... [--strict] [--chained-comparisons error|first-only]';

const CHAINED_COMPARISONS = ['error', 'first-only'] as const;

/**
 * Exit 0 when every suite is usable (warnings are listed on stdout), 2 when a file cannot be
 * read or a suite has an error (every error is listed, located). `--strict` rejects what current
 * syntaxgym-core rejects; without it the legacy 2019/2020 forms are accepted with warnings.
 */
export const validateCommand: CliCommand = async (args, io) => {
	const { positionals, values } = parseCommandArgs(args, VALIDATE_USAGE, {
		strict: { type: 'boolean' },
		'chained-comparisons': { type: 'string' },
	});
	if (positionals.length === 0)
		throw new CliInputError(`expected a suite file.\n${VALIDATE_USAGE}`);
	const chained = values['chained-comparisons'];
	if (chained !== undefined && !CHAINED_COMPARISONS.some((choice) => choice === chained)) {
		throw new CliInputError(
			`--chained-comparisons must be 'error' or 'first-only', not '${String(chained)}'.\n${VALIDATE_USAGE}`,
		);
	}
	const options: ParseSuiteOptions = {
		mode: values.strict === true ? 'strict' : 'compatible',
		...(chained === 'first-only' ? { chainedComparisons: 'first-only' as const } : {}),
	};
	let exitCode = EXIT_OK;
	for (const path of positionals) {
		if (!(await validateFile(path, options, io))) exitCode = EXIT_BAD_INPUT;
	}
	return exitCode;
};

/** Validates one file and prints its diagnostics and a summary line; false when unusable. */
async function validateFile(path: string, options: ParseSuiteOptions, io: CliIo): Promise<boolean> {
	let text: string;
	try {
		text = await io.readText(path);
	} catch (error) {
		io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
		return false;
	}
	const result = parseSuite(text, options);
	const formulas = formulaLookup(text, result.diagnostics);
	// Messages quote the file (a binary one too): its control characters are printed as escapes.
	for (const diagnostic of result.diagnostics) {
		io.stdout(printable(formatDiagnostic(path, diagnostic, formulas)));
	}
	const summary = summarize(
		path,
		options,
		result.diagnostics,
		result.ok ? result.suite : undefined,
	);
	io.stdout(`${printable(summary)}\n`);
	return result.ok;
}

/**
 * One diagnostic: `path:line:col: severity: message (hint) [code]`, and for a formula problem
 * the formula with a caret under the column it names.
 */
export function formatDiagnostic(
	path: string,
	diagnostic: Diagnostic,
	formulaAt: (pointer: string) => string | undefined = () => undefined,
): string {
	const where =
		diagnostic.line === undefined ? path : `${path}:${diagnostic.line}:${diagnostic.column ?? 1}`;
	const at =
		diagnostic.line === undefined && diagnostic.pointer !== '' ? ` at ${diagnostic.pointer}` : '';
	let text = `${where}: ${diagnostic.severity}: ${diagnostic.message}${at} (${diagnostic.hint}) [${diagnostic.code}]\n`;
	const formula = formulaAt(diagnostic.pointer);
	if (diagnostic.formulaColumn !== undefined && formula !== undefined && !/[\n\r]/.test(formula)) {
		text += `    ${formula}\n    ${' '.repeat(Math.max(0, diagnostic.formulaColumn - 1))}^\n`;
	}
	return text;
}

function summarize(
	path: string,
	options: ParseSuiteOptions,
	diagnostics: readonly Diagnostic[],
	suite: Suite | undefined,
): string {
	const listed = diagnostics.filter((diagnostic) => diagnostic.code !== 'more-diagnostics');
	const errors = listed.filter((diagnostic) => diagnostic.severity === 'error').length;
	const warnings = listed.length - errors;
	const more = listed.length < diagnostics.length ? ' listed (more counted above)' : '';
	const counts = [
		...(errors > 0 ? [plural(errors, 'error')] : []),
		plural(warnings, 'warning'),
	].join(', ');
	const mode = `${options.mode ?? 'compatible'} mode`;
	if (suite === undefined) return `${path}: not a valid suite (${mode}): ${counts}${more}`;
	const conditions = suite.items.reduce((sum, item) => sum + item.conditions.length, 0);
	return (
		`${path}: valid suite '${suite.meta.name}' (${mode}): ${plural(suite.items.length, 'item')}, ` +
		`${plural(conditions, 'sentence')}, ${plural(suite.predictions.length, 'prediction')}; ` +
		`${counts}${more}`
	);
}

function plural(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Finds the formula strings that formula diagnostics point at, from the (valid) JSON text. */
function formulaLookup(
	text: string,
	diagnostics: readonly Diagnostic[],
): (pointer: string) => string | undefined {
	if (!diagnostics.some((diagnostic) => diagnostic.formulaColumn !== undefined)) {
		return () => undefined;
	}
	let root: unknown;
	try {
		root = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
	} catch {
		return () => undefined;
	}
	return (pointer) => {
		let value = root;
		for (const segment of splitJsonPointer(pointer)) {
			if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) {
				return undefined;
			}
			value = (value as Record<string, unknown>)[segment];
		}
		return typeof value === 'string' ? value : undefined;
	};
}
