// Runs a CLI command function with a fake CliIo, the way src/cli/main.ts does (errors through
// formatCliError), and returns what it printed and its exit code. Test helper only.
import { readFile } from 'node:fs/promises';
import { CliInputError, type CliCommand, type CliIo } from '../../src/cli/shared/cli-io';
import { reportCommandError } from '../../src/cli/shared/format-cli-error';

export interface CliRun {
	readonly exitCode: number;
	readonly stdout: string;
	readonly stderr: string;
}

/**
 * `files` maps paths to their text (a path not in it cannot be read, as a missing file);
 * `'disk'` reads real files (peer data in parity tests).
 */
export async function runCliCommand(
	command: CliCommand,
	args: readonly string[],
	files: Readonly<Record<string, string>> | 'disk',
): Promise<CliRun> {
	let stdout = '';
	let stderr = '';
	const io: CliIo = {
		stdout: (text) => {
			stdout += text;
		},
		stderr: (text) => {
			stderr += text;
		},
		readText: async (path) => {
			if (files === 'disk') return readFile(path, 'utf8');
			const text = files[path];
			if (text === undefined) throw new CliInputError(`${path}: cannot read file (no such file)`);
			return text;
		},
	};
	let exitCode: number;
	try {
		exitCode = await command(args, io);
	} catch (error) {
		exitCode = reportCommandError(error, 'benchtop', io);
	}
	return { exitCode, stdout, stderr };
}
