// Placeholder until the 'validate' command lands; see the issue that owns it.
import type { CliCommand } from '../cli-io';

export const validateCommand: CliCommand = async (_args, io) => {
	io.stderr('benchtop validate: not implemented yet\n');
	return 1;
};
