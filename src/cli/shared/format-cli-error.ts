/**
 * Turns any error thrown by a command into one line for stderr and an exit code, the same in every
 * command: bad input or usage → exit 2 (named errors whose failureKind is `input`); the run failed
 * (endpoint, model, storage, I/O: failureKind `run`, or any other error) → exit 1.
 * Never a stack trace (set BENCHTOP_DEBUG=1 to get one).
 */
import { BenchtopError } from '../../core/errors';
import { CliHelpRequest, EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, type CliIo } from './cli-io';

export function formatCliError(error: unknown): { message: string; exitCode: number } {
	if (process.env.BENCHTOP_DEBUG && error instanceof Error && error.stack) {
		return { message: error.stack, exitCode: EXIT_FAILURE };
	}
	if (error instanceof BenchtopError) {
		return {
			message: error.message,
			exitCode: error.failureKind === 'run' ? EXIT_FAILURE : EXIT_BAD_INPUT,
		};
	}
	if (error instanceof Error && error.name === 'CliInputError') {
		return { message: error.message, exitCode: EXIT_BAD_INPUT };
	}
	if (error instanceof Error) {
		return { message: `unexpected error: ${error.message}`, exitCode: EXIT_FAILURE };
	}
	return { message: `unexpected error: ${String(error)}`, exitCode: EXIT_FAILURE };
}

/**
 * What the CLI does with an error thrown by a command: a help request prints the command's usage
 * on stdout (exit 0); anything else one line on stderr, after `prefix` (`benchtop run`).
 * Returns the exit code.
 */
export function reportCommandError(error: unknown, prefix: string, io: CliIo): number {
	if (error instanceof CliHelpRequest) {
		io.stdout(`${error.usage}\n`);
		return EXIT_OK;
	}
	const { message, exitCode } = formatCliError(error);
	io.stderr(`${prefix}: ${message}\n`);
	return exitCode;
}
