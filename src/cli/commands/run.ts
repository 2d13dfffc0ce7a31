// Placeholder until the 'run' command lands; see the issue that owns it.
import type { CliCommand } from '../cli-io';

export const runCommand: CliCommand = async (_args, io) => {
	io.stderr('benchtop run: not implemented yet\n');
	return 1;
};
