/**
 * Command-line options of a CLI command through node:util parseArgs (strict, with positionals);
 * a bad option becomes a CliInputError followed by the command's usage line; `--help` / `-h`
 * (before any `--`) a CliHelpRequest. No defaults here.
 */
import { parseArgs } from 'node:util';
import { CliHelpRequest, CliInputError } from './cli-io';

export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/**
 * Parses `args` against `options`: string and boolean flags, any number of positionals. `--help`
 * prints `usage`, then `help` (more words on the options) when given.
 */
export function parseCommandArgs<T extends OptionSpec>(
	args: readonly string[],
	usage: string,
	options: T,
	help?: string,
): { positionals: string[]; values: Partial<Record<keyof T, string | boolean>> } {
	const end = args.indexOf('--');
	const optionPart = end === -1 ? args : args.slice(0, end);
	if (optionPart.includes('--help') || optionPart.includes('-h')) {
		throw new CliHelpRequest(help === undefined ? usage : `${usage}\n${help}`);
	}
	try {
		const parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
		return {
			positionals: parsed.positionals,
			values: parsed.values as Partial<Record<keyof T, string | boolean>>,
		};
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		throw new CliInputError(`${message}\n${usage}`);
	}
}
