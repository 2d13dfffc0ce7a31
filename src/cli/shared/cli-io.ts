/**
 * The CLI's view of the outside world, so commands can be tested without spawning a process.
 */
export interface CliIo {
	readonly stdout: (text: string) => void;
	readonly stderr: (text: string) => void;
	/** Reads a file as UTF-8 text; rejects with a message that names the path. */
	readonly readText: (path: string) => Promise<string>;
}

/** A CLI command: parses its own arguments, returns the process exit code. */
export type CliCommand = (args: readonly string[], io: CliIo) => Promise<number>;

/** Exit codes: 0 ok, 1 the evaluation itself failed (e.g. a prediction could not be evaluated), 2 bad input or usage. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_BAD_INPUT = 2;

/** An input problem already phrased for the user (file and location named): exit code 2. */
export class CliInputError extends Error {
	override name = 'CliInputError';
}

/** `--help` / `-h` on a command: its usage goes to stdout and the exit code is 0. */
export class CliHelpRequest extends Error {
	override name = 'CliHelpRequest';
	constructor(readonly usage: string) {
		super(usage);
	}
}
